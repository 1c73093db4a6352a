/*
 * Counted warnings about bad input.
 *
 * Readers do not fail on a bad line: they count it here. The first few
 * are handed to the caller's report function (which prints them); the
 * rest are only counted, and the caller prints the total at the end.
 * Under strict, the first warning is an error instead.
 */
#ifndef FOLD_DIAG_H
#define FOLD_DIAG_H

#include <stdint.h>

struct fold_diag {
	/* called with "file:line: message" for the first `limit` warnings */
	void (*report)(void *arg, const char *msg);
	void *arg;
	unsigned limit;
	int strict;
	uint64_t count;		/* warnings so far */
};

/*
 * Where a reader hands the messages that are not about one line (what it
 * dropped in all, an input that looks cut short): the command prints
 * them.
 */
typedef void fold_say_fn(void *arg, const char *msg);

#define FOLD_DIAG_LIMIT 5
#define FOLD_DIAG_INIT { 0, 0, FOLD_DIAG_LIMIT, 0, 0 }

/*
 * Counts a warning about file:line (line 0: none). Returns 0, or under
 * strict -1 with the message set as the error.
 */
int fold_warn(struct fold_diag *d, const char *file, uint64_t line,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
