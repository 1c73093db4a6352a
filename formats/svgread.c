#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/SAX2.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/output.h"
#include "formats/svgread.h"

enum {
	TITLE_MAX = 1 << 20,	/* longer titles are cut (and warned about) */
	ROWS_MAX = 8192,	/* deeper than any profiler's stacks */
	RUNS_MAX = 512,		/* temporary files merged at once */
	MERGE_BUF = 64,		/* frames read ahead from each */
};

/* A frame as drawn. */
struct rec {
	double x, w, y;
	double delta;		/* a differential title's delta, percent;
				   NAN when the title has none */
	struct fold_count n;	/* the title's count */
	uint64_t line;
	uint32_t name;
};

struct row {
	double y;
	uint64_t nframes;
	uint32_t first;		/* the name of its first frame */
};

/* A sorted run of frames in a temporary file. */
struct run {
	FILE *f;
	struct rec buf[MERGE_BUF];
	size_t len, pos;
};

/* A frame of the column being rebuilt, and what its children count. */
struct open {
	uint32_t name;
	double x, w;
	uint64_t line;
	struct fold_count n, kids;
	double delta;		/* self after - self before */
};

struct svgread_reader {
	struct svgread_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;
	int ncols;
	uint32_t all;		/* the id of "all" */

	/* the input being read */
	struct fold_in *in;
	struct fold_diag *diag;
	xmlParserCtxtPtr ctxt;
	int stop;		/* 0, or the -1 / -2 to return */
	int edepth;		/* element nesting */
	int gdepth;		/* nesting of the <g> being read, or -1 */
	int intitle, hastitle, hasrect, hasmouse;
	uint64_t gline;
	char *title, *mouse;
	size_t tlen, tcap, mlen, mcap;
	int tcut;
	double x, w, y, fgx, fgw;
	int hasx, hasw, hasy, hasfgx, hasfgw;
	char unit[64];
	size_t unitlen;
	int hasunit;

	struct rec *recs;
	size_t nrec, reccap;
	int sorted;
	struct run **runs;
	size_t nrun;
	struct row *rows;
	size_t nrow, rowcap;
	double maxw, basey, basepct;
	struct fold_count basen;
	int hasbase, diffinput;

	/* rebuilding the tree */
	struct open *stk;
	size_t nstk, stkcap;
	uint32_t *ids;
	size_t idcap;
	struct rec *group;
	size_t ngroup, groupcap;
	int skiproot, flame;
	double total;

	/* over every input */
	uint64_t frames_read, overfull;
	struct fold_count rootself;
	int differential, approx;
};

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	if (*cap < need)
		*cap = need;
	return fold_reallocarray(p, *cap, size);
}

struct svgread_reader *
svgread_reader_new(const struct svgread_opt *opt, struct fold_stacks *st)
{
	struct svgread_reader *r = fold_calloc(1, sizeof *r);

	xmlInitParser();
	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	r->ncols = fold_stacks_ncols(st);
	r->all = fold_intern(r->frames, "all", 3);
	r->gdepth = -1;
	return r;
}

static void
closeruns(struct svgread_reader *r)
{
	size_t i;

	for (i = 0; i < r->nrun; i++) {
		fclose(r->runs[i]->f);
		free(r->runs[i]);
	}
	r->nrun = 0;
}

void
svgread_reader_free(struct svgread_reader *r)
{
	if (!r)
		return;
	closeruns(r);
	free(r->runs);
	free(r->recs);
	free(r->rows);
	free(r->stk);
	free(r->ids);
	free(r->group);
	free(r->title);
	free(r->mouse);
	free(r);
}

int
svgread_differential(const struct svgread_reader *r)
{
	return r->differential;
}

/* Counts a warning; a strict one stops the parse. */
static int
warn(struct svgread_reader *r, uint64_t line, const char *fmt,
    const char *a, int alen)
{
	if (fold_warn(r->diag, fold_in_name(r->in), line, fmt, alen, a) < 0) {
		r->stop = -2;
		if (r->ctxt)
			xmlStopParser(r->ctxt);
		return -1;
	}
	return 0;
}

