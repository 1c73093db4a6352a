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

#define PERF_OPT_INIT { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL }

/* One event seen in the input, in order of first appearance. */
struct perf_event {
	const char *name;	/* "cycles", "cpu-clock:ppp", "" when absent */
	uint64_t samples;	/* samples seen, kept or not */
	int kept;		/* its samples went into the table */
};

struct perf_reader;

/*
 * A reader adding to st (whose frames it interns; st must outlive it).
 * opt is copied. The caller owns the result (perf_reader_free).
 */
struct perf_reader *perf_reader_new(const struct perf_opt *opt,
    struct fold_stacks *st);
void perf_reader_free(struct perf_reader *r);

/*
 * Reads one whole input. Lines that are neither a sample header, a frame,
 * a source line nor a comment are counted in diag ("unrecognized line"),
 * and so are samples whose period is not a count of 0 to 2^64-1 (the
 * sample is skipped).
 * Returns 0; -1 with a message on a read or decompression error (the
 * samples read before it are kept, and other inputs may still be read);
 * -2 with a message on a strict warning or a count overflow (fatal).
 */
int perf_read(struct perf_reader *r, struct fold_in *in,
    struct fold_diag *diag);

/*
 * After perf_read: the line of the header of a last sample that had frames
 * but no closing blank line, in an input whose other samples did end with
 * one, which was therefore not counted (the input looks cut short); 0
 * when there was none. In an input without any blank line after a sample
 * (a single sample, or blank lines stripped), each header ends the sample
 * before it and the last sample is counted.
 */
uint64_t perf_unterminated(const struct perf_reader *r);

/*
 * The sample headers read so far, over every input, whatever their event
 * and whether they were counted: what tells perf script output from
 * other text.
 */
uint64_t perf_samples(const struct perf_reader *r);

/* The events seen so far (valid until the next perf_read). */
const struct perf_event *perf_events(const struct perf_reader *r, size_t *n);

/*
 * COLLAPSE_SURE (2) when head[0..n) looks like perf script output: a
 * sample header with perf's timestamp ("12.345678:"), or a header with a
 * pid and an event ("comm 123 cycles:") followed by a frame with an
 * address; COLLAPSE_MAYBE (1) for a header without an event (perf script
 * -F comm,tid,ip,sym) followed by a frame; else 0.
 */
int perf_detect(const char *head, size_t n, int eof);

/*
 * After perf_read of the input named name: says so when its last sample
 * was not counted (perf_unterminated).
 */
void perf_input_summary(const struct perf_reader *r, const char *name,
    fold_say_fn *say, void *arg);

/*
 * After every input: says which events were kept and which dropped when
 * the input held several. Returns 0, or -1 when opt->event names an
 * event the input does not have (the message lists those it has).
 */
int perf_summary(const struct perf_reader *r, const struct perf_opt *opt,
    fold_say_fn *say, void *arg);

#endif
