#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "formats/collapse.h"

/*
 * One format's reader behind a common face. open returns the reader (NULL
 * with a message on a bad option); read reads one input into the shared
 * table; finish says the end-of-run messages and returns -1 for an error
 * exit.
 */
struct ops {
	void *(*open)(const struct collapse_opt *o, struct fold_stacks *st);
	int (*read)(struct collapse *c, void *r, struct fold_in *in,
	    struct fold_diag *diag);
	int (*finish)(struct collapse *c, void *r, int ok);
	void (*close)(void *r);
	/*
	 * The records (samples, entries) recognised so far over every input,
	 * kept or not; NULL: the stacks added to the table tell
	 * (fold_stacks_adds).
	 */
	uint64_t (*records)(struct collapse *c, void *r);
};

struct collapse {
	struct collapse_opt opt;
	const struct collapse_format *forced;
	struct fold_stacks *st;
	fold_say_fn *say;
	void *arg;
	void **readers;		/* by format */
	char *used;		/* by format: an input was read */
	struct collapse_check check;
	uint64_t folded;	/* folded inputs that held a stack */
};

/* perf script */

static void *
perf_open(const struct collapse_opt *o, struct fold_stacks *st)
{
	return perf_reader_new(&o->perf, st);
}

static int
perf_in(struct collapse *c, void *r, struct fold_in *in,
    struct fold_diag *diag)
{
	int rc = perf_read(r, in, diag);

	perf_input_summary(r, fold_in_name(in), c->say, c->arg);
	return rc;
}

static int
perf_end(struct collapse *c, void *r, int ok)
{
	return perf_summary(r, &c->opt.perf, c->say, c->arg);
}

static uint64_t
perf_records(struct collapse *c, void *r)
{
	return perf_samples(r);
}

/* jfr print */

static void *
jfr_open(const struct collapse_opt *o, struct fold_stacks *st)
{
	return jfr_reader_new(&o->jfr, st);
}

static int
jfr_in(struct collapse *c, void *r, struct fold_in *in,
    struct fold_diag *diag)
{
	return jfr_read(r, in, diag);
}

static int
jfr_end(struct collapse *c, void *r, int ok)
{
	jfr_summary(r, &c->opt.jfr, ok, c->say, c->arg);
	return 0;
}

/* events of other types too: the summary names them */
static uint64_t
jfr_records(struct collapse *c, void *r)
{
	const struct jfr_stats *s = jfr_reader_stats(r);

	return s->events + s->others;
}

/* bcc, libbpf-tools, bpftrace */

static void *
bcc_open(const struct collapse_opt *o, struct fold_stacks *st)
{
	return bcc_reader_new(&o->bcc, st);
}

static int
bcc_in(struct collapse *c, void *r, struct fold_in *in,
    struct fold_diag *diag)
{
	return bcc_read(r, in, diag);
}

static int
bcc_end(struct collapse *c, void *r, int ok)
{
	bcc_summary(r, ok, c->say, c->arg);
	return 0;
}

/* entries of any form, dropped ones too: the summary says why */
static uint64_t
bcc_records(struct collapse *c, void *r)
{
	const struct bcc_stats *s = bcc_reader_stats(r);

	return s->multiline + s->folded + s->bpftrace + s->empty + s->nostack;
}

/*
 * pprof: a reader of its own for each profile, whose stacks join the
 * table only when the whole profile was read, so that a damaged profile
 * adds nothing (pprof2folded writes nothing at all then).
 */

static void *
pprof_open(const struct collapse_opt *o, struct fold_stacks *st)
{
	struct pprof_reader *r = pprof_reader_new(&o->pprof);

	/* the options are checked now; the reader is made per input */
	if (r)
		pprof_reader_free(r);
	return r ? (void *)st : NULL;
}

static int
pprof_in(struct collapse *c, void *st, struct fold_in *in,
    struct fold_diag *diag)
{
	struct pprof_reader *r = pprof_reader_new(&c->opt.pprof);
	int rc;

	if (!r)
		return -2;
	if ((rc = pprof_read(r, in, diag)) == 0 &&
	    pprof_add_stacks(r, st) < 0)
		rc = -2;
	pprof_reader_free(r);
	return rc;
}

/*
 * The converters that follow the common shape: X_reader_new(&opt->X,
 * st), X_read, X_summary(r, say, arg), X_reader_free.
 */