static int
cmprec(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	if (a->y != b->y)
		return a->y < b->y ? -1 : 1;
	return 0;
}

/* Sorts the frames in memory and writes them to a new temporary file. */
static int
spill(struct svgread_reader *r)
{
	struct run *u;
	FILE *f;

	if (r->nrun == RUNS_MAX)
		return fold_seterr("%s: more than %llu frames",
		    fold_in_name(r->in),
		    (unsigned long long)RUNS_MAX * SVGREAD_RUN);
	if (!r->sorted)
		qsort(r->recs, r->nrec, sizeof *r->recs, cmprec);
	if (!(f = fold_tmpfile()))
		return -1;
	if (fwrite(r->recs, sizeof *r->recs, r->nrec, f) != r->nrec ||
	    fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return fold_seterr("temporary file: %s", strerror(errno));
	}
	if (!r->runs)
		r->runs = fold_calloc(RUNS_MAX, sizeof *r->runs);
	u = fold_calloc(1, sizeof *u);
	u->f = f;
	r->runs[r->nrun++] = u;
	r->nrec = 0;
	r->sorted = 1;
	return 0;
}

/* The index of y in the rows, added if new; -1 when there are too many. */
static long
rowof(struct svgread_reader *r, double y, int add)
{
	size_t lo = 0, hi = r->nrow, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (r->rows[mid].y < y)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nrow && r->rows[lo].y == y)
		return lo;
	if (!add || r->nrow == ROWS_MAX)
		return -1;
	r->rows = grow(r->rows, &r->rowcap, r->nrow + 1, sizeof *r->rows);
	memmove(r->rows + lo + 1, r->rows + lo,
	    (r->nrow - lo) * sizeof *r->rows);
	r->rows[lo].y = y;
	r->rows[lo].nframes = 0;
	r->rows[lo].first = FOLD_NOFRAME;
	r->nrow++;
	return lo;
}

static int
isdigit_(int c)
{
	return c >= '0' && c <= '9';
}

/* The last "a" followed by "b" in s[0..n): its offset, or -1. */
static long
lastpair(const char *s, size_t n, char a, char b)
{
	size_t i;

	for (i = n; i >= 2; i--)
		if (s[i - 2] == a && s[i - 1] == b)
			return i - 2;
	return -1;
}

/* Parses a decimal number with an optional sign: 0 or -1. */
static int
number(const char *s, size_t n, double *d)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
	    1e19, 1e20, 1e21, 1e22 };
	char buf[64], *end;
	uint64_t m = 0;
	size_t i = 0, frac = 0, ndig = 0;
	int dot = 0, neg = 0;

	if (n > 0 && (s[0] == '-' || s[0] == '+'))
		neg = s[i++] == '-';
	for (; i < n; i++) {
		if (isdigit_(s[i])) {
			if (m >= ((uint64_t)1 << 53) / 10)
				goto slow;
			m = m * 10 + (s[i] - '0');
			frac += dot;
			ndig++;
		} else if (s[i] == '.' && !dot)
			dot = 1;
		else
			goto slow;
	}
	if (ndig == 0 || frac >= sizeof p10 / sizeof p10[0])
		goto slow;
	/* both exact, so the quotient is rounded once: what strtod gives */
	*d = (double)m / p10[frac];
	if (neg)
		*d = -*d;
	return 0;
slow:
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!isdigit_(buf[n - 1]) && buf[n - 1] != '.')
		return -1;
	*d = strtod(buf, &end);
	if (end != buf + n || !isfinite(*d))
		return -1;
	return 0;
}

/*
 * Splits a title "NAME (1,234 UNIT, P%)" or "NAME (N UNIT, P%; D%)".
 * The last " (" opens the count: names may hold parentheses, the count
 * never does. Returns 0, or -1 with *why set.
 */
