#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/calltree.h"
#include "formats/ghcprof.h"

enum { HEAD, GAP, TREE };

struct ghcprof_reader {
	struct ghcprof_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;

	int state;
	int ntail, pos;		/* numeric columns; the one counted, from
				   the right (1: the last) */
	uint32_t *ids;		/* the path to the current cost centre */
	size_t depth, cap;
	size_t skip;		/* drop lines deeper than this */
	char *name;
	size_t namecap;

	uint64_t stacks, under, errors;
};

static void *
ghcprof_open(const void *optp, struct fold_stacks *st)
{
	const struct ghcprof_opt *opt = optp;
	struct ghcprof_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	return r;
}

static void
ghcprof_close(void *rp)
{
	struct ghcprof_reader *r = rp;
	if (!r)
		return;
	free(r->ids);
	free(r->name);
	free(r);
}

/* The next blank-separated token of s[*i..n); 0 at the end. */
static size_t
token(const char *s, size_t n, size_t *i, const char **t)
{
	size_t k;

	while (*i < n && fold_isblank(s[*i]))
		(*i)++;
	k = *i;
	while (*i < n && !fold_isblank(s[*i]))
		(*i)++;
	*t = s + k;
	return *i - k;
}

static int
is(const char *t, size_t k, const char *lit)
{
	return k == strlen(lit) && memcmp(t, lit, k) == 0;
}

/* The next token of s[*i..n) is lit. */
static int
next(const char *s, size_t n, size_t *i, const char *lit)
{
	const char *t;
	size_t k = token(s, n, i, &t);

	return is(t, k, lit);
}

/*
 * The call tree's header: "COST CENTRE MODULE [SRC] no. entries ...".
 * Sets the numeric columns; returns 1, 0 when the line is none, -1 with a
 * message when the column asked for is missing.
 */
static int
header(struct ghcprof_reader *r, const char *s, size_t n)
{
	static const char *const want[] = { "%time", "ticks", "bytes" };
	const char *t;
	size_t i = 0, k;
	int ntok = 0, idx = -1;

	if (!next(s, n, &i, "COST") || !next(s, n, &i, "CENTRE") ||
	    !next(s, n, &i, "MODULE"))
		return 0;
	k = token(s, n, &i, &t);
	if (is(t, k, "SRC"))
		k = token(s, n, &i, &t);
	if (!is(t, k, "no."))
		return 0;
	for (; k > 0; k = token(s, n, &i, &t), ntok++)
		if (idx < 0 && k == 5 && memcmp(t, want[r->opt.source], 5) == 0)
			idx = ntok;
	if (ntok < 2)
		return 0;
	if (idx < 0)
		return fold_seterr("the report has no %s column%s",
		    want[r->opt.source], r->opt.source == GHCPROF_TIME ? "" :
		    " (profile with +RTS -P)");
	r->ntail = ntok;
	r->pos = ntok - idx;
	return 1;
}

/* %time in tenths (more digits are cut, as inferno does), or a count. */
static int
value(struct ghcprof_reader *r, const char *s, size_t n, uint64_t *v)
{
	size_t i;
	int digits = 0;

	*v = 0;
	for (i = 0; i < n && fold_isdigit(s[i]); i++, digits++) {
		if (*v > (UINT64_MAX - 9) / 100)
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	if (r->opt.source != GHCPROF_TIME)
		return i == n && digits ? 0 : -1;
	*v *= 10;
	if (i < n && s[i] == '.') {
		if (++i < n && fold_isdigit(s[i]))
			*v += s[i] - '0';
		for (; i < n && fold_isdigit(s[i]); i++, digits++)
			;
	}
	return i == n && digits ? 0 : -1;
}

static int
bad(struct ghcprof_reader *r, struct fold_in *in, struct fold_diag *diag,
    size_t depth, const char *what)
{
	if (depth > r->depth)
		depth = r->depth;
	r->depth = r->skip = depth;
	return fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
	    "%s: dropped with the lines under it", what) < 0 ? -2 : 0;
}

static int
row(struct ghcprof_reader *r, struct fold_in *in, const char *s, size_t n,
    struct fold_diag *diag)
{
	const char *name, *mod, *v = NULL, *e;
	size_t d = 0, i, nn, mn, vn = 0, len;
	struct fold_count c;
	uint64_t val;
	int k;

	while (d < n && s[d] == ' ')
		d++;
	if (d > r->skip) {
		r->under++;
		return 0;
	}
	r->skip = (size_t)-1;
	i = d;
	nn = token(s, n, &i, &name);
	mn = token(s, n, &i, &mod);
	/* the numbers, from the right */
	e = s + n;
	for (k = 1; k <= r->ntail; k++) {
		const char *t = e;
		while (t > s + i && !fold_isblank(t[-1]))
			t--;
		if (t == e)
			break;
		if (k == r->pos)
			v = t, vn = e - t;
		e = t;
		while (e > s + i && fold_isblank(e[-1]))
			e--;
	}
	if (mn == 0 || k <= r->ntail)
		return bad(r, in, diag, d, "too few columns");
	if (d > r->depth)
		return bad(r, in, diag, d,
		    "indented more than one level below the line before");
	r->depth = d;
	if (value(r, v, vn, &val) < 0) {
		val = 0;
		if (fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
		    "cost is not a number: '%.*s%s': counted 0",
		    FOLD_CUT(v, vn)) < 0)
			return -2;
	}

	len = mn + 1 + nn;
	r->name = fold_grow(r->name, &r->namecap, len, 1);
	memcpy(r->name, mod, mn);
	r->name[mn] = '.';
	memcpy(r->name + mn + 1, name, nn);
	for (i = 0; i < len; i++)
		if (r->name[i] == ';' || (unsigned char)r->name[i] < ' ')
			r->name[i] = '_';
	r->ids = fold_grow(r->ids, &r->cap, r->depth + 1, sizeof *r->ids);
	r->ids[r->depth++] = fold_intern(r->frames, r->name, len);
	c = fold_count_u64(val);
	if (fold_stacks_add(r->st, r->ids, r->depth, &c) < 0)
		return fold_seterr_at(fold_in_name(in), fold_in_lineno(in),
		    "%s", fold_err()), -2;
	r->stacks++;
	return 0;
}

