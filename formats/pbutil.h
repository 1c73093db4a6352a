/*
 * What the pprof reader, writer and merger share: protobuf-c allocations
 * capped at a byte budget, id maps over a decoded message table, and the
 * gzip wrapper pprof files are written in. Internal to formats/.
 */
#ifndef FORMATS_PBUTIL_H
#define FORMATS_PBUTIL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>
#include <zlib.h>

#include "libfold/output.h"

/*
 * Reads the varint at p[*pos..n) into *v and moves *pos past it: 0, or
 * -1 when it is cut by n or longer than 10 bytes. Inline for the one-byte
 * varints that most keys, lengths and ids of a profile are: framing every
 * field of a small profile twice, the calls were a tenth of the framing.
 */
int pb_varint_long(const uint8_t *p, size_t n, size_t *pos, uint64_t *v);

static inline int
pb_varint(const uint8_t *p, size_t n, size_t *pos, uint64_t *v)
{
	if (*pos < n && p[*pos] < 0x80) {
		*v = p[(*pos)++];
		return 0;
	}
	return pb_varint_long(p, n, pos, v);
}

/*
 * A budget of decoding memory: sizes read from untrusted input cannot run
 * away. over is set when an allocation was refused, so that the caller
 * can tell "too large" from "malformed".
 */
struct pb_capalloc {
	uint64_t used, cap;
	int over;
};

/* Starts c with a budget of cap bytes. */
void pb_capalloc_init(struct pb_capalloc *c, uint64_t cap);

/*
 * A bump arena for protobuf-c, emptied all at once: decoding a message
 * costs no malloc or free per field. Every allocation is charged to the
 * budget ca (and refused past it) until the arena is emptied. What does
 * not fit in its block goes to further chunks, freed when it is emptied;
 * the block is kept, and grows (up to 4 MiB) when chunks were needed, so
 * that a run of small profiles decoded one after the other allocates
 * nothing after the first few.
 */
struct pb_arena {
	ProtobufCAllocator a;
	struct pb_capalloc *ca;
	char *block;		/* kept when emptied */
	size_t size;
	char *cur;		/* allocations are cut from cur[used..room) */
	size_t used, room;
	size_t next;		/* the size of the next chunk */
	void **chunks;		/* past the block, freed when emptied */
	size_t nchunks, capchunks;
	uint64_t charged;	/* to ca, given back when emptied */
};

void pb_arena_init(struct pb_arena *ar, struct pb_capalloc *ca);
void pb_arena_empty(struct pb_arena *ar);
/* Empties the arena and frees its block. */
void pb_arena_release(struct pb_arena *ar);

/*
 * Looks up a message by its id: directly when the ids are 1..n in order
 * (as most producers write them), else by binary search.
 */
struct pb_idmap {
	struct { uint64_t id; size_t idx; } *pairs;
	size_t n;
	int dense;
};

/*
 * Maps the ids of the n messages at msgs, stride bytes apart, each
 * beginning with its uint64_t id, for a table of what ("location") in
 * file. Returns 0, or -1 with a message on an id 0 or a repeated id.
 * pb_idmap_free frees either way.
 */
int pb_idmap_build(struct pb_idmap *m, const void *msgs, size_t n,
    size_t stride, const char *file, const char *what);

/*
 * The index of id, or -1. Inline for dense ids: a merge looks up every
 * location of every sample.
 */
long pb_idmap_search(const struct pb_idmap *m, uint64_t id);

static inline long
pb_idmap_find(const struct pb_idmap *m, uint64_t id)
{
	if (m->dense)
		return id >= 1 && id <= m->n ? (long)(id - 1) : -1;
	return pb_idmap_search(m, id);
}
void pb_idmap_free(struct pb_idmap *m);

/*
 * gzip output, with no name and a zero time so that the same profile gives
 * the same bytes, written as it comes: a large profile need not be held
 * whole before it is compressed. The stream is compressed in chunks of
 * PB_GZ_CHUNK bytes, each with the 32 KiB before it as its dictionary and
 * ended by a sync flush, so that up to jobs threads (8 at most;
 * FOLD_JOBS_AUTO, one per processor: jobs.h) compress them at once and
 * they are written in order as one gzip member: its bytes depend on what
 * was added alone, never on jobs or on how it was handed over. Threads
 * start, and the processors are counted, only once a chunk is full. A
 * stream of one chunk, as most profiles are, is compressed by libdeflate,
 * faster and smaller than zlib; longer ones by zlib, which can take a
 * dictionary and flush: zlib is started only then, so beginning cannot
 * fail. pb_gzip_end returns 0, or -1 with a message (compression failed);
 * write errors are left in out (fold_out_close reports them).
 *
 * Both compress at PB_GZ_LEVEL, the fastest, as Go's runtime/pprof writes
 * its profiles. A merged profile of 30 KB (bench/go-cpu.pb.gz's) takes
 * 0.09 ms and 14,501 bytes, against 0.37 to 0.49 ms and 13,393 bytes at
 * zlib's default level 6, where merging 100 of them took 13 ms. 3,000
 * labelled profiles merged into 13 MB take 49 ms and 2.2 MB, against 231
 * ms and 1.6 MB: level 6 was 40% of that merge's time.
 */
