#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/count.h"
#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/hash.h"
#include "libfold/intern.h"
#include "libfold/jobs.h"
#include "libfold/stacks.h"
#include "libfold/str.h"
#include "libfold/tree.h"
#include "libfold/unit.h"
#include "formats/folded.h"
#include "formats/nameattr.h"
#include "formats/palette.h"
#include "formats/svg.h"
#include "formats/unitshow.h"
#include "formats/xml.h"

/* formats/flamegraph.js as a C string, made by the Makefile */
static const char flamegraph_js[] =
#include "formats/flamegraph_js.h"
;

#define XPAD 10			/* left and right margin */
#define FRAMEPAD 1		/* vertical gap between frames */

/* A stack kept in input order, for --flamechart. */
struct chartline {
	size_t off;		/* into ids */
	size_t n;
	struct fold_count c[2];
};

struct fold_svg {
	struct fold_svg_opt opt;
	struct fold_intern *frames;
	struct fold_stacks *st;		/* merged mode */
	uint32_t *ids;			/* flame chart mode */
	size_t nids, capids;
	struct chartline *lines;
	size_t nlines, caplines;
	struct fold_nameattr *attrs;	/* --nameattr, or NULL */
	struct fold_palette *pal;	/* colours by name */
	int twocols;			/* a line had two counts */
};

/* What the layout computed, shared by the writers. */
struct layout {
	struct fold_svg *g;
	struct fold_out *out;
	const struct fold_tree *t;
	char id[32];			/* unique per document */
	double width, height, top, bottom;
	double timemax, wpt;		/* counts and pixels per count */
	double maxdelta;
	int diff;
	const char *countname;		/* the word after a title's count */
	const char *unit;		/* to show counts scaled in, or NULL */
	double *x;			/* start of each node, in counts */
	unsigned char *drawn;
	uint32_t maxdepth;
};

/* ---- numbers ---- */

/* A number with at most d decimals, trailing zeros dropped ("12", "1.5"). */
static void
putnum(struct fold_out *out, double v, int d)
{
	char buf[FOLD_COUNT_BUFSZ];
	size_t n;

	if (!isfinite(v))
		v = 0;
	n = fold_fixed_fmt(v, d, buf);
	if (memchr(buf, '.', n)) {
		while (buf[n - 1] == '0')
			n--;
		if (buf[n - 1] == '.')
			n--;
	}
	if (n == 2 && buf[0] == '-' && buf[1] == '0')
		fold_out_write(out, "0", 1);
	else
		fold_out_write(out, buf, n);
}

/* A number with exactly d decimals, as flamegraph.pl prints coordinates. */
static void
putfix(struct fold_out *out, double v, int d)
{
	char buf[FOLD_COUNT_BUFSZ];

	if (v < 0 && v > -0.5)
		v = 0;
	fold_out_write(out, buf, fold_fixed_fmt(v, d, buf));
}

/* ---- reading ---- */

struct fold_svg *
fold_svg_new(const struct fold_svg_opt *opt)
{
	struct fold_svg *g = fold_calloc(1, sizeof *g);

	g->opt = *opt;
	g->frames = fold_intern_new();
	/* a flame chart keeps its lines in order, the table only its unit */
	g->st = fold_stacks_new(g->frames, 2);
	g->pal = fold_palette_new(opt->colors, opt->hash, opt->random);
	if (opt->nameattr && !(g->attrs = fold_nameattr_load(opt->nameattr))) {
		fold_svg_free(g);
		return NULL;
	}
	return g;
}

void
fold_svg_free(struct fold_svg *g)
{
	if (!g)
		return;
	fold_stacks_free(g->st);
	fold_intern_free(g->frames);
	free(g->ids);
	free(g->lines);
	fold_nameattr_free(g->attrs);
	fold_palette_free(g->pal);
	free(g);
}

/* Flame chart input: every stack kept, in order. */
static struct chartline *
chart_line(struct fold_svg *g, const struct fold_count *c)
{
	struct chartline *cl;

	g->lines = fold_grow(g->lines, &g->caplines, g->nlines + 1,
	    sizeof *g->lines);
	cl = &g->lines[g->nlines++];
	cl->off = g->nids;
	cl->c[0] = c[0];
	cl->c[1] = c[1];
	return cl;
}

static void
chart_add(struct fold_svg *g, const char *line, size_t slen,
    const struct fold_count *c)
{
	struct chartline *cl = chart_line(g, c);

	g->nids = fold_intern_stack(g->frames, line, slen, &g->ids, &g->capids,
	    g->nids);
	cl->n = g->nids - cl->off;
}