static int
parse_title(struct svgread_reader *r, const char *s, size_t n,
    size_t *namelen, struct fold_count *c, double *pct, double *delta,
    const char **why)
{
	const char *in, *u;
	char digits[64];
	size_t m, k, i, ulen;
	long open, semi, comma, sp;

	*why = "title without a count";
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n' ||
	    s[n - 1] == '\r' || s[n - 1] == '\t'))
		n--;
	if (n < 2 || s[n - 1] != ')' || (open = lastpair(s, n, ' ', '(')) < 0)
		return -1;
	*namelen = open;
	in = s + open + 2;
	m = n - 1 - (open + 2);
	*delta = NAN;
	if ((semi = lastpair(in, m, ';', ' ')) >= 0) {
		if (m - semi < 3 || in[m - 1] != '%' ||
		    number(in + semi + 2, m - semi - 3, delta) < 0)
			return -1;
		m = semi;
	}
	if ((comma = lastpair(in, m, ',', ' ')) < 0 || in[m - 1] != '%' ||
	    number(in + comma + 2, m - comma - 3, pct) < 0)
		return -1;
	m = comma;
	u = memchr(in, ' ', m);
	if (!u)
		return -1;
	sp = u - in;
	for (i = k = 0; i < (size_t)sp; i++) {
		if (in[i] == ',' && i > 0 && isdigit_(in[i - 1]))
			continue;
		if (k == sizeof digits)
			return -1;
		digits[k++] = in[i];
	}
	if (fold_count_parse(digits, k, c) < 0) {
		*why = "count in a title is not a number";
		return -1;
	}
	u++;
	ulen = m - sp - 1;
	if (ulen == 0)
		return -1;
	if (r->opt.countname) {
		if (strlen(r->opt.countname) != ulen ||
		    memcmp(r->opt.countname, u, ulen) != 0) {
			*why = "count not in the unit of --countname";
			return -1;
		}
	} else if (!r->hasunit && ulen < sizeof r->unit) {
		memcpy(r->unit, u, ulen);
		r->unitlen = ulen;
		r->hasunit = 1;
	} else if (!r->hasunit || ulen != r->unitlen ||
	    memcmp(r->unit, u, ulen) != 0) {
		*why = "count in another unit than the first frame's";
		return -1;
	}
	return 0;
}

