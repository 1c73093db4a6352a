#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/output.h"
#include "libfold/str.h"
#include "formats/svgread.h"
#include "formats/unitshow.h"
#include "formats/xmllib.h"

enum {
	TITLE_MAX = 1 << 20,	/* longer titles are cut (and warned about) */
	ROWS_MAX = 8192,	/* deeper than any profiler's stacks */
	RUNS_MAX = 512,		/* temporary files merged at once */
	READ_BUF = 256,		/* frames read back from a file at once */
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
	double maxw, x, pct;	/* its widest frame: width, x, percent */
	struct fold_count n;	/* and count */
};

/* Frames spilled to a temporary file, in the order read. */
struct run {
	FILE *f;
};

/* A frame of the column being rebuilt, and what its children count. */
struct open {
	uint32_t name;
	double x, w;
	uint64_t line;
	double last;		/* where its last child ends */
	struct fold_count n, kids;
	double delta;		/* self after - self before */
};

struct svgread_reader {
	struct svgread_opt opt;
	struct fold_stacks *st;	/* both columns, until finish */
	struct fold_stacks *dst;	/* the run's table */
	struct fold_intern *frames;
	int ncols;
	uint32_t all;		/* the id of "all" */

	/* the input being read */
	struct fold_in *in;
	struct fold_diag *diag;
	const struct fold_libxml *xml;	/* loaded at the first read */
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
	int hasx, hasw, hasy, hasfgx, hasfgw, dx, dw;
	char unit[64];
	size_t unitlen;
	int hasunit;

	struct rec *recs;
	size_t nrec, reccap;
	struct run **runs;
	size_t nrun;
	struct row *rows;
	size_t nrow, rowcap;
	double maxw;		/* the widest frame's width */
	int hasbase, diffinput;
	int xdec;		/* most decimals of an x or a width */
	uint64_t nin, nfg;	/* frames of this input, with fg:x and fg:w */

	/* rebuilding the tree */
	struct open *stk;
	size_t nstk, stkcap;
	uint32_t *ids;
	size_t idcap;
	struct rec *all_;	/* every frame, to rebuild by place */
	size_t nall, allcap;
	long base;		/* the row of the base */
	int skiproot, flame;
	double total, xunit, tol, wpt;

	/* over every input */
	uint64_t drawn_frames;	/* titled rectangles, good or bad: the
				   records (the input is a flame graph) */
	struct fold_count rootself;
	struct fold_count drawn;	/* what the base rows count */
	int differential, approx;
};