#define CONVERTER(x) \
static void * \
x##_open(const struct collapse_opt *o, struct fold_stacks *st) \
{ \
	return x##_reader_new(&o->x, st); \
} \
static int \
x##_in(struct collapse *c, void *r, struct fold_in *in, \
    struct fold_diag *diag) \
{ \
	return x##_read(r, in, diag); \
} \
static int \
x##_end(struct collapse *c, void *r, int ok) \
{ \
	x##_summary(r, c->say, c->arg); \
	return 0; \
} \
static void \
x##_close(void *r) \
{ \
	x##_reader_free(r); \
}

CONVERTER(dtrace)
CONVERTER(sample)
CONVERTER(chrome)

/* a profile read whole, even without samples: the summary says so */
static uint64_t
chrome_records(struct collapse *c, void *r)
{
	return chrome_reader_stats(r)->profiles;
}

CONVERTER(svgread)
CONVERTER(vtune)
CONVERTER(vsprof)
CONVERTER(ghcprof)

/* folded stacks, passed through */

static void *
folded_open(const struct collapse_opt *o, struct fold_stacks *st)
{
	return st;
}

static int
folded_in(struct collapse *c, void *st, struct fold_in *in,
    struct fold_diag *diag)
{
	struct fold_readopt ro = FOLD_READOPT_INIT;
	int rc = fold_read(in, st, &ro, diag);

	if (rc > 0)
		c->folded++;
	return rc < 0 ? -1 : 0;
}

static uint64_t
folded_records(struct collapse *c, void *st)
{
	return c->folded;
}

static void
perf_close(void *r)
{
	perf_reader_free(r);
}

static void
jfr_close(void *r)
{
	jfr_reader_free(r);
}

static void
bcc_close(void *r)
{
	bcc_reader_free(r);
}

const struct collapse_format collapse_formats[] = {
	{ "perf", "stackcollapse-perf", "perf script output", perf_detect,
	    COLLAPSE_LINES, "perf script output" },
	{ "jfr", "stackcollapse-jfr", "jfr print text (Java Flight Recorder)",
	    jfr_detect, COLLAPSE_LINES, "jfr print output" },
	{ "bcc", "stackcollapse-bcc",
	    "bcc, libbpf-tools and bpftrace stacks", bcc_detect,
	    COLLAPSE_LINES, "bcc, libbpf-tools or bpftrace output" },
	{ "pprof", "pprof2folded", "pprof profiles (gzip or raw protobuf)",
	    pprof_detect, COLLAPSE_BINARY, "a pprof profile" },
	{ "dtrace", "stackcollapse-dtrace",
	    "DTrace stack(), ustack() and jstack() aggregations", dtrace_detect,
	    COLLAPSE_LINES, "DTrace output" },
	{ "sample", "stackcollapse-sample", "macOS sample reports",
	    sample_detect, COLLAPSE_LINES, "a macOS sample report" },
	{ "chrome", "stackcollapse-chrome",
	    "V8 .cpuprofile JSON (node --cpu-prof, Chrome DevTools)",
	    chrome_detect, COLLAPSE_DOCUMENT, "a V8 .cpuprofile" },
	{ "svg", "svg2folded", "flame graph SVGs (flamegraph.pl, inferno, "
	    "flamegraph-svg)", svgread_detect, COLLAPSE_DOCUMENT,
	    "a flame graph SVG" },
	{ "vtune", "stackcollapse-vtune", "Intel VTune top-down tree CSV",
	    vtune_detect, COLLAPSE_LINES, "a VTune top-down tree CSV" },
	{ "vsprof", "stackcollapse-vsprof", "Visual Studio call tree CSV",
	    vsprof_detect, COLLAPSE_LINES, "a Visual Studio call tree CSV" },
	{ "ghcprof", "stackcollapse-ghcprof", "GHC .prof cost centre reports",
	    ghcprof_detect, COLLAPSE_LINES, "a GHC .prof report" },
	{ "folded", "foldmerge", "folded stacks (summed and sorted)",
	    fold_detect, COLLAPSE_LINES, "folded stacks" },
};