/* A frame's <g> ended: its title and rectangle become a record. */
static void
endframe(struct svgread_reader *r)
{
	const char *t, *why;
	char *p;
	size_t tn, namelen, i;
	struct fold_count c;
	double pct, delta, x, w;
	struct rec *rc;
	long row;

	if (r->hastitle) {
		t = r->title;
		tn = r->tlen;
	} else if (r->hasmouse && r->mlen >= 5 &&
	    memcmp(r->mouse, "s('", 3) == 0 &&
	    memcmp(r->mouse + r->mlen - 2, "')", 2) == 0) {
		t = r->mouse + 3;
		tn = r->mlen - 5;
	} else
		return;		/* not a frame: a group of something else */
	if (r->tcut && warn(r, r->gline, "title cut at 1 MiB: %.*s", t,
	    60) < 0)
		return;
	x = r->hasfgx ? r->fgx : r->x;
	w = r->hasfgw ? r->fgw : r->w;
	if (!r->hasrect || !(r->hasx || r->hasfgx) ||
	    !(r->hasw || r->hasfgw) || !r->hasy || w < 0) {
		warn(r, r->gline, "frame without a rectangle: %.*s", t,
		    tn > 60 ? 60 : (int)tn);
		return;
	}
	if (parse_title(r, t, tn, &namelen, &c, &pct, &delta, &why) < 0) {
		char msg[80];
		snprintf(msg, sizeof msg, "%s: %%.*s", why);
		warn(r, r->gline, msg, t, tn > 60 ? 60 : (int)tn);
		return;
	}
	if (namelen == 0) {
		warn(r, r->gline, "frame without a name: %.*s", t,
		    tn > 60 ? 60 : (int)tn);
		return;
	}
	/* what the folded format cannot hold in a name */
	p = (char *)t;
	for (i = 0; i < namelen; i++)
		if (p[i] == ';' || p[i] == '\n' || p[i] == '\r')
			p[i] = '_';
	if ((row = rowof(r, r->y, 1)) < 0) {
		fold_seterr("%s:%llu: more than %d rows of frames",
		    fold_in_name(r->in), (unsigned long long)r->gline,
		    ROWS_MAX);
		r->stop = -1;
		xmlStopParser(r->ctxt);
		return;
	}
	if (r->nrec == SVGREAD_RUN && spill(r) < 0) {
		r->stop = -1;
		xmlStopParser(r->ctxt);
		return;
	}
	r->recs = grow(r->recs, &r->reccap, r->nrec + 1, sizeof *r->recs);
	rc = &r->recs[r->nrec];
	rc->x = x;
	rc->w = w;
	rc->y = r->y;
	rc->delta = delta;
	rc->n = c;
	rc->line = r->gline;
	rc->name = fold_intern(r->frames, t, namelen);
	if (r->nrec > 0 && cmprec(rc - 1, rc) > 0)
		r->sorted = 0;
	r->nrec++;
	if (r->rows[row].nframes++ == 0)
		r->rows[row].first = rc->name;
	if (!isnan(delta))
		r->diffinput = 1;
	if (!r->hasbase || w > r->maxw) {
		r->hasbase = 1;
		r->maxw = w;
		r->basey = r->y;
		r->basepct = pct;
		r->basen = c;
	}
	r->frames_read++;
}

static int
attreq(const xmlChar *a, const char *s)
{
	return a && strcmp((const char *)a, s) == 0;
}

/* A length or coordinate: "10.5", "10.5px" or inferno's "0.0135%". */
static int
coord(const xmlChar *v, const xmlChar *end, double *d)
{
	size_t n = end - v;

	if (n > 0 && v[n - 1] == '%')
		n--;
	else if (n > 2 && v[n - 2] == 'p' && v[n - 1] == 'x')
		n -= 2;
	return number((const char *)v, n, d) == 0 && *d >= -1e300;
}

static void
onstart(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattr,
    int ndefault, const xmlChar **attrs)
{
	struct svgread_reader *r = ctx;
	int i;

	r->edepth++;
	if (prefix)
		return;
	if (attreq(name, "g")) {
		r->gdepth = r->edepth;
		r->gline = xmlSAX2GetLineNumber(r->ctxt);
		r->hastitle = r->hasrect = r->hasmouse = r->intitle = 0;
		r->tcut = 0;
		for (i = 0; i < nattr; i++) {
			const xmlChar **a = attrs + 5 * i;
			size_t n = a[4] - a[3];
			if (a[1] || !attreq(a[0], "onmouseover"))
				continue;
			r->mouse = grow(r->mouse, &r->mcap, n + 1, 1);
			memcpy(r->mouse, a[3], n);
			r->mlen = n;
			r->hasmouse = 1;
		}
	} else if (r->gdepth < 0)
		return;
	else if (attreq(name, "title") && !r->hastitle &&
	    r->edepth == r->gdepth + 1) {
		r->intitle = r->edepth;
		r->tlen = 0;
	} else if (attreq(name, "rect") && !r->hasrect) {
		r->hasrect = 1;
		r->hasx = r->hasw = r->hasy = r->hasfgx = r->hasfgw = 0;
		for (i = 0; i < nattr; i++) {
			const xmlChar **a = attrs + 5 * i;
			double d;
			if (!coord(a[3], a[4], &d))
				continue;
			if (a[1] == NULL) {
				if (attreq(a[0], "x"))
					r->x = d, r->hasx = 1;
				else if (attreq(a[0], "y"))
					r->y = d, r->hasy = 1;
				else if (attreq(a[0], "width"))
					r->w = d, r->hasw = 1;
			} else if (attreq(a[1], "fg")) {
				/* inferno's exact sample positions */
				if (attreq(a[0], "x"))
					r->fgx = d, r->hasfgx = 1;
				else if (attreq(a[0], "w"))
					r->fgw = d, r->hasfgw = 1;
			}
		}
	}
}

