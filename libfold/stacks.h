/*
 * Stack tables.
 *
 * A table holds unique stacks, each a sequence of frame ids (root first)
 * with ncols count columns (1 for a profile, 2 for a differential
 * "before after" profile). Adding a stack that is already present adds to
 * its counts. Stacks are numbered 0..len-1 in order of first appearance
 * until fold_stacks_sort() reorders them.
 */
#ifndef FOLD_STACKS_H
#define FOLD_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "intern.h"

#define FOLD_MAXCOLS 2

struct fold_stacks;

/*
 * A new empty table whose frames are interned in frames (not owned; it
 * must outlive the table). ncols is 1 or 2.
 */
struct fold_stacks *fold_stacks_new(struct fold_intern *frames, int ncols);
void fold_stacks_free(struct fold_stacks *st);

struct fold_intern *fold_stacks_frames(const struct fold_stacks *st);
int fold_stacks_ncols(const struct fold_stacks *st);

/*
 * Adds counts[0..ncols) to the stack ids[0..n), creating it if new.
 * Returns the stack's index, or -1 with a message when an integer count
 * would overflow (nothing is added then).
 */
long fold_stacks_add(struct fold_stacks *st, const uint32_t *ids, size_t n,
    const struct fold_count *counts);

/*
 * A queue of adds, for a reader that adds a stack while it reads the next
 * ones. In a big table an add waits on three loads, one after the other,
 * each far from the last: the stack's slot, the entry it names and the
 * entry's frames. A queued stack has them fetched one at each of the
 * next pushes and is added at the third, or at fold_addq_flush; in the
 * order pushed, as fold_stacks_add would have added them.
 */
struct fold_addq;

struct fold_addq *fold_addq_new(struct fold_stacks *st);
void fold_addq_free(struct fold_addq *q);

/*
 * The room for the frames of the next stack, to be written: an array, of
 * *cap entries, which the caller grows as it needs (fold_grow).
 */
uint32_t **fold_addq_room(struct fold_addq *q, size_t **cap);

/*
 * Queues the n frames written in the room, with counts (ncols of them),
 * read at line of input where (a name kept until the queue is flushed).
 * Returns 0, or -1 with a message "where:line: ..." when adding a stack
 * queued before would overflow a count.
 */
int fold_addq_push(struct fold_addq *q, size_t n,
    const struct fold_count *counts, const char *where, uint64_t line);

/* Adds every queued stack. Returns 0, or -1 as fold_addq_push. */
int fold_addq_flush(struct fold_addq *q);

/*
 * Like fold_stacks_add for a folded stack text s[0..n) ("a;b;c"): the
 * frames are interned first.
 */
long fold_stacks_add_text(struct fold_stacks *st, const char *s, size_t n,
    const struct fold_count *counts);

/*
 * Adds every stack of src (ncols as dst's; its frames in a table of its
 * own, or in dst's) to dst, its frames interned in dst's, as if they had been added
 * to dst in the first place (fold_stacks_adds counts src's adds too).
 * Returns 0, or -1 with a message when a count would overflow (then dst
 * holds part of src).
 */
int fold_stacks_merge(struct fold_stacks *dst, const struct fold_stacks *src);

/*
 * As fold_stacks_merge, for a src that is freed next: when src shares
 * dst's frames and holds more stacks, dst takes src's and src's stacks
 * become dst's, whichever is less work; src is left holding the others,
 * their frames maybe rewritten as dst's ids: only to be freed.
 */
int fold_stacks_take(struct fold_stacks *dst, struct fold_stacks *src);

/*
 * fold_stacks_take of src[0..n) in turn: the parts of one input read on
 * threads. With jobs, a large part's stacks are mapped to dst's frames on
 * the threads, and the ranks of dst's frames that sorting it needs are
 * made on another thread meanwhile, for the sort that most often follows
 * (fold_stacks_sort_jobs uses them while dst's frames are those there
 * were).
 */
