#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/calltree.h"
#include "formats/csv.h"
#include "formats/vsprof.h"

#define NOSKIP ((uint64_t)-1)

struct vsprof_reader {
	struct vsprof_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;

	int delim;
	int clevel, cname, ccalls, nf;
	uint32_t *ids;		/* the path to the current node */
	uint64_t *calls;	/* its counts, as they are reduced */
	size_t len, cap;
	uint64_t skip;		/* drop lines deeper than this level */
	char *buf, *name, *hdr;
	size_t bufcap, namecap, hlen;
	struct csv_field f[64];

	uint64_t stacks, under, errors;
};

static void *
vsprof_open(const void *optp, struct fold_stacks *st)
{
	const struct vsprof_opt *opt = optp;
	struct vsprof_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	return r;
}

static void
vsprof_close(void *rp)
{
	struct vsprof_reader *r = rp;
	if (!r)
		return;
	free(r->ids);
	free(r->calls);
	free(r->buf);
	free(r->name);
	free(r->hdr);
	free(r);
}

/* Columns of a header line; -1 when it is none. */
static int
header(struct vsprof_reader *r, const char *s, size_t n)
{
	size_t i;
	int nf;

	r->delim = 0;
	for (i = 0; i < n && !r->delim; i++)
		if (s[i] == ',' || s[i] == ';' || s[i] == '\t' || s[i] == '|')
			r->delim = s[i];
	if (!r->delim)
		return -1;
	nf = csv_split(s, n, r->delim, r->f, 64, r->buf);
	if (nf < 0)
		return -1;
	r->clevel = csv_column(r->f, nf, "Level");
	r->cname = csv_column(r->f, nf, "Function Name");
	r->ccalls = csv_column(r->f, nf, "Number of Calls");
	if (r->clevel < 0 || r->cname < 0 || r->ccalls < 0)
		return -1;
	r->nf = r->clevel;
	if (r->cname > r->nf)
		r->nf = r->cname;
	if (r->ccalls > r->nf)
		r->nf = r->ccalls;
	r->nf++;
	free(r->hdr);
	r->hdr = fold_strndup(s, n);
	r->hlen = n;
	return 0;
}

/* A whole number, its thousands maybe grouped with ','. */
static int
number(const char *s, size_t n, uint64_t *v)
{
	size_t i;
	int digits = 0;

	*v = 0;
	while (n > 0 && s[n - 1] == ' ')
		n--;
	for (i = 0; i < n; i++) {
		if (s[i] == ',' && i > 0 && i + 1 < n)
			continue;
		if (!fold_isdigit(s[i]) || *v > (UINT64_MAX - 9) / 10)
			return -1;
		*v = *v * 10 + (s[i] - '0');
		digits++;
	}
	return digits ? 0 : -1;
}

static int
emit(struct vsprof_reader *r, struct fold_in *in)
{
	struct fold_count c;

	if (r->len == 0 || r->calls[r->len - 1] == 0)
		return 0;
	c = fold_count_u64(r->calls[r->len - 1]);
	if (fold_stacks_add(r->st, r->ids, r->len, &c) < 0)
		return fold_seterr_at(fold_in_name(in), fold_in_lineno(in),
		    "%s", fold_err()), -2;
	r->stacks++;
	return 0;
}

/*
 * Goes back up to level: each node left is written, its calls taken from
 * its parent's when fewer, as inferno does (a parent whose count is left
 * equal to its child's is not written).
 */
static int
up(struct vsprof_reader *r, struct fold_in *in, uint64_t level)
{
	uint64_t prev = 0, i, n = r->len - level + 1;

	for (i = 0; i < n; i++) {
		if (prev != r->calls[r->len - 1] && emit(r, in) < 0)
			return -2;
		prev = r->calls[--r->len];
		if (r->len == 0)
			break;
		if (prev < r->calls[r->len - 1])
			r->calls[r->len - 1] -= prev;
	}
	return 0;
}

static int
bad(struct vsprof_reader *r, struct fold_in *in, struct fold_diag *diag,
    uint64_t level, const char *what)
{
	r->skip = level;
	return fold_warn(diag, fold_in_name(in), fold_in_lineno(in), "%s%s",
	    what, level != NOSKIP ? ": dropped with the lines under it" :
	    ": line skipped") < 0 ? -2 : 0;
}

static int
row(struct vsprof_reader *r, struct fold_in *in, const char *s, size_t n,
    struct fold_diag *diag)
{
	uint64_t level, calls;
	struct csv_field *fn;
	size_t i;
	int nf;

