/*
 * Merging pprof profiles into one pprof profile, as `go tool pprof -proto
 * a b > merged.pb.gz` does, with every table kept: functions, locations
 * (with their lines and inlined frames), mappings, labels.
 *
 * The profiles must have the same sample types and period type. Equal
 * rows of the tables are stored once: strings by text, functions by name,
 * system name, file and start line, mappings by size (rounded up to 4 KiB),
 * file offset and build id or else file name (the first one seen is kept,
 * and the addresses of the others' locations are moved by the difference
 * of their starts, as pprof does for address space randomization),
 * locations by mapping, address, folding and lines. Samples with the same
 * locations and labels (in any order) are one sample whose values are the
 * sums; samples whose values are all zero are left out. Ids are numbered
 * from 1 in order of first use by the samples, so only what a sample
 * reaches is written. The header: the earliest non-zero time, the sum of
 * the durations, the largest period, each distinct comment once, the
 * first drop and keep frames and default sample type.
 *
 * Memory holds one decoded input at a time plus the merged tables.
 */
#ifndef FOLD_FORMATS_PPROFMERGE_H
#define FOLD_FORMATS_PPROFMERGE_H

#include <stdint.h>

#include "libfold/input.h"
#include "libfold/output.h"

struct pprof_merger;

/*
 * A merger whose inputs may each take at most max_size bytes,
 * decompressed and decoded (0: PPROF_MAX_SIZE). The caller owns it.
 */
struct pprof_merger *pprof_merger_new(uint64_t max_size);
void pprof_merger_free(struct pprof_merger *m);

/*
 * Adds the profile in (read to its end; the caller closes it). Returns 0,
 * or -1 with a message naming the file (corrupt gzip or protobuf, an id
 * or string index out of range, sample types or a period type that differ
 * from the first profile's, the size cap): nothing of it is added then,
 * and the merger may still be written. Returns -2 with a message when a
 * value's sum passes 64 bits: the merger must then not be written.
 */
int pprof_merge_add(struct pprof_merger *m, struct fold_in *in);

/*
 * pprof_merge_add in two steps, for inputs read on several threads:
 * pprof_merge_decode reads and decodes in on its own, touching nothing
 * that pprof_merge_commit changes (several may run at once, with each
 * other and with a commit), and returns the decoded profile, or NULL
 * with a message (nothing to commit). pprof_merge_commit adds it, as
 * pprof_merge_add does (returns the same), and takes it back for the
 * next decode; so does pprof_merge_drop without adding it.
 */
struct pprof_decoded;
struct pprof_decoded *pprof_merge_decode(struct pprof_merger *m,
    struct fold_in *in);
int pprof_merge_commit(struct pprof_merger *m, struct pprof_decoded *d);
void pprof_merge_drop(struct pprof_merger *m, struct pprof_decoded *d);

/*
 * Writes the merged profile, gzipped, compressed on up to jobs threads
 * (the same bytes for any jobs). Returns 0, or -1 with a message when no
 * profile was added. Write errors are left in out.
 */
int pprof_merge_write(struct pprof_merger *m, struct fold_out *out,
    unsigned jobs);

#endif
