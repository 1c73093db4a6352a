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
};

struct collapse {
	struct collapse_opt opt;
	const struct collapse_format *forced;
	struct fold_stacks *st;
	fold_say_fn *say;
	void *arg;
	void **readers;		/* by format */
	char *used;		/* by format: an input was read */
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

	return fold_read(in, st, &ro, diag) < 0 ? -1 : 0;
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
	{ "perf", "stackcollapse-perf", "perf script output", perf_detect },
	{ "jfr", "stackcollapse-jfr", "jfr print text (Java Flight Recorder)",
	    jfr_detect },
	{ "bcc", "stackcollapse-bcc",
	    "bcc, libbpf-tools and bpftrace stacks", bcc_detect },
	{ "pprof", "pprof2folded", "pprof profiles (gzip or raw protobuf)",
	    pprof_detect },
	{ "dtrace", "stackcollapse-dtrace",
	    "DTrace stack(), ustack() and jstack() aggregations", dtrace_detect },
	{ "sample", "stackcollapse-sample", "macOS sample reports",
	    sample_detect },
	{ "chrome", "stackcollapse-chrome",
	    "V8 .cpuprofile JSON (node --cpu-prof, Chrome DevTools)",
	    chrome_detect },
	{ "svg", "svg2folded", "flame graph SVGs (flamegraph.pl, inferno, "
	    "flamegraph-svg)", svgread_detect },
	{ "vtune", "stackcollapse-vtune", "Intel VTune top-down tree CSV",
	    vtune_detect },
	{ "vsprof", "stackcollapse-vsprof", "Visual Studio call tree CSV",
	    vsprof_detect },
	{ "ghcprof", "stackcollapse-ghcprof", "GHC .prof cost centre reports",
	    ghcprof_detect },
	{ "folded", "foldmerge", "folded stacks (summed and sorted)",
	    fold_detect },
};

/* In the order of collapse_formats. */
static const struct ops ops[] = {
	{ perf_open, perf_in, perf_end, perf_close },
	{ jfr_open, jfr_in, jfr_end, jfr_close },
	{ bcc_open, bcc_in, bcc_end, bcc_close },
	{ pprof_open, pprof_in, NULL, NULL },
	{ dtrace_open, dtrace_in, dtrace_end, dtrace_close },
	{ sample_open, sample_in, sample_end, sample_close },
	{ chrome_open, chrome_in, chrome_end, chrome_close },
	{ svgread_open, svgread_in, svgread_end, svgread_close },
	{ vtune_open, vtune_in, vtune_end, vtune_close },
	{ vsprof_open, vsprof_in, vsprof_end, vsprof_close },
	{ ghcprof_open, ghcprof_in, ghcprof_end, ghcprof_close },
	{ folded_open, folded_in, NULL, NULL },
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

int
collapse_detect(struct fold_in *in, const struct collapse_format **f)
{
	const char *head;
	size_t n, i, nsure = 0, nmaybe = 0;
	const struct collapse_format *sure[2], *maybe[2];
	char tried[512];
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
	tried[0] = '\0';
	for (i = 0; i < collapse_nformats; i++)
		snprintf(tried + strlen(tried), sizeof tried - strlen(tried),
		    "%s%s", i ? ", " : "", collapse_formats[i].name);
	return fold_seterr("%s: not a format this reads (tried %s)",
	    fold_in_name(in), tried);
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
	free(c);
}

int
collapse_read(struct collapse *c, struct fold_in *in, struct fold_diag *diag)
{
	const struct collapse_format *f = c->forced;
	size_t i;

	if (!f && collapse_detect(in, &f) < 0)
		return -1;
	if (!f)
		return 0;	/* empty */
	i = f - collapse_formats;
	c->used[i] = 1;
	return ops[i].read(c, c->readers[i], in, diag);
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
	return rc;
}