static void *
svgread_open(const void *optp, struct fold_stacks *st)
{
	const struct svgread_opt *opt = optp;
	struct svgread_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	/* both counts of a differential graph, kept apart: the run's
	   table gets the "after" column of any other graph */
	r->dst = st;
	r->st = fold_stacks_new(fold_stacks_frames(st), 2);
	r->frames = fold_stacks_frames(st);
	r->ncols = 2;
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

static void
svgread_close(void *rp)
{
	struct svgread_reader *r = rp;
	if (!r)
		return;
	closeruns(r);
	free(r->runs);
	free(r->recs);
	free(r->rows);
	free(r->stk);
	free(r->ids);
	free(r->all_);
	free(r->title);
	free(r->mouse);
	fold_stacks_free(r->st);
	free(r);
}

int
svgread_differential(const struct svgread_reader *r)
{
	return r->differential;
}

void
svgread_totals(const struct svgread_reader *r, struct fold_count *drawn,
    struct fold_count *unwritten)
{
	*drawn = r->drawn;
	*unwritten = r->rootself;
}

/*
 * Counts the warning "what: NAME" about a frame named s[0..n) (cut as
 * FOLD_CUT cuts); a strict one stops the parse.
 */
static int
warn(struct svgread_reader *r, uint64_t line, const char *what,
    const char *s, size_t n)
{
	if (fold_warn(r->diag, fold_in_name(r->in), line, "%s: %.*s%s", what,
	    FOLD_CUT(s, n)) < 0) {
		r->stop = -2;
		if (r->ctxt)
			r->xml->StopParser(r->ctxt);
		return -1;
	}
	return 0;
}

/* Writes the frames in memory to a new temporary file, in their order. */
static int
spill(struct svgread_reader *r)
{
	struct run *u;
	FILE *f;

	if (r->nrun == RUNS_MAX)
		return fold_seterr("%s: more than %llu frames",
		    fold_in_name(r->in),
		    (unsigned long long)RUNS_MAX * SVGREAD_RUN);
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
	r->rows = fold_grow(r->rows, &r->rowcap, r->nrow + 1, sizeof *r->rows);
	memmove(r->rows + lo + 1, r->rows + lo,
	    (r->nrow - lo) * sizeof *r->rows);
	r->rows[lo].y = y;
	r->rows[lo].nframes = 0;
	r->rows[lo].first = FOLD_NOFRAME;
	r->rows[lo].maxw = -1;
	r->nrow++;
	return lo;
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
		if (fold_isdigit(s[i])) {
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
	if (!fold_isdigit(buf[n - 1]) && buf[n - 1] != '.')
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
	const char *in, *u, *cut;
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
		if (in[i] == ',' && i > 0 && fold_isdigit(in[i - 1]))
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
	/* "420,000,000 ns, 420 ms": the exact count's unit, then the count
	   as people read it */
	if ((cut = memmem(u, ulen, ", ", 2)))
		ulen = cut - u;
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
		r->unit[ulen] = '\0';
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
	if (r->tcut && warn(r, r->gline, "title cut at 1 MiB", t, tn) < 0)
		return;
	x = r->hasfgx ? r->fgx : r->x;
	w = r->hasfgw ? r->fgw : r->w;
	if (!r->hasrect || !(r->hasx || r->hasfgx) ||
	    !(r->hasw || r->hasfgw) || !r->hasy || w < 0) {
		warn(r, r->gline, "frame without a rectangle", t, tn);
		return;
	}
	r->drawn_frames++;
	if (parse_title(r, t, tn, &namelen, &c, &pct, &delta, &why) < 0) {
		warn(r, r->gline, why, t, tn);
		return;
	}
	if (namelen == 0) {
		warn(r, r->gline, "frame without a name", t, tn);
		return;
	}
	/* what the folded format cannot hold in a name */
	p = (char *)t;
	for (i = 0; i < namelen; i++)
		if (p[i] == ';' || p[i] == '\n' || p[i] == '\r')
			p[i] = '_';
	if ((row = rowof(r, r->y, 1)) < 0) {
		fold_seterr_at(fold_in_name(r->in), r->gline,
		    "more than %d rows of frames", ROWS_MAX);
		r->stop = -1;
		r->xml->StopParser(r->ctxt);
		return;
	}
	if (r->nrec == SVGREAD_RUN && spill(r) < 0) {
		r->stop = -1;
		r->xml->StopParser(r->ctxt);
		return;
	}
	r->recs = fold_grow(r->recs, &r->reccap, r->nrec + 1, sizeof *r->recs);
	rc = &r->recs[r->nrec];
	rc->x = x;
	rc->w = w;
	rc->y = r->y;
	rc->delta = delta;
	rc->n = c;
	rc->line = r->gline;
	rc->name = fold_intern(r->frames, t, namelen);
	r->nrec++;
	r->nin++;
	if (r->hasfgx && r->hasfgw)
		r->nfg++;
	else {
		if (r->dx > r->xdec)
			r->xdec = r->dx;
		if (r->dw > r->xdec)
			r->xdec = r->dw;
	}
	if (r->rows[row].nframes++ == 0)
		r->rows[row].first = rc->name;
	if (!isnan(delta))
		r->diffinput = 1;
	if (w > r->rows[row].maxw) {
		r->rows[row].maxw = w;
		r->rows[row].x = x;
		r->rows[row].pct = pct;
		r->rows[row].n = c;
	}
	if (!r->hasbase || w > r->maxw) {
		r->hasbase = 1;
		r->maxw = w;
	}
}

static int
attreq(const xmlChar *a, const char *s)
{
	return a && strcmp((const char *)a, s) == 0;
}

/*
 * A length or coordinate: "10.5", "10.5px" or inferno's "0.0135%"; *dec
 * is its number of decimals.
 */
static int
coord(const xmlChar *v, const xmlChar *end, double *d, int *dec)
{
	size_t n = end - v, i;

	if (n > 0 && v[n - 1] == '%')
		n--;
	else if (n > 2 && v[n - 2] == 'p' && v[n - 1] == 'x')
		n -= 2;
	*dec = 0;
	for (i = n; i > 0; i--)
		if (v[i - 1] == '.') {
			*dec = n - i;
			break;
		}
	return number((const char *)v, n, d) == 0 && *d >= -1e300;
}

static void
onstart(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattr,
    int ndefault, const xmlChar **attrs)
{
	struct svgread_reader *r = ctx;
	int i, alone = 0;

	r->edepth++;
	if (prefix)
		return;
	if (attreq(name, "rect") && (r->gdepth < 0 || (!r->hastitle &&
	    !r->hasmouse && !r->hasrect)))
		for (i = 0; i < nattr; i++) {
			const xmlChar **a = attrs + 5 * i;
			if (!a[1] && attreq(a[0], "onmouseover") &&
			    a[4] - a[3] >= 3 && memcmp(a[3], "s('", 3) == 0)
				alone = 1;
		}
	if (alone) {
		/* flamegraph.pl before 2013: a frame is a <rect> alone,
		   named in its onmouseover, without a <g> or a <title> */
		r->gline = r->xml->SAX2GetLineNumber(r->ctxt);
		r->hastitle = r->hasrect = r->intitle = 0;
		r->tcut = 0;
	}
	if (attreq(name, "g")) {
		r->gdepth = r->edepth;
		r->gline = r->xml->SAX2GetLineNumber(r->ctxt);
		r->hastitle = r->hasrect = r->hasmouse = r->intitle = 0;
		r->tcut = 0;
		for (i = 0; i < nattr; i++) {
			const xmlChar **a = attrs + 5 * i;
			size_t n = a[4] - a[3];
			if (a[1] || !attreq(a[0], "onmouseover"))
				continue;
			r->mouse = fold_grow(r->mouse, &r->mcap, n + 1, 1);
			memcpy(r->mouse, a[3], n);
			r->mlen = n;
			r->hasmouse = 1;
		}
	} else if (r->gdepth < 0 && !alone)
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
			int dec;
			if (!a[1] && alone && attreq(a[0], "onmouseover")) {
				size_t n = a[4] - a[3];
				r->mouse = fold_grow(r->mouse, &r->mcap, n + 1,
				    1);
				memcpy(r->mouse, a[3], n);
				r->mlen = n;
				r->hasmouse = 1;
				continue;
			}
			if (!coord(a[3], a[4], &d, &dec))
				continue;
			if (a[1] == NULL) {
				if (attreq(a[0], "x"))
					r->x = d, r->hasx = 1, r->dx = dec;
				else if (attreq(a[0], "y"))
					r->y = d, r->hasy = 1;
				else if (attreq(a[0], "width"))
					r->w = d, r->hasw = 1, r->dw = dec;
			} else if (attreq(a[1], "fg")) {
				/* inferno's exact sample positions */
				if (attreq(a[0], "x"))
					r->fgx = d, r->hasfgx = 1;
				else if (attreq(a[0], "w"))
					r->fgw = d, r->hasfgw = 1;
			}
		}
		if (alone) {
			endframe(r);
			r->hasrect = r->hasmouse = 0;
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
	r->title = fold_grow(r->title, &r->tcap, r->tlen + n + 1, 1);
	memcpy(r->title + r->tlen, s, n);
	r->tlen += n;
}

static void
onerror(void *ctx, xmlErrorPtr e)
{
	/* kept in the context; the library prints nothing */
}

/* a - b into *d, 0 when b is more (never, once rebuilt). */
static void
sub(const struct fold_count *a, const struct fold_count *b,
    struct fold_count *d)
{
	double x, y, v;
	char buf[32];

	if (!a->frac && !b->frac) {
		*d = fold_count_u64(a->v.u >= b->v.u ? a->v.u - b->v.u : 0);
		return;
	}
	x = fold_count_val(a);
	y = fold_count_val(b);
	v = x - y;
	/* sums of decimal fractions are inexact: what is left is noise */
	if (v <= 1e-9 * fmax(x, y)) {
		*d = fold_count_u64(0);
		return;
	}
	/* 12 digits: what the titles show, without the noise */
	snprintf(buf, sizeof buf, "%.12g", v);
	*d = fold_count_double(strtod(buf, NULL));
}

/* 1 when kids + n still fit in a frame counting total. */
static int
fits(const struct fold_count *total, const struct fold_count *kids,
    const struct fold_count *n)
{
	struct fold_count s = *kids;

	if (!total->frac && !kids->frac && !n->frac)
		return n->v.u <= total->v.u && kids->v.u <= total->v.u - n->v.u;
	if (fold_count_add(&s, n) < 0)
		return 0;
	return fold_count_val(&s) <= fold_count_val(total) *
	    (1 + 1e-9);
}

/* The depth of a frame from its row: 0 at the base. */
static long
depthof(struct svgread_reader *r, double y)
{
	long row = rowof(r, y, 0);

	return r->flame ? r->base - row : row - r->base;
}

/* A frame's change of its own count, from its title's delta in percent. */
static double
deltaof(struct svgread_reader *r, const struct rec *rc)
{
	double d;

	if (isnan(rc->delta))
		return 0;
	d = rc->delta * r->total / 100;
	if (!isfinite(d))
		return 0;
	return rc->n.frac ? d : round(d);
}

/*
 * Adds the stack ids[0..n) (the root first) with the own count of a frame
 * counting c whose children count kids. The synthetic root is left out.
 */
static int
addstack(struct svgread_reader *r, const uint32_t *ids, size_t n,
    const struct fold_count *c, const struct fold_count *kids, double delta)
{
	struct fold_count self[2];
	size_t skip = r->skiproot;

	sub(c, kids, &self[1]);
	self[0] = self[1];
	if (delta != 0) {
		double a = fold_count_val(&self[1]), b = a - delta;
		if (b <= 0)
			self[0] = fold_count_u64(0);
		else if (!self[1].frac && b < 1.8e19)
			self[0] = fold_count_u64((uint64_t)b);
		else
			self[0] = fold_count_double(b);
	}
	if (fold_count_iszero(&self[0]) && fold_count_iszero(&self[1]))
		return 0;
	if (n <= skip)
		return fold_count_add(&r->rootself, &self[1]) < 0 ? -2 : 0;
	if (fold_stacks_add(r->st, ids + skip, n - skip,
	    r->ncols == 2 ? self : self + 1) < 0)
		return -2;
	return 0;
}

/* Closes the top frame of the column: its own count becomes a stack. */
static int
closetop(struct svgread_reader *r)
{
	size_t i, n = r->nstk;

	r->ids = fold_grow(r->ids, &r->idcap, n, sizeof *r->ids);
	for (i = 0; i < n; i++)
		r->ids[i] = r->stk[i].name;
	r->nstk--;
	return addstack(r, r->ids, n, &r->stk[n - 1].n, &r->stk[n - 1].kids,
	    r->stk[n - 1].delta);
}

/* Calls fn on every frame read, in the order of the document. */
static int
each(struct svgread_reader *r, int (*fn)(struct svgread_reader *,
    const struct rec *, int), int arg)
{
	struct rec buf[READ_BUF];
	size_t i, j, n;
	int ret;

	for (i = 0; i < r->nrun; i++) {
		FILE *f = r->runs[i]->f;
		if (fseek(f, 0, SEEK_SET) != 0)
			return fold_seterr("temporary file: %s",
			    strerror(errno));
		while ((n = fread(buf, sizeof buf[0], READ_BUF, f)) > 0)
			for (j = 0; j < n; j++)
				if ((ret = fn(r, &buf[j], arg)) != 0)
					return ret;
		if (ferror(f))
			return fold_seterr("temporary file: read error");
	}
	for (i = 0; i < r->nrec; i++)
		if ((ret = fn(r, &r->recs[i], arg)) != 0)
			return ret;
	return 0;
}

/*
 * One frame of the document taken as a walk of the tree from the base,
 * each frame after its parent and before its next sibling, as
 * flamegraph-svg writes them: its parent is the last frame one row nearer
 * the base. With emit 0, only checks that the frame can be that (returns
 * 1 when not: the frames are in another order); with emit 1, adds it.
 */
static int
walkone(struct svgread_reader *r, const struct rec *rc, int emit)
{
	long d = depthof(r, rc->y);
	struct open *o, *p;
	double x2 = rc->x + rc->w;

	if (d < 0 || (size_t)d > r->nstk)
		return 1;
	while (r->nstk > (size_t)d)
		if (emit ? closetop(r) < 0 : (r->nstk--, 0))
			return -2;
	if (d > 0) {
		p = &r->stk[d - 1];
		if (!fits(&p->n, &p->kids, &rc->n) || rc->x < p->x - r->tol ||
		    x2 > p->x + p->w + r->tol || rc->x < p->last - r->tol)
			return 1;
		if (fold_count_add(&p->kids, &rc->n) < 0)
			return emit ? -2 : 1;
		p->last = x2;
	}
	if (d == 0 && emit && fold_count_add(&r->drawn, &rc->n) < 0)
		return -2;
	r->stk = fold_grow(r->stk, &r->stkcap, d + 1, sizeof *r->stk);
	o = &r->stk[r->nstk++];
	o->name = rc->name;
	o->x = rc->x;
	o->w = rc->w;
	o->last = rc->x;
	o->n = rc->n;
	o->kids = fold_count_u64(0);
	o->delta = emit ? deltaof(r, rc) : 0;
	return 0;
}

static int
walk(struct svgread_reader *r, int emit)
{
	int ret;

	r->nstk = 0;
	if ((ret = each(r, walkone, emit)) != 0)
		return ret;
	while (r->nstk > 0)
		if (emit ? closetop(r) < 0 : (r->nstk--, 0))
			return -2;
	return 0;
}

static int
cmpplace(const void *pa, const void *pb, void *arg)
{
	const struct rec *a = pa, *b = pb;
	struct fold_intern *frames = arg;
	const char *s, *t;
	size_t m, n;
	int c;

	/* the rebuild replaced y by the depth */
	if (a->y != b->y)
		return a->y < b->y ? -1 : 1;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	if (a->x + a->w != b->x + b->w)
		return a->x + a->w < b->x + b->w ? -1 : 1;
	/* the renderers put siblings in byte order */
	s = fold_intern_str(frames, a->name, &m);
	t = fold_intern_str(frames, b->name, &n);
	if ((c = memcmp(s, t, m < n ? m : n)) != 0)
		return c;
	if (m != n)
		return m < n ? -1 : 1;
	/* then the order of the document: left to right in inferno's */
	return (a->line > b->line) - (a->line < b->line);
}

static int
takeall(struct svgread_reader *r, const struct rec *rc, int arg)
{
	r->all_ = fold_grow(r->all_, &r->allcap, r->nall + 1, sizeof *r->all_);
	r->all_[r->nall] = *rc;
	r->all_[r->nall].y = depthof(r, rc->y);
	r->nall++;
	return 0;
}

/*
 * Which frame of the row below (p[0..np)) holds each frame of a row
 * (c[0..nc)), both in place order, into at[]: -1 for none. Frames are
 * taken from the left (dir 1), each in the first frame below that holds
 * it and has room left for its count, or from the right (dir -1), each
 * in the last. Room is counted exactly, in the titles' counts; place in
 * pixels, within the rounding of the coordinates.
 */
static void
assign(struct svgread_reader *r, const struct rec *p, size_t np,
    const struct rec *c, size_t nc, long *at, struct fold_count *used,
    int dir)
{
	double tol = r->tol, tol3 = 3 * r->xunit;
	size_t i, k;
	long j, cur = dir > 0 ? 0 : (long)np - 1;

	for (k = 0; k < np; k++)
		used[k] = fold_count_u64(0);
	for (k = 0; k < nc; k++) {
		const struct rec *ch;
		double x1, x2;
		i = dir > 0 ? k : nc - 1 - k;
		ch = &c[i];
		x1 = ch->x;
		x2 = ch->x + ch->w;
		at[i] = -1;
		for (j = cur; j >= 0 && j < (long)np; j += dir) {
			const struct rec *q = &p[j];
			double q1 = q->x, q2 = q->x + q->w;
			double off = fold_count_val(&used[j]) * r->wpt;
			if (dir > 0 ? x2 > q2 + tol : x1 < q1 - tol)
				continue;	/* not yet that far */
			if (dir > 0 ? x1 < q1 - tol : x2 > q2 + tol)
				break;		/* past it: no frame holds it */
			if (!fits(&q->n, &used[j], &ch->n) ||
			    (dir > 0 ? x1 < q1 + off - tol3 :
			    x2 > q2 - off + tol3))
				continue;	/* full, or full so far */
			fold_count_add(&used[j], &ch->n);
			at[i] = j;
			cur = j;
			break;
		}
	}
}

/*
 * Rebuilds the tree of frames in any order from their places alone, row
 * by row from the base. A frame that no frame below can hold is skipped
 * (its count stays with the frame below); one that two can is an error.
 */
static int
byplace(struct svgread_reader *r)
{
	struct rec *a;
	size_t i, j, lo, plo, phi, n, d, m;
	long *fwd, *bwd, *up;
	struct fold_count *used, *kids, drawn = FOLD_COUNT_INIT;
	int ret = 0;

	r->nall = 0;
	if ((ret = each(r, takeall, 0)) != 0)
		return ret;
	a = r->all_;
	n = r->nall;
	qsort_r(a, n, sizeof *a, cmpplace, r->frames);
	up = fold_reallocarray(NULL, n ? n : 1, sizeof *up);
	fwd = fold_reallocarray(NULL, n ? n : 1, sizeof *fwd);
	bwd = fold_reallocarray(NULL, n ? n : 1, sizeof *bwd);
	used = fold_reallocarray(NULL, n ? n : 1, sizeof *used);
	kids = fold_calloc(n ? n : 1, sizeof *kids);
	plo = phi = 0;
	for (lo = 0; lo < n; lo = i) {
		d = a[lo].y;
		for (i = lo; i < n && a[i].y == d; i++)
			;
		if (d == 0) {
			for (j = lo; j < i; j++) {
				up[j] = -1;
				if (fold_count_add(&drawn, &a[j].n) < 0) {
					ret = -2;
					goto done;
				}
			}
			plo = lo, phi = i;
			continue;
		}
		if (plo == phi || a[plo].y != d - 1) {
			/* no row below */
			for (j = lo; j < i; j++)
				up[j] = -2;
		} else {
			assign(r, a + plo, phi - plo, a + lo, i - lo, fwd, used,
			    1);
			assign(r, a + plo, phi - plo, a + lo, i - lo, bwd, used,
			    -1);
			for (j = lo; j < i; j++) {
				const char *name;
				size_t len;
				/* a frame that does not fit taken from one side
				   does not fit at all */
				if (fwd[j - lo] < 0 || bwd[j - lo] < 0) {
					up[j] = -2;
					continue;
				}
				if (fwd[j - lo] == bwd[j - lo]) {
					up[j] = (long)plo + fwd[j - lo];
					continue;
				}
				name = fold_intern_str(r->frames, a[j].name,
				    &len);
				fold_seterr_at(fold_in_name(r->in), a[j].line,
				    "which frame below holds %.*s%s cannot be "
				    "told: too many frames for the rounding of "
				    "their coordinates", FOLD_CUT(name, len));
				ret = -1;
				goto done;
			}
		}
		/* the skipped frames are left out of the row below the next */
		for (j = m = lo; j < i; j++) {
			if (up[j] == -2) {
				const char *name;
				size_t len;
				name = fold_intern_str(r->frames, a[j].name,
				    &len);
				if (warn(r, a[j].line, "frame not within the "
				    "frame below it", name, len) < 0) {
					ret = -2;
					goto done;
				}
				continue;
			}
			if (up[j] >= 0 && fold_count_add(&kids[up[j]],
			    &a[j].n) < 0) {
				ret = -2;
				goto done;
			}
			a[m] = a[j];
			up[m] = up[j];
			m++;
		}
		for (j = m; j < i; j++)
			a[j].y = -1;	/* no longer a row */
		plo = lo, phi = m;
	}
	/* every frame kept: its own count, with the path from the root */
	for (i = 0; i < n; i++) {
		long k;
		if (a[i].y < 0)
			continue;
		d = a[i].y;
		r->ids = fold_grow(r->ids, &r->idcap, d + 1, sizeof *r->ids);
		for (k = i, j = d + 1; k >= 0 && j > 0; k = up[k])
			r->ids[--j] = a[k].name;
		if ((ret = addstack(r, r->ids, d + 1, &a[i].n, &kids[i],
		    deltaof(r, &a[i]))) < 0)
			goto done;
	}
	if (fold_count_add(&r->drawn, &drawn) < 0)
		ret = -2;
done:
	free(up);
	free(fwd);
	free(bwd);
	free(used);
	free(kids);
	return ret;
}

/* Rebuilds the tree of the frames read and adds its stacks. */
static int
rebuild(struct svgread_reader *r)
{
	const struct row *b, *top, *bot;
	double unit;
	int ret;

	if (r->nrec == 0 && r->nrun == 0)
		return 0;
	/*
	 * The base is the top or the bottom row, whichever holds the wider
	 * frame: frames of the same width above a lone root leave it to
	 * "all", then to the bottom (a flame graph).
	 */
	top = &r->rows[0];
	bot = &r->rows[r->nrow - 1];
	if (top->maxw > bot->maxw || (top->maxw == bot->maxw &&
	    top->nframes == 1 && top->first == r->all &&
	    !(bot->nframes == 1 && bot->first == r->all)))
		r->base = 0, r->flame = 0;
	else
		r->base = r->nrow - 1, r->flame = 1;
	b = &r->rows[r->base];
	if (b->maxw < r->maxw)
		return fold_seterr("%s: the widest frame is neither in the "
		    "top nor in the bottom row", fold_in_name(r->in));
	r->skiproot = b->nframes == 1 && b->first == r->all;
	r->total = fold_count_val(&b->n);
	if (b->pct > 0)
		r->total = r->total * 100 / b->pct;
	if (r->diffinput) {
		r->differential = 1;
		/* deltas are shown to 0.01% of the total */
		if (r->total * 0.5e-4 >= 0.5)
			r->approx = 1;
	}
	/*
	 * Coordinates are rounded (or cut) to the last decimal written
	 * (inferno's fg:x and fg:w are exact), but every frame's edges by
	 * the same rule, which keeps their order: a frame within another
	 * is drawn within it, to the noise of adding x and width. Where a
	 * frame's earlier siblings end is known to some units only, from
	 * one sample's width: the widest frame's over its count.
	 */
	r->xunit = unit = r->nfg == r->nin ? 1e-6 : pow(10, -r->xdec);
	r->tol = unit * 1e-3 + 1e-9 * fabs(b->x + b->maxw);
	r->wpt = fold_count_val(&b->n) > 0 ? b->maxw / fold_count_val(&b->n) :
	    0;
	if ((ret = walk(r, 0)) < 0)
		return ret;
	if (ret == 0)
		return walk(r, 1);
	return byplace(r);
}

static void
resetinput(struct svgread_reader *r)
{
	closeruns(r);
	r->nrec = 0;
	r->nrow = 0;
	r->hasbase = r->diffinput = r->hasunit = 0;
	r->xdec = 0;
	r->nin = r->nfg = 0;
	r->edepth = r->intitle = 0;
	r->gdepth = -1;
	r->stop = 0;
	r->nstk = 0;
}

/*
 * The unit of the input just read: the one its titles name after the
 * count ("ms": milliseconds), samples when they name none or no unit.
 */
static const char *
svgread_unit(const void *rp)
{
	const struct svgread_reader *r = rp;
	const char *u;
	size_t n;

	if (r->opt.countname)	/* every title's, or the frame was bad */
		u = fold_unit_of_symbol(r->opt.countname,
		    strlen(r->opt.countname), &n);
	else if (r->hasunit)
		u = fold_unit_of_symbol(r->unit, r->unitlen, &n);
	else
		u = NULL;
	return u;
}

static int
svgread_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct svgread_reader *r = rp;
	xmlSAXHandler sax;
	const char *buf, *u, *why;
	size_t len;
	int rc, perr = 0, ret = 0;

	if (!(r->xml = fold_libxml(&why)))
		return fold_seterr("%s: cannot read SVG without libxml2: %s",
		    fold_in_name(in), why);
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
	r->ctxt = r->xml->CreatePushParserCtxt(&sax, r, NULL, 0,
	    fold_in_name(in));
	if (!r->ctxt)
		return fold_seterr("%s: cannot start the XML parser",
		    fold_in_name(in));
	r->xml->CtxtUseOptions(r->ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR |
	    XML_PARSE_NOWARNING);
	while ((rc = fold_in_chunk(in, &buf, &len)) > 0) {
		perr = r->xml->ParseChunk(r->ctxt, buf, (int)len, 0);
		if (perr != 0 || r->stop)
			break;
	}
	if (rc == 0 && !r->stop && !perr)
		perr = r->xml->ParseChunk(r->ctxt, NULL, 0, 1);
	if (r->stop) {
		ret = r->stop;
		goto done;
	}
	if (rc < 0 || perr || !r->ctxt->wellFormed) {
		char msg[512];
		if (rc >= 0) {
			const xmlError *e = r->xml->CtxtGetLastError(r->ctxt);
			const char *m = e && e->message ? e->message :
			    "malformed XML";
			int mlen = strlen(m);
			while (mlen > 0 && (m[mlen - 1] == '\n' ||
			    m[mlen - 1] == ' '))
				mlen--;
			fold_seterr_at(fold_in_name(in), e && e->line > 0 ?
			    e->line : 0, "not a well-formed SVG: %.*s", mlen,
			    m);
		}
		snprintf(msg, sizeof msg, "%s", fold_err());
		/* what was read before the fault is kept; the fault, not what
		   its frames lack, is the error */
		if ((ret = rebuild(r)) != -2) {
			fold_seterr("%s", msg);
			ret = -1;
		}
		goto done;
	}
	ret = rebuild(r);
	/* the unit the titles name, for a differential graph's own table
	   (the run's has it from the unit hook) */
	if (ret == 0 && r->differential && (u =
	    svgread_unit(r)) && fold_stacks_set_unit(r->st, u, strlen(u)) < 0)
		ret = fold_seterr_at(fold_in_name(in), 0, "%s", fold_err());
done:
	/* an internal DTD subset makes libxml2 start a document of its own */
	if (r->ctxt->myDoc)
		r->xml->FreeDoc(r->ctxt->myDoc);
	r->xml->FreeParserCtxt(r->ctxt);
	r->ctxt = NULL;
	closeruns(r);
	return ret;
}

/* The "after" column of from's stacks, added to to (one column). */
static int
addafter(struct fold_stacks *to, struct fold_stacks *from)
{
	const uint32_t *ids;
	size_t i, n;

	for (i = 0; i < fold_stacks_len(from); i++) {
		ids = fold_stacks_ids(from, i, &n);
		if (fold_stacks_add(to, ids, n, fold_stacks_counts(from, i) + 1)
		    < 0)
			return -1;
	}
	return 0;
}

static int
svgread_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	struct svgread_reader *r = rp;
	char buf[FOLD_COUNT_BUFSZ], msg[FOLD_COUNT_BUFSZ + 200];

	if (!fold_count_iszero(&r->rootself)) {
		fold_count_fmt(&r->rootself, buf);
		snprintf(msg, sizeof msg, "the root \"all\" counts %s more than "
		    "the frames drawn on it (too narrow to draw): not written",
		    buf);
		say(arg, msg);
	}
	if (r->approx && r->differential) {
		snprintf(msg, sizeof msg, "differential graph: the before counts "
		    "are derived from deltas shown to 0.01%% of the total, and "
		    "so are approximate");
		say(arg, msg);
	}
	if (r->drawn_frames == 0)
		say(arg, "no frames in the input");
	if (!r->differential && addafter(r->dst, r->st) < 0) {
		say(arg, fold_err());
		return -1;
	}
	return 0;
}

static uint64_t
svgread_records(const void *r)
{
	return ((const struct svgread_reader *)r)->drawn_frames;
}

/* A differential graph is written with both its columns. */
static int
svgread_output(void *rp, struct fold_out *out)
{
	struct svgread_reader *r = rp;

	if (!r->differential)
		return 0;
	fold_write(out, r->st);
	return 1;
}

static const struct fold_option svgread_options[] = {
	{ .name = "countname", .arg = "NAME", .kind = FOLD_OPT_STRING,
	    .off = offsetof(struct svgread_opt, countname),
	    .reject = ",()\n", .what = "a unit",
	    .help = "the unit of the counts in the titles (default: any)" },
	{ .name = NULL }
};

static const struct svgread_opt svgread_defaults = SVGREAD_OPT_INIT;

const struct format svgread_format = {
	.id = &svgread_id,
	.kind = FOLD_DOCUMENT,
	.one = "frame",
	.many = "frames",
	.options = svgread_options,
	.optsize = sizeof(struct svgread_opt),
	.defaults = &svgread_defaults,
	.open = svgread_open,
	.read = svgread_read,
	.unit = svgread_unit,
	.records = svgread_records,
	.finish = svgread_finish,
	.output = svgread_output,
	.close = svgread_close,
};
