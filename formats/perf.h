/*
 * perf script output to folded stacks.
 *
 * Reads the text `perf script` prints (a sample header line, its call
 * chain leaf first, a blank line) and adds each sample to a stack table
 * as "comm;root;...;leaf", counted by its period or as one sample. The
 * names are cleaned as FlameGraph's stackcollapse-perf.pl cleans them, so
 * that its test suite gives the same bytes; see stackcollapse-perf(1) for
 * what is done differently where that script goes wrong.
 */
#ifndef FORMATS_PERF_H
#define FORMATS_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

struct perf_opt {
	int pid;		/* root frame "comm-PID" */
	int tid;		/* root frame "comm-PID/TID" */
	int kernel;		/* suffix kernel frames "_[k]" */
	int jit;		/* suffix JIT frames "_[j]" */
	int addrs;		/* "[dso <addr>]" for frames without a symbol */
	int inlined;		/* suffix frames perf marked (inlined) "_[i]" */
	int context;		/* append perf's source line to user frames */
	int srcline;		/* append perf's source line to every frame */
	int samples;		/* count each sample as 1, not by its period */
	int list;		/* only count samples per event, build no stacks */
	const char *event;	/* keep this event only (NULL: the first seen) */
};

#define PERF_OPT_INIT { 0 }

struct perf_reader;

/*
 * perf script output: the reader of struct format (opt a struct
 * perf_opt). Lines that are neither a sample header, a frame, a source
 * line nor a comment are counted in diag ("unrecognized line"), and so
 * are samples whose period is not a count of 0 to 2^64-1 (the sample is
 * skipped). A read or decompression error fails the input, keeping the
 * samples read before it. With list, the output is each event with its
 * samples instead of the stacks.
 */
extern const struct format perf_format;
extern const struct format_id perf_id;

/*
 * FOLD_DETECT_SURE (2) when head[0..n) looks like perf script output: a
 * sample header with perf's timestamp ("12.345678:"), or a header with a
 * pid and an event ("comm 123 cycles:") followed by a frame with an
 * address; FOLD_DETECT_MAYBE (1) for a header without an event (perf script
 * -F comm,tid,ip,sym) followed by a frame; else 0.
 */
int perf_detect(const char *head, size_t n, int eof);

#endif
