/*
 * The verdict of folddiff's gate as a JUnit XML test report, the format
 * the test-report views of GitLab, Jenkins and GitHub's actions read:
 * one testcase per gate expression, failed when any function crosses it,
 * and one per function that crossed a gate, its failure holding the
 * report line. Written with libxml2's xmlwriter; names are shown as in
 * the text report (fold_vis: control and bidirectional characters and bad
 * UTF-8 as "\xHH", a NUL too), then made valid XML characters
 * (fold_xml_clean), so the file is well-formed whatever the input.
 */
#ifndef FOLD_JUNIT_H
#define FOLD_JUNIT_H

#include <stddef.h>

#include "libfold/output.h"
#include "libfold/report.h"

/* Writes the report. Returns 0, or -1 with a message (libxml2 failed). */
int fold_junit_report(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_gate *gates, size_t ngates);

#endif