static void
onend(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct svgread_reader *r = ctx;

	if (r->intitle == r->edepth) {
		r->intitle = 0;
		r->hastitle = 1;
	}
	if (r->gdepth == r->edepth) {
		endframe(r);
		r->gdepth = -1;
	}
	r->edepth--;
}

static void
onchars(void *ctx, const xmlChar *s, int n)
{
	struct svgread_reader *r = ctx;

	if (!r->intitle)
		return;
	if ((size_t)n > TITLE_MAX - r->tlen) {
		n = TITLE_MAX - r->tlen;
		r->tcut = 1;
	}
	r->title = grow(r->title, &r->tcap, r->tlen + n + 1, 1);
	memcpy(r->title + r->tlen, s, n);
	r->tlen += n;
}

static void
onerror(void *ctx, xmlErrorPtr e)
{
	/* kept in the context; the library prints nothing */
}

/* a - b into *d, 0 when b is more; returns 1 then (and 0 otherwise). */
static int
sub(const struct fold_count *a, const struct fold_count *b,
    struct fold_count *d)
{
	double x, y, v;

	if (!a->frac && !b->frac) {
		*d = fold_count_u64(a->v.u >= b->v.u ? a->v.u - b->v.u : 0);
		return b->v.u > a->v.u;
	}
	x = fold_count_val(a);
	y = fold_count_val(b);
	v = x - y;
	/* sums of decimal fractions are inexact: what is left is noise */
	if (fabs(v) <= 1e-9 * fmax(x, y)) {
		*d = fold_count_u64(0);
		return 0;
	}
	if (v < 0) {
		*d = fold_count_u64(0);
		return 1;
	}
	{
		/* 12 digits: what the titles show, without the noise */
		char buf[32];
		snprintf(buf, sizeof buf, "%.12g", v);
		*d = fold_count_double(strtod(buf, NULL));
	}
	return 0;
}

/* Closes the top frame of the column: its self count becomes a stack. */
static int
closetop(struct svgread_reader *r)
{
	struct open *o = &r->stk[r->nstk - 1];
	struct fold_count self[2];
	size_t i, n, skip;
	int any;

	if (sub(&o->n, &o->kids, &self[1]))
		r->overfull++;
	self[0] = self[1];
	if (o->delta != 0) {
		double a = fold_count_val(&self[1]), b = a - o->delta;
		if (b <= 0)
			self[0] = fold_count_u64(0);
		else if (!self[1].frac && b < 1.8e19)
			self[0] = fold_count_u64((uint64_t)b);
		else
			self[0] = fold_count_double(b);
	}
	any = !fold_count_iszero(&self[0]) || !fold_count_iszero(&self[1]);
	skip = r->skiproot;
	n = r->nstk;
	r->nstk--;
	if (!any)
		return 0;
	if (n <= skip)
		return fold_count_add(&r->rootself, &self[1]) < 0 ? -2 : 0;
	r->ids = grow(r->ids, &r->idcap, n, sizeof *r->ids);
	for (i = skip; i < n; i++)
		r->ids[i - skip] = r->stk[i].name;
	if (fold_stacks_add(r->st, r->ids, n - skip,
	    r->ncols == 2 ? self : self + 1) < 0)
		return -2;
	return 0;
}

static int
depthcmp(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;

	/* the group's y were replaced by depths */
	return (a->y > b->y) - (a->y < b->y);
}