/* In the order of collapse_formats. */
static const struct ops ops[] = {
	{ perf_open, perf_in, perf_end, perf_close, perf_records },
	{ jfr_open, jfr_in, jfr_end, jfr_close, jfr_records },
	{ bcc_open, bcc_in, bcc_end, bcc_close, bcc_records },
	{ pprof_open, pprof_in, NULL, NULL, NULL },
	{ dtrace_open, dtrace_in, dtrace_end, dtrace_close, NULL },
	{ sample_open, sample_in, sample_end, sample_close, NULL },
	{ chrome_open, chrome_in, chrome_end, chrome_close, chrome_records },
	{ svgread_open, svgread_in, svgread_end, svgread_close, NULL },
	{ vtune_open, vtune_in, vtune_end, vtune_close, NULL },
	{ vsprof_open, vsprof_in, vsprof_end, vsprof_close, NULL },
	{ ghcprof_open, ghcprof_in, ghcprof_end, ghcprof_close, NULL },
	{ folded_open, folded_in, NULL, NULL, folded_records },
};

const size_t collapse_nformats =
    sizeof collapse_formats / sizeof collapse_formats[0];

_Static_assert(sizeof ops / sizeof ops[0] ==
    sizeof collapse_formats / sizeof collapse_formats[0],
    "one ops entry per format");

const struct collapse_format *
collapse_find(const char *name)
{
	size_t i;

	for (i = 0; i < collapse_nformats; i++)
		if (strcmp(collapse_formats[i].name, name) == 0)
			return &collapse_formats[i];
	return NULL;
}

/* Enough to see several samples of any format, and no more than a peek. */
enum { HEAD = 64 * 1024 };

/*
 * Binary data well known, by its first bytes: what a user may hand a
 * text converter by mistake.
 */
static const struct {
	const char *magic;
	size_t len;
	const char *what;
} magics[] = {
	{ "\177ELF", 4, "an ELF executable" },
	{ "PERFILE2", 8, "a perf.data file: perf script prints its text" },
	{ "FLR\0", 4, "a JFR recording: jfr print prints its text" },
	{ "\375" "7zXZ\0", 6, "xz data: decompress it first" },
	{ "\050\265\057\375", 4, "zstd data: decompress it first" },
	{ "BZh", 3, "bzip2 data: decompress it first" },
};

/*
 * Whether head[0..n) is binary data rather than text: a NUL byte, or more
 * than one byte in 32 that is neither printable ASCII, a blank, ESC (a
 * colored line) nor part of valid UTF-8. Writes what it is to why.
 */
static int
isbinary(const char *head, size_t n, char *why, size_t whysz)
{
	const unsigned char *s = (const unsigned char *)head;
	const char *nul = memchr(head, '\0', n);
	size_t i, k, bad = 0, m;
	uint32_t cp;

	if (!nul) {
		for (i = 0; i < n; i += k) {
			k = 1;
			if (s[i] >= 0x80 && (k = fold_utf8(s + i, n - i, &cp)) == 0) {
				/* a character cut by the end of the head is text */
				if (s[i] >= 0xc2 && s[i] <= 0xf4 && n - i <
				    (s[i] < 0xe0 ? 2u : s[i] < 0xf0 ? 3u : 4u)) {
					k = n - i;
				} else {
					k = 1;
					bad++;
				}
			} else if ((s[i] < 0x20 || s[i] == 0x7f) &&
			    !strchr("\t\n\v\f\r\033", s[i])) {
				bad++;
			}
		}
		if (bad * 32 <= n)
			return 0;
	}
	for (m = 0; m < sizeof magics / sizeof magics[0]; m++)
		if (n >= magics[m].len &&
		    memcmp(head, magics[m].magic, magics[m].len) == 0) {
			snprintf(why, whysz, "%s", magics[m].what);
			return 1;
		}
	if (nul)
		snprintf(why, whysz, "a NUL byte at byte %zu",
		    (size_t)(nul - head));
	else
		snprintf(why, whysz, "%zu of its first %zu bytes are not text",
		    bad, n);
	return 1;
}

/*
 * The formats that claim head[0..n), but not: the surest, or NULL when
 * none or two claim it equally. folded, which claims any text of words
 * and numbers, only when nothing else does.
 */