static void
chart_ids(struct fold_svg *g, const uint32_t *ids, size_t n,
    const struct fold_count *c)
{
	struct chartline *cl = chart_line(g, c);

	g->ids = fold_grow(g->ids, &g->capids, g->nids + n, sizeof *g->ids);
	memcpy(g->ids + g->nids, ids, n * sizeof *ids);
	g->nids += n;
	cl->n = n;
}

/*
 * fold_read with two columns; a line with two counts makes the graph a
 * differential one. A flame chart keeps every line, in order.
 */
int
fold_svg_read(struct fold_svg *g, struct fold_in *in, struct fold_diag *diag)
{
	struct fold_count c[2];
	const char *line, *unit;
	size_t len, slen, ulen;
	int k, r, u;

	if (!g->opt.flamechart) {
		if ((r = folded_read(in, g->st, NULL, diag, &g->opt.split)) ==
		    2)
			g->twocols = 1;
		return r < 0 ? -1 : 0;
	}
	while ((r = fold_in_line(in, &line, &len)) > 0) {
		k = fold_parse_line(line, len, &slen, c, 2);
		if (k == 0)
			continue;
		if (k < 0) {
			if (fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
			    "%s", fold_err()) < 0)
				return -1;
			continue;
		}
		if (k == 2) {
			g->twocols = 1;
		} else {
			c[1] = c[0];
			c[0] = fold_count_u64(0);
		}
		/* the unit line (see fold_read), not a frame of the chart */
		if (fold_count_iszero(&c[0]) && fold_count_iszero(&c[1]) &&
		    (u = fold_unit_line(line, slen, &unit, &ulen)) != 0) {
			if (u > 0 && fold_stacks_set_unit(g->st, unit, ulen) < 0)
				return fold_seterr_at(fold_in_name(in),
				    fold_in_lineno(in), "%s", fold_err());
			continue;
		}
		chart_add(g, line, slen, c);
	}
	return r;
}

int
fold_svg_add(struct fold_svg *g, const struct fold_stacks *st)
{
	const struct fold_intern *from = fold_stacks_frames(st);
	int ncols = fold_stacks_ncols(st);
	uint32_t *ids = NULL;
	size_t i, j, n, cap = 0;
	int ret = 0;

	if (ncols == 2)
		g->twocols = 1;
	if (fold_stacks_unit(st) && fold_stacks_set_unit(g->st,
	    fold_stacks_unit(st), strlen(fold_stacks_unit(st))) < 0)
		return -1;
	for (i = 0; i < fold_stacks_len(st); i++) {
		const uint32_t *src = fold_stacks_ids(st, i, &n);
		const struct fold_count *c =
		    fold_stacks_counts((struct fold_stacks *)st, i);
		struct fold_count two[2];
		ids = fold_grow(ids, &cap, n, sizeof *ids);
		for (j = 0; j < n; j++) {
			size_t len;
			const char *s = fold_intern_str(from, src[j], &len);
			ids[j] = fold_intern(g->frames, s, len);
		}
		if (ncols == 1) {
			two[0] = fold_count_u64(0);
			two[1] = c[0];
			c = two;
		}
		if (g->opt.flamechart) {
			chart_ids(g, ids, n, c);
		} else if (fold_stacks_add(g->st, ids, n, c) < 0) {
			ret = -1;
			break;
		}
	}
	free(ids);
	return ret;
}

static void
reverse_ids(uint32_t *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		uint32_t t = ids[i];
		ids[i] = ids[n - 1 - i];
		ids[n - 1 - i] = t;
	}
}

/* The table with every stack reversed (leaf first), for --reverse. */
static int
reverse_stacks(struct fold_svg *g)
{
	struct fold_stacks *rev = fold_stacks_new(g->frames, 2);
	const char *unit = fold_stacks_unit(g->st);
	uint32_t *buf = NULL;
	size_t i, n, cap = 0;

	if (unit)
		fold_stacks_force_unit(rev, unit);

	for (i = 0; i < fold_stacks_len(g->st); i++) {
		const uint32_t *ids = fold_stacks_ids(g->st, i, &n);
		buf = fold_grow(buf, &cap, n, sizeof *buf);
		memcpy(buf, ids, n * sizeof *buf);
		reverse_ids(buf, n);
		if (fold_stacks_add(rev, buf, n, fold_stacks_counts(g->st, i)) < 0) {
			free(buf);
			fold_stacks_free(rev);
			return -1;
		}
	}
	free(buf);
	fold_stacks_free(g->st);
	g->st = rev;
	return 0;
}

/* ---- building the tree ---- */

