/*
 * Per-function tables of a folded profile: the `pprof -top` table that
 * foldtop prints, and the before/after regression report of folddiff with
 * its significance tests and CI gate.
 *
 * A function is a frame name. Its self count is the count of the stacks
 * whose leaf it is; its total (inclusive, "cum") count is the count of the
 * stacks it appears in, each stack counted once however often the
 * function recurs in it, so that a total never exceeds the profile's.
 */
#ifndef FOLD_REPORT_H
#define FOLD_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "diag.h"
#include "input.h"
#include "output.h"
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

/* The ncols column totals of the profile, and its number of stacks. */
const struct fold_count *fold_funcs_sum(const struct fold_funcs *f);
size_t fold_funcs_nstacks(const struct fold_funcs *f);

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
 * A table of text cells, as the reports lay it out: row 0 is the header,
 * every cell is a NUL-terminated string (never NULL once built), and the
 * function name is the last column (the first in tsv), shown as fold_vis
 * shows it (diag.h): whole past a NUL, its control and bidirectional
 * characters and bad UTF-8 as "\xHH", no tab or newline. caption, when
 * not NULL, is a line about the whole table. For writers of other
 * representations (HTML); release with fold_table_release.
 */
struct fold_table {
	size_t ncols, nrows, cap;
	char **cells;		/* row-major */
	char *caption;
};

#define FOLD_TABLE_INIT { 0, 0, 0, NULL, NULL }

void fold_table_release(struct fold_table *t);

/* The cell at row, col (both in range); "" when it was never set. */
const char *fold_table_cell(const struct fold_table *t, size_t row,
    size_t col);

enum fold_format {
	FOLD_FORMAT_TEXT,	/* aligned columns for a terminal or a log */
	FOLD_FORMAT_MARKDOWN,	/* a table for a pull request comment */
	FOLD_FORMAT_TSV,	/* a header line, tab-separated raw numbers */
};

/* "text", "markdown" or "tsv"; 0, or -1 with a message. */
int fold_format_parse(const char *s, enum fold_format *f);

/*
 * Writes the name s[0..n) (a frame, a service) as the reports write it
 * in a table of format f: shown by fold_vis, and in markdown inside a
 * code span (its fence longer than any run of backticks in the name, '|'
 * escaped for the table), so that no name can add a cell, a row, a link
 * or markup.
 */
void fold_name_write(struct fold_out *out, const char *s, size_t n,
    enum fold_format f);

struct fold_topopt {
	enum fold_format format;
	int by_cum;		/* sort by total instead of self */
	size_t top;		/* rows shown, 0 for all */
	int col;		/* the count column tabled */
};

#define FOLD_TOPOPT_INIT { FOLD_FORMAT_TEXT, 0, 0, 0 }

/*
 * Writes the top table of a one-column profile: flat, flat%, sum%, cum,
 * cum% and the function, sorted by flat (or cum) count, largest first,
 * ties in byte order of the names. Returns 0, or -1 with a message on
 * integer overflow.
 */
int fold_top_write(struct fold_out *out, const struct fold_stacks *st,
    const struct fold_topopt *opt);

/*
 * The table fold_top_write writes (cells formatted for opt->format),
 * into t (FOLD_TABLE_INIT or released); its caption is the line above
 * it, "total N in N stacks, ...". Returns 0, or -1 with a message on
 * integer overflow.
 */
int fold_top_table(const struct fold_stacks *st,
    const struct fold_topopt *opt, struct fold_table *t);

struct fold_diffopt {
	/* Work done in each profile (requests served, ...): when both are
	   above 0, functions are compared by count per unit of work and
	   tested as Poisson rates; else by share of each profile's total. */
	double units[2];
	/* The count of one sample in each profile: 1 when counts are
	   sample counts, the sampling period when they are weighted; 0 to
	   infer it (see fold_funcs_gcd). */
	double weight[2];
	double alpha;		/* false discovery rate of the tests */
	/* The gate passes over functions whose total share is below this
	   fraction in both profiles (0.01: 1%). */
	double floor;
	enum fold_format format;
	size_t top;		/* rows written, 0 for all */
	const char *names[2];	/* the inputs, for the header */
	int gated;		/* a gate will judge the report: an empty
				   profile is then a failure, not a note */
};

#define FOLD_DIFFOPT_INIT { { 0, 0 }, { 0, 0 }, 0.05, 0.01, FOLD_FORMAT_TEXT, 0, \
	{ "before", "after" }, 0 }

struct fold_diffreport;

enum fold_metric { FOLD_METRIC_SELF, FOLD_METRIC_TOTAL };

/*
 * Compares the two columns of st (before, after) function by function and
 * tests each change: in share mode, Fisher's exact test of the function's
 * samples against the rest of each profile (conditional on the function's
 * total over both), in units mode the binomial test of two Poisson rates,
 * both with the normal approximation for large counts (see stats.h);
 * the p-values of each metric (self, total) are adjusted across functions
 * with Benjamini-Hochberg. Rows are sorted by the change of the self
 * value, largest increase first, then of the total value, then by name.
 * opt is copied.
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

/* Number of functions compared. */
size_t fold_diffreport_len(const struct fold_diffreport *r);

/* fold_funcs_mincount of column col (0 before, 1 after). */
double fold_diffreport_mincount(const struct fold_diffreport *r, int col);

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

/* Writes the report (opt->top rows) in opt->format. */
void fold_diffreport_write(struct fold_out *out,
    const struct fold_diffreport *r);

/*
 * The lines heading the report, i from 0: the inputs (their names shown by
 * fold_vis) and their samples, what is compared, the weights, the test.
 * NULL past the last. Owned by r.
 */
const char *fold_diffreport_note(const struct fold_diffreport *r, size_t i);

/*
 * The table fold_diffreport_write writes (its first opt->top rows, the
 * cells formatted for format) into t (FOLD_TABLE_INIT or released); its
 * caption tells how many functions were left out, or is NULL.
 */
void fold_diffreport_table(const struct fold_diffreport *r,
    enum fold_format format, struct fold_table *t);

/*
 * 1 when the change of metric in row i (report order) is significant as
 * the gate judges it: its q-value is at most alpha and the function's
 * total share reaches the floor in either profile.
 */
int fold_diffreport_significant(const struct fold_diffreport *r, size_t i,
    enum fold_metric metric);

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
