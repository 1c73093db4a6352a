/*
 * Flame graph SVGs back to folded stacks.
 *
 * Reads the SVG that flamegraph.pl (any version since 2012), inferno or
 * our own flamegraph-svg drew, with libxml2's streaming (SAX) parser, and
 * recovers the stacks that drew it. A frame is a <g> holding a <title>
 * ("NAME (N samples, P%)", or "(N samples, P%; +D%)" in a differential
 * graph; "1,234" grouped counts and any --countname unit) and a <rect>
 * (x, y, width; inferno's exact fg:x and fg:w when there). Old versions'
 * onmouseover="s('...')" stands in for a missing title.
 *
 * The rows are the distinct y values; the base row is the one with the
 * widest frame (the bottom of a flame graph, the top of an icicle). A
 * frame's parent is the frame one row nearer the base whose x-range holds
 * it, and its self count is its count less its children's: so each
 * frame with a self count gives one stack. The synthetic root "all" is
 * left out. Frames the renderer left out for being too narrow are lost;
 * their counts stay with their parent as self time, so totals are kept.
 *
 * Frames are put in (x, row) order before the tree is rebuilt: SVGs of
 * flamegraph.pl list them in hash order. Up to SVGREAD_RUN frames are
 * sorted in memory; beyond that, sorted runs go to temporary files
 * (tmpfile(3)) and are merged, so memory stays bounded whatever the size
 * of the SVG.
 */
#ifndef FORMATS_SVGREAD_H
#define FORMATS_SVGREAD_H

#include <stddef.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"

/* Frames sorted in memory before they are spilled to a temporary file. */
#define SVGREAD_RUN 131072

struct svgread_opt {
	const char *countname;	/* the unit word the titles must use
				   ("samples", "bytes", "us"); NULL: any,
				   the same throughout an input */
};

#define SVGREAD_OPT_INIT { NULL }

struct svgread_reader;

/*
 * A reader adding to st (whose frames it interns; st must outlive it).
 * opt is copied, its strings are not. With a 2-column table, a
 * differential graph gives "before after" counts (before from each
 * title's delta) and any other graph its count in both; with 1 column,
 * the counts of the titles. The caller owns the result.
 */
struct svgread_reader *svgread_reader_new(const struct svgread_opt *opt,
    struct fold_stacks *st);
void svgread_reader_free(struct svgread_reader *r);

/*
 * Reads one whole SVG. Bad frames are counted in diag. Returns 0; -1
 * with a message when this input failed (not XML, a temporary file
 * error; what was read before is kept); -2 with a message on a strict
 * warning or a count overflow.
 */
int svgread_read(struct svgread_reader *r, struct fold_in *in,
    struct fold_diag *diag);

/*
 * How sure it is that an input starting with head[0..n) is a flame graph
 * SVG: 0 not, 1 an SVG, 2 an SVG with flame graph frames.
 */
int svgread_detect(const char *head, size_t n, int eof);

/* 1 when some input read was a differential graph. */
int svgread_differential(const struct svgread_reader *r);

/* The end-of-run notes (what was dropped or approximated), to say(). */
void svgread_summary(const struct svgread_reader *r,
    void (*say)(void *arg, const char *msg), void *arg);

#endif
