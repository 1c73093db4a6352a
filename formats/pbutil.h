/*
 * What the pprof reader, writer and merger share: protobuf-c allocations
 * capped at a byte budget, id maps over a decoded message table, and the
 * gzip wrapper pprof files are written in. Internal to formats/.
 */
#ifndef FORMATS_PBUTIL_H
#define FORMATS_PBUTIL_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "libfold/output.h"

/*
 * protobuf-c's allocations, capped: sizes read from untrusted input cannot
 * run away. over is set when an allocation was refused, so that the
 * caller can tell "too large" from "malformed".
 */
struct pb_capalloc {
	ProtobufCAllocator a;
	uint64_t used, cap;
	int over;
};

/* Starts c with a budget of cap bytes. */
void pb_capalloc_init(struct pb_capalloc *c, uint64_t cap);
void *pb_cap_alloc(void *c, size_t n);
void pb_cap_free(void *c, void *p);

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
 * Maps the ids of msgs[0..n), each a uint64_t at byte offset idoff of its
 * message, for a table of what ("location") in file. Returns 0, or -1 with
 * a message on an id 0 or a repeated id. pb_idmap_free frees either way.
 */
int pb_idmap_build(struct pb_idmap *m, void *const *msgs, size_t n,
    size_t idoff, const char *file, const char *what);

/* The index of id, or -1. */
long pb_idmap_find(const struct pb_idmap *m, uint64_t id);
void pb_idmap_free(struct pb_idmap *m);

/*
 * Writes p[0..n) gzip-compressed, with no name and a zero time so that
 * the same profile gives the same bytes. Returns 0, or -1 with a message.
 */
int pb_gzip_write(struct fold_out *out, const uint8_t *p, size_t n);

#endif