int fold_stacks_take_parts(struct fold_stacks *dst, struct fold_stacks **src,
    size_t n, unsigned jobs);

/*
 * As fold_stacks_take, for a src whose table of frames is not to be read
 * (another thread adds to it meanwhile): map[id] is the id in dst's
 * frames of each frame src's stacks hold.
 */
int fold_stacks_take_mapped(struct fold_stacks *dst, struct fold_stacks *src,
    const uint32_t *map);

/*
 * The sum of every count of st, over every column: 0; or -1 when a count
 * is fractional (a double: then sums depend on the order of their terms,
 * and tables read apart do not add up to what one read of the lines in
 * order gives) or the sum passes 2^64-1. Tables whose sums add up to no
 * more than 2^64-1 merge in any order into what one read gives.
 */
int fold_stacks_sum(const struct fold_stacks *st, uint64_t *sum);

size_t fold_stacks_len(const struct fold_stacks *st);

/*
 * The unit of the counts (see unit.h), as the first input that gave
 * stacks named it: NULL until then.
 */
const char *fold_stacks_unit(const struct fold_stacks *st);

/*
 * Says that the counts an input added are in unit[0..n): the first call
 * names the table's unit, a later one must name the same. Returns 0, or
 * -1 with a message ("counts nanoseconds, not samples") when it names
 * another: counts of different units do not add up to anything. Once
 * fold_stacks_force_unit named the unit, every call is accepted.
 */
int fold_stacks_set_unit(struct fold_stacks *st, const char *unit, size_t n);

/*
 * Names the unit of the counts, whatever the inputs say theirs is (a
 * user's --unit: "add them as they are"). unit is a unit name.
 */
void fold_stacks_force_unit(struct fold_stacks *st, const char *unit);

/*
 * How many stacks were added (new or to one there), since the table was
 * made: what an input gave, for a reader that counts no records of its
 * own.
 */
uint64_t fold_stacks_adds(const struct fold_stacks *st);

/* The frames of stack i; *n is set to their number. */
const uint32_t *fold_stacks_ids(const struct fold_stacks *st, size_t i,
    size_t *n);

/*
 * A hint to fetch the frames of stack i (none past the last stack). After
 * a sort the entries are in order but their frames are where they were
 * added: a loop over sorted stacks asks for those a few ahead.
 */
void fold_stacks_prefetch_ids(const struct fold_stacks *st, size_t i);

/* The ncols counts of stack i (modifiable in place). */
struct fold_count *fold_stacks_counts(struct fold_stacks *st, size_t i);

/*
 * Sum of column col over all stacks into *total. Returns 0, or -1 with a
 * message on integer overflow.
 */
int fold_stacks_total(const struct fold_stacks *st, int col,
    struct fold_count *total);

enum fold_order {
	/* byte order of the folded text "a;b;c": the order of our output */
	FOLD_ORDER_TEXT,
	/* frame by frame, each frame by byte order: the order of a tree's
	   siblings (differs from TEXT only for names with bytes below ';') */
	FOLD_ORDER_FRAMES,
};

/*
 * Sorts the stacks; indices change accordingly. A table sorted in order
 * with no stack added since is left as it is.
 */
void fold_stacks_sort(struct fold_stacks *st, enum fold_order order);

/*
 * The same on up to jobs threads (a table of fewer than a few thousand
 * stacks on one): the same order.
 */
void fold_stacks_sort_jobs(struct fold_stacks *st, enum fold_order order,
    unsigned jobs);

/*
 * Removes every stack for which keep(arg, st, i) returns 0 (and stacks
 * whose counts are all zero when drop_zero is set), keeping the order of
 * the others.
 */
void fold_stacks_filter(struct fold_stacks *st,
    int (*keep)(void *arg, struct fold_stacks *st, size_t i), void *arg,
    int drop_zero);

#endif
