/*
 * Merging folded profiles.
 *
 * Sums identical stacks across any number of folded inputs and writes one
 * sorted profile. Inputs that are regular files are first scanned: those
 * already sorted (as every tool of ours writes them) are merged as
 * streams, k ways at once, so memory stays bounded however large they are;
 * the others (unsorted files, standard input, pipes) are read (never
 * mapped: a file truncated meanwhile would raise SIGBUS) and summed in
 * memory, by stack text, then sorted to join the merge as one more stream
 * (on the threads of jobs: unsorted plain files are read in pieces,
 * each line sent by the hash of its stack to one of the threads' tables,
 * which join the merge as streams).
 * A regular file that is no longer, when read to its end, the file it was
 * before its first read (size, modification time, identity) is reported
 * as one that cannot be read: "FILE: changed while being read".
 *
 * Each stream holds a descriptor. One merge takes at most FOLD_MERGE_FANIN
 * of them, fewer when what RLIMIT_NOFILE's soft limit leaves (after the
 * descriptors already open and a few to spare) is less; beyond that,
 * groups are merged into temporary files first (fold_tmpfile), as sort(1)
 * does, so any number of inputs can be merged whatever the limit. Raising
 * the soft limit is left to the caller: it is the process's. When the
 * counts of the sorted inputs are integers that cannot overflow, the
 * groups are merged each on its own (on the threads of jobs) and their
 * results together; else each with the result of the ones before, so
 * that fractions add up in the order of the inputs. The output and the
 * messages, in their order, are the same either way.
 */
#ifndef FOLD_MERGE_H
#define FOLD_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "diag.h"
#include "output.h"

struct fold_in;

#define FOLD_MERGE_FANIN 128

struct fold_merge_input {
	const char *path;	/* NULL or "-": standard input */
	const char *root;	/* frame put in front of its stacks, or NULL */
};

struct fold_merge_opt {
	double scale;		/* multiply every count (1: none) */
	double per;		/* then divide by this (1: none) */
	int normalize;		/* then scale so the counts sum to norm_total */
	double norm_total;
	int min;		/* drop output stacks below min_count */
	struct fold_count min_count;
	/* a file that cannot be read, or that changed while being read:
	   called with the message, the merge goes on with the other inputs
	   and fold_merge returns 1 at the end */
	void (*file_error)(void *arg, const char *msg);
	void *arg;
	/* when not NULL, called with each input opened for reading (to show
	   its progress, fold_in_set_progress), with arg */
	void (*opened)(void *arg, struct fold_in *in);
	/* when not NULL, set (by a return of 0 or 1) to the number of
	   stacks the inputs gave, once summed and before min_count drops
	   any: 0 when every input was empty or of blank or bad lines only */
	uint64_t *stacks;
	/* when not NULL, the unit of the output (unit.h) whatever the
	   inputs count; else the inputs' unit lines must name the same
	   unit (samples when one names none), and it is the output's */
	const char *unit;
	/* threads to read and merge on (1: this one; FOLD_JOBS_AUTO, 0:
	   one per processor, jobs.h, once the regular files among the
	   inputs come to 8 MiB, else one); the output and every message are
	   the same whatever their number */
	unsigned jobs;
	/* the threads of jobs read unsorted files in pieces of this many
	   bytes (0: 2 MiB) */
	uint64_t piece;
};

#define FOLD_MERGE_OPT_INIT { .scale = 1, .per = 1 }

/*
 * Merges inputs[0..n) into out, with the unit line of their unit (none
 * when normalized). Bad lines are counted in diag. Returns 0;
 * 1 when some file could not be read or changed while being read (each
 * reported through file_error, the others merged); or -1 on a fatal error
 * (overflow, strict warning, inputs of different units, temporary file
 * failure, fewer than five
 * descriptors left: message set, nothing more written).
 */
int fold_merge(struct fold_out *out, const struct fold_merge_input *inputs,
    size_t n, const struct fold_merge_opt *opt, struct fold_diag *diag);

/*
 * Origin as a dimension: the root frame of an input taken from its path
 * by a pcre2 pattern, the text of its first capture group (of the whole
 * match when it has none), with ';' made ':' and line ends made spaces so
 * that it is one frame. fold_pathroot_new returns NULL with a message
 * when the pattern does not compile; the caller owns the result.
 */
struct fold_pathroot;

struct fold_pathroot *fold_pathroot_new(const char *pattern);
void fold_pathroot_free(struct fold_pathroot *pr);

/*
 * Sets *root to the frame taken from path, a new string the caller frees,
 * and returns 1; returns 0 (*root NULL) when path does not match or the
 * group is empty or unset, -1 with a message when the pattern cannot be
 * matched (pcre2's match limit).
 */
int fold_pathroot(struct fold_pathroot *pr, const char *path, char **root);

#endif
