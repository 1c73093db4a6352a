/*
 * Java Flight Recorder recordings (.jfr), read natively.
 *
 * A recording is a run of chunks, each self-contained: a 68-byte header
 * ("FLR\0", version, size, where its metadata and last constant pool
 * are), then events. The metadata event declares every type (classes,
 * their fields, each field's type, whether its values are kept in a
 * constant pool); the constant pool events hold the values events refer
 * to (threads, stack traces, methods, classes, symbols, strings); an
 * event is its size, its type, and its fields in the declared order,
 * integers written 7 bits a byte when the chunk says so.
 *
 * jfrbin_read reads each chunk whole (its memory is the largest chunk,
 * never the file), indexes its constant pools by offset, and hands each
 * event to the callbacks as `jfr print` would print it: its type, its
 * thread ("sampledThread", else "eventThread", named as jfr print names
 * it), the weight field asked for, and its stack frames, leaf first, as
 * the lines jfr print writes ("pkg.Class.method(int, String) line: 12"),
 * so that the text reader's own rules turn them into frames.
 */
#ifndef FORMATS_JFRBIN_H
#define FORMATS_JFRBIN_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/input.h"

struct jfrbin_cb {
	void *arg;
	/*
	 * An event of type name begins; stacks is 1 when its type has a
	 * stack trace. Returns 1 to be given its thread, weight and
	 * frames, else 0.
	 */
	int (*begin)(void *arg, const char *name, size_t n, int stacks);
	void (*thread)(void *arg, const char *name, size_t n);
	/* kind: 't' nanoseconds, 'b' bytes, 'n' a plain number */
	void (*weight)(void *arg, uint64_t v, int kind);
	void (*frame)(void *arg, const char *text, size_t n);
	void (*truncated)(void *arg);
	/* The event's end: 0, or below 0 to stop the read. */
	int (*end)(void *arg);
};

/* 1 when head[0..n) begins a JFR recording. */
int jfrbin_detect(const char *head, size_t n);

/*
 * Reads the recording in, giving each event to cb; weight is the field
 * that weighs an event, or NULL. Returns 0; -1 with a message
 * ("file: chunk at byte N: ...") for data that is not a recording or is
 * damaged (the events of the chunks before it are given); what cb->end
 * returned below 0.
 */
int jfrbin_read(struct fold_in *in, const char *weight,
    const struct jfrbin_cb *cb);

#endif