static int
ghcprof_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct ghcprof_reader *r = rp;
	const char *line;
	size_t len;
	int rc, content = 0, trees = 0;

	r->state = HEAD;
	while ((rc = fold_in_line(in, &line, &len)) > 0) {
		while (len > 0 && (fold_isblank(line[len - 1]) ||
		    line[len - 1] == '\r'))
			len--;
		if (len == 0) {
			if (r->state == TREE)
				r->state = HEAD;
			continue;
		}
		content = 1;
		switch (r->state) {
		case HEAD:
			if (line[0] != 'C')
				continue;
			if ((rc = header(r, line, len)) < 0) {
				r->errors++;
				return fold_seterr_at(fold_in_name(in),
				    fold_in_lineno(in), "%s", fold_err());
			}
			if (rc == 1) {
				r->state = GAP;
				trees++;
			}
			continue;
		case GAP:
			r->state = TREE;
			r->depth = 0;
			r->skip = (size_t)-1;
			/* FALLTHROUGH */
		case TREE:
			/* the title of the next report, no blank line before */
			if (line[0] == '\t') {
				r->state = HEAD;
				continue;
			}
			if ((rc = row(r, in, line, len, diag)) < 0)
				return rc;
		}
	}
	if (rc < 0) {
		r->errors++;
		return -1;
	}
	if (content && !trees && fold_warn(diag, fold_in_name(in), 0,
	    "no call tree ('COST CENTRE MODULE ... no. entries' header "
	    "line): nothing read") < 0)
		return -2;
	return 0;
}

/*
 * 2 when head[0..n) starts with GHC's report title ("... Profiling
 * Report") or holds the call tree's header line, 0 otherwise.
 */
static int
ghcprof_detect(const char *head, size_t n, int eof)
{
	const char *p = head, *e = head + n, *nl;
	struct ghcprof_reader r;

	nl = memchr(p, '\n', n);
	if (n > 1 && p[0] == '\t' && memmem(p, nl ? (size_t)(nl - p) : n,
	    "Profiling Report", 16))
		return 2;
	memset(&r, 0, sizeof r);
	for (; p < e; p = nl + 1) {
		nl = memchr(p, '\n', e - p);
		if (!nl) {
			if (!eof)
				return 0;
			nl = e;
		}
		if (p[0] == 'C' && header(&r, p, nl - p) == 1)
			return 2;
	}
	return 0;
}

static int
ghcprof_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	const struct ghcprof_reader *r = rp;

	calltree_say_under(r->under, say, arg);
	return 0;
}

#define OFF(field) offsetof(struct ghcprof_opt, field)

static const char *
ghcprof_unit(const void *rp)
{
	/* %time is in tenths of a percent of the run's time */
	static const char *const name[] = { [GHCPROF_TIME] = "permille",
	    [GHCPROF_TICKS] = "ticks", [GHCPROF_BYTES] = "bytes" };

	return name[((const struct ghcprof_reader *)rp)->opt.source];
}

static const struct fold_option ghcprof_options[] = {
	{ .name = "time", .kind = FOLD_OPT_FLAG, .off = OFF(source),
	    .value = GHCPROF_TIME,
	    .help = "count each cost centre's own time (default)" },
	{ .name = "ticks", .kind = FOLD_OPT_FLAG, .off = OFF(source),
	    .value = GHCPROF_TICKS,
	    .help = "count the clock ticks of each cost centre" },
	{ .name = "bytes", .kind = FOLD_OPT_FLAG, .off = OFF(source),
	    .value = GHCPROF_BYTES,
	    .help = "count the bytes each cost centre allocated" },
	{ .name = NULL }
};

#undef OFF

static const struct ghcprof_opt ghcprof_defaults = GHCPROF_OPT_INIT;

const struct format_id ghcprof_id = {
	.name = "ghcprof",
	.tool = "stackcollapse-ghcprof",
	.what = "GHC .prof cost centre reports",
	.input = "a GHC .prof report",
	.detect = ghcprof_detect,
};

const struct format ghcprof_format = {
	.id = &ghcprof_id,
	.kind = FOLD_LINES,
	.one = "line",
	.many = "lines",
	.options = ghcprof_options,
	.optsize = sizeof(struct ghcprof_opt),
	.defaults = &ghcprof_defaults,
	.open = ghcprof_open,
	.read = ghcprof_read,
	.unit = ghcprof_unit,
	.finish = ghcprof_finish,
	.close = ghcprof_close,
};
