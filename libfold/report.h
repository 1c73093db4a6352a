/*
 * The before/after regression report of folddiff: its columns read from
 * two folded profiles, the change of every function with its
 * significance test, and the CI gate that judges the changes: rows and
 * figures for a writer of tables to show, and the gate's verdict as
 * plain lines.
 */
#ifndef FOLD_REPORT_H
#define FOLD_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "diag.h"
#include "input.h"
#include "stacks.h"

/*
 * Reads a folded profile into column col of the two-column table st, as
 * difffolded.pl reads each of its inputs: the count is the last field of
 * a line, anything before it is the stack. With strip_hex, every "0x" and
 * hex digits in a stack become "0x..." first (fold_strip_hex). Bad lines
 * are counted in diag. Returns 0, or -1 with a message.
 */
int fold_read_column(struct fold_in *in, struct fold_stacks *st, int col,
    int strip_hex, struct fold_diag *diag);

/*
 * difffolded.pl -n: scales column 0 of st so that its total matches
 * column 1's, each count becoming floor(count * total1 / total0). Does
 * nothing when a total is 0 or both are equal. Returns 0, or -1 with a
 * message.
 */
int fold_diff_normalize(struct fold_stacks *st);

struct fold_diffopt {
	/* Work done in each profile (requests served, ...): when both are
	   above 0, functions are compared by count per unit of work and
	   tested as Poisson rates; else by share of each profile's total. */
	double units[2];
	/* The count of one sample in each profile: 1 when counts are
	   sample counts, the sampling period when they are weighted; 0 to
	   infer it (see fold_funcs_gcd, funcs.h). */
	double weight[2];
	double alpha;		/* false discovery rate of the tests */
	/* The gate passes over functions whose total share is below this
	   fraction in both profiles (0.01: 1%). */
	double floor;
	const char *names[2];	/* the inputs, for the notes */
	int gated;		/* a gate will judge the report: an empty
				   profile is then a failure, not a note */
};

#define FOLD_DIFFOPT_INIT { .alpha = 0.05, .floor = 0.01, \
	.names = { "before", "after" } }

struct fold_diffreport;

enum fold_metric { FOLD_METRIC_SELF, FOLD_METRIC_TOTAL };

/* The change of one metric (self or total) of a function. */
struct fold_diffmetric {
	struct fold_count count[2];	/* before, after */
	double v[2];		/* share of the total (a fraction), or count
				   per unit of work in units mode */
	double diff;		/* v[1] - v[0] */
	double rel;		/* diff / v[0]; HUGE_VAL when v[0] is 0 and
				   v[1] is not, 0 when both are */
	double p;		/* of the test */
	double q;		/* p adjusted across functions */
	int sig;		/* q <= alpha */
};

/* A function of the report. */
struct fold_diffrow {
	const char *name;	/* the frame as read: namelen bytes, a NUL
				   may be among them; owned by the frames */
	size_t namelen;
	uint32_t id;		/* in the frames of the profile */
	double share[2];	/* total share before and after, for the floor */
	int floored;		/* share below the floor in both profiles:
				   the gate passes over its changes */
	struct fold_diffmetric m[2];	/* by enum fold_metric */
};

/*
 * Compares the two columns of st (before, after) function by function and
 * tests each change: in share mode, Fisher's exact test of the function's
 * samples against the rest of each profile (conditional on the function's
 * total over both), in units mode the binomial test of two Poisson rates,
 * both with the normal approximation for large counts (see stats.h);
 * the p-values of each metric (self, total) are adjusted across functions
 * with Benjamini-Hochberg. Rows are ranked by the size of the change,
 * increases and decreases alike: the larger of the self and total
 * change, largest first; then the larger self change, an increase before
 * a decrease of the same size, then by name.
 * opt is copied; the frames of st must outlive the report.
 *
 * A weight of 0 is inferred: the gcd of the column's counts when it
 * explains them (the smallest stack is then at most FOLD_WEIGHT_MAXMIN
 * samples), 1 for fractional counts. When no weight explains the counts
 * (perf's adaptive periods weight each sample differently), there is no
 * telling how many samples they hold: the call fails, asking for
 * --weight.
 *
 * Returns NULL with a message on integer overflow or an unknown weight.
 */
#define FOLD_WEIGHT_MAXMIN 1000
struct fold_diffreport *fold_diffreport_new(const struct fold_stacks *st,
    const struct fold_diffopt *opt);
void fold_diffreport_free(struct fold_diffreport *r);

/* The functions compared, *n of them, in report order. Owned by r. */
const struct fold_diffrow *fold_diffreport_rows(
    const struct fold_diffreport *r, size_t *n);

/*
 * The value of a count of column col (0 before, 1 after) as r compares
 * functions: its share of the column's total (a fraction, 0 when that
 * total is 0), or in units mode the count per unit of work. A row's
 * m[k].v[col] is this of m[k].count[col]; so is any other part of the
 * profile measured the report's way (a frame of its flame graph), and
 * fold_diffreport_fmt writes it and its change as the table does.
 */
