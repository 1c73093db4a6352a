/*
 * Files that are not profiles, or not profiles this reads, told by their
 * first bytes: what a user may hand a converter by mistake, named so that
 * the message says what to do instead.
 */
#ifndef FOLD_FORMATS_MAGIC_H
#define FOLD_FORMATS_MAGIC_H

#include <stddef.h>

/*
 * What the data head[0..n) begins with, when it is a well-known kind of
 * binary file ("a perf.data file: perf script prints its text"), or NULL.
 * No such beginning is that of a profile any format reads, nor a valid
 * first protocol buffer field, so it is looked for before any format.
 */
const char *fold_magic(const char *head, size_t n);

/*
 * What the text head[0..n) is, when it is a well-known kind of text that
 * no format reads ("the text of a legacy pprof profile: go tool pprof
 * -proto converts it"), or NULL: told by its beginning, which no format
 * this reads shares.
 */
const char *fold_lookalike(const char *head, size_t n);

#endif
