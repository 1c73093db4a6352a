/*
 * Every input format that converts to folded stacks, behind one
 * interface, for the stackcollapse front door.
 *
 * Each format is the same reader its own tool uses (stackcollapse-perf,
 * pprof2folded, ...): there is no second parser. An input's format is
 * told from its first bytes (decompressed), each format saying how sure
 * it is; the stacks of every input, whatever its format, go into one
 * table, so several inputs of different formats come out as one sorted
 * profile.
 */
#ifndef FOLD_FORMATS_COLLAPSE_H
#define FOLD_FORMATS_COLLAPSE_H

#include <stddef.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"
#include "formats/split.h"

/*
 * Every format, in the order --list-formats shows them; "folded" (folded
 * stacks, passed through) last. They are apart from the rest (in
 * allformats.c), so that a tool of one format links its reader alone
 * when it does not name them.
 */
extern const struct format *const collapse_formats[];
extern const size_t collapse_nformats;

/* The format of fmts[0..n) called name, or NULL. */
const struct format *collapse_find(const struct format *const *fmts,
    size_t n, const char *name);

/* The index of f in fmts[0..n), n when it is not there. */
size_t collapse_index(const struct format *const *fmts, size_t n,
    const struct format *f);

/*
 * Tells the format of in, one of fmts[0..nfmts), from its first bytes,
 * without reading them:
 * sets *f, or *f to NULL for an empty input. Returns 0, or -1 with a
 * message naming the input and what was tried when no format claims it
 * or two claim it equally.
 */
int collapse_detect(const struct format *const *fmts, size_t nfmts,
    struct fold_in *in, const struct format **f);

struct collapse;

/*
 * A run of the readers of the formats fmts[0..nfmts) (which must outlive
 * the result), adding to st (the same), with end-of-input and end-of-run
 * messages handed to say(arg, msg). forced, when not NULL, is one of
 * them, the format of every input. opts[i] are the options of fmts[i]
 * (NULL: its defaults), copied; the strings they point to must outlive
 * the result. Returns NULL with a message when an option is invalid.
 *
 * Every input is checked, so that one that is not what it is read as
 * fails with a message instead of passing for an empty profile:
 *   - A line-based text format refuses at once an input whose first
 *     bytes (64 KiB, decompressed) hold a NUL byte, or in which more than
 *     one byte in 32 is neither text (printable ASCII, blanks, valid
 *     UTF-8) nor ESC: binary data, named when it is a well-known kind
 *     (an executable, perf.data, a JFR recording, xz, zstd or bzip2
 *     data).
 *   - An input that gave no record (no sample, no stack) is an error,
 *     whether its lines were bad or it held only comments; unless it has
 *     no byte at all: an empty input is an error only when no input of
 *     the run gave a record (as flamegraph.pl's "No stack counts found").
 *   - An input of a line-based format in which more than half the lines
 *     read were bad (diag warnings) is an error too; what it gave is
 *     kept.
 * Messages say what the input looks like when another format claims its
 * first bytes ("it looks like bcc output (stackcollapse-bcc reads it)").
 */
struct collapse *collapse_new(const struct format *const *fmts,
    size_t nfmts, const void *const *opts, const struct format *forced,
    struct fold_stacks *st, fold_say_fn *say, void *arg);
void collapse_free(struct collapse *c);

/*
 * How the inputs are read from now on: in parts on threads, when their
 * format allows (formats/split.h). The default: jobs 0.
 */
void collapse_set_split(struct collapse *c, const struct split_opt *o);

/*
 * Reads one whole input in its format (detected unless forced), with the
 * checks above. Returns 0; -1 with a message when this input failed
 * (nothing of it is added when its format was not recognised or it is
 * binary data); -2 with a message when the whole run must stop (a strict
 * warning, a count overflow).
 */
int collapse_read(struct collapse *c, struct fold_in *in,
    struct fold_diag *diag);

/*
 * collapse_read in two steps, for many inputs read at once (cmd/util.h's
 * cmd_twostep): collapse_prepare, on any thread, tells in's format and
 * checks its head, and when its format reads whole inputs on threads of
 * their own (format.h's prepare, or whole for a file smaller than
 * FOLD_JOBS_AUTO_BYTES), reads it with w, the calling thread's worker,
 * or with a reader of its own (w NULL: never); it returns NULL with a
 * message when in failed there (as collapse_read's -1). collapse_commit,
 * on the thread that reads, in the order of the inputs and with in still
 * open, reads what is left to read and returns as collapse_read; it
 * frees ci, and collapse_drop one that is not committed. A worker is
 * used by one thread's prepares and their commits, and freed after the
 * last.
 */
struct collapse_input;
struct collapse_worker;
struct collapse_worker *collapse_worker_new(struct collapse *c);
void collapse_worker_free(struct collapse *c, struct collapse_worker *w);
struct collapse_input *collapse_prepare(struct collapse *c,
    struct collapse_worker *w, struct fold_in *in);
int collapse_commit(struct collapse *c, struct collapse_worker *w,
    struct collapse_input *ci, struct fold_in *in, struct fold_diag *diag);
void collapse_drop(struct collapse *c, struct collapse_input *ci);

/*
 * After every input (ok 0 when an input failed): the readers' end of
 * run and their messages, then, unless out is NULL, the output: the
 * stacks of st, sorted, or what a reader writes instead (a listing, a
 * differential profile; the only format of the run). Returns 0, or -1
 * when an option asked for something no input had (an event that is not
 * there), no input gave a stack, or the output of a reader could not be
 * written with the others'.
 */
int collapse_finish(struct collapse *c, int ok, struct fold_out *out);

/*
 * The format of every input read so far (the forced one, or the only
 * one detected), or NULL when there were several or none.
 */
const struct format *collapse_only(const struct collapse *c);

#endif