double fold_diffreport_value(const struct fold_diffreport *r, int col,
    const struct fold_count *count);

/* 1 when r compares counts per unit of work, 0 when shares of the totals. */
int fold_diffreport_units(const struct fold_diffreport *r);

/* The name of input col (0 before, 1 after), as opt->names gave it. */
const char *fold_diffreport_input(const struct fold_diffreport *r, int col);

/*
 * A profile without samples (its counts sum to 0: a profiler that recorded
 * nothing) tells nothing: every change against it is "new" or "gone", and
 * no gate can pass on it. The i-th line, from 0, about such
 * an input, one per input before then after: "NAME: no samples: the gate
 * cannot pass on an empty profile" (opt->gated) or "NAME: no samples:
 * nothing to compare", the name shown by fold_vis. NULL past the last.
 * These lines are among the notes too. Owned by r.
 */
const char *fold_diffreport_empty(const struct fold_diffreport *r, size_t i);

/*
 * The lines heading the report, i from 0: the inputs (their names shown by
 * fold_vis) and their samples, what is compared, the weights, the test.
 * NULL past the last. Owned by r.
 */
const char *fold_diffreport_note(const struct fold_diffreport *r, size_t i);

/*
 * 1 when the change of metric in row i (report order) is significant as
 * the gate judges it: its q-value is at most alpha and the function's
 * total share reaches the floor in either profile.
 */
int fold_diffreport_significant(const struct fold_diffreport *r, size_t i,
    enum fold_metric metric);

/* The figures of a metric, as fold_diffreport_fmt writes them. */
enum fold_difffig {
	FOLD_DIFF_BEFORE,	/* v[0] */
	FOLD_DIFF_AFTER,	/* v[1] */
	FOLD_DIFF_CHANGE,	/* diff */
	FOLD_DIFF_REL,		/* rel */
	FOLD_DIFF_Q,		/* q */
	FOLD_DIFF_NFIG
};

/*
 * Writes figure fig of m (a metric of a row of r) into buf, at most
 * size - 1 bytes and a NUL, as plain text. A value is a share in percent
 * ("18.03%") or a count per unit ("0.25", %.6g); a change is in points
 * of share ("+3.18pp") or a signed count per unit; a relative change is
 * in percent ("+17.6%"), "new" from nothing or "gone" to nothing; a
 * q-value has two digits and "*" when q <= alpha ("1e-07*"). raw gives
 * the numbers a program reads: no unit or mark, shares and relative
 * changes in percent with four decimals ("18.0269", "+17.6286", "inf"
 * for new), q with three digits ("1.03e-07"). Never "-0".
 */
void fold_diffreport_fmt(const struct fold_diffreport *r,
    const struct fold_diffmetric *m, enum fold_difffig fig, int raw,
    char *buf, size_t size);

enum fold_unit {
	FOLD_UNIT_PP,		/* percentage points of share */
	FOLD_UNIT_REL,		/* percent of the value before */
	FOLD_UNIT_ABS,		/* count per unit of work */
};

/*
 * A threshold of the CI gate: "self>+1pp", "total>+10%", "self>0.5"
 * (units mode), "total<-5%" (a drop). It is crossed by a change above
 * value (op '>') or below it (op '<').
 */
struct fold_gate {
	enum fold_metric metric;
	int op;			/* '>' or '<' */
	double value;		/* in the unit: 1 for 1pp, 10 for 10% */
	enum fold_unit unit;
	char text[64];		/* as given, spaces removed */
};

/*
 * Parses a gate expression: METRIC ('>' | '<') [+|-]NUMBER [pp | %],
 * METRIC being self or total. Without a unit the number is a change in
 * count per unit of work, which needs units mode; pp needs share mode.
 * Returns 0, or -1 with a message.
 */
int fold_gate_parse(const char *s, int units_mode, struct fold_gate *g);

/* A function that failed the gate, as fold_diffreport_gate tells it. */
struct fold_gatehit {
	const char *name;	/* the function, as read: namelen bytes, a NUL
				   may be among them */
	size_t namelen;
	const char *line;	/* "name: self 1.00% -> 2.00% (...) crosses
				   self>+1pp", the change and the gates, the
				   name shown by fold_vis: one line, safe
				   on a terminal */
	const size_t *gates;	/* indices of the gates crossed, ascending */
	size_t ngates;
};

/*
 * Checks every function against the gates: a function fails when its
 * total share reaches the floor in either profile, and the change of a
 * metric is significant (q-value at most alpha) and crosses a gate on
 * that metric. Calls hit (unless NULL) once per failing function, in
 * report order; what it is given is valid during the call only. Returns
 * the number of failing functions. The gate fails as well, whatever this
 * returns, when fold_diffreport_empty has a line.
 */
size_t fold_diffreport_gate(const struct fold_diffreport *r,
    const struct fold_gate *g, size_t ng,
    void (*hit)(void *arg, const struct fold_gatehit *h), void *arg);

#endif
