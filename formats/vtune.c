#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/calltree.h"
#include "formats/csv.h"
#include "formats/vtune.h"

#define HEADER "Function Stack"
#define HEADERLEN (sizeof HEADER - 1)

struct vtune_reader {
	struct vtune_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;

	int delim;
	int cfunc, ctime, cmod, nf;	/* columns; cmod -1: none */
	uint32_t *ids;			/* the path to the current node */
	size_t depth, cap;
	size_t skip;			/* drop lines deeper than this */
	char *buf, *name, *hdr;
	size_t bufcap, namecap, hlen;
	const char *line;		/* the line being read */
	size_t len;
	struct csv_field f[64];

	uint64_t stacks, under, errors;
};

static void *
vtune_open(const void *optp, struct fold_stacks *st)
{
	const struct vtune_opt *opt = optp;
	struct vtune_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	return r;
}

static void
vtune_close(void *rp)
{
	struct vtune_reader *r = rp;
	if (!r)
		return;
	free(r->ids);
	free(r->buf);
	free(r->name);
	free(r->hdr);
	free(r);
}

/* A header line: "Function Stack" then a delimiter, maybe quoted. */
static int
delimiter(int c)
{
	return c == ',' || c == ';' || c == '\t' || c == '|';
}

/*
 * The delimiter of a header line s[0..n): one that names the columns
 * "Function Stack" and "CPU Time:Self". 0 when it is none.
 */
static int
isheader(const char *s, size_t n)
{
	const char *e = s + n, *p, *a;

	if (!(p = memmem(s, n, HEADER, HEADERLEN)) ||
	    !memmem(s, n, "CPU Time:Self", 13))
		return 0;
	a = p + HEADERLEN;
	if (a < e && *a == '"')
		a++;
	if (a < e && delimiter(*a))
		return *a;
	if (p > s && p[-1] == '"')
		p--;
	if (p > s && delimiter(p[-1]))
		return p[-1];
	return 0;
}

static int
header(struct vtune_reader *r, const char *s, size_t n)
{
	int nf;

	r->delim = isheader(s, n);
	nf = csv_split(s, n, r->delim, r->f, 64, r->buf);
	if (nf < 0)
		return fold_seterr("unterminated quote in the header line");
	r->cfunc = csv_column(r->f, nf, HEADER);
	r->ctime = csv_column(r->f, nf, "CPU Time:Self");
	r->cmod = csv_column(r->f, nf, "Module");
	if (r->cfunc < 0 || r->ctime < 0)
		return fold_seterr("the header has no 'CPU Time:Self' column");
	r->nf = r->cfunc > r->ctime ? r->cfunc : r->ctime;
	if (r->cmod > r->nf)
		r->nf = r->cmod;
	r->nf++;
	r->depth = 0;
	r->skip = (size_t)-1;
	free(r->hdr);
	r->hdr = fold_strndup(s, n);
	r->hlen = n;
	return 0;
}

/*
 * Seconds, a plain decimal ("0.016612"), to milliseconds rounded to the
 * nearest, halves up: exact decimal arithmetic, no binary rounding.
 */
static int
millis(const char *s, size_t n, uint64_t *ms)
{
	uint64_t v = 0;
	size_t i = 0, k;
	int digits = 0, d;

	while (n > 0 && fold_isblank(s[n - 1]))
		n--;
	for (; i < n && fold_isdigit(s[i]); i++, digits++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > UINT64_MAX / 1000 - 1)
		return -1;
	v *= 1000;
	if (i < n && s[i] == '.') {
		i++;
		for (k = 0; i < n && fold_isdigit(s[i]); i++, k++) {
			d = s[i] - '0';
			digits++;
			if (k < 3)
				v += d * (k == 0 ? 100 : k == 1 ? 10 : 1);
			else if (k == 3 && d >= 5)
				v++;
		}
	}
	if (i != n || digits == 0)
		return -1;
	*ms = v;
	return 0;
}

static int
bad(struct vtune_reader *r, struct fold_in *in, struct fold_diag *diag,
    size_t depth, const char *what)
{
	/* a report with other columns follows */
	if (isheader(r->line, r->len)) {
		if (header(r, r->line, r->len) < 0)
			return fold_seterr_at(fold_in_name(in),
			    fold_in_lineno(in), "%s", fold_err());
		return 0;
	}
	if (depth > r->depth)
		depth = r->depth;
	r->depth = r->skip = depth;
	return fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
	    "%s: dropped with the lines under it", what) < 0 ? -2 : 0;
}

static int
row(struct vtune_reader *r, struct fold_in *in, const char *s, size_t n,
    struct fold_diag *diag)
{
	struct csv_field *fn, *fm;
	struct fold_count c;
	const char *mod;
	size_t d, len, mlen;
	uint64_t ms;
	int nf;