/* Adds one frame, with its depth in y, under the open frame below it. */
static int
addframe(struct svgread_reader *r, const struct rec *rc)
{
	size_t d = rc->y, len;
	struct open *o, *p;
	const char *name;
	double tol;

	while (r->nstk > d)
		if (closetop(r) < 0)
			return -2;
	name = fold_intern_str(r->frames, rc->name, &len);
	if (r->nstk < d)
		return warn(r, rc->line, "frame with no frame below it: %.*s",
		    name, len > 60 ? 60 : (int)len) < 0 ? -2 : 0;
	if (d > 0) {
		p = &r->stk[d - 1];
		/* flamegraph.pl rounds x and width apart */
		tol = 0.25 + 1e-9 * fabs(p->x + p->w);
		if (rc->x < p->x - tol || rc->x + rc->w > p->x + p->w + tol)
			return warn(r, rc->line, "frame not within the frame "
			    "below it: %.*s", name,
			    len > 60 ? 60 : (int)len) < 0 ? -2 : 0;
	}
	r->stk = grow(r->stk, &r->stkcap, d + 1, sizeof *r->stk);
	o = &r->stk[r->nstk++];
	o->name = rc->name;
	o->x = rc->x;
	o->w = rc->w;
	o->line = rc->line;
	o->n = rc->n;
	o->delta = 0;
	if (!isnan(rc->delta)) {
		/* the delta is the self count's, in percent of the total */
		o->delta = rc->delta * r->total / 100;
		if (!isfinite(o->delta))
			o->delta = 0;
		if (!rc->n.frac)
			o->delta = round(o->delta);
	}
	o->kids = fold_count_u64(0);
	if (d > 0 && fold_count_add(&r->stk[d - 1].kids, &o->n) < 0)
		return -2;
	return 0;
}

static int
ordered(const struct rec *g, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (g[i - 1].y > g[i].y)
			return 0;
	return 1;
}

static void
reverse(struct rec *g, size_t n)
{
	struct rec t;
	size_t i;

	for (i = 0; i < n / 2; i++) {
		t = g[i];
		g[i] = g[n - 1 - i];
		g[n - 1 - i] = t;
	}
}

/* The frames of one x, parents first. */
static int
flushgroup(struct svgread_reader *r)
{
	size_t i;
	int rc;

	if (r->ngroup > 1 && !ordered(r->group, r->ngroup)) {
		/* a flame graph's (x, y) order has the depths the other way */
		reverse(r->group, r->ngroup);
		if (!ordered(r->group, r->ngroup))
			qsort(r->group, r->ngroup, sizeof *r->group, depthcmp);
	}
	for (i = 0; i < r->ngroup; i++)
		if ((rc = addframe(r, &r->group[i])) < 0)
			return rc;
	r->ngroup = 0;
	return 0;
}

/* Takes the frames in (x, y) order; y becomes the depth. */
static int
feed(struct svgread_reader *r, const struct rec *rc)
{
	struct rec *g;
	long row;
	int ret;

	/* a column holds a frame a row; more overlap, and are taken apart */
	if (r->ngroup > 0 && (r->group[0].x != rc->x || r->ngroup >= r->nrow) &&
	    (ret = flushgroup(r)) < 0)
		return ret;
	r->group = grow(r->group, &r->groupcap, r->ngroup + 1,
	    sizeof *r->group);
	g = &r->group[r->ngroup++];
	*g = *rc;
	row = rowof(r, rc->y, 0);
	g->y = r->flame ? (double)(r->nrow - 1 - row) : (double)row;
	return 0;
}

static int
runnext(struct run *u, const struct rec **rc)
{
	if (u->pos == u->len) {
		u->len = fread(u->buf, sizeof u->buf[0], MERGE_BUF, u->f);
		u->pos = 0;
		if (u->len == 0)
			return ferror(u->f) ? fold_seterr("temporary file: "
			    "read error") : 0;
	}
	*rc = &u->buf[u->pos];
	return 1;
}

