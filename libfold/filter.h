/*
 * Stack editing: a pipeline of steps applied to every stack of a table in
 * the order they were added, as sed applies its expressions.
 *
 * Patterns are PCRE2 regular expressions, matched against one frame name
 * at a time (bytes, not UTF-8 characters) and JIT-compiled where the
 * platform allows. Frames are interned, so each step matches each
 * distinct frame once and remembers the answer by frame id, however many
 * stacks share it.
 *
 * Steps that rewrite stacks can make two stacks identical; the result
 * merges them. Counts are conserved except by the steps that drop stacks
 * (and a stack whose frames are all hidden or replaced by nothing).
 */
#ifndef FOLD_FILTER_H
#define FOLD_FILTER_H

#include <stddef.h>

#include "count.h"
#include "output.h"
#include "stacks.h"

enum fold_step {
	FOLD_STEP_GREP,		/* keep stacks with a matching frame */
	FOLD_STEP_EXCLUDE,	/* drop stacks with a matching frame */
	FOLD_STEP_FOCUS,	/* pprof's -focus: as GREP */
	FOLD_STEP_IGNORE,	/* pprof's -ignore: as EXCLUDE */
	FOLD_STEP_HIDE,		/* remove matching frames, keep the stack */
	FOLD_STEP_ROOT_AT,	/* drop the callers of the first match; drop
				   stacks without one */
	FOLD_STEP_PRUNE_FROM,	/* drop the callees of the first match */
	FOLD_STEP_REPLACE,	/* rewrite names: pattern, replacement */
	FOLD_STEP_COLLAPSE_RECURSION,	/* a;b;b;c -> a;b;c */
	FOLD_STEP_MAX_DEPTH,	/* keep the first N frames */
	FOLD_STEP_MIN_COUNT,	/* drop stacks counting less than N */
	FOLD_STEP_MIN_SHARE,	/* drop stacks below N percent of the total */
	FOLD_STEP_STRIP_ADDRS,	/* 0x1234abcd -> 0x... */
	FOLD_STEP_REVERSE,	/* leaf first */
};

struct fold_filter;

struct fold_filter *fold_filter_new(void);
void fold_filter_free(struct fold_filter *f);

/*
 * Appends a step. pattern is used by the pattern steps, repl by
 * FOLD_STEP_REPLACE (PCRE2 substitution syntax: $1, ${name}; every match
 * in a name is replaced; a ';' in the result splits the frame in two, an
 * empty result removes it), num by MAX_DEPTH, MIN_COUNT and MIN_SHARE.
 * label names the step in messages and in the statistics (e.g.
 * "--grep 'foo'"); it is copied. Returns 0, or -1 with a message (a
 * pattern that does not compile, with the offset of the error).
 */
int fold_filter_add(struct fold_filter *f, enum fold_step step,
    const char *pattern, const char *repl, double num, const char *label);

/*
 * What one step did, for -v. selects is 1 for the steps that keep only
 * the stacks where their pattern matches (GREP, FOCUS, ROOT_AT): given
 * stacks (stacks_in > 0) and keeping none, such a step matched no stack.
 */
struct fold_filter_stat {
	const char *label;
	size_t stacks_in, stacks_out;	/* unique stacks before and after */
	struct fold_count count_in, count_out;
	int selects;
};

/*
 * Runs the steps over *st, a one- or two-column table, and replaces it by
 * the result (the old table is freed; the frames stay in the same intern
 * table, which gains the names the steps create). On error (integer
 * overflow, a match that exceeds PCRE2's limits) returns -1 with a
 * message; *st is then a valid table in an unspecified state.
 */
int fold_filter_run(struct fold_filter *f, struct fold_stacks **st);

/* The statistics of the last run: one per step, in order. */
const struct fold_filter_stat *fold_filter_stats(const struct fold_filter *f,
    size_t *n);


/*
 * Rewrites every "0x" followed by hex digits in s[0..n) as "0x..." (the
 * rule of difffolded.pl -s) into out, which holds FOLD_STRIP_HEX_MAX(n)
 * bytes, and returns the new length (out is not NUL terminated).
 */
#define FOLD_STRIP_HEX_MAX(n) ((n) / 3 * 5 + 5)
size_t fold_strip_hex(const char *s, size_t n, char *out);

/* 1 when s[0..n) holds something fold_strip_hex would rewrite. */
int fold_has_hex(const char *s, size_t n);

#endif