	nf = csv_split(s, n, r->delim, r->f, r->nf, r->buf);
	if (nf <= r->clevel ||
	    number(r->f[r->clevel].s, r->f[r->clevel].n, &level) < 0) {
		if (nf < 0) {
			/* the level, when it is the plain first field */
			const char *d = memchr(s, r->delim, n);
			if (r->clevel != 0 || !d ||
			    number(s, d - s, &level) < 0)
				level = NOSKIP;
			return bad(r, in, diag, level,
			    "unterminated quote or text after a closing quote");
		}
		return bad(r, in, diag, NOSKIP, nf <= r->clevel ?
		    "too few fields" : "level is not a number");
	}
	if (level > r->skip) {
		r->under++;
		return 0;
	}
	r->skip = NOSKIP;
	if (nf < r->nf)
		return bad(r, in, diag, level, "too few fields");
	fn = &r->f[r->cname];
	if (fn->n == 0)
		return bad(r, in, diag, level, "empty function name");
	if (level > r->len + 1)
		return bad(r, in, diag, level,
		    "level more than one below the line before");
	if (number(r->f[r->ccalls].s, r->f[r->ccalls].n, &calls) < 0) {
		calls = 0;
		if (fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
		    "number of calls is not a whole number: '%.*s%s': "
		    "counted 0", FOLD_CUT(r->f[r->ccalls].s,
		    r->f[r->ccalls].n)) < 0)
			return -2;
	}

	if (level == r->len && r->len > 0) {
		if (emit(r, in) < 0)
			return -2;
		r->len--;
	} else if (level < r->len && up(r, in, level) < 0)
		return -2;

	r->name = fold_grow(r->name, &r->namecap, fn->n, 1);
	for (i = 0; i < fn->n; i++) {
		unsigned char c = fn->s[i];
		r->name[i] = c == ';' || c < ' ' ? '_' : c;
	}
	if (r->len + 1 > r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->ids = fold_reallocarray(r->ids, r->cap, sizeof *r->ids);
		r->calls = fold_reallocarray(r->calls, r->cap,
		    sizeof *r->calls);
	}
	r->ids[r->len] = fold_intern(r->frames, r->name, fn->n);
	r->calls[r->len++] = calls;
	return 0;
}

static int
vsprof_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct vsprof_reader *r = rp;
	const char *line;
	size_t len;
	int rc, first = 1;

	r->len = 0;
	r->skip = NOSKIP;
	while ((rc = fold_in_line(in, &line, &len)) > 0) {
		line = csv_skip_bom(line, &len);
		while (len > 0 && (line[len - 1] == ' ' ||
		    line[len - 1] == '\t' || line[len - 1] == '\r'))
			len--;
		if (len == 0)
			continue;
		r->buf = fold_grow(r->buf, &r->bufcap, len, 1);
		if (first) {
			first = 0;
			if (header(r, line, len) < 0) {
				r->errors++;
				return fold_seterr_at(fold_in_name(in),
				    fold_in_lineno(in), "not a Visual Studio "
				    "call tree: the first line is not a header "
				    "naming Level, Function Name and Number of "
				    "Calls");
			}
			continue;
		}
		/* the header again: the next report (files joined) */
		if (len == r->hlen && memcmp(line, r->hdr, len) == 0) {
			if (r->len && up(r, in, 0) < 0)
				return -2;
			r->skip = NOSKIP;
			continue;
		}
		if ((rc = row(r, in, line, len, diag)) < 0)
			return rc;
	}
	if (rc < 0) {
		r->errors++;
		return -1;
	}
	/* what is left on the stack goes up to the root */
	if (r->len && up(r, in, 0) < 0)
		return -2;
	return 0;
}

/*
 * 2 when the first line of head[0..n) is a header naming "Level",
 * "Function Name" and "Number of Calls", 0 otherwise.
 */
static int
vsprof_detect(const char *head, size_t n, int eof)
{
	const char *nl;

	head = csv_skip_bom(head, &n);
	nl = memchr(head, '\n', n);
	if (!nl && !eof)
		return 0;
	if (nl)
		n = nl - head;
	if (n > 5 && memcmp(head, "Level", 5) == 0 &&
	    memmem(head, n, "Function Name", 13) &&
	    memmem(head, n, "Number of Calls", 15))
		return 2;
	return 0;
}

static int
vsprof_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	const struct vsprof_reader *r = rp;

	calltree_say_under(r->under, say, arg);
	return 0;
}

#define OFF(field) offsetof(struct vsprof_opt, field)

static const struct fold_option vsprof_options[] = {
	{ .name = NULL }
};

#undef OFF

static const struct vsprof_opt vsprof_defaults = VSPROF_OPT_INIT;

const struct format_id vsprof_id = {
	.name = "vsprof",
	.tool = "stackcollapse-vsprof",
	.what = "Visual Studio call tree CSV",
	.input = "a Visual Studio call tree CSV",
	.detect = vsprof_detect,
};

const struct format vsprof_format = {
	.id = &vsprof_id,
	.kind = FOLD_LINES,
	.one = "line",
	.many = "lines",
	.options = vsprof_options,
	.optsize = sizeof(struct vsprof_opt),
	.defaults = &vsprof_defaults,
	.open = vsprof_open,
	.read = vsprof_read,
	.finish = vsprof_finish,
	.close = vsprof_close,
};
