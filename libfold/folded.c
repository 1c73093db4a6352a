#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "folded.h"

static int
isblank_(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits off the last blank-separated field of s[0..*n): returns its start. */
static size_t
lastfield(const char *s, size_t *n)
{
	size_t e = *n, b;

	while (e > 0 && isblank_(s[e - 1]))
		e--;
	for (b = e; b > 0 && !isblank_(s[b - 1]); b--)
		;
	*n = e;
	return b;
}

int
fold_parse_line(const char *line, size_t len, size_t *stacklen,
    struct fold_count *counts, int maxcols)
{
	struct fold_count c[FOLD_MAXCOLS];
	size_t end = len, b;
	int k = 0, i;

	if (maxcols > FOLD_MAXCOLS)
		maxcols = FOLD_MAXCOLS;
	b = lastfield(line, &end);
	if (end == 0)
		return 0;
	if (b == 0)
		return fold_seterr("no count after the stack");
	if (fold_count_parse(line + b, end - b, &c[0]) < 0)
		return -1;
	k = 1;
	end = b;
	while (k < maxcols) {
		/* only digits and points can be a count: look no further back */
		size_t e2 = end, b2;
		while (e2 > 0 && isblank_(line[e2 - 1]))
			e2--;
		for (b2 = e2; b2 > 0 && ((line[b2 - 1] >= '0' &&
		    line[b2 - 1] <= '9') || line[b2 - 1] == '.'); b2--)
			;
		if (b2 == 0 || b2 == e2 || !isblank_(line[b2 - 1]) ||
		    fold_count_parse(line + b2, e2 - b2, &c[k]) < 0)
			break;
		k++;
		end = b2;
	}
	while (end > 0 && isblank_(line[end - 1]))
		end--;
	if (end == 0)
		return fold_seterr("empty stack");
	for (i = 0; i < k; i++)
		counts[i] = c[k - 1 - i];
	*stacklen = end;
	return k;
}

int
fold_read(struct fold_in *in, struct fold_stacks *st,
    const struct fold_readopt *opt, struct fold_diag *diag)
{
	static const struct fold_readopt none = FOLD_READOPT_INIT;
	int ncols = fold_stacks_ncols(st), k, r;
	struct fold_count c[FOLD_MAXCOLS];
	const char *line;
	size_t len, slen;

	if (!opt)
		opt = &none;
	while ((r = fold_in_line(in, &line, &len)) > 0) {
		k = fold_parse_line(line, len, &slen, c, ncols);
		if (k == 0)
			continue;
		if (k < 0) {
			if (fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
			    "%s", fold_err()) < 0)
				return -1;
			continue;
		}
		if (k < ncols) {	/* "stack N" in a two-column read: 0 N */
			c[1] = c[0];
			c[0] = fold_count_u64(0);
		}
		if (fold_stacks_add_text(st, opt->prefix, opt->nprefix, line,
		    slen, c) < 0)
			return fold_seterr("%s:%llu: %s", fold_in_name(in),
			    (unsigned long long)fold_in_lineno(in), fold_err());
	}
	return r;
}

void
fold_write(struct fold_out *out, struct fold_stacks *st)
{
	const struct fold_intern *fr = fold_stacks_frames(st);
	int ncols = fold_stacks_ncols(st), c;
	size_t i, n, o, cap = 0;
	char *line = NULL;

	fold_stacks_sort(st, FOLD_ORDER_TEXT);
	/* each line is put together, then written in one piece */
	for (i = 0; i < fold_stacks_len(st) && !fold_out_failed(out); i++) {
		const uint32_t *ids = fold_stacks_ids(st, i, &n);
		const struct fold_count *cnt = fold_stacks_counts(st, i);
		if (i + 4 < fold_stacks_len(st)) {
			/* sorted stacks are scattered in memory: fetch ahead */
			size_t m;
			const uint32_t *next = fold_stacks_ids(st, i + 4, &m);
			__builtin_prefetch(next);
			__builtin_prefetch(next + 16);
		}
		o = fold_intern_join(fr, ids, n, &line, &cap, 0);
		if (o + ncols * (FOLD_COUNT_BUFSZ + 1) + 1 > cap) {
			cap = o + ncols * (FOLD_COUNT_BUFSZ + 1) + 64;
			line = fold_realloc(line, cap);
		}
		for (c = 0; c < ncols; c++) {
			line[o++] = ' ';
			o += fold_count_fmt(&cnt[c], line + o);
		}
		line[o++] = '\n';
		fold_out_write(out, line, o);
	}
	free(line);
}
