/*
 * V8 CPU profiles (.cpuprofile JSON) to folded stacks.
 *
 * `node --cpu-prof`, DevTools' "Save profile" and the DevTools protocol's
 * Profiler.stop all write the same object:
 *
 *	{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"",
 *	    "lineNumber":-1,...},"hitCount":0,"children":[2,3]},...],
 *	 "startTime":T0,"endTime":T1,"samples":[3,3,2,...],
 *	 "timeDeltas":[D0,D1,...]}
 *
 * bare, or wrapped as the protocol sends it ({"profile":{...}} or
 * {"id":N,"result":{"profile":{...}}}). Each sample names the node it
 * hit; its stack is the path from the root of the node tree down to that
 * node, the "(root)" node itself left out. Frames are the function
 * names, "(anonymous)" for an empty one; ';' and control bytes in a name
 * become '_'.
 *
 * Counts are samples, or microseconds with time set. Time: V8 records
 * timeDeltas[i] as the time from sample i-1 (from startTime for i = 0)
 * to sample i, so sample i is taken at t[i] = startTime + timeDeltas[0]
 * + ... + timeDeltas[i]. Each sample is credited with the time until the
 * next sample, t[i+1] - t[i] (timeDeltas[i+1]), the last with endTime -
 * t[last] (0 when endTime is missing or earlier). V8 really emits
 * negative deltas (samples recorded out of order): then, as DevTools
 * does, the samples are taken in the order of their times t[i] (ties in
 * the order of the file) and each is credited with the time to the next
 * in that order. Either way no credit is negative, and the credits of an
 * input add up to max(endTime, latest t) - earliest t: the output total
 * is that, less the credit of dropped samples.
 *
 * The JSON is decoded by jansson. json-c and jansson were both measured
 * on a 117 MB profile (bench/gen_cpuprofile.py): as whole documents,
 * jansson took 1,174 MB at peak (10x the file) and json-c 1,853 MB (16x),
 * far over a budget of 3x the file, at about 19 MB/s each. So the
 * document is not decoded whole: the reader walks the punctuation of the
 * profile object and of its three big arrays itself, and hands each value
 * (a key, a node, a number) to the library, which says where the value
 * ends; only compact arrays are kept (16 bytes a sample, about 100 a
 * node). On the 99 MB profile of bench/stackcollapse-chrome.sh that
 * takes 184 MB at peak (1.96x the file, the file itself included) at
 * 37 MB/s: the speed is jansson's, building and freeing one small
 * object a node. jansson was chosen for this: decoding one value of a longer
 * buffer is one call (JSON_DISABLE_EOF_CHECK reports where it stopped),
 * it was quicker on single numbers (340 ns against json-c's 570 ns), and
 * it refuses what JSON refuses (invalid UTF-8, NUL in strings, nesting
 * deeper than 2048). Plain integers of up to 18 digits, the bulk of the
 * samples and timeDeltas arrays, are read without the library, by the
 * grammar of a JSON integer; anything else goes to the library.
 */
#ifndef FORMATS_CHROME_H
#define FORMATS_CHROME_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/count.h"
#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

/* Stacks deeper than this are dropped with a warning (V8 keeps 255). */
#define CHROME_MAX_DEPTH 4096

/*
 * Default cap on an input's size (decompressed). A profile is one JSON
 * string to V8 and to DevTools, and V8's strings stop short of 1 GiB, so
 * no real profile comes near it; an endless stream stops there.
 */
#define CHROME_MAX_SIZE ((uint64_t)2 << 30)

struct chrome_opt {
	int time;		/* count microseconds, not samples */
	int lines;		/* frames "name url:line" where a url is known */
	int no_jit;		/* no "_[j]" on frames of the profiled scripts */
	uint64_t max_size;	/* cap on an input (0: CHROME_MAX_SIZE) */
};

#define CHROME_OPT_INIT { 0 }

/* What was read, over every input so far. */
struct chrome_stats {
	uint64_t profiles;	/* inputs read whole */
	uint64_t samples;	/* samples read */
	uint64_t dropped;	/* of those, dropped with a warning */
	struct fold_count total;	/* what the kept samples added */
	struct fold_count droptotal;	/* what the dropped ones would have */
};

struct chrome_reader;

/*
 * The format's descriptor (its options a struct chrome_opt).
 *
 * Reads one whole input, of at most opt.max_size bytes: an input whose
 * first byte but blanks (and a byte order mark) is not '{' fails before
 * the rest is read. Bad nodes and samples are counted warnings in
 * diag. Returns 0; -1 with a message when this input failed (not JSON,
 * not a profile, a read error: nothing of it is added; what was read
 * before is kept and other inputs may still be read); -2 with a message
 * on a strict warning or a count overflow (fatal for the whole run).
 */
extern const struct format chrome_format;

/*
 * How sure it is that an input starting with head[0..n) is a .cpuprofile
 * (eof: that is the whole input): 0 not, 1 could be (a JSON object with
 * "nodes"), 2 certainly (it also has "callFrame").
 */
int chrome_detect(const char *head, size_t n, int eof);

const struct chrome_stats *chrome_reader_stats(const struct chrome_reader *r);

#endif
