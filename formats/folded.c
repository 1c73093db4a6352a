#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "formats/folded.h"

/* A reader of folded stacks, or of parts of a file of them. */
struct folded {
	struct fold_stacks *st;
	struct fold_readopt ro;
	int strict;		/* the diag of the input being read */
	uint64_t inputs;	/* inputs that held a stack */
	int most;		/* the most counts on a line so far */
	int pmost;		/* the parts' most, of the input being read */
	uint64_t adds;		/* st's adds when the input began */
	uint64_t unitlines;
};

static void *
folded_open(const void *opt, struct fold_stacks *st)
{
	static const struct fold_readopt none = FOLD_READOPT_INIT;
	struct folded *r = fold_calloc(1, sizeof *r);

	r->st = st;
	r->ro = opt ? *(const struct fold_readopt *)opt : none;
	r->ro.unitlines = &r->unitlines;
	return r;
}

static int
folded_fread(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct folded *r = rp;
	int rc, m;

	r->strict = diag->strict;
	r->pmost = 0;
	r->adds = fold_stacks_adds(r->st);
	if ((rc = fold_read(in, r->st, &r->ro, diag)) < 0)
		return rc == -2 ? -2 : -1;
	m = rc > r->pmost ? rc : r->pmost;
	if (m > r->most)
		r->most = m;
	if (m > 0)
		r->inputs++;
	return 0;
}

/* fold_read set it: the same again */
static const char *
folded_unit(const void *r)
{
	return fold_stacks_unit(((const struct folded *)r)->st);
}

static uint64_t
folded_records(const void *r)
{
	return ((const struct folded *)r)->inputs;
}

static int
folded_finish(void *r, int ok, fold_say_fn *say, void *arg)
{
	return 0;
}

/* After a line's end. */
static size_t
folded_split(const char *buf, size_t n)
{
	const char *p = memchr(buf, '\n', n);

	return p ? (size_t)(p - buf) + 1 : n;
}

static void *
folded_part(void *rp, struct fold_stacks *st)
{
	const struct folded *r = rp;

	/* a rewrite keeps its text in one buffer; strict stops at once */
	if (r->ro.rewrite || r->strict)
		return NULL;
	return folded_open(&r->ro, st);
}

static int
folded_join(void *rp, void *const *pp, size_t n)
{
	struct folded *r = rp;
	const struct folded *p;
	size_t k;
	int most = 0;

	for (k = 0; k < n; k++) {
		p = pp[k];
		if (p->unitlines)
			return 1;
		if (p->most > most)
			most = p->most;
	}
	/* r sets the input's unit at its end only when it read a stack
	   itself */
	if (most > 0 && fold_stacks_adds(r->st) == r->adds)
		return 1;
	r->pmost = most;
	return 0;
}

static const struct fold_option folded_options[] = {
	{ .name = NULL }
};

const struct format_id folded_id = {
	.name = "folded",
	.tool = "foldmerge",
	.what = "folded stacks (summed and sorted)",
	.input = "folded stacks",
	.detect = fold_detect,
};

const struct format folded_format = {
	.id = &folded_id,
	.kind = FOLD_LINES,
	.one = "line",
	.many = "lines",
	.options = folded_options,
	.optsize = 0,
	.open = folded_open,
	.read = folded_fread,
	.records = folded_records,
	.unit = folded_unit,
	.finish = folded_finish,
	.close = free,
	/*
	 * By default too, since the tools sort and build their trees on
	 * the threads: on 2 processors, -j2 read the 300,000-stack bench
	 * profile 1.3-1.4x faster than -j1 in flamegraph-svg, foldfilter,
	 * foldtop, foldcost and folddiff (1.14x in folded2speedscope), for
	 * about a tenth more processor time.
	 */
	.split_default = 1,
	.split = folded_split,
	.part = folded_part,
	.join = folded_join,
};

int
folded_read(struct fold_in *in, struct fold_stacks *st,
    const struct fold_readopt *opt, struct fold_diag *diag,
    const struct split_opt *o)
{
	struct folded *r = folded_open(opt, st);
	int rc = split_read(&folded_format, r, st, in, diag, o), most = r->most;

	free(r);
	return rc < 0 ? rc : most;
}