enum { PB_GZ_CHUNK = 1 << 20, PB_GZ_LEVEL = 1 };

struct pb_gzchunk;

struct pb_gzip {
	struct fold_out *out;
	unsigned jobs;
	struct pb_gzchunk *ring;	/* jobs + 1 chunks in flight, or 1 */
	size_t nring;
	/* chunks [written, next) are compressing or done, [next, filled)
	   wait for a thread, filled is being filled */
	uint64_t written, next, filled;
	z_stream z;		/* this thread's */
	uint32_t crc;
	uint64_t size;
	pthread_t *tid;
	unsigned nthreads;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	int quit, err;
};

void pb_gzip_begin(struct pb_gzip *g, struct fold_out *out, unsigned jobs);
void pb_gzip_add(struct pb_gzip *g, const void *p, size_t n);
int pb_gzip_end(struct pb_gzip *g);

/* protobuf's wire types */
enum { PB_WT_VARINT = 0, PB_WT_I64 = 1, PB_WT_LEN = 2, PB_WT_I32 = 5 };

/*
 * Most fields of a profile at a glance: a key of one byte (a number
 * above 0) and a varint or a length of one byte, its bytes within
 * p[0..left). Sets *num, *wt and *v (the varint, or the length) and
 * returns the field's size; 0 for any other field, framed in full.
 */
static inline size_t
pb_short_field(const uint8_t *p, size_t left, unsigned *num, int *wt,
    unsigned *v)
{
	if (left < 2 || p[0] < 8 || p[0] >= 0x80 || p[1] >= 0x80)
		return 0;
	*num = p[0] >> 3;
	*wt = p[0] & 7;
	*v = p[1];
	if (*wt == PB_WT_VARINT)
		return 2;
	if (*wt == PB_WT_LEN && p[1] <= left - 2)
		return 2 + (size_t)p[1];
	return 0;
}

/*
 * The wire type Profile's field num must have, given the wire type wt it
 * came with (comment, 13, may be packed or not), or -1 when Profile
 * (profile.proto) has no field num.
 */
static inline int
pb_profile_want(uint64_t num, int wt)
{
	switch (num) {
	case 1: case 2: case 3: case 4: case 5: case 6: case 11:
		/* sample_type ... string_table, period_type */
		return PB_WT_LEN;
	case 7: case 8: case 9: case 10: case 12: case 14: case 15:
		/* drop_frames ... period, default_sample_type, doc_url */
		return PB_WT_VARINT;
	case 13:		/* comment: packed or not */
		return wt == PB_WT_VARINT ? PB_WT_VARINT : PB_WT_LEN;
	default:
		return -1;
	}
}

struct fold_in;

/*
 * Reads the whole of in, a pprof profile of at most max bytes
 * (decompressed), into a new buffer (*buf, NUL terminated beyond *len;
 * the caller frees it), checking the fields of the Profile message as
 * they arrive, so that an input that is no profile (a zero byte, text,
 * random bytes) fails at its first bad field instead of being read whole
 * up to the cap. The first field must be one of Profile's with its wire
 * type; every field must have a number above 0 and a wire type of
 * protobuf (Profile's own for its fields) and end within max bytes; in
 * the first 4 KiB, a field that is one of Profile's messages must hold
 * bytes that frame as fields. A field cut by the end of the input is
 * left to the caller, which reports it with the rest of the profile.
 * Never holds more than max + 1 bytes. Returns 0, or -1 with a message
 * naming the input.
 *
 * An input that came whole at once (a small gzip file) has nothing to
 * stop early. When unchecked is not NULL, such an input is checked only
 * for its first field, and *unchecked set: the caller calls
 * pb_profile_check on it before it reports anything wrong with it, and
 * when its decoder skipped a field numbered 0 (or, having framed every
 * field of Profile's itself, pb_profile_check_head before it says or
 * adds anything), to say what the check would have said first.
 */
int pb_profile_readall(struct fold_in *in, uint64_t max, char **buf,
    size_t *len, int *unchecked);

/*
 * The check pb_profile_readall makes, of the profile p[0..n) read from
 * file: 0, or -1 with its message. pb_profile_check_head checks only the
 * fields that begin in its first 4 KiB: for a caller that has framed
 * every field of Profile's as the check does (pprof2folded), the part of
 * the check it has not made.
 */
int pb_profile_check_head(const char *file, const char *p, size_t n,
    uint64_t max);
int pb_profile_check(const char *file, const char *p, size_t n,
    uint64_t max);

/* Writes p[0..n) as one gzip stream; returns as pb_gzip_end does. */
int pb_gzip_write(struct fold_out *out, const uint8_t *p, size_t n);

#endif
