/*
 * Buffered output whose errors are never lost.
 *
 * Writes go to a large buffer; the first write error (a full disk, a
 * closed pipe) is remembered, later writes are dropped, and fold_out_close
 * reports it. Long writers poll fold_out_failed() to stop early.
 */
#ifndef FOLD_OUTPUT_H
#define FOLD_OUTPUT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "count.h"

struct fold_out;

/*
 * Writes to fd, which fold_out_close closes (standard output too: a close
 * can be where a deferred write error shows); name is used in messages.
 * The caller owns the result.
 */
struct fold_out *fold_out_new(int fd, const char *name);

/* Opens path for writing (created or truncated); NULL with a message. */
struct fold_out *fold_out_open(const char *path);

/*
 * An output to memory, every byte kept: a part of an output made on a
 * thread of its own while the caller writes the part before it. It
 * cannot fail. fold_out_append writes what src holds to o and frees src.
 */
struct fold_out *fold_out_mem(void);
void fold_out_append(struct fold_out *o, struct fold_out *src);

/*
 * The output of tasks [0, n) to o, in order: put(arg, k, mem) writes task
 * k's part to mem, an output to memory of its own, on up to jobs threads,
 * and each part is written to o as soon as it and those before it are
 * done (fold_jobs_ordered). A task begun after o failed puts nothing.
 */
void fold_out_jobs(struct fold_out *o, size_t n, unsigned jobs,
    void (*put)(void *arg, size_t k, struct fold_out *mem), void *arg);

/*
 * A temporary file for spilling, open for reading and writing, made in
 * $TMPDIR (else /tmp) and already unlinked, so nothing is left behind;
 * NULL with a message naming the directory. (tmpfile(3) ignores TMPDIR.)
 */
FILE *fold_tmpfile(void);

void fold_out_write(struct fold_out *o, const void *p, size_t n);
void fold_out_puts(struct fold_out *o, const char *s);
void fold_out_putc(struct fold_out *o, int c);
void fold_out_printf(struct fold_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fold_out_count(struct fold_out *o, const struct fold_count *c);

/* 1 once a write has failed. */
int fold_out_failed(const struct fold_out *o);

/*
 * Flushes, closes and frees. Returns 0, or -1
 * with a message ("name: write error: No space left on device") and errno
 * set to the first failure's when any write, the flush or the close failed.
 */
int fold_out_close(struct fold_out *o);

#endif
