/*
 * Per-function counts of a folded profile, and the rows of the
 * `pprof -top` table that foldtop shows.
 *
 * A function is a frame name. Its self count is the count of the stacks
 * whose leaf it is; its total (inclusive, "cum") count is the count of the
 * stacks it appears in, each stack counted once however often the
 * function recurs in it, so that a total never exceeds the profile's.
 */
#ifndef FOLD_FUNCS_H
#define FOLD_FUNCS_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "stacks.h"

struct fold_funcs;

/*
 * Computes the self and total count of every frame of st, per column.
 * Returns NULL with a message on integer overflow. The caller owns the
 * result (fold_funcs_free); st may change afterwards.
 */
struct fold_funcs *fold_funcs_new(const struct fold_stacks *st);
void fold_funcs_free(struct fold_funcs *f);

/* Number of frame ids covered (the frames interned when computed). */
size_t fold_funcs_len(const struct fold_funcs *f);
int fold_funcs_ncols(const struct fold_funcs *f);

/* The ncols self or total counts of frame id (id < fold_funcs_len). */
const struct fold_count *fold_funcs_self(const struct fold_funcs *f,
    uint32_t id);
const struct fold_count *fold_funcs_total(const struct fold_funcs *f,
    uint32_t id);

/* The ncols column totals of the profile. */
const struct fold_count *fold_funcs_sum(const struct fold_funcs *f);

/*
 * The smallest non-zero stack count of column col, or 0 when the column
 * is all zero: a profile whose every stack counts 1,000 or more was most
 * likely weighted by sample period rather than counted in samples.
 */
double fold_funcs_mincount(const struct fold_funcs *f, int col);

/*
 * The greatest common divisor of the non-zero stack counts of column col,
 * or 0 when a count is fractional or the column is all zero. perf with a
 * fixed period (cpu-clock, or -c N) weights every sample by the same
 * period, which is then this divisor; sample counts give 1.
 */
uint64_t fold_funcs_gcd(const struct fold_funcs *f, int col);

/*
 * A row of the top table: a function with a count in the column, its
 * flat (self) and cum (total) counts and their shares of the column's
 * total in percent (0 when the total is 0). sum_pct is the share of
 * this row's flat count and of every row's before it.
 */
struct fold_toprow {
	const char *name;	/* the frame as read: namelen bytes, a NUL
				   may be among them; owned by the frames */
	size_t namelen;
	struct fold_count flat, cum;
	double flat_pct, sum_pct, cum_pct;
};

/*
 * The top table of one column: every function with a count, sorted by
 * flat (or cum) count, largest first, ties by the other count, then in
 * byte order of the names.
 */
struct fold_top {
	struct fold_toprow *rows;
	size_t nrows;
	struct fold_count total;	/* of the column */
	size_t nstacks;			/* stacks with a count in the column */
};

#define FOLD_TOP_INIT { 0 }

/*
 * Fills t (FOLD_TOP_INIT or released) with the top table of column col
 * of st, by cum count when by_cum. The names stay valid while the
 * frames of st are not freed. Returns 0, or -1 with a message on integer
 * overflow.
 */
int fold_top_compute(const struct fold_stacks *st, int col, int by_cum,
    struct fold_top *t);
void fold_top_release(struct fold_top *t);

#endif
