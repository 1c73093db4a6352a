/*
 * Tables, and the one writer that renders them in every output format:
 * aligned text for a terminal or a log, a GitHub markdown table for a
 * pull request comment, TSV and JSON for programs, HTML for a page. The
 * tables of foldtop (top), folddiff (changed functions) and foldcost
 * (cost rollup) are laid out here from the rows libfold computes
 * (funcs.h, report.h, cost.h).
 *
 * Names (frames, services, teams) are kept as read and shown as the
 * format needs: in text, TSV and HTML as fold_vis shows them (whole past
 * a NUL, control and bidirectional characters and bad UTF-8 as "\xHH",
 * no tab or newline), in markdown inside a code span besides, in JSON as
 * exact strings. No name can add a cell, a row, a link or markup. Other
 * cells are written as made, escaped in markdown (a q-value's '*') and
 * in HTML.
 *
 *	struct fold_topopt o = FOLD_TOPOPT_INIT;
 *	o.format = FOLD_FORMAT_MARKDOWN;
 *	fold_top_write(out, st, &o);
 */
#ifndef FORMATS_TABLE_H
#define FORMATS_TABLE_H

#include <stddef.h>

#include "libfold/cost.h"
#include "libfold/output.h"
#include "libfold/report.h"
#include "libfold/stacks.h"

/* The output formats of the tools that write tables and reports. */
enum fold_format {
	FOLD_FORMAT_TEXT,	/* aligned columns for a terminal or a log */
	FOLD_FORMAT_MARKDOWN,	/* a table for a pull request comment */
	FOLD_FORMAT_TSV,	/* a header line, tab-separated raw numbers */
	FOLD_FORMAT_JSON,	/* one object: raw numbers, exact names */
	FOLD_FORMAT_HTML,	/* a table; folddiff's report is a page */
	FOLD_FORMAT_JUNIT,	/* folddiff's gate as a JUnit XML report */
	FOLD_FORMAT_GITHUB,	/* folddiff's gate as workflow commands */
};

/* A set of formats, for fold_format_parse. */
#define FOLD_FORMAT_SET(f) (1u << (f))

/* The formats of fold_top_write and of fold_cost_write. */
#define FOLD_TOP_FORMATS (FOLD_FORMAT_SET(FOLD_FORMAT_TEXT) | \
	FOLD_FORMAT_SET(FOLD_FORMAT_MARKDOWN) | FOLD_FORMAT_SET(FOLD_FORMAT_TSV))
#define FOLD_COST_FORMATS (FOLD_TOP_FORMATS | \
	FOLD_FORMAT_SET(FOLD_FORMAT_JSON))

/*
 * Parses a format's name ("text", "markdown" or "md", "tsv", "json",
 * "html", "junit", "github") among those of the set accept. Returns 0,
 * or -1 with a message naming the formats of the set.
 */
int fold_format_parse(const char *s, unsigned accept, enum fold_format *f);

/*
 * Writes the name s[0..n) as a table of format f shows it (see above):
 * in HTML escaped too, in JSON a string, quotes included.
 */
void fold_name_write(struct fold_out *out, const char *s, size_t n,
    enum fold_format f);

/* What a cell holds, which decides how a format writes it. */
enum fold_cellkind {
	FOLD_CELL_NONE,		/* never set: empty, left out of JSON */
	FOLD_CELL_TEXT,		/* text; in JSON a string */
	FOLD_CELL_NUMBER,	/* text; in JSON as it is: a number, null */
	FOLD_CELL_NAME,		/* a name as read, shown as said above */
};

/* A cell of a row: n bytes at off in the row's buffer, and a NUL. */
struct fold_cell {
	size_t off, n;		/* n: a name may hold a NUL */
	enum fold_cellkind kind;
	const char *cls;	/* HTML class (static), or NULL */
};

/*
 * A row of a table, as its fill function sets it: the cells of one row
 * at a time, their texts in one buffer, all reused for the next row, so
 * that a table of a million rows is never held whole.
 */
struct fold_row {
	size_t ncols;
	struct fold_cell *cells;
	const char *cls;	/* HTML class of the row (static), or NULL */
	char *buf;
	size_t len, cap;
};

