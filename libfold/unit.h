/*
 * The unit of a profile's counts, and the line that carries it in folded
 * text (see folded(5)).
 *
 * A count means nothing without its unit: a Go CPU profile counts
 * nanoseconds, a heap profile bytes, perf samples. A folded profile
 * names its unit on a line of its own that is a folded line too:
 *
 *	# unit=nanoseconds 0
 *
 * a stack of one frame, "# unit=NAME", with a count of zero, so that
 * every folded reader (flamegraph.pl, inferno) takes it for an empty
 * stack, draws nothing of it and warns of nothing, while the tools of
 * this toolkit read it as the unit. A profile without the line counts
 * samples: FOLD_UNIT_SAMPLES, never written.
 */
#ifndef FOLD_UNIT_H
#define FOLD_UNIT_H

#include <stddef.h>

#include "output.h"

#define FOLD_UNIT_SAMPLES "samples"

/* The longest unit name. */
#define FOLD_UNIT_MAX 64

/*
 * 1 when s[0..n) is a unit name: 1 to FOLD_UNIT_MAX letters, digits,
 * '_', '-', '.' or '/' ("nanoseconds", "alloc_objects").
 */
int fold_unit_valid(const char *s, size_t n);

/*
 * When the stack text s[0..n) of a line whose counts are all zero is a
 * unit line's ("# unit=NAME"), sets *unit and *len to its NAME and
 * returns 1; returns 0 when it is not one (an ordinary stack), -1 with a
 * message when it is one whose NAME is not a unit name.
 */
int fold_unit_line(const char *s, size_t n, const char **unit, size_t *len);

/*
 * An input's unit line s[0..n) (its counts all zero), taken into unit
 * (FOLD_UNIT_MAX + 1 bytes, "" until the input names one): returns 1;
 * 0 when s is no unit line (a stack); -1 with a message for a bad one
 * or a second naming another unit (a bad line to its reader).
 */
int fold_unit_take(char *unit, const char *s, size_t n);

/*
 * A writer of sorted folded lines puts the unit line in its place in
 * that order (FOLD_ORDER_TEXT), so that the output stays sorted for
 * readers that require it (inferno): init with the profile's unit (none
 * is written for NULL or samples) and its number of count columns; call
 * before with each stack's text before writing it, end after the last.
 */
struct fold_unit_out {
	char text[FOLD_UNIT_MAX + 8];	/* "# unit=NAME" */
	size_t len;			/* 0: written, or none to write */
	int ncols;
};

void fold_unit_out_init(struct fold_unit_out *u, const char *unit, int ncols);
void fold_unit_out_before(struct fold_unit_out *u, struct fold_out *out,
    const char *s, size_t n);
void fold_unit_out_end(struct fold_unit_out *u, struct fold_out *out);

/* 1 when u's line, not written yet, goes before the stack text s[0..n). */
int fold_unit_out_due(const struct fold_unit_out *u, const char *s, size_t n);

/*
 * The scale of a unit of time or size: what one count is in seconds
 * (nanoseconds: 1e-9) or in bytes (1), and *kind set to 't' or 'b'.
 * Returns 0 for any other unit (a count of things: samples, calls),
 * with *kind 0.
 */
double fold_unit_scale(const char *unit, int *kind);

#endif
