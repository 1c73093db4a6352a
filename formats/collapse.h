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

struct collapse_format {
	const char *name;	/* as --format takes it: "perf" */
	const char *tool;	/* the tool of this format alone */
	const char *what;	/* one line, for --list-formats */
	/*
	 * head[0..n) is the start of the input, eof 1 when that is all of
	 * it: COLLAPSE_NO, COLLAPSE_MAYBE or COLLAPSE_SURE.
	 */
	int (*detect)(const char *head, size_t n, int eof);
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
 * Reads one whole input in its format (detected unless forced). Returns
 * 0; -1 with a message when this input failed (nothing of it is added
 * when its format was not recognised); -2 with a message when the whole
 * run must stop (a strict warning, a count overflow).
 */
int collapse_read(struct collapse *c, struct fold_in *in,
    struct fold_diag *diag);

/*
 * After every input: the readers' end-of-run messages. ok is 0 when an
 * input failed. Returns 0, or -1 when an option asked for something no
 * input had (an event that is not there).
 */
int collapse_finish(struct collapse *c, int ok);

#endif
