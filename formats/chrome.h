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
 * The JSON is parsed as a stream (formats/json.h, yajl): each node is
 * captured whole and kept as a compact record (about 100 bytes), and
 * once the nodes are read, as V8 writes them first, each sample is
 * credited as it comes; only --time keeps 12 bytes a sample until the
 * end. Samples that come before the nodes are kept as ids and credited
 * at the end. On the 99 MB profile of bench/stackcollapse-chrome.sh
 * that takes 27 MB at peak (67 MB with --time) against 165 MB (191) for
 * jansson decoding one value at a time, at 2.7 times its speed. A
 * jansson or json-c document of the same file took 10 to 16 times the
 * file. V8 numbers its nodes from 1 up: ids are looked up in an array
 * while they stay dense, in a hash table when not.
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
 * Reads one input, of at most opt.max_size bytes: an input whose first
 * byte but blanks (and a byte order mark) is not '{', or that stops
 * being JSON, fails before the rest is read. Bad nodes and samples are counted warnings in
 * diag. Returns 0; -1 with a message when this input failed (not JSON,
 * not a profile, a read error: nothing of it is added; what was read
 * before is kept and other inputs may still be read); -2 with a message
 * on a strict warning or a count overflow (fatal for the whole run).
 */
extern const struct format chrome_format;
extern const struct format_id chrome_id;

/*
 * How sure it is that an input starting with head[0..n) is a .cpuprofile
 * (eof: that is the whole input): 0 not, 1 could be (a JSON object with
 * "nodes"), 2 certainly (it also has "callFrame").
 */
int chrome_detect(const char *head, size_t n, int eof);

/*
 * 1 when a JS function's url u[0..n) is a script of the profiled program
 * (a path or an address: /srv/app.js, file:///srv/app.js,
 * https://host/app.js, C:\), whose functions get "_[j]": not the
 * runtime's own scripts, which have only a name (node:fs, and before
 * node 16 fs.js; Firefox's self-hosted), nor natives.
 */
int chrome_user_script(const char *u, size_t n);

const struct chrome_stats *chrome_reader_stats(const struct chrome_reader *r);

/*
 * A V8 profile inside another file, fed a piece at a time (a Chrome
 * trace's Profile and ProfileChunk events): nodes, samples and timeDeltas
 * in any order, each checked and warned about as in a .cpuprofile, the
 * samples resolved when it is finished. chrome_embed_chunk names the
 * line of the samples and deltas that follow. Finishing adds its stacks
 * to st, each under the frame root unless that is UINT32_MAX, and
 * returns 0, or as chrome_format's read (-1, -2) with a message.
 */
struct json;
struct json_val;
struct chrome_reader *chrome_embed_new(const struct chrome_opt *opt,
    struct fold_stacks *st, const char *file, struct fold_diag *diag);
void chrome_embed_chunk(struct chrome_reader *r, uint64_t line);
int chrome_embed_node(struct chrome_reader *r, struct json *j,
    const struct json_val *v, size_t i, uint64_t line);
int chrome_embed_sample(struct chrome_reader *r, struct json *j,
    const struct json_val *v, size_t i);
int chrome_embed_delta(struct chrome_reader *r, struct json *j,
    const struct json_val *v, size_t i);
void chrome_embed_times(struct chrome_reader *r, const int64_t *start,
    const int64_t *end);
int chrome_embed_finish(struct chrome_reader *r, uint32_t root);
void chrome_embed_free(struct chrome_reader *r);

#endif
