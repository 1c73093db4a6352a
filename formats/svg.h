/*
 * Flame graphs as SVG.
 *
 * Renders folded stacks (one count column, or two for a differential
 * "before after" profile) as a self-contained SVG in the look of the
 * original flamegraph.pl: frames merged by prefix and sorted by name,
 * widths proportional to counts, the "hot" palette, Verdana text, and an
 * embedded script for zoom, search and details. Frame names are untrusted:
 * the output is well-formed XML for any input bytes (markup characters
 * escaped, control bytes and invalid UTF-8 replaced by U+FFFD) and the
 * script only ever reads names as text.
 *
 * Colours are derived from the frame name (the same name gets the same
 * colour in every graph); nothing is random unless asked for. The
 * palettes are formats/palette.h's, the escaping formats/xml.h's, the
 * --nameattr file formats/nameattr.h's.
 *
 *	struct fold_svg *g = fold_svg_new(&opt);
 *	fold_svg_read(g, in, &diag);		(once per input)
 *	fold_svg_write(g, out, &info);
 *	fold_svg_free(g);
 */
#ifndef FOLD_SVG_H
#define FOLD_SVG_H

#include <stddef.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/output.h"
#include "libfold/report.h"
#include "libfold/stacks.h"
#include "formats/palette.h"
#include "formats/split.h"
#include "formats/xml.h"

/* How to draw; FOLD_SVG_OPT_INIT gives flamegraph.pl's defaults. */
struct fold_svg_opt {
	struct split_opt split;	/* how a large file is read */
	const char *title;	/* NULL: "Flame Graph", "Icicle Graph" or
				   "Flame Chart" by mode */
	const char *subtitle;	/* second heading, or NULL */
	const char *notes;	/* text put in a comment, or NULL */
	double width;		/* image width, pixels */
	double frameheight;	/* height of one frame, pixels */
	const char *fonttype;
	double fontsize;
	double fontwidth;	/* average glyph width relative to fontsize */
	double minwidth;	/* frames narrower are left out: pixels, or */
	int minwidth_pct;	/*   when set, percent of the total */
	const char *countname;	/* the unit word of counts; NULL: the
				   profile's ("samples", "ns"), then the
				   count scaled too ("420 ms") */
	const char *nametype;	/* "Function:" */
	const char *nameattr;	/* file of per-frame attributes, or NULL */
	double total;		/* width of the whole graph in counts; used
				   only when above the sum of the counts */
	double factor;		/* counts are shown multiplied by this */
	enum fold_palette_kind colors;
	const char *bgcolors;	/* NULL (the palette's), yellow, blue,
				   green, grey or #rrggbb */
	int hash;		/* colours by flamegraph.pl's name hash */
	int random;		/* random colours (not reproducible) */
	const char *cp;		/* palette map file read and rewritten
				   (consistent colours across graphs), or NULL */
	int reverse;		/* reverse each stack before merging */
	int inverted;		/* icicle graph: root at the top */
	int flamechart;		/* input order, no sorting or merging of
				   non-adjacent stacks */
	int negate;		/* swap red and blue in differentials */
	/*
	 * A differential graph colours each frame by a change from before
	 * to after, red for growth and blue for loss, the largest change
	 * saturated; a label on a fill too dark for black is white
	 * (fold_palette_dark). colorby says which change: of the frame's
	 * own count (FOLD_METRIC_SELF, flamegraph.pl's) or of its total,
	 * its callees' counts with it (FOLD_METRIC_TOTAL). Without report
	 * the change is in counts, as flamegraph.pl takes it, and the
	 * tooltip gives it in percent of the total after; with report it
	 * is measured as the report measures a function
	 * (fold_diffreport_value: the change in share of each profile's
	 * total, or in count per unit of work), whatever the totals, and
	 * the tooltip gives both changes as its table writes them
	 * ("self +1.20pp, total +3.10pp"); negate then swaps the colours
	 * only.
	 */
	enum fold_metric colorby;
	const struct fold_diffreport *report;	/* must outlive the graph */
	int javascript;		/* embed the interactive script */
	int pretty;		/* indented, one element per line */
	int embed;		/* no XML declaration or doctype: the <svg>
				   element alone, to inline in an HTML page */
};

#define FOLD_SVG_OPT_INIT { .width = 1200, .frameheight = 16, \
	.fonttype = "Verdana", .fontsize = 12, .fontwidth = 0.59, \
	.minwidth = 0.1, .nametype = "Function:", \
	.factor = 1, .colors = FOLD_PALETTE_HOT, .javascript = 1 }

/* What fold_svg_write found, for the caller to report. */
struct fold_svg_info {
	int empty;		/* no counts: a "no data" picture was drawn */
	int total_ignored;	/* opt.total was below the sum of the counts
				   by more than 2% (and so not used) */
	int differential;	/* the input had two count columns */
	double sum;		/* the sum of the counts (of the width column) */
	size_t frames;		/* frames drawn */
};

/*
 * A new graph with the options opt (copied; the strings must outlive the
 * graph). Reads opt->nameattr if set. NULL with a message when that file
 * cannot be read or is malformed. The caller owns the result.
 */
struct fold_svg *fold_svg_new(const struct fold_svg_opt *opt);

/*
 * Reads folded stacks from in and adds them to the graph. A line with
 * two counts makes the graph a differential one (a single count then
 * reads as "0 COUNT"). Bad lines are counted in diag. Returns 0, or -1
 * with a message on a read error, a strict warning or overflow.
 */
int fold_svg_read(struct fold_svg *g, struct fold_in *in,
    struct fold_diag *diag);

/*
 * Adds the stacks of st (one count column, or two for a differential) to
 * the graph, as fold_svg_read would add them as text. Returns 0, or -1
 * with a message on overflow.
 */
int fold_svg_add(struct fold_svg *g, const struct fold_stacks *st);

/*
 * Merges what was read, lays it out and writes the SVG to out; reads and
 * rewrites opt->cp when set. info (may be NULL) tells what was found.
 * Returns 0, or -1 with a message (overflow, palette file error).
 * Write errors are left in out (fold_out_close reports them).
 */
int fold_svg_write(struct fold_svg *g, struct fold_out *out,
    struct fold_svg_info *info);

/* Frees g and all it holds; g may be NULL. */
void fold_svg_free(struct fold_svg *g);

#endif
