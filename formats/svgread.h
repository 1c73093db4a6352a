/*
 * Flame graph SVGs back to folded stacks.
 *
 * Reads the SVG that flamegraph.pl (any version since 2011), inferno or
 * our own flamegraph-svg drew, with libxml2's streaming (SAX) parser, and
 * recovers the stacks that drew it. A frame is a <g> holding a <title>
 * ("NAME (N samples, P%)", or "(N samples, P%; +D%)" in a differential
 * graph; "1,234" grouped counts and any --countname unit) and a <rect>
 * (x, y, width; inferno's exact fg:x and fg:w when there). Old versions'
 * onmouseover="s('...')" stands in for a missing title, on the <g> or,
 * before 2013, on a <rect> standing alone.
 *
 * The rows are the distinct y values; the base is the top or bottom row,
 * whichever holds the wider frame. Counts are exact, coordinates rounded
 * (or cut), so the tree is rebuilt on the counts: a frame's children never
 * count more than it, and each frame's own count (its count less its
 * children's) gives one stack, so the total is the graph's. Frames in
 * the order flamegraph-svg writes them (each after its parent, before its
 * next sibling) take the last frame one row nearer the base as parent;
 * frames in another order (flamegraph.pl's hash order) are placed row by
 * row in a frame below that holds them and has room, from the left and
 * from the right, and it is an error when the two differ. The synthetic
 * root "all" is left out. Frames the renderer left out for being too
 * narrow are lost; their counts stay with their parent as self time.
 *
 * Frames are kept in the order read: up to SVGREAD_RUN in memory, the
 * others in temporary files (tmpfile(3)), read back in order, so memory
 * stays bounded for a graph in drawing order; one in another order is
 * rebuilt in memory.
 */
#ifndef FORMATS_SVGREAD_H
#define FORMATS_SVGREAD_H

#include <stddef.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

/* Frames kept in memory before they are spilled to a temporary file. */
#define SVGREAD_RUN 131072

struct svgread_opt {
	const char *countname;	/* the unit word the titles must use
				   ("samples", "bytes", "us"); NULL: any,
				   the same throughout an input */
};

#define SVGREAD_OPT_INIT { 0 }

struct svgread_reader;

/*
 * The format's descriptor (its options a struct svgread_opt).
 *
 * Each input, one SVG, is read whole. Bad frames are counted in diag;
 * an input fails (not XML, a temporary file error, a frame whose parent
 * cannot be told from the coordinates; what was read before a fault in
 * the XML is kept). A differential graph's stacks keep both counts,
 * "before after" (before from each title's delta), and are the output
 * (of a run with no input of another format); any other graph gives the
 * counts of its titles.
 */
extern const struct format svgread_format;
extern const struct format_id svgread_id;

/*
 * How sure it is that an input starting with head[0..n) is a flame graph
 * SVG: 0 not, 1 an SVG, 2 an SVG with flame graph frames.
 */
int svgread_detect(const char *head, size_t n, int eof);

/* 1 when some input read was a differential graph. */
int svgread_differential(const struct svgread_reader *r);

/*
 * What the base rows of the graphs rebuilt so far count, and what of it
 * was not written: the own count of a synthetic root "all" (frames too
 * narrow to draw, or skipped, on it). The stacks added count the
 * difference.
 */
void svgread_totals(const struct svgread_reader *r, struct fold_count *drawn,
    struct fold_count *unwritten);

#endif
