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
#include "formats/bcc.h"
#include "formats/chrome.h"
#include "formats/dtrace.h"
#include "formats/ghcprof.h"
#include "formats/jfr.h"
#include "formats/perf.h"
#include "formats/pprof.h"
#include "formats/sample.h"
#include "formats/svgread.h"
#include "formats/vsprof.h"
#include "formats/vtune.h"

/* The options of every format; each reader takes its own part. */
struct collapse_opt {
	struct perf_opt perf;
	struct jfr_opt jfr;
	struct bcc_opt bcc;
	struct pprof_readopt pprof;
	struct dtrace_opt dtrace;
	struct sample_opt sample;
	struct chrome_opt chrome;
	struct svgread_opt svgread;
	struct vtune_opt vtune;
	struct vsprof_opt vsprof;
	struct ghcprof_opt ghcprof;
};

#define COLLAPSE_OPT_INIT { PERF_OPT_INIT, JFR_OPT_INIT, BCC_OPT_INIT, \
	PPROF_READOPT_INIT, DTRACE_OPT_INIT, SAMPLE_OPT_INIT, \
	CHROME_OPT_INIT, SVGREAD_OPT_INIT, VTUNE_OPT_INIT, VSPROF_OPT_INIT, \
	GHCPROF_OPT_INIT }

/* What detect answers: how sure a format is that an input is its own. */
enum { COLLAPSE_NO = 0, COLLAPSE_MAYBE = 1, COLLAPSE_SURE = 2 };

/*
 * What kind of bytes a format is: lines of text, each understood or
 * counted as a bad line (the checks of collapse_check_begin and _end
 * apply); a text document read whole by a parser (JSON, XML), whose
 * parser says what is wrong; or binary data.
 */
enum { COLLAPSE_LINES, COLLAPSE_DOCUMENT, COLLAPSE_BINARY };

struct collapse_format {
	const char *name;	/* as --format takes it: "perf" */
	const char *tool;	/* the tool of this format alone */
	const char *what;	/* one line, for --list-formats */
	/*
	 * head[0..n) is the start of the input, eof 1 when that is all of
	 * it: COLLAPSE_NO, COLLAPSE_MAYBE or COLLAPSE_SURE.
	 */
	int (*detect)(const char *head, size_t n, int eof);
	int kind;		/* COLLAPSE_LINES ... */
	const char *input;	/* in messages: "perf script output" */
};

/* The formats, in the order --list-formats shows them. */
extern const struct collapse_format collapse_formats[];
extern const size_t collapse_nformats;

/* The format called name, or NULL. */
const struct collapse_format *collapse_find(const char *name);

/*
 * Tells the format of in from its first bytes, without reading them:
 * sets *f, or *f to NULL for an empty input. Returns 0, or -1 with a
 * message naming the input and what was tried when no format claims it
 * or two claim it equally.
 */
int collapse_detect(struct fold_in *in, const struct collapse_format **f);

/*
 * The checks every converter makes of its inputs, so that an input that
 * is not what it reads fails with a message instead of passing for an
 * empty profile. collapse_read makes them; a command with a reader of
 * its own calls collapse_check_begin and collapse_check_end around the
 * reading of each input, and collapse_check_finish after the last.
 *
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
 * first bytes ("it looks like bcc output: try stackcollapse-bcc").
 */
struct collapse_check {
	uint64_t bad;		/* diag's count when the input began */
	int counted;		/* records are what the reader recognised
				   (1, the default), not the stacks kept */
	int empty;		/* the input has no byte */
	const struct collapse_format *like;	/* what else claims it */
	int found;		/* an input of the run gave a record */
	char **empties;		/* the names of the empty inputs */
	size_t nempties;
};

#define COLLAPSE_CHECK_INIT { 0, 1, 0, NULL, 0, NULL, 0 }

/*
 * Before an input of format f is read: peeks at its first bytes. Returns
 * 0, or -1 with a message when the input must not be read (binary data).
 */
int collapse_check_begin(struct collapse_check *ck,
    const struct collapse_format *f, struct fold_in *in,
    const struct fold_diag *diag);

/*
 * After it was read, with the reader's return code rc and the number of
 * records the input gave (what the reader recognised as its format:
 * samples, entries, kept or not; or, with counted 0, the stacks it
 * added): returns rc when it is not 0, else 0 or -1 with a message (no
 * record, mostly bad lines).
 */
int collapse_check_end(struct collapse_check *ck,
    const struct collapse_format *f, struct fold_in *in,
    const struct fold_diag *diag, uint64_t records, int rc);

/*
 * After every input: when none gave a record, says so of each empty
 * input through say(arg, msg) and returns -1; else 0.
 */
int collapse_check_finish(struct collapse_check *ck, fold_say_fn *say,
    void *arg);

/* Frees what ck holds. */
void collapse_check_release(struct collapse_check *ck);

struct collapse;

/*
 * Readers of every format, adding to st (st must outlive the result),
 * with end-of-input and end-of-run messages handed to say(arg, msg).
 * forced, when not NULL, is the format of every input. opt is copied;
 * the strings it points to must outlive the result. Returns NULL with a
 * message when an option is invalid.
 */
struct collapse *collapse_new(const struct collapse_opt *opt,
    const struct collapse_format *forced, struct fold_stacks *st,
    fold_say_fn *say, void *arg);
void collapse_free(struct collapse *c);

/*
 * Reads one whole input in its format (detected unless forced), with the
 * checks of collapse_check_begin and _end. Returns 0; -1 with a message
 * when this input failed (nothing of it is added when its format was not
 * recognised or it is binary data); -2 with a message when the whole run
 * must stop (a strict warning, a count overflow).
 */
int collapse_read(struct collapse *c, struct fold_in *in,
    struct fold_diag *diag);

/*
 * After every input: the readers' end-of-run messages, and
 * collapse_check_finish's. ok is 0 when an input failed. Returns 0, or
 * -1 when an option asked for something no input had (an event that is
 * not there) or no input gave a stack.
 */
int collapse_finish(struct collapse *c, int ok);

#endif
