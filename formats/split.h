/*
 * One input of a line-based format read in parts, on several threads,
 * with the result of reading it whole on one: the same stacks and counts,
 * the same warnings in the same order, the same messages.
 *
 * The input must be an uncompressed regular file, or standard input
 * from one (a pipe or a gzip stream is read by one thread: its bytes
 * come in order, and could not be read again). It is cut into pieces at
 * places the format's split finds (sample boundaries), every piece about
 * the same size but the first and the last, smaller: r reads them alone.
 * The reader r reads the first piece itself; then part
 * readers, made from r once it has seen the start of the input (perf's
 * kept event is decided there), read the middle pieces on the threads,
 * each into a table of its own (the calling thread's interns its frames
 * in r's), their warnings held back;
 * r takes what they found (join), their stacks are merged into r's table
 * and their warnings said in order, with their lines counted from the
 * start of the input; r reads the last piece itself, so that what ends
 * an input (a last sample cut short) is decided as when it is read whole.
 *
 * Whatever the parts cannot settle (a part that failed, a count that may
 * overflow where the parts add up, an event that only r could choose)
 * has r read the middle pieces itself, in order: slower, never different.
 */
#ifndef FOLD_FORMATS_SPLIT_H
#define FOLD_FORMATS_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

/*
 * What split_read does with an input: on jobs threads (0: one per
 * processor, fold_processors, for an input of at least
 * FOLD_JOBS_AUTO_BYTES (jobs.h) of a format read in parts by default,
 * one for a smaller one or another format; 1: never split), in pieces of
 * about piece bytes (0: SPLIT_PIECE).
 */
struct split_opt {
	unsigned long long jobs;
	uint64_t piece;
};

#define SPLIT_PIECE ((uint64_t)1 << 20)

/*
 * Reads the whole input in as f->read(r, in, diag) would, r adding to
 * st, in parts when f can split and the input is a file large enough.
 * Returns as f->read.
 */
int split_read(const struct format *f, void *r, struct fold_stacks *st,
    struct fold_in *in, struct fold_diag *diag, const struct split_opt *o);

/*
 * The threads o asks for, as the library takes them (jobs.h): its jobs,
 * at most FOLD_JOBS_MAX; 0 stays FOLD_JOBS_AUTO, one per processor,
 * counted only where threads would start.
 */
unsigned split_jobs(const struct split_opt *o);

/*
 * 1 when split_read would read in in parts (nothing of it read yet) and
 * it is of FOLD_JOBS_AUTO_BYTES at least: a smaller input, one of many,
 * is better read whole on a thread of its own.
 */
int split_wanted(const struct format *f, struct fold_in *in,
    const struct split_opt *o);

#endif
