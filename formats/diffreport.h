/*
 * folddiff's report in each of its formats: the table of changed
 * functions in text, markdown or TSV (table.h), the HTML page (html.h),
 * the gate's verdict as a JUnit report (junit.h) or as GitHub workflow
 * commands (github.h).
 *
 *	struct fold_diffwriteopt o = FOLD_DIFFWRITEOPT_INIT;
 *	o.format = FOLD_FORMAT_HTML;
 *	o.st = st;
 *	fold_diff_write(out, report, &o);
 */
#ifndef FORMATS_DIFFREPORT_H
#define FORMATS_DIFFREPORT_H

#include <stddef.h>

#include "libfold/output.h"
#include "libfold/report.h"
#include "libfold/stacks.h"
#include "formats/table.h"

/* The formats of fold_diff_write. */
#define FOLD_DIFF_FORMATS (FOLD_TOP_FORMATS | \
	FOLD_FORMAT_SET(FOLD_FORMAT_HTML) | \
	FOLD_FORMAT_SET(FOLD_FORMAT_JUNIT) | \
	FOLD_FORMAT_SET(FOLD_FORMAT_GITHUB))

struct fold_diffwriteopt {
	enum fold_format format;	/* one of FOLD_DIFF_FORMATS */
	size_t top;		/* rows of the table of changes, 0 for all */
	const struct fold_gate *gates;	/* the gate judging the report */
	size_t ngates;
	const struct fold_stacks *st;	/* HTML: the profile compared, for
					   its flame graph and top tables */
	enum fold_metric colorby;	/* HTML: the change that colours the
					   graph, of self (default) or total */
};

#define FOLD_DIFFWRITEOPT_INIT { .format = FOLD_FORMAT_TEXT }

/*
 * Writes the report r in opt->format. Returns 0, or -1 with a message
 * when the page's graph or a table cannot be made or libxml2 fails;
 * write errors are left in out.
 */
int fold_diff_write(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_diffwriteopt *opt);

#endif
