/*
 * The verdict of folddiff's gate as GitHub Actions workflow commands: an
 * "::error" annotation per function that crosses a gate, and a
 * "::notice" with the summary. Messages and titles are escaped as the
 * runner requires (% CR LF, and : , in titles), and names are shown as
 * in the text report first (fold_vis: control and bidirectional
 * characters and bad UTF-8 as "\xHH"), so that no name can end a command
 * early, start one of its own or rewrite the log on a terminal.
 */
#ifndef FOLD_GITHUB_H
#define FOLD_GITHUB_H

#include <stddef.h>

#include "libfold/output.h"
#include "libfold/report.h"

void fold_github_report(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_gate *gates, size_t ngates);

#endif
