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
 * (see jfr_event_weight). Values are read back from the rounded text
 * `jfr print` prints ("253.9 kB", "20.1 ms", "1 m 5 s"), so they carry
 * its precision only (see jfr_value).
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
				   each; NULL: jfr_event_weight(event) */
	int signatures;		/* keep "(ParamType, ...)" */
	int lines;		/* append ":LINE" where a line is known */
	int threads;		/* root frame: the thread name */
};

#define JFR_OPT_INIT { 0 }

/* What was read, for the command's summary. */
struct jfr_stats {
	uint64_t events;	/* events of the chosen type */
	uint64_t stacks;	/* of those, added to the table */
	uint64_t nostack;	/* dropped: no stack trace or an empty one */
	uint64_t zero;		/* weight 0 (not added; nothing is lost) */
	uint64_t bad;		/* dropped with a warning */
	uint64_t cut;		/* stacks cut short: ending in "..." or, in
				   an input no deeper, JFR_PRINT_DEPTH deep;
				   either not reaching a thread's entry
				   point (Thread.run, main, ...) */
	uint64_t deepest;	/* most frames in one stack */
	uint64_t others;	/* events of other types */
};

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

/* Totals over every input read so far. */
const struct jfr_stats *jfr_reader_stats(const struct jfr_reader *r);

/*
 * FOLD_DETECT_SURE (2) when head[0..n) looks like `jfr print` text: an
 * event line "jdk.Name {" followed by an indented "field = value"; else 0.
 */
int jfr_detect(const char *head, size_t n, int eof);

/* The most event types jfr_summary names when the chosen one is absent. */
#define JFR_EVENTS_SHOWN 12

/*
 * The event types seen that carry stack traces, most frequent first (then
 * in byte order of name), as "jdk.ObjectAllocationSample (650),
 * jdk.ThreadPark (64)"; past max of them, " and N more". Owned by r,
 * valid until the next call; "" when none.
 */
const char *jfr_other_events(struct jfr_reader *r, size_t max);

/*
 * The field that weighs an event type by default: "weight" for
 * jdk.ObjectAllocationSample, "allocationSize" for
 * jdk.ObjectAllocationInNewTLAB and jdk.ObjectAllocationOutsideTLAB,
 * "duration" for jdk.JavaMonitorEnter, jdk.JavaMonitorWait,
 * jdk.ThreadPark and jdk.ThreadSleep, NULL (1 per event) for the others.
 */
const char *jfr_event_weight(const char *event);

/*
 * Parses a value as `jfr print` prints it into integer base units:
 * nanoseconds for durations ("0.000450 ms", "20.1 ms", "1.86 s",
 * "1 m 5 s", "2 h 3 m", "1 d 2 h", "0.031639532 s" from --exact), bytes
 * for sizes ("1 byte", "512 bytes", "253.9 kB", ... up to "EB", powers of
 * 1024), or a plain integer. A decimal comma is accepted (a locale's
 * printf). Rounds to the nearest unit. Returns 0, or -1 with a message
 * ("N/A", a negative value, an unknown unit, overflow).
 */
int jfr_value(const char *s, size_t n, uint64_t *v);

#endif