static void
siftdown(struct run **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct run *t;
		if (l < n && cmprec(&h[l]->buf[h[l]->pos],
		    &h[m]->buf[h[m]->pos]) < 0)
			m = l;
		if (l + 1 < n && cmprec(&h[l + 1]->buf[h[l + 1]->pos],
		    &h[m]->buf[h[m]->pos]) < 0)
			m = l + 1;
		if (m == i)
			return;
		t = h[i], h[i] = h[m], h[m] = t;
		i = m;
	}
}

/* Every frame read, in (x, y) order, to feed(). */
static int
replay(struct svgread_reader *r)
{
	const struct rec *rc;
	struct run **h;
	size_t i, n = 0;
	int ret;

	if (r->nrun == 0) {
		if (!r->sorted)
			qsort(r->recs, r->nrec, sizeof *r->recs, cmprec);
		for (i = 0; i < r->nrec; i++)
			if ((ret = feed(r, &r->recs[i])) < 0)
				return ret;
		return 0;
	}
	if (r->nrec > 0 && spill(r) < 0)
		return -1;
	h = r->runs;
	for (i = 0; i < r->nrun; i++) {
		if ((ret = runnext(h[i], &rc)) < 0)
			return -1;
		if (ret > 0) {
			struct run *t = h[n];
			h[n++] = h[i];
			h[i] = t;
		}
	}
	for (i = n; i-- > 0;)
		siftdown(h, n, i);
	while (n > 0) {
		struct run *u = h[0];
		if ((ret = feed(r, &u->buf[u->pos])) < 0)
			return ret;
		u->pos++;
		if ((ret = runnext(u, &rc)) < 0)
			return -1;
		if (ret == 0) {
			h[0] = h[n - 1];
			h[n - 1] = u;
			n--;
		}
		siftdown(h, n, 0);
	}
	return 0;
}

/* Rebuilds the tree of the frames read and adds its stacks. */
static int
rebuild(struct svgread_reader *r)
{
	long base;
	int ret;

	if (r->nrec == 0 && r->nrun == 0)
		return 0;
	base = rowof(r, r->basey, 0);
	if (base == (long)r->nrow - 1)
		r->flame = 1;
	else if (base == 0)
		r->flame = 0;
	else
		return fold_seterr("%s: the widest frame is neither in the "
		    "top nor in the bottom row", fold_in_name(r->in));
	r->skiproot = r->rows[base].nframes == 1 &&
	    r->rows[base].first == r->all;
	r->total = fold_count_val(&r->basen);
	if (r->basepct > 0)
		r->total = r->total * 100 / r->basepct;
	if (r->diffinput) {
		r->differential = 1;
		/* deltas are shown to 0.01% of the total */
		if (r->total * 0.5e-4 >= 0.5)
			r->approx = 1;
	}
	r->nstk = r->ngroup = 0;
	if ((ret = replay(r)) < 0 || (ret = flushgroup(r)) < 0)
		return ret;
	while (r->nstk > 0)
		if (closetop(r) < 0)
			return -2;
	return 0;
}

static void
resetinput(struct svgread_reader *r)
{
	closeruns(r);
	r->nrec = 0;
	r->sorted = 1;
	r->nrow = 0;
	r->hasbase = r->diffinput = r->hasunit = 0;
	r->edepth = r->intitle = 0;
	r->gdepth = -1;
	r->stop = 0;
	r->nstk = r->ngroup = 0;
}

int
svgread_read(struct svgread_reader *r, struct fold_in *in,
    struct fold_diag *diag)
{
	xmlSAXHandler sax;
	const char *buf;
	size_t len;
	int rc, perr = 0, ret = 0;