/* Sets cell col of r to a formatted text. */
void fold_row_set(struct fold_row *r, size_t col, enum fold_cellkind kind,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Sets cell col of r to s[0..n) (copied), a name or a text. */
void fold_row_text(struct fold_row *r, size_t col, enum fold_cellkind kind,
    const char *s, size_t n);

/* HTML: a head over span columns, above their own heads. */
struct fold_colgroup {
	const char *head;
	size_t span;
};

/* JSON: a member of the object, before the rows. */
struct fold_prop {
	const char *key;	/* static */
	enum fold_cellkind kind;
	char *v;		/* owned */
};

/*
 * A table: a head for each column (in JSON the keys of each row's
 * object), then nrows rows that fill sets, one at a time, on a row of
 * empty cells, when the table is written (text asks for each row twice:
 * for the widths, then to write it). The last column is what a row is
 * about (a function, a service): left-aligned and unpadded in text and
 * markdown, first in HTML (class "fn"). Which columns there are and how
 * numbers read is up to whoever makes the table, for its format.
 */
struct fold_table {
	size_t ncols;
	const char *const *heads;	/* ncols, static or in arg */
	size_t nrows;
	void (*fill)(void *arg, size_t i, struct fold_row *r);
	void *arg;
	void (*free)(void *arg);	/* of arg, by fold_table_release;
					   or NULL */
	int total;		/* the last row is the total: JSON writes it
				   apart, as "total" */
	const char *footnote;	/* text: a line above the total (static) */
	char *caption;		/* a line about the table (owned), or NULL;
				   written by whoever writes the table */
	struct fold_prop *props;	/* JSON */
	size_t nprops;
	const char *id;		/* HTML: the table's id, or NULL */
	const struct fold_colgroup *groups;	/* HTML, or NULL */
	size_t ngroups;
};

#define FOLD_TABLE_INIT { 0 }

/* Frees what t holds (the caption, the props, arg by t->free). */
void fold_table_release(struct fold_table *t);

/* Adds a JSON member key (static) with a formatted value. */
void fold_table_prop(struct fold_table *t, const char *key,
    enum fold_cellkind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Writes t in format f (TEXT, MARKDOWN, TSV, JSON or HTML): the heads,
 * the rows, the footnote in text; the caption is left to the caller. An
 * HTML table ends without a newline after "</table>".
 */
void fold_table_write(struct fold_out *out, const struct fold_table *t,
    enum fold_format f);

/* ------------------------------------------------------------- foldtop */

struct fold_topopt {
	enum fold_format format;	/* one of FOLD_TOP_FORMATS, or HTML */
	int by_cum;		/* sort by total instead of self */
	size_t top;		/* rows shown, 0 for all */
	int col;		/* the count column tabled */
};

#define FOLD_TOPOPT_INIT { .format = FOLD_FORMAT_TEXT }

/*
 * The top table of a column of st (fold_top_compute): flat, flat%, sum%,
 * cum, cum% and the function, cells for opt->format, into t (not set, or
 * released); its caption is "total N in N stacks, N functions; showing N
 * by flat". Returns 0, or -1 with a message on integer overflow. The
 * frames of st must outlive t.
 */
int fold_top_table(const struct fold_stacks *st,
    const struct fold_topopt *opt, struct fold_table *t);

/*
 * Writes the top table in opt->format (FOLD_TOP_FORMATS), its caption
 * above it in text and markdown. Returns 0, or -1 with a message.
 */
int fold_top_write(struct fold_out *out, const struct fold_stacks *st,
    const struct fold_topopt *opt);

/* ------------------------------------------------------------ folddiff */

/*
 * The table of changed functions of r: its first top rows (0 for all),
 * cells for format f, into t (not set, or released). Text and markdown:
 * five figures (before, after, change, relative, q) of self then of total
 * and the function. TSV: the function first, raw figures, then the four
 * counts. HTML: the function first; the five figures grouped under self
 * and total; rows with a significant change (fold_diffreport_significant)
 * of class "sig", and their changes "up" or "down". The caption tells how
 * many functions were left out, or is NULL. r must outlive t.
 */
void fold_diff_table(const struct fold_diffreport *r, enum fold_format f,
    size_t top, struct fold_table *t);

/*
 * Writes the report as a table (TEXT, MARKDOWN or TSV): in text and
 * markdown the notes above it (fold_diffreport_note) and the caption
 * below.
 */
void fold_diff_table_write(struct fold_out *out,
    const struct fold_diffreport *r, enum fold_format f, size_t top);

/* ------------------------------------------------------------ foldcost */

/*
 * Writes the cost rollup of st (fold_cost_compute with opt, in whole
 * dollars in text and markdown, to the cent in TSV and JSON) in format f
 * (FOLD_COST_FORMATS): the figures computed, the name, and the total
 * last. Text and markdown show grouped figures with "%" and "$"; JSON
 * gives the count of each row too, and what the rollup is of. Returns 0,
 * or -1 with a message (see fold_cost_compute).
 */
int fold_cost_write(struct fold_out *out, const struct fold_stacks *st,
    const struct fold_costopt *opt, enum fold_format f);

#endif
