/*
 * Firefox Profiler files to folded stacks.
 *
 * Two formats, told apart by what they hold, not by a flag:
 *
 *   - The raw "Gecko profile" that Firefox writes itself
 *     (MOZ_PROFILER_SHUTDOWN, the profiler's SIGUSR2 dump, about:profiling
 *     "save"): meta.version, then per thread "samples", "stackTable" and
 *     "frameTable" as {"schema": {column: index}, "data": [rows]}, and a
 *     "stringTable" of the thread's strings; child processes nested in
 *     "processes", each a profile of the same shape.
 *
 *	{"meta":{"version":34,...},"libs":[...],
 *	 "threads":[{"name":"GeckoMain","pid":1,"tid":1,
 *	   "samples":{"schema":{"stack":0,"time":1},"data":[[2,0.5],...]},
 *	   "stackTable":{"schema":{"prefix":0,"frame":1},
 *	                 "data":[[null,0],[0,1],[1,2]]},
 *	   "frameTable":{"schema":{"location":0,...},"data":[[0],[1],[2]]},
 *	   "stringTable":["(root)","main","fib (file:///a.html:3:7)"]}],
 *	 "processes":[{"meta":{...},"threads":[...],"processes":[]}]}
 *
 *   - The processed format that profiler.firefox.com saves and samply
 *     writes (meta.preprocessedProfileVersion): tables as columns
 *     ("stackTable": {"prefix": [...], "frame": [...]}), frames naming
 *     functions of a "funcTable", strings per thread or in
 *     "shared.stringArray", and sample weights (samples.weight, of
 *     samples.weightType "samples", "tracing-ms" or "bytes").
 *
 * A stack is the chain of stackTable rows from a sample's row to its
 * root, each row naming a frame. Frames are named as the profiler's call
 * tree names them: the raw format's location strings are taken apart as
 * the profiler does ("fib (file:///a.html:3:7)[12]" is the function
 * "fib"; a script's top level is "(root scope) URL"), and the processed
 * format's functions are named by its funcTable; so one profile gives the
 * same stacks in either format. The "(root)" frame every raw stack
 * begins with is left out.
 *
 * Key order is free: a thread's samples may come before its tables, and
 * the shared tables after the threads. A thread's samples are counted by
 * stack row as they come, and its stacks named when the thread and the
 * tables it names are read; memory follows the tables of one thread (or
 * the shared ones) and its stack rows, not the samples.
 */
#ifndef FORMATS_FIREFOX_H
#define FORMATS_FIREFOX_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"

/* Default cap on an input's size (decompressed). */
#define FIREFOX_MAX_SIZE ((uint64_t)4 << 30)

struct firefox_opt {
	int lines;		/* JS frames "name url:line" */
	int no_jit;		/* no "_[j]" on the page's functions */
	int thread_root;	/* each stack under "THREAD-PID/TID" */
	const char **threads;	/* --thread-name: read only these */
	size_t nthreads;
	const char **pids;	/* --process-id */
	size_t npids;
	const char **tids;	/* --thread-id */
	size_t ntids;
	uint64_t max_size;	/* cap on an input (0: FIREFOX_MAX_SIZE) */
};

#define FIREFOX_OPT_INIT { 0 }

/* The reader (its options a struct firefox_opt). */
extern const struct format firefox_format;
extern const struct format_id firefox_id;

/*
 * 2 when head[0..n) is a JSON object that is a Firefox profile by its
 * keys (a processed profile's version, a Gecko profile's libs or thread
 * tables), else 0.
 */
int firefox_detect(const char *head, size_t n, int eof);

#endif