static const struct collapse_format *
claims(const char *head, size_t n, int eof,
    const struct collapse_format *not, const struct collapse_format **two)
{
	const struct collapse_format *best = NULL;
	size_t i;
	int k, bestk = 0;

	*two = NULL;
	for (i = 0; i < collapse_nformats; i++) {
		if (&collapse_formats[i] == not ||
		    (k = collapse_formats[i].detect(head, n, eof)) == 0)
			continue;
		if (strcmp(collapse_formats[i].name, "folded") == 0 && best)
			continue;
		if (k > bestk || (best && strcmp(best->name, "folded") == 0)) {
			best = &collapse_formats[i];
			bestk = k;
			*two = NULL;
		} else if (k == bestk) {
			*two = &collapse_formats[i];
		}
	}
	return best;
}

int
collapse_detect(struct fold_in *in, const struct collapse_format **f)
{
	const char *head;
	size_t n, i, nsure = 0, nmaybe = 0;
	const struct collapse_format *sure[2], *maybe[2];
	char tried[512], why[128] = "";
	int eof, k;

	*f = NULL;
	if (fold_in_peek(in, HEAD, &head, &n) < 0)
		return -1;
	if (n == 0)
		return 0;
	eof = n < HEAD;
	for (i = 0; i < collapse_nformats; i++) {
		k = collapse_formats[i].detect(head, n, eof);
		if (k == COLLAPSE_SURE && nsure++ < 2)
			sure[nsure - 1] = &collapse_formats[i];
		else if (k == COLLAPSE_MAYBE && nmaybe++ < 2)
			maybe[nmaybe - 1] = &collapse_formats[i];
	}
	if (nsure == 1 || (nsure == 0 && nmaybe == 1)) {
		*f = nsure ? sure[0] : maybe[0];
		return 0;
	}
	if (nsure > 1 || nmaybe > 1) {
		const struct collapse_format **two = nsure ? sure : maybe;
		return fold_seterr("%s: looks like both %s and %s input "
		    "(choose with --format)", fold_in_name(in), two[0]->name,
		    two[1]->name);
	}
	if (isbinary(head, n, why, sizeof why))
		return fold_seterr("%s: binary data (%s), not a format this "
		    "reads", fold_in_name(in), why);
	tried[0] = '\0';
	for (i = 0; i < collapse_nformats; i++)
		snprintf(tried + strlen(tried), sizeof tried - strlen(tried),
		    "%s%s", i ? ", " : "", collapse_formats[i].name);
	return fold_seterr("%s: not a format this reads (tried %s)",
	    fold_in_name(in), tried);
}

int
collapse_check_begin(struct collapse_check *ck,
    const struct collapse_format *f, struct fold_in *in,
    const struct fold_diag *diag)
{
	const struct collapse_format *two;
	const char *head;
	char why[128] = "";
	size_t n;

	ck->bad = diag->count;
	ck->counted = 1;
	ck->empty = 0;
	ck->like = NULL;
	if (fold_in_peek(in, HEAD, &head, &n) < 0)
		return -1;
	if (n == 0) {
		ck->empty = 1;
		return 0;
	}
	if (f->kind == COLLAPSE_LINES && isbinary(head, n, why, sizeof why))
		return fold_seterr("%s: binary data (%s), not %s",
		    fold_in_name(in), why, f->input);
	/* for the messages of collapse_check_end only */
	ck->like = claims(head, n, n < HEAD, f, &two);
	if (two)
		ck->like = NULL;
	return 0;
}

/* "; it looks like bcc output (stackcollapse-bcc reads it)", or "" */
static const char *
looks(const struct collapse_check *ck, char *buf, size_t bufsz)
{
	buf[0] = '\0';
	if (ck->like)
		snprintf(buf, bufsz, "; it looks like %s (%s reads it)",
		    ck->like->input, ck->like->tool);
	return buf;
}

int
collapse_check_end(struct collapse_check *ck,
    const struct collapse_format *f, struct fold_in *in,
    const struct fold_diag *diag, uint64_t records, int rc)
{
	uint64_t bad = diag->count - ck->bad, lines = fold_in_lineno(in);
	char like[256];

	if (rc != 0)
		return rc;
	if (ck->empty) {
		ck->empties = fold_reallocarray(ck->empties, ck->nempties + 1,
		    sizeof *ck->empties);
		ck->empties[ck->nempties++] = fold_strndup(fold_in_name(in),
		    strlen(fold_in_name(in)));
		return 0;
	}
	if (records == 0 && ck->counted)
		return fold_seterr("%s: no stacks found: not %s%s",
		    fold_in_name(in), f->input, looks(ck, like, sizeof like));
	if (records == 0)	/* read as such, maybe, but all dropped */
		return fold_seterr("%s: no stacks found%s", fold_in_name(in),
		    looks(ck, like, sizeof like));
	if (f->kind == COLLAPSE_LINES && lines > 0 && bad > lines / 2)
		return fold_seterr("%s: %llu of %llu lines are not %s%s",
		    fold_in_name(in), (unsigned long long)bad,
		    (unsigned long long)lines, f->input,
		    looks(ck, like, sizeof like));
	ck->found = 1;
	return 0;
}

