/*
 * Chrome trace-event JSON (the Trace Event Format) to folded stacks.
 *
 * What Chrome DevTools' Performance panel saves, what chrome://tracing,
 * Perfetto's legacy JSON export, `chromium --trace-startup` and `node
 * --trace-events-enabled` write: a JSON array of events, or an object
 * whose "traceEvents" member is one (its other members, "metadata"
 * first or last, are skipped). The array may be left open at the end,
 * as the format allows.
 *
 * Two kinds of stacks are in a trace:
 *   - sampled CPU profiles: a "Profile" event (ph "P") and the
 *     "ProfileChunk" events of the same pid and id, each holding the new
 *     nodes of V8's tree (args.data.cpuProfile.nodes, each naming its
 *     parent), samples and timeDeltas, read as a .cpuprofile is
 *     (formats/chrome.h), per profile: samples, or microseconds with
 *     time;
 *   - duration events, per thread (pid, tid): "B"/"E" pairs and "X"
 *     complete events (ts, dur), nested by time; each stack of event
 *     names is credited with the time it was the innermost, as
 *     FlameGraph's stackcollapse-chrome-tracing and speedscope do,
 *     in nanoseconds (ts and dur are microseconds, often with
 *     fractions, read exactly).
 * Two older forms of samples are read too: the "CpuProfile" event that
 * held a whole profile (DevTools until 2018), and the top-level "samples"
 * and "stackFrames" of old chrome://tracing files and Hermes (samples
 * naming a frame, frames naming their parent). By default the samples
 * are read when the trace has any, else the durations; an option picks
 * one.
 *
 * Thread names come from the "M" metadata events (thread_name),
 * wherever they are in the file: stacks are
 * kept by thread and profile until the end of the input, and a thread
 * filter or root applies then. Memory: each duration event is kept, 32
 * bytes, until its thread is folded at the end; samples 8 bytes each
 * (about 1/6 of their text); the document is never held.
 */
#ifndef FORMATS_TRACE_H
#define FORMATS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"

#define TRACE_MAX_SIZE ((uint64_t)4 << 30)

enum { TRACE_AUTO, TRACE_SAMPLES, TRACE_DURATIONS };

struct trace_opt {
	int mode;		/* TRACE_* */
	int time;		/* samples: microseconds, not samples */
	int lines;		/* samples: "name url:line" */
	int no_jit;		/* samples: no "_[j]" marks */
	int thread_root;	/* "NAME-PID/TID" above each stack */
	const char **pids, **tids, **threads;	/* read only these */
	size_t npids, ntids, nthreads;
	uint64_t max_size;	/* 0: TRACE_MAX_SIZE */
};

#define TRACE_OPT_INIT { 0 }

extern const struct format trace_format;
extern const struct format_id trace_id;

/*
 * 2 when head[0..n) is a JSON array whose first element has "ph" (or
 * "traceEvents" object), else 0.
 */
int trace_detect(const char *head, size_t n, int eof);

/*
 * The root frame that --thread-root puts a thread's stacks under,
 * "NAME-PID/TID" (';' and controls made '_'), interned in frames; the
 * Firefox reader names its threads the same way.
 */
struct fold_intern;
uint32_t trace_thread_root(struct fold_intern *frames, const char *name,
    size_t nl, const char *pid, size_t pl, const char *tid, size_t tl);

#endif
