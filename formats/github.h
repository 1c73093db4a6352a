/*
 * The verdict of folddiff's gate as GitHub Actions workflow commands: an
 * "::error" annotation per function that crosses a gate, and a
 * "::notice" with the summary. Messages and titles are escaped as the
 * runner requires (% CR LF, and : , in titles), and names are made valid
 * UTF-8 without control characters first, so that no name can end a
 * command early or start one of its own.
 */
#ifndef FOLD_GITHUB_H
#define FOLD_GITHUB_H

#include <stddef.h>

#include "libfold/output.h"
#include "libfold/report.h"

void fold_github_report(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_gate *gates, size_t ngates);

#endif
