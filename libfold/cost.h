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
 * once, when printed. Each row then gets its share of the rounded total,
 * by the largest remainder method, so that the printed rows of a rollup
 * (with "(other)" for those beyond the top) add up to the printed total.
 * Inclusive function rows overlap and are each rounded on their own.
 */
#ifndef FOLD_COST_H
#define FOLD_COST_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "input.h"
#include "output.h"
#include "stacks.h"

/* Hours in a year: a core-hour rate times this is a core-year. */
#define FOLD_HOURS_PER_YEAR 8760

enum fold_cost_by {
	FOLD_COST_SERVICE,	/* the root frame of each stack */
	FOLD_COST_TEAM,		/* the owner of the service */
	FOLD_COST_FUNCTION,	/* the leaf (self) or every frame (total) */
};

enum fold_cost_format {
	FOLD_COST_TEXT, FOLD_COST_MARKDOWN, FOLD_COST_TSV, FOLD_COST_JSON
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
	const struct fold_owners *owners;	/* for TEAM */
	enum fold_cost_format format;
	size_t top;		/* rows shown, 0 for all */
	const char *unit;	/* of the counts, for the JSON header: "ns" */
};

#define FOLD_COSTOPT_INIT { FOLD_COST_SERVICE, 0, 1000000000, 0, 0, 0, 0, \
	0, FOLD_COST_TEXT, 0, "ns" }

/* "text", "markdown", "tsv" or "json"; 0, or -1 with a message. */
int fold_cost_format_parse(const char *s, enum fold_cost_format *f);

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

/*
 * Writes the cost report of st (one column, integer counts). Names are
 * written as fold_name_write writes them (report.h: shown by fold_vis, a
 * code span in markdown), in JSON as exact strings (invalid UTF-8 aside,
 * as U+FFFD). Returns 0, or -1 with a message (a fractional count, a
 * figure past 128 bits).
 */
int fold_cost_write(struct fold_out *out, const struct fold_stacks *st,
    const struct fold_costopt *opt);

#endif