	resetinput(r);
	r->in = in;
	r->diag = diag;
	memset(&sax, 0, sizeof sax);
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = onstart;
	sax.endElementNs = onend;
	sax.characters = onchars;
	sax.cdataBlock = onchars;
	sax.serror = onerror;
	/* no entity handlers: entities declared in the document are never
	   expanded, and no DTD or other file is ever loaded */
	r->ctxt = xmlCreatePushParserCtxt(&sax, r, NULL, 0, fold_in_name(in));
	if (!r->ctxt)
		return fold_seterr("%s: cannot start the XML parser",
		    fold_in_name(in));
	xmlCtxtUseOptions(r->ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR |
	    XML_PARSE_NOWARNING);
	while ((rc = fold_in_chunk(in, &buf, &len)) > 0) {
		if ((perr = xmlParseChunk(r->ctxt, buf, (int)len, 0)) != 0 ||
		    r->stop)
			break;
	}
	if (rc == 0 && !r->stop && !perr)
		perr = xmlParseChunk(r->ctxt, NULL, 0, 1);
	if (r->stop) {
		ret = r->stop;
		goto done;
	}
	if (rc < 0 || perr || !r->ctxt->wellFormed) {
		char msg[512];
		if (rc < 0)
			snprintf(msg, sizeof msg, "%s", fold_err());
		else {
			const xmlError *e = xmlCtxtGetLastError(r->ctxt);
			const char *m = e && e->message ? e->message :
			    "malformed XML";
			int mlen = strlen(m);
			while (mlen > 0 && (m[mlen - 1] == '\n' ||
			    m[mlen - 1] == ' '))
				mlen--;
			snprintf(msg, sizeof msg, "%s:%d: not a well-formed SVG: "
			    "%.*s", fold_in_name(in), e ? e->line : 0, mlen, m);
		}
		/* what was read before the fault is kept */
		if ((ret = rebuild(r)) >= 0) {
			fold_seterr("%s", msg);
			ret = -1;
		}
		goto done;
	}
	ret = rebuild(r);
done:
	/* an internal DTD subset makes libxml2 start a document of its own */
	if (r->ctxt->myDoc)
		xmlFreeDoc(r->ctxt->myDoc);
	xmlFreeParserCtxt(r->ctxt);
	r->ctxt = NULL;
	closeruns(r);
	return ret;
}

/* s[0..n) holds the NUL-terminated word w. */
static int
has(const char *s, size_t n, const char *w)
{
	return memmem(s, n, w, strlen(w)) != NULL;
}

static int
starts(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - s) >= n && memcmp(s, w, n) == 0;
}

int
svgread_detect(const char *head, size_t n, int eof)
{
	const char *s = head, *e = head + n;

	if (e - s >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	if (!starts(s, e, "<?xml") && !starts(s, e, "<!--") &&
	    !starts(s, e, "<!DOCTYPE") && !starts(s, e, "<svg"))
		return 0;
	if (!has(s, e - s, "<svg"))
		return 0;
	if (has(s, e - s, "%)</title>") || has(s, e - s, "func_g") ||
	    has(s, e - s, "fg:x=\""))
		return 2;
	return 1;
}

void
svgread_summary(const struct svgread_reader *r,
    void (*say)(void *arg, const char *msg), void *arg)
{
	char buf[FOLD_COUNT_BUFSZ], msg[FOLD_COUNT_BUFSZ + 200];

	if (r->overfull) {
		snprintf(msg, sizeof msg, "%llu frames count less than their "
		    "children (rounded titles): their self counts taken as 0",
		    (unsigned long long)r->overfull);
		say(arg, msg);
	}
	if (!fold_count_iszero(&r->rootself)) {
		fold_count_fmt(&r->rootself, buf);
		snprintf(msg, sizeof msg, "the root \"all\" counts %s more than "
		    "the frames drawn on it (too narrow to draw): not written",
		    buf);
		say(arg, msg);
	}
	if (r->approx && r->ncols == 2) {
		snprintf(msg, sizeof msg, "differential graph: the before counts "
		    "are derived from deltas shown to 0.01%% of the total, and "
		    "so are approximate");
		say(arg, msg);
	}
	if (r->frames_read == 0)
		say(arg, "no frames in the input");
}