/*
 * The flame chart tree, fed in input order. The start of each node is
 * recorded as it is created: new nodes are the tail of the node array.
 */
static struct fold_tree *
chart_tree(struct fold_svg *g, double min_total, double **startp)
{
	struct fold_tree *t = fold_tree_new(g->frames, 2, min_total);
	const uint32_t *prev = NULL;
	size_t i, j, prevn = 0, cap = 0, len;
	double *start = NULL, now = 0;
	int ok = 1;

	for (i = 0; i < g->nlines; i++) {
		struct chartline *cl = &g->lines[i];
		uint32_t *ids = g->ids + cl->off;
		size_t shared = 0, k;

		if (g->opt.reverse)
			reverse_ids(ids, cl->n);
		while (shared < prevn && shared < cl->n &&
		    prev[shared] == ids[shared])
			shared++;
		if (fold_tree_add(t, ids, cl->n, cl->c) < 0)
			goto fail;
		len = fold_tree_len(t);
		k = cl->n - shared;
		if (k && (len < k || fold_tree_node(t, len - 1)->depth != cl->n ||
		    fold_tree_node(t, len - 1)->frame != ids[cl->n - 1]))
			ok = 0;	/* not the tree we expect: lay out by order */
		if (ok)
			start = fold_grow(start, &cap, len, sizeof *start);
		for (j = len - k; ok && j < len; j++)
			start[j] = now;
		now += fold_count_val(&cl->c[1]);
		prev = ids;
		prevn = cl->n;
	}
	if (fold_tree_finish(t) < 0)
		goto fail;
	if (!ok) {
		free(start);
		start = NULL;
	}
	*startp = start;
	return t;
fail:
	free(start);
	fold_tree_free(t);
	return NULL;
}

/* ---- writing ---- */

/*
 * The change of metric k of node nd, in m as a report measures it
 * (m->v and m->diff).
 */
static void
measure(const struct fold_diffreport *r, const struct fold_node *nd,
    enum fold_metric k, struct fold_diffmetric *m)
{
	int c;

	memset(m, 0, sizeof *m);
	for (c = 0; c < 2; c++) {
		m->count[c] = k == FOLD_METRIC_TOTAL ? nd->total[c] :
		    nd->self[c];
		m->v[c] = fold_diffreport_value(r, c, &m->count[c]);
	}
	m->diff = m->v[1] - m->v[0];
}

/*
 * The change of metric k of node nd: in counts, or as the graph's
 * report measures it. What the report's table would write as no change
 * ("+0.00pp") is none, so that such a frame stays white.
 */
static double
change(const struct fold_svg *g, const struct fold_node *nd,
    enum fold_metric k)
{
	const struct fold_count *c = k == FOLD_METRIC_TOTAL ? nd->total :
	    nd->self;
	struct fold_diffmetric m;
	char buf[64];

	if (!g->opt.report)
		return fold_count_val(&c[1]) - fold_count_val(&c[0]);
	measure(g->opt.report, nd, k, &m);
	fold_diffreport_fmt(g->opt.report, &m, FOLD_DIFF_CHANGE, 0, buf,
	    sizeof buf);
	return strtod(buf, NULL) == 0 ? 0 : m.diff;
}

/* "; self +1.20pp, total +3.10pp": both changes, as the report's table. */
static void
report_changes(struct fold_out *o, const struct fold_diffreport *r,
    const struct fold_node *nd)
{
	static const char *const what[] = { "; self ", ", total " };
	struct fold_diffmetric m;
	char buf[64];
	int k;

	for (k = FOLD_METRIC_SELF; k <= FOLD_METRIC_TOTAL; k++) {
		measure(r, nd, k, &m);
		fold_diffreport_fmt(r, &m, FOLD_DIFF_CHANGE, 0, buf,
		    sizeof buf);
		fold_out_puts(o, what[k]);
		fold_out_puts(o, buf);
	}
}

/*
 * Starts an element at nesting level: on its own indented line under
 * --pretty-xml; otherwise one line per top-level element and per frame.
 */
static void
nl(struct layout *L, int level)
{
	int i;

	if (!L->g->opt.pretty) {
		if (level <= 2)
			fold_out_putc(L->out, '\n');
		return;
	}
	fold_out_putc(L->out, '\n');
	for (i = 0; i < level; i++)
		fold_out_puts(L->out, "  ");
}

/* Before a closing tag: a line of its own only under --pretty-xml. */
static void
nlclose(struct layout *L, int level)
{
	if (L->g->opt.pretty)
		nl(L, level);
}

