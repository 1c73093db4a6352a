/*
 * Cost attribution: what a fleet profile costs, rolled up by service (the
 * root frame), by team (the owners of the services) or by function.
 *
 * Counts are CPU time: per_second counts make one CPU-second (1e9 for
 * nanoseconds, the sampling rate for sample counts). Over a window of
 * wall time, the average cores busy are CPU-seconds / window seconds; at
 * a rate in dollars per core-hour they cost cores x rate x 8,760 a year.
 * With a known fleet size instead of a window, a row's cores are its
 * share of the fleet's cores.
 *
 * Sums are exact: the counts are integers and every figure of the fleet
 * total is computed from them as an exact fraction (128-bit), rounded
 * once, to the decimals shown. Each row then gets its share of the
 * rounded total, by the largest remainder method, so that the shown rows
 * of a rollup (with "(other)" for those beyond the top) add up to the
 * shown total. Inclusive function rows overlap and are each rounded on
 * their own. The rows are figures for a writer of tables to show.
 */
#ifndef FOLD_COST_H
#define FOLD_COST_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "input.h"
#include "intern.h"
#include "stacks.h"

/* Hours in a year: a core-hour rate times this is a core-year. */
#define FOLD_HOURS_PER_YEAR 8760

enum fold_cost_by {
	FOLD_COST_SERVICE,	/* the root frame of each stack */
	FOLD_COST_TEAM,		/* the owner of the service */
	FOLD_COST_FUNCTION,	/* the leaf (self) or every frame (total) */
};

/* service -> team, read from a tab-separated file */
struct fold_owners;

/*
 * Reads lines "SERVICE<TAB>TEAM" ('#' comments and blank lines skipped).
 * A line without both fields is a warning in diag; a service listed again
 * keeps its first team, with a warning. Returns NULL with a message on a
 * read error or a strict warning; the caller owns the result.
 */
struct fold_owners *fold_owners_read(struct fold_in *in,
    struct fold_diag *diag);
void fold_owners_free(struct fold_owners *o);

struct fold_costopt {
	enum fold_cost_by by;
	int inclusive;		/* FUNCTION: total (inclusive) time */
	uint64_t per_second;	/* counts in one CPU-second (>= 1) */
	uint64_t window;	/* wall seconds covered, 0: not given */
	uint64_t fleet_cores;	/* instead of window, 0: not given */
	uint64_t rate;		/* nanodollars per core-hour */
	int rate_given;		/* rate is set (0 is a rate: $0.00) */
	int cents;		/* dollars to the cent, else whole dollars */
	const struct fold_owners *owners;	/* for TEAM */
	size_t top;		/* rows kept, 0 for all; the rest are summed
				   in one row "(other)", or dropped when the
				   rows overlap (inclusive) */
	const char *unit;	/* of the counts, as named: "ns" */
};

#define FOLD_COSTOPT_INIT { .by = FOLD_COST_SERVICE, \
	.per_second = 1000000000, .unit = "ns" }

/*
 * A duration: a whole number with a unit s, m, h, d or w ("90m", "7d";
 * no unit: seconds), above 0. Returns 0, or -1 with a message.
 */
int fold_duration_parse(const char *s, uint64_t *seconds);

/*
 * A sum of money in dollars, up to 9 decimals and below $10^9, into
 * nanodollars ("0.04" -> 40000000). Returns 0, or -1 with a message.
 */
int fold_money_parse(const char *s, uint64_t *nano);

/* The figures of a row. */
enum fold_cost_fig {
	FOLD_FIG_CPU,		/* CPU-seconds, 2 decimals */
	FOLD_FIG_SHARE,		/* percent of the total, 2 decimals */
	FOLD_FIG_CORES,		/* average cores busy, 2 decimals */
	FOLD_FIG_USD,		/* dollars a year, 0 decimals or 2 (cents) */
	FOLD_NFIG
};

/* A row of the cost rollup: a service, a team, a function. */
struct fold_costrow {
	const char *name;	/* namelen bytes, a NUL may be among them;
				   NULL for the row "(other)" summing the rows
				   beyond the top, and for the total */
	size_t namelen;
	uint64_t count;		/* sum of the counts */
	unsigned __int128 fig[FOLD_NFIG];	/* in units of
						   10^-decimals[fig] */
};

/*
 * The rollup: rows by count, largest first, ties in byte order of the
 * names, "(other)" last; the total of the profile. A figure is computed
 * (on) when it can be: the cores need a window or a fleet size, the
 * dollars a rate as well. Release with fold_cost_release.
 */
struct fold_cost {
	struct fold_costrow *rows;
	size_t nrows;
	struct fold_costrow total;
	int on[FOLD_NFIG];
	int decimals[FOLD_NFIG];
	int additive;		/* the rows add up to the total: not so for
				   inclusive function rows, which overlap */
	struct fold_intern *names;	/* owns the names of the rows */
};

#define FOLD_COST_INIT { 0 }

/*
 * Computes the rollup of st (one column, integer counts) into c
 * (FOLD_COST_INIT or released). Returns 0, or -1 with a message (a
 * fractional count, a figure past 128 bits).
 */
int fold_cost_compute(const struct fold_stacks *st,
    const struct fold_costopt *opt, struct fold_cost *c);
void fold_cost_release(struct fold_cost *c);

#endif