int
collapse_check_finish(struct collapse_check *ck, fold_say_fn *say, void *arg)
{
	char msg[1024];
	size_t i;

	if (ck->found)
		return 0;
	for (i = 0; i < ck->nempties; i++) {
		snprintf(msg, sizeof msg, "%s: empty input: no stacks found",
		    ck->empties[i]);
		say(arg, msg);
	}
	return ck->nempties ? -1 : 0;
}

void
collapse_check_release(struct collapse_check *ck)
{
	size_t i;

	for (i = 0; i < ck->nempties; i++)
		free(ck->empties[i]);
	free(ck->empties);
	ck->empties = NULL;
	ck->nempties = 0;
}

struct collapse *
collapse_new(const struct collapse_opt *opt,
    const struct collapse_format *forced, struct fold_stacks *st,
    fold_say_fn *say, void *arg)
{
	struct collapse *c = fold_calloc(1, sizeof *c);
	size_t i;

	c->opt = *opt;
	c->forced = forced;
	c->st = st;
	c->say = say;
	c->arg = arg;
	c->check = (struct collapse_check)COLLAPSE_CHECK_INIT;
	c->readers = fold_calloc(collapse_nformats, sizeof *c->readers);
	c->used = fold_calloc(collapse_nformats, 1);
	/*
	 * Every reader that may be used, now, so that a bad option is a usage
	 * error at once; a forced format needs only its own.
	 */
	for (i = 0; i < collapse_nformats; i++)
		if ((!forced || forced == &collapse_formats[i]) &&
		    !(c->readers[i] = ops[i].open(&c->opt, st))) {
			collapse_free(c);
			return NULL;
		}
	return c;
}

void
collapse_free(struct collapse *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < collapse_nformats; i++)
		if (c->readers[i] && ops[i].close)
			ops[i].close(c->readers[i]);
	free(c->readers);
	free(c->used);
	collapse_check_release(&c->check);
	free(c);
}

int
collapse_read(struct collapse *c, struct fold_in *in, struct fold_diag *diag)
{
	const struct collapse_format *f = c->forced;
	uint64_t before;
	size_t i;
	int rc;

	if (!f && collapse_detect(in, &f) < 0)
		return -1;
	if (!f) {	/* empty: what its format would be does not matter */
		c->check.empty = 1;
		return collapse_check_end(&c->check, c->forced, in, diag, 0, 0);
	}
	if (collapse_check_begin(&c->check, f, in, diag) < 0)
		return -1;
	if (c->check.empty)
		return collapse_check_end(&c->check, f, in, diag, 0, 0);
	i = f - collapse_formats;
	c->used[i] = 1;
	before = ops[i].records ? ops[i].records(c, c->readers[i]) :
	    fold_stacks_adds(c->st);
	c->check.counted = ops[i].records != NULL;
	rc = ops[i].read(c, c->readers[i], in, diag);
	return collapse_check_end(&c->check, f, in, diag, (ops[i].records ?
	    ops[i].records(c, c->readers[i]) : fold_stacks_adds(c->st)) -
	    before, rc);
}

int
collapse_finish(struct collapse *c, int ok)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < collapse_nformats; i++)
		if (c->used[i] && ops[i].finish &&
		    ops[i].finish(c, c->readers[i], ok) < 0)
			rc = -1;
	if (collapse_check_finish(&c->check, c->say, c->arg) < 0)
		rc = -1;
	/* inputs of records that all were dropped: said by their summary */
	else if (ok && rc == 0 && c->check.found &&
	    fold_stacks_len(c->st) == 0) {
		c->say(c->arg, "no stacks found");
		rc = -1;
	}
	return rc;
}