/* A text element outside the frames: id suffix, position, content. */
static void
text(struct layout *L, const char *idsuf, double x, double y,
    const char *extra, const char *content)
{
	struct fold_out *o = L->out;

	nl(L, 1);
	fold_out_puts(o, "<text");
	if (idsuf)
		fold_out_printf(o, " id=\"%s-%s\"", L->id, idsuf);
	fold_out_puts(o, " x=\"");
	putnum(o, x, 2);
	fold_out_puts(o, "\" y=\"");
	putnum(o, y, 2);
	fold_out_putc(o, '"');
	if (extra)
		fold_out_puts(o, extra);
	fold_out_putc(o, '>');
	fold_xml_puts(o, content);
	fold_out_puts(o, "</text>");
}

/* The size of the picture, for the <svg> and its background. */
static void
size_attrs(struct layout *L)
{
	fold_out_puts(L->out, " width=\"");
	putnum(L->out, L->width, 2);
	fold_out_puts(L->out, "\" height=\"");
	putnum(L->out, L->height, 2);
	fold_out_putc(L->out, '"');
}

static void
header(struct layout *L, const char *title)
{
	const struct fold_svg_opt *opt = &L->g->opt;
	struct fold_out *o = L->out;
	const char *id = L->id, *bg1, *bg2;

	fold_palette_background(opt->colors, opt->bgcolors, &bg1, &bg2);

	if (!opt->embed)
		fold_out_puts(o, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n");
	fold_out_printf(o, "<svg version=\"1.1\" id=\"%s\"", id);
	size_attrs(L);
	fold_out_puts(o, " viewBox=\"0 0 ");
	putnum(o, L->width, 2);
	fold_out_putc(o, ' ');
	putnum(o, L->height, 2);
	fold_out_puts(o, "\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "xmlns:xlink=\"http://www.w3.org/1999/xlink\" font-family=\"");
	fold_xml_puts(o, opt->fonttype);
	/* without the font, a sans-serif looks closer than the default serif */
	if (!strchr(opt->fonttype, ','))
		fold_out_puts(o, ", sans-serif");
	fold_out_puts(o, "\" font-size=\"");
	putnum(o, opt->fontsize, 2);
	fold_out_puts(o, "\">");
	nl(L, 1);
	fold_out_puts(o, "<!-- Flame graph: the width of a frame is its share "
	    "of the samples; the x order is alphabetical and means nothing. "
	    "-->");
	if (opt->notes) {
		nl(L, 1);
		fold_xml_comment(o, "NOTES: ", opt->notes);
	}
	nl(L, 1);
	fold_out_printf(o, "<defs><linearGradient id=\"%s-background\" "
	    "y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\"><stop stop-color=\"%s\" "
	    "offset=\"5%%\"/><stop stop-color=\"%s\" offset=\"95%%\"/>"
	    "</linearGradient></defs>", id, bg1, bg2);
	nl(L, 1);
	fold_out_printf(o, "<style type=\"text/css\">"
	    "#%s-frames > g:hover { stroke:black; stroke-width:0.5; "
	    "cursor:pointer; } ", id);
	if (opt->javascript)
		fold_out_printf(o, "#%s .hide { display:none; } "
		    "#%s .parent { opacity:0.5; } "
		    "#%s-search, #%s-ignorecase { opacity:0.1; cursor:pointer; } "
		    "#%s-search:hover, #%s-search.show, #%s-ignorecase:hover, "
		    "#%s-ignorecase.show { opacity:1; } "
		    "#%s-unzoom { cursor:pointer; } ",
		    id, id, id, id, id, id, id, id, id);
	fold_out_puts(o, "</style>");
	nl(L, 1);
	fold_out_puts(o, "<rect x=\"0\" y=\"0\"");
	size_attrs(L);
	fold_out_printf(o, " fill=\"url(#%s-background)\"/>", id);
	{
		char extra[64];
		snprintf(extra, sizeof extra, " text-anchor=\"middle\" "
		    "font-size=\"%g\"", opt->fontsize + 5);
		text(L, "title", floor(L->width / 2), opt->fontsize * 2, extra,
		    title);
	}
	if (opt->subtitle)
		text(L, "subtitle", floor(L->width / 2), opt->fontsize * 4,
		    " text-anchor=\"middle\" fill=\"rgb(160,160,160)\"",
		    opt->subtitle);
}

/* The "no data" picture. */
static void
write_empty(struct layout *L, const char *title)
{
	const struct fold_svg_opt *opt = &L->g->opt;

	L->height = opt->fontsize * 7;
	header(L, title);
	text(L, "nodata", floor(L->width / 2), opt->fontsize * 5,
	    " text-anchor=\"middle\"", "No stack counts found in the input.");
	nl(L, 0);
	fold_out_puts(L->out, "</svg>\n");
}

static void
count_text(const struct fold_svg_opt *opt, const struct fold_count *c,
    char *buf)
{
	struct fold_count v = *c;

	if (opt->factor != 1 && fold_count_scale(&v, opt->factor) < 0)
		v = fold_count_double(fold_count_val(c) * opt->factor);
	fold_count_fmt_grouped(&v, buf);
}

static void
write_frame(struct layout *L, size_t i, const char *name, size_t namelen)
{
	struct fold_svg *g = L->g;
	const struct fold_svg_opt *opt = &g->opt;
	const struct fold_node *nd = fold_tree_node(L->t, i);
	struct fold_out *o = L->out;
	const struct fold_frameattr *na = NULL;
	char cnt[FOLD_COUNT_BUFSZ], colbuf[FOLD_COLOR_BUFSZ];
	char namebuf[FOLD_COLOR_BUFSZ];
	char shown[FOLD_UNIT_SHOWSZ];
	const char *color;
	double x1, x2, y1, y2, w, val = fold_count_val(&nd->total[1]);
	double delta = L->diff ? change(g, nd, opt->colorby) : 0;
	size_t chars, k;

	x1 = XPAD + L->x[i] * L->wpt;
	x2 = XPAD + (L->x[i] + val) * L->wpt;
	if (opt->inverted) {
		y1 = L->top + nd->depth * opt->frameheight;
		y2 = L->top + (nd->depth + 1) * opt->frameheight - FRAMEPAD;
	} else {
		y1 = L->height - L->bottom - (nd->depth + 1) * opt->frameheight +
		    FRAMEPAD;
		y2 = L->height - L->bottom - nd->depth * opt->frameheight;
	}
	x1 = round(x1 * 10) / 10;
	x2 = round(x2 * 10) / 10;
	w = x2 - x1;

	if (i > 0 && g->attrs)
		na = fold_nameattr_find(g->attrs, name, namelen);

	if (namelen == 2 && memcmp(name, "--", 2) == 0)
		color = "rgb(160,160,160)";
	else if (namelen == 1 && name[0] == '-')
		color = "rgb(200,200,200)";
	else if (L->diff) {
		fold_palette_delta(delta, L->maxdelta, opt->negate, colbuf);
		color = colbuf;
	} else
		color = fold_palette_color_buf(g->pal, name, namelen, namebuf);
	/* the annotation chose the colour; labels go without, as
	   flamegraph.pl and inferno show them */
	namelen = fold_unannotated(name, namelen);

	nl(L, 2);
	fold_out_puts(o, "<g");
	if (na)
		for (k = 0; k < na->nkv; k += 2) {
			fold_out_printf(o, " %s=\"", na->kv[k]);
			fold_xml_puts(o, na->kv[k + 1]);
			fold_out_putc(o, '"');
		}
	fold_out_putc(o, '>');
	nl(L, 3);
	fold_out_puts(o, "<title>");
	if (na && na->title)
		fold_xml_puts(o, na->title);
	else {
		fold_xml_escape(o, name, namelen);
		count_text(opt, &nd->total[1], cnt);
		/* puts, not printf: a frame's title is the hot path */
		fold_out_puts(o, " (");
		fold_out_puts(o, cnt);
		fold_out_putc(o, ' ');
		fold_xml_puts(o, L->countname);
		/* the exact count, then as read: "(420,000,000 ns, 420 ms" */
		if (L->unit && fold_unit_show(&nd->total[1], L->unit,
		    shown)) {
			fold_out_puts(o, ", ");
			fold_out_puts(o, shown);
		}
		if (i == 0 && val == L->timemax)
			fold_out_puts(o, ", 100%");
		else {
			fold_out_puts(o, ", ");
			putfix(o, 100 * val / L->timemax, 2);
			fold_out_putc(o, '%');
		}
		if (L->diff && i > 0 && opt->report)
			report_changes(o, opt->report, nd);
		else if (L->diff && i > 0) {
			double d = opt->negate ? -delta : delta;
			if (d == 0)
				d = 0;	/* no "-0.00%" */
			fold_out_printf(o, "; %s%.2f%%", d > 0 ? "+" : "",
			    100 * d / L->timemax);
		}
		fold_out_putc(o, ')');
	}
	fold_out_puts(o, "</title>");
	if (na && na->href) {
		nl(L, 3);
		fold_out_puts(o, "<a xlink:href=\"");
		fold_xml_puts(o, na->href);
		fold_out_puts(o, "\" target=\"");
		fold_xml_puts(o, na->target ? na->target : "_top");
		fold_out_puts(o, "\">");
	}
	nl(L, 3);
	fold_out_puts(o, "<rect x=\"");
	putfix(o, x1, 1);
	fold_out_puts(o, "\" y=\"");
	putnum(o, y1, 2);
	fold_out_puts(o, "\" width=\"");
	putfix(o, w, 1);
	fold_out_puts(o, "\" height=\"");
	putnum(o, y2 - y1, 2);
	fold_out_puts(o, "\" fill=\"");
	fold_out_puts(o, color);
	fold_out_puts(o, "\" rx=\"2\" ry=\"2\"/>");
	nl(L, 3);
	fold_out_puts(o, "<text x=\"");
	putfix(o, x1 + 3, 2);
	fold_out_puts(o, "\" y=\"");
	putnum(o, 3 + (y1 + y2) / 2, 2);
	/* only where a change can darken the fill: other labels stay black */
	if (L->diff && fold_palette_dark(color))
		fold_out_puts(o, "\" fill=\"white");
	fold_out_puts(o, "\">");
	chars = (size_t)fmax(0, floor(w / (opt->fontsize * opt->fontwidth)));
	if (chars >= 3) {
		if (fold_xml_nchars(name, namelen) > chars) {
			fold_xml_escape_max(o, name, namelen, chars - 2);
			fold_out_puts(o, "..");
		} else
			fold_xml_escape(o, name, namelen);
	}
	fold_out_puts(o, "</text>");
	if (na && na->href) {
		nlclose(L, 3);
		fold_out_puts(o, "</a>");
	}
	nlclose(L, 2);
	fold_out_puts(o, "</g>");
}

static void
write_script(struct layout *L)
{
	struct fold_out *o = L->out;

	nl(L, 1);
	fold_out_puts(o, "<script type=\"text/ecmascript\"><![CDATA[\n(");
	fold_out_puts(o, flamegraph_js);
	fold_out_printf(o, ")(document.currentScript ? "
	    "document.currentScript.parentNode : "
	    "document.getElementById(\"%s\"), \"%s\");\n]]></script>", L->id,
	    L->id);
}

/* The sums of both columns, the stacks reversed first under --reverse. */
static int
sums(struct fold_svg *g, struct fold_count sum[2])
{
	const struct fold_svg_opt *opt = &g->opt;
	size_t i;

	sum[0] = sum[1] = fold_count_u64(0);
	if (opt->flamechart) {
		for (i = 0; i < g->nlines; i++)
			if (fold_count_add(&sum[0], &g->lines[i].c[0]) < 0 ||
			    fold_count_add(&sum[1], &g->lines[i].c[1]) < 0)
				return -1;
		return 0;
	}
	if (opt->reverse && reverse_stacks(g) < 0)
		return -1;
	if (fold_stacks_total(g->st, 0, &sum[0]) < 0 ||
	    fold_stacks_total(g->st, 1, &sum[1]) < 0)
		return -1;
	return 0;
}

/* The largest change of a stack in a differential, at least 1. */
static double
max_delta(const struct fold_svg *g)
{
	const struct fold_svg_opt *opt = &g->opt;
	size_t i, nst = opt->flamechart ? g->nlines : fold_stacks_len(g->st);
	double max = 1;

	for (i = 0; i < nst; i++) {
		const struct fold_count *c = opt->flamechart ?
		    g->lines[i].c : fold_stacks_counts(g->st, i);
		double d = fabs(fold_count_val(&c[1]) - fold_count_val(&c[0]));
		if (d > max)
			max = d;
	}
	return max;
}

/*
 * The largest change that colours a drawn frame, when that is not
 * flamegraph.pl's (max_delta): of the total, or measured by a report.
 * In counts at least 1, as max_delta; else above 0.
 */
static double
max_change(const struct layout *L)
{
	const struct fold_svg *g = L->g;
	size_t i, n = fold_tree_len(L->t);
	double d, max = g->opt.report ? 0 : 1;

	for (i = 0; i < n; i++) {
		if (!L->drawn[i])
			continue;
		d = fabs(change(g, fold_tree_node(L->t, i), g->opt.colorby));
		if (d > max)
			max = d;
	}
	return max > 0 ? max : 1;
}

/*
 * The x of each node (in counts): after its parent's own samples,
 * children in order, or where the flame chart started it; which nodes
 * are drawn (wide enough, under a drawn parent), and the deepest of them.
 */
static void
place(struct layout *L, const double *start, double min_total)
{
	size_t i, n = fold_tree_len(L->t);
	double *cur = NULL;

	/* big arrays (err.h): pages most often touched already */
	L->x = fold_big_alloc(n, sizeof *L->x);
	L->drawn = fold_big_calloc(n, 1);
	if (!start)
		cur = fold_big_alloc(n, sizeof *cur);
	for (i = 0; i < n; i++) {
		const struct fold_node *nd = fold_tree_node(L->t, i);
		double v = fold_count_val(&nd->total[1]);
		if (i == 0) {
			L->x[0] = 0;
			L->drawn[0] = 1;
		} else {
			if (!L->drawn[nd->parent])
				continue;
			L->x[i] = start ? start[i] : cur[nd->parent];
			L->drawn[i] = v > 0 && v >= min_total;
		}
		if (cur) {
			if (i)
				cur[nd->parent] += v;
			cur[i] = L->x[i] + fold_count_val(&nd->self[1]);
		}
		if (L->drawn[i] && nd->depth > L->maxdepth)
			L->maxdepth = nd->depth;
	}
	fold_big_free(cur, n, sizeof *cur);
}

/* An id from what is drawn, so that two graphs in one page differ. */
static void
make_id(struct layout *L, const char *title)
{
	size_t i, n = fold_tree_len(L->t);
	uint64_t h = fold_fnv1a(FOLD_FNV1A_INIT, title, strlen(title));

	for (i = 0; i < n; i++) {
		const struct fold_node *nd = fold_tree_node(L->t, i);
		size_t len;
		const char *s;
		double v;
		if (!L->drawn[i])
			continue;
		s = i ? fold_intern_str(L->g->frames, nd->frame, &len) : "";
		len = i ? len : 0;
		v = fold_count_val(&nd->total[1]);
		h = fold_fnv1a(h, s, len + 1);
		h = fold_fnv1a(h, &nd->depth, sizeof nd->depth);
		h = fold_fnv1a(h, &v, sizeof v);
		h = fold_fnv1a(h, &L->x[i], sizeof L->x[i]);
	}
	snprintf(L->id, sizeof L->id, "fg%012llx",
	    (unsigned long long)(h >> 16));
}

/* The texts the script fills or reacts to: details, zoom, search. */
static void
write_controls(struct layout *L)
{
	const struct fold_svg_opt *opt = &L->g->opt;
	double by = L->height - L->bottom / 2;

	text(L, "details", XPAD, by, NULL, " ");
	text(L, "unzoom", XPAD, opt->fontsize * 2, " class=\"hide\"",
	    "Reset Zoom");
	text(L, "search", L->width - XPAD - 100, opt->fontsize * 2, NULL,
	    "Search");
	text(L, "ignorecase", L->width - XPAD - 16, opt->fontsize * 2, NULL,
	    "ic");
	text(L, "matched", L->width - XPAD - 100, by, NULL, " ");
}

/*
 * The frames of nodes [a, b) that are drawn, to L->out; returns how
 * many.
 */
static size_t
frames_of(struct layout *L, size_t a, size_t b)
{
	size_t i, nframes = 0;

	for (i = a; i < b && !fold_out_failed(L->out); i++) {
		const struct fold_node *nd = fold_tree_node(L->t, i);
		const char *s = "all";
		size_t len = 3;
		if (!L->drawn[i])
			continue;
		if (i)
			s = fold_intern_str(L->g->frames, nd->frame, &len);
		write_frame(L, i, s, len);
		nframes++;
	}
	return nframes;
}

/*
 * With jobs, the frames are drawn on threads in tasks of TASK_FRAMES
 * frames drawn (a few hundred KB of text), each to memory of its own,
 * written in order as they are done: when there are four tasks' worth at
 * least, and the colours depend on the names alone.
 */
enum { TASK_FRAMES = 1024 };

struct tasks {
	const struct layout *L;
	size_t *from;		/* task k: nodes [from[k], from[k + 1]) */
	size_t *nframes;	/* by task */
};

/* A node's weight in a task: 1 when it is drawn. */
static size_t
drawn_weight(void *arg, size_t i)
{
	const struct layout *L = arg;

	return L->drawn[i] != 0;
}

static void
frames_task(void *arg, size_t k, struct fold_out *mem)
{
	struct tasks *t = arg;
	struct layout M = *t->L;

	M.out = mem;
	t->nframes[k] = frames_of(&M, t->from[k], t->from[k + 1]);
}

/* The group of drawn frames; returns how many. */
static size_t
write_frames(struct layout *L, unsigned jobs)
{
	const struct fold_svg_opt *opt = &L->g->opt;
	struct fold_out *out = L->out;
	struct tasks t = { .L = L };
	size_t k, n = fold_tree_len(L->t), nframes = 0, ntasks = 0, total = 0;

	nl(L, 1);
	fold_out_printf(out, "<g id=\"%s-frames\" data-nametype=\"", L->id);
	fold_xml_puts(out, opt->nametype);
	fold_out_puts(out, "\" data-fontwidth=\"");
	putnum(out, opt->fontwidth, 4);
	fold_out_puts(out, "\">");
	if (jobs != 1 && fold_palette_pure(L->g->pal))
		ntasks = fold_jobs_cut(n, TASK_FRAMES, drawn_weight, L, &t.from,
		    &total);
	if (total < 4 * TASK_FRAMES || (jobs = fold_jobs_count(jobs)) <= 1)
		nframes = frames_of(L, 0, n);
	else {
		t.nframes = fold_calloc(ntasks, sizeof *t.nframes);
		fold_out_jobs(out, ntasks, jobs, frames_task, &t);
		for (k = 0; k < ntasks; k++)
			nframes += t.nframes[k];
		free(t.nframes);
	}
	free(t.from);
	nlclose(L, 1);
	fold_out_puts(out, "</g>");
	return nframes;
}

int
fold_svg_write(struct fold_svg *g, struct fold_out *out,
    struct fold_svg_info *info)
{
	struct fold_svg_opt *opt = &g->opt;
	struct fold_svg_info dummy;
	struct layout L;
	struct fold_tree *t = NULL;
	struct fold_count sum[2];
	double min_total, *start = NULL;
	const char *title;
	int ret = -1;

	if (!info)
		info = &dummy;
	memset(info, 0, sizeof *info);
	memset(&L, 0, sizeof L);
	L.g = g;
	L.out = out;
	L.width = opt->width;
	L.maxdelta = 1;
	strcpy(L.id, "flamegraph");

	if (sums(g, sum) < 0)
		return -1;
	L.diff = g->twocols;
	/* a count is in the profile's unit unless --countname names one;
	   --factor makes it another, which only the user can name */
	L.countname = opt->countname ? opt->countname :
	    fold_unit_symbol(fold_stacks_unit(g->st));
	if (!opt->countname && opt->factor == 1)
		L.unit = fold_stacks_unit(g->st);
	info->differential = L.diff;
	info->sum = fold_count_val(&sum[1]);
	if (L.diff)
		L.maxdelta = max_delta(g);

	title = opt->title ? opt->title : opt->flamechart ? "Flame Chart" :
	    opt->inverted ? "Icicle Graph" : "Flame Graph";
	if (info->sum <= 0) {
		info->empty = 1;
		write_empty(&L, title);
		return 0;
	}
	L.timemax = info->sum;
	if (opt->total > 0 && opt->total < info->sum) {
		if (opt->total / info->sum > 0.02)
			info->total_ignored = 1;
	} else if (opt->total > 0)
		L.timemax = opt->total;
	L.wpt = (L.width - 2 * XPAD) / L.timemax;
	if (L.wpt <= 0 || !isfinite(L.wpt))
		return fold_seterr("--width too small: %g", L.width);
	min_total = opt->minwidth_pct ? L.timemax * opt->minwidth / 100 :
	    opt->minwidth / L.wpt;

	t = opt->flamechart ? chart_tree(g, min_total, &start) :
	    fold_tree_from_stacks(g->st, min_total, split_jobs(&opt->split));
	if (!t)
		return -1;
	L.t = t;
	place(&L, start, min_total);
	free(start);
	if (L.diff && (opt->report || opt->colorby != FOLD_METRIC_SELF))
		L.maxdelta = max_change(&L);
	make_id(&L, title);

	L.top = opt->fontsize * 3 + (opt->subtitle ? opt->fontsize * 2 : 0);
	L.bottom = opt->fontsize * 2 + 10;
	L.height = (L.maxdepth + 1) * opt->frameheight + L.top + L.bottom;

	if (opt->cp && fold_palette_load(g->pal, opt->cp) < 0)
		goto done;
	header(&L, title);
	if (opt->javascript)
		write_controls(&L);
	info->frames = write_frames(&L, split_jobs(&opt->split));
	if (opt->javascript)
		write_script(&L);
	nl(&L, 0);
	fold_out_puts(out, "</svg>\n");
	if (opt->cp && fold_palette_save(g->pal, opt->cp) < 0)
		goto done;
	ret = 0;
done:
	fold_big_free(L.x, fold_tree_len(t), sizeof *L.x);
	fold_big_free(L.drawn, fold_tree_len(t), 1);
	fold_tree_free(t);
	return ret;
}
