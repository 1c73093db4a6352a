/*
 * The folded-stack format (see folded(5)).
 *
 *	frame;frame;frame COUNT
 *	frame;frame;frame BEFORE AFTER		(differential, two columns)
 *
 * Frames are root first, joined by ';'. The count is the last
 * whitespace-separated field and one blank separates it from the stack, so
 * frame names may hold spaces (trailing ones too) and any byte but ';' and
 * newline. Blank lines and CRLF line ends are tolerated.
 */
#ifndef FOLD_FOLDED_H
#define FOLD_FOLDED_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "diag.h"
#include "input.h"
#include "output.h"
#include "stacks.h"

/*
 * Splits a folded line. Parses up to maxcols counts from the right; the
 * first (leftmost) maxcols-1 are optional, so with maxcols 2 both "a;b 3"
 * and "a;b 1 3" parse. The counts are stored left to right in counts[].
 * Sets *stacklen to the length of the stack text (without the one blank
 * that separates it from the counts). Returns the number of counts (>= 1),
 * 0 for a blank line or a comment (a line that begins with '#' and does
 * not parse), or -1 with a message (without file:line) when the line has
 * no valid count or no stack.
 */
int fold_parse_line(const char *line, size_t len, size_t *stacklen,
    struct fold_count *counts, int maxcols);

/*
 * 1 when the lines of head[0..n) that are not blank are folded lines
 * ("stack count", or "stack before after"), but for at most one in five,
 * or when head is the beginning of one line of frames (no newline, some
 * ';') and more follows; else 0. Other formats may look folded too (bcc's -f output is), so this is
 * only a "could be".
 */
int fold_detect(const char *head, size_t n, int eof);

struct fold_readopt {
	/*
	 * -1: up to as many counts as the table has columns. 0 or 1: the
	 * last field is the one count, put in that column (the other is 0),
	 * and everything before it is the stack.
	 */
	int col;
	/*
	 * When not NULL, called with each stack's text: returns the text to
	 * add instead (its length in *n), valid until the next call.
	 */
	const char *(*rewrite)(void *arg, const char *s, size_t *n);
	void *arg;
	/* When not NULL, counts the unit lines read, good or bad. */
	uint64_t *unitlines;
};

#define FOLD_READOPT_INIT { .col = -1 }

/*
 * Reads every line of in into st. A line without a valid count or with an
 * empty stack is a warning counted in diag (an error under strict). With
 * a 2-column table and col -1, single-count lines count as "0 COUNT".
 * A unit line (unit.h) names the unit of the input's counts, samples
 * without one; a bad or second one is a warning. Once the input is read,
 * when it had a stack or a unit line, its unit is set on st
 * (fold_stacks_set_unit). Returns the most counts found on a line (0
 * when no line had a stack), -1 with a message on a read error, strict
 * warning or overflow, or -2 with a message when the input's unit is
 * not st's: its counts were added, and the sum means nothing.
 */
int fold_read(struct fold_in *in, struct fold_stacks *st,
    const struct fold_readopt *opt, struct fold_diag *diag);

/*
 * Sorts st in FOLD_ORDER_TEXT order and writes one line per stack:
 * "stack count" (or "stack before after"). Stacks whose counts are all
 * zero are written too; filter them first if unwanted. The unit line of
 * st's unit is written in its place in that order, unless the unit is
 * samples or none, or st has no stack.
 */
void fold_write(struct fold_out *out, struct fold_stacks *st);

/* The same, sorting on up to jobs threads (fold_stacks_sort_jobs). */
void fold_write_jobs(struct fold_out *out, struct fold_stacks *st,
    unsigned jobs);

#endif