	nf = csv_split(s, n, r->delim, r->f, r->nf, r->buf);
	if (nf < 0)
		return bad(r, in, diag, r->f[0].lead,
		    "unterminated quote or text after a closing quote");
	if (nf <= r->cfunc)
		return bad(r, in, diag, r->f[0].lead, "no function");
	fn = &r->f[r->cfunc];
	d = fn->lead;
	if (d > r->skip) {
		r->under++;
		return 0;
	}
	r->skip = (size_t)-1;
	if (nf < r->nf)
		return bad(r, in, diag, d, "too few fields");
	if (fn->n == 0)
		return bad(r, in, diag, d, "empty function name");
	if (d > r->depth)
		return bad(r, in, diag, d,
		    "indented more than one level below the line before");
	r->depth = d;
	ms = 0;
	if (millis(r->f[r->ctime].s, r->f[r->ctime].n, &ms) < 0 &&
	    fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
	    "CPU Time:Self is not a number of seconds: '%.*s%s': its self "
	    "time dropped", FOLD_CUT(r->f[r->ctime].s, r->f[r->ctime].n)) < 0)
		return -2;

	/* "module`function" */
	mod = NULL;
	mlen = 0;
	if (!r->opt.no_modules && r->cmod >= 0) {
		fm = &r->f[r->cmod];
		mod = fm->s;
		mlen = fm->n;
	}
	len = mlen + 1 + fn->n;
	r->name = fold_grow(r->name, &r->namecap, len, 1);
	len = 0;
	if (mlen) {
		memcpy(r->name, mod, mlen);
		r->name[mlen] = '`';
		len = mlen + 1;
	}
	memcpy(r->name + len, fn->s, fn->n);
	len += fn->n;
	for (size_t i = 0; i < len; i++)
		if (r->name[i] == ';' || (unsigned char)r->name[i] < ' ')
			r->name[i] = '_';

	r->ids = fold_grow(r->ids, &r->cap, r->depth + 1, sizeof *r->ids);
	r->ids[r->depth++] = fold_intern(r->frames, r->name, len);
	if (ms == 0)
		return 0;
	c = fold_count_u64(ms);
	if (fold_stacks_add(r->st, r->ids, r->depth, &c) < 0)
		return fold_seterr_at(fold_in_name(in), fold_in_lineno(in),
		    "%s", fold_err()), -2;
	r->stacks++;
	return 0;
}

static int
vtune_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct vtune_reader *r = rp;
	const char *line;
	size_t len;
	int rc, intree = 0, content = 0;

	while ((rc = fold_in_line(in, &line, &len)) > 0) {
		if (fold_in_lineno(in) == 1)
			line = csv_skip_bom(line, &len);
		while (len > 0 && (line[len - 1] == ' ' ||
		    line[len - 1] == '\t' || line[len - 1] == '\r'))
			len--;
		if (len == 0)
			continue;
		content = 1;
		r->buf = fold_grow(r->buf, &r->bufcap, len, 1);
		if (!intree) {
			if (!isheader(line, len))
				continue;
			if (header(r, line, len) < 0) {
				r->errors++;
				return fold_seterr_at(fold_in_name(in),
				    fold_in_lineno(in), "%s", fold_err());
			}
			intree = 1;
			continue;
		}
		/* the same header again: the next report (files joined) */
		if (len == r->hlen && memcmp(line, r->hdr, len) == 0) {
			r->depth = 0;
			r->skip = (size_t)-1;
			continue;
		}
		r->line = line;
		r->len = len;
		if ((rc = row(r, in, line, len, diag)) < 0) {
			if (rc == -1)
				r->errors++;
			return rc;
		}
	}
	if (rc < 0) {
		r->errors++;
		return -1;
	}
	if (content && !intree && fold_warn(diag, fold_in_name(in), 0,
	    "no 'Function Stack' header line: nothing read") < 0)
		return -2;
	return 0;
}

/*
 * How sure it is that an input starting with head[0..n) is VTune CSV:
 * 2 when a line there is a header naming "Function Stack" and "CPU
 * Time:Self", 0 otherwise.
 */
static int
vtune_detect(const char *head, size_t n, int eof)
{
	const char *p = head, *e = head + n, *nl;
	size_t len;

	p = csv_skip_bom(p, &n);
	e = p + n;
	for (; p < e; p = nl + 1) {
		nl = memchr(p, '\n', e - p);
		if (!nl) {
			if (!eof)
				return 0;
			nl = e;
		}
		len = nl - p;
		if (isheader(p, len) && memmem(p, len, "CPU Time:Self", 13))
			return 2;
	}
	return 0;
}

static int
vtune_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	const struct vtune_reader *r = rp;

	calltree_say_under(r->under, say, arg);
	return 0;
}

#define OFF(field) offsetof(struct vtune_opt, field)

static const char *
vtune_unit(const void *rp)
{
	return "milliseconds";	/* CPU Time:Self, in ms */
}

static const struct fold_option vtune_options[] = {
	{ .name = "no-modules", .kind = FOLD_OPT_FLAG, .off = OFF(no_modules),
	    .value = 1,
	    .help = "write the function names without their modules" },
	{ .name = NULL }
};

#undef OFF

static const struct vtune_opt vtune_defaults = VTUNE_OPT_INIT;

const struct format_id vtune_id = {
	.name = "vtune",
	.tool = "stackcollapse-vtune",
	.what = "Intel VTune top-down tree CSV",
	.input = "a VTune top-down tree CSV",
	.detect = vtune_detect,
};

const struct format vtune_format = {
	.id = &vtune_id,
	.kind = FOLD_LINES,
	.one = "line",
	.many = "lines",
	.options = vtune_options,
	.optsize = sizeof(struct vtune_opt),
	.defaults = &vtune_defaults,
	.open = vtune_open,
	.read = vtune_read,
	.unit = vtune_unit,
	.finish = vtune_finish,
	.close = vtune_close,
};
