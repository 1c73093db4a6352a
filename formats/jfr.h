/*
 * Java Flight Recorder text (`jfr print`) to folded stacks.
 *
 * `jfr print` writes one block per event, events of every type mixed:
 *
 *	jdk.ExecutionSample {
 *	  startTime = 13:24:12.515
 *	  sampledThread = "main" (javaThreadId = 1)
 *	  stackTrace = [
 *	    demo.Workload.fib(int) line: 18
 *	    demo.Workload.cpu(long) line: 53
 *	    ...
 *	  ]
 *	}
 *
 * Events of one chosen type become stacks "[thread;]root;...;leaf" with
 * frames "package.Class.method". A sample event counts 1; an allocation
 * event weighs its bytes, a blocking event its duration in nanoseconds
 * (see jfr_event_weight in jfr.c). Values are read back from the rounded
 * text `jfr print` prints ("253.9 kB", "20.1 ms", "1 m 5 s"), so they
 * carry its precision only (see jfr_value in jfr.c).
 *
 * Blocks of other types, nested { } objects and [ ] lists are skipped by
 * their braces; a block cut short (a new event before its closing brace,
 * or the end of the input) is a counted warning.
 */
#ifndef FORMATS_JFR_H
#define FORMATS_JFR_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

/* The default depth of `jfr print`, and the stack depth that hints at it. */
#define JFR_PRINT_DEPTH 5

struct jfr_opt {
	const char *event;	/* event type; "ThreadPark" matches
				   "jdk.ThreadPark"; NULL: jdk.ExecutionSample */
	const char *weight;	/* field weighing each event, "count" for 1
				   each; NULL: by its type, as above */
	int signatures;		/* keep "(ParamType, ...)" */
	int lines;		/* append ":LINE" where a line is known */
	int threads;		/* root frame: the thread name */
};

#define JFR_OPT_INIT { 0 }

struct jfr_reader;

/*
 * The format's descriptor (its options a struct jfr_opt).
 *
 * Each input is read whole. Bad blocks and lines are counted in diag.
 * Returns 0; -1 with a message on a read error (what was read before is
 * kept, other inputs may still be read); -2 with a message on a strict
 * warning, a count overflow, or an input that is `jfr print --json` or
 * `--xml` rather than text (fatal).
 */
extern const struct format jfr_format;
extern const struct format_id jfr_id;

/* The most event types jfr_summary names when the chosen one is absent. */
#define JFR_EVENTS_SHOWN 12

#endif
