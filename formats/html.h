/*
 * The regression report of folddiff as one self-contained HTML page: the
 * verdict of the gate, what was compared and how, the table of changed
 * functions, the differential flame graph inline, and the top tables of
 * both profiles. Nothing is fetched (a Content-Security-Policy forbids
 * it): the page opens from a CI artifact or a mail attachment. The tables
 * are those of table.h (fold_diff_table, fold_top_table), the names in
 * them and in the verdict shown as in the text report (fold_vis), and
 * every text is escaped as fold_xml_escape does; the only script is the
 * flame graph's, scoped to its own element. The graph measures each
 * frame's change as the table does a function's (in points of share,
 * whatever the totals; or per unit of work), its colour following the
 * change of the frame's self or total share as opt->colorby says; the
 * legend says which.
 *
 *	struct fold_html_opt o = FOLD_HTML_OPT_INIT;
 *	o.st = st;				(the two-column profile)
 *	fold_html_report(out, report, &o);
 */
#ifndef FOLD_HTML_H
#define FOLD_HTML_H

#include <stddef.h>

#include "libfold/output.h"
#include "libfold/report.h"
#include "libfold/stacks.h"

struct fold_html_opt {
	const char *title;	/* the page's heading */
	const struct fold_gate *gates;	/* the gate, or none */
	size_t ngates;
	size_t changes;		/* rows of the table of changes, 0 for all */
	const struct fold_stacks *st;	/* the two-column profile, for the
					   flame graph ("before -> after",
					   the inputs' names) and the top
					   tables, or NULL */
	size_t top;		/* rows of each top table, 0 for all */
	enum fold_metric colorby;	/* what colours the graph's frames:
					   the change of their self or of
					   their total share (as the table
					   measures it) */
};

#define FOLD_HTML_OPT_INIT { .title = "Profile comparison", .top = 20 }

/*
 * Writes the page. Returns 0, or -1 with a message when the graph or a
 * table cannot be made (overflow); write errors are left in out.
 */
int fold_html_report(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_html_opt *opt);

#endif
