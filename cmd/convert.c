/*
 * The converters' one main (cmd_convert), apart from util.c, so that the
 * other tools leave out the readers. It names no format itself: a tool
 * of one format links that reader alone (and, to say what else an input
 * looks like, how every format is told, not read), stackcollapse every
 * reader and the libraries they need (but libxml2, with ICU, which the
 * SVG reader loads at its first read).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "formats/collapse.h"
#include "cmd/opt.h"
#include "cmd/util.h"

/* What every converter takes, and stackcollapse's own. */
struct convert_opt {
	const struct format *const *fmts;	/* the tool's */
	size_t nfmts;
	const struct format *format;
	int detect;
	int formats;		/* --list-formats */
};

static int
format(void *opts, const char *name, const char *more)
{
	struct convert_opt *o = opts;

	if (!(o->format = collapse_find(o->fmts, o->nfmts, name)))
		return fold_seterr("unknown format '%s' (see --list-formats)",
		    name);
	return 0;
}

#define OFF(field) offsetof(struct convert_opt, field)

static const struct fold_option front_opts[] = {
	{ .name = "detect", .kind = FOLD_OPT_FLAG, .off = OFF(detect),
	    .value = 1, .help = "print \"NAME: FORMAT\" for each input" },
	{ .name = "format", .arg = "NAME", .kind = FOLD_OPT_CALL,
	    .call = format, .help = "read every input as format NAME" },
	{ .name = "list-formats", .kind = FOLD_OPT_FLAG, .off = OFF(formats),
	    .value = 1, .help = "list the formats, their tools and what they "
	    "read" },
	{ .name = NULL }
};

#undef OFF

static int
list_formats(const struct format *const *fmts, size_t nfmts)
{
	struct fold_out *out = cmd_stdout();
	int wn = 0, wt = 0;
	size_t i;

	/* columns as wide as the longest name and tool */
	for (i = 0; i < nfmts; i++) {
		int n = (int)strlen(fmts[i]->id->name);
		int t = (int)strlen(fmts[i]->id->tool);
		wn = n > wn ? n : wn;
		wt = t > wt ? t : wt;
	}
	for (i = 0; i < nfmts; i++)
		fold_out_printf(out, "%-*s %-*s %s\n", wn, fmts[i]->id->name,
		    wt, fmts[i]->id->tool, fmts[i]->id->what);
	return cmd_close(out, EXIT_OK);
}

/* --detect: "NAME: FORMAT" for each input. */
struct detecting {
	const struct convert_opt *co;
	struct fold_out *out;
};

static int
detect_one(void *arg, struct fold_in *in, struct fold_diag *diag)
{
	const struct detecting *d = arg;
	const struct format *f;

	if (collapse_detect(d->co->fmts, d->co->nfmts, in, &f) < 0)
		return -1;
	fold_out_printf(d->out, "%s: %s\n", fold_in_name(in),
	    f ? f->id->name : "empty");
	return 0;
}

/*
 * Each input's format told, and read when it is read whole on a thread
 * of its own (pprof), by the jobs' threads; the rest on this one.
 */
static void *
prepare(void *c, void *w, struct fold_in *in)
{
	return collapse_prepare(c, w, in);
}

static int
commit(void *c, void *w, void *ci, struct fold_in *in,
    struct fold_diag *diag)
{
	return collapse_commit(c, w, ci, in, diag);
}

static void
drop(void *c, void *ci)
{
	collapse_drop(c, ci);
}

static void *
worker(void *c)
{
	return collapse_worker_new(c);
}

static void
worker_free(void *c, void *w)
{
	collapse_worker_free(c, w);
}

static const struct cmd_twostep twostep = {
	.prepare = prepare, .commit = commit, .drop = drop,
	.worker = worker, .worker_free = worker_free
};

/* --detect: no reader is opened. */
static int
detect(const struct convert_opt *co, const struct cmd_common *cc,
    char **files, int n)
{
	struct detecting d = { co, cmd_stdout() };
	struct fold_diag diag;
	int status, stopped;

	cmd_diag_init(&diag, cc->strict);
	status = cmd_each_listed(files, n, cc->list, cc->nul, detect_one, &d,
	    &diag, &stopped);
	return cmd_close(d.out, status);
}

/* The run: every input through the readers, then the output. */
static int
run(const struct convert_opt *co, const struct cmd_common *cc,
    void *const *opts, char **files, int n)
{
	struct fold_intern *frames = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(frames, 1);
	const struct format *only;
	struct collapse *col;
	struct fold_diag diag;
	struct fold_out *out;
	struct split_opt split;
	struct cmd_common jobs = *cc;
	int status, stopped;

	if (!(col = collapse_new(co->fmts, co->nfmts, (const void *const *)opts,
	    co->format, st, cmd_say, NULL))) {
		/* returned, not died: what cmd_convert holds is freed */
		cmd_warn("%s", fold_err());
		fold_stacks_free(st);
		fold_intern_free(frames);
		return EXIT_USAGE;
	}
	if (cc->unit)
		fold_stacks_force_unit(st, cc->unit);
	cmd_split_opt(cc, &split);
	jobs.jobs = split.jobs;
	collapse_set_split(col, &split);
	cmd_diag_init(&diag, cc->strict);
	out = cmd_stdout();
	status = cmd_each_listed_jobs(files, n, &jobs, &twostep, col, &diag,
	    &stopped);
	if (!stopped && collapse_finish(col, status == EXIT_OK, out) < 0)
		status = EXIT_ERR;
	only = collapse_only(col);
	cmd_diag_summary(&diag, only ? only->one : "line",
	    only ? only->many : "lines");
	collapse_free(col);
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}

/*
 * The tool's main over fmts[0..nfmts): stackcollapse's (front: --format,
 * --detect, --list-formats, every format's options under its name), or
 * that of the one format.
 */
static int
convert(int argc, char *argv[], const struct format *const *fmts,
    size_t nfmts, int front)
{
	struct convert_opt co = { .fmts = fmts, .nfmts = nfmts,
	    .format = front ? NULL : fmts[0] };
	struct cmd_common cc = { 0 };
	struct cmd_optset *sets;
	void **opts;
	size_t i, n = 0;
	int first, status;
	char *title;

	cmd_init(argv[0]);
	sets = fold_calloc(nfmts + 6, sizeof *sets);
	opts = fold_calloc(nfmts, sizeof *opts);
	if (front)
		sets[n++] = (struct cmd_optset){ NULL, front_opts, &co };
	for (i = 0; i < nfmts; i++) {
		const struct format *g = fmts[i];
		if (g->optsize) {
			opts[i] = fold_malloc(g->optsize);
			memcpy(opts[i], g->defaults, g->optsize);
		}
		title = NULL;
		if (front && g->options->name) {
			size_t len = strlen(g->id->name) + strlen(g->id->tool) +
			    16;
			title = fold_malloc(len);
			snprintf(title, len, "%s options (%s)", g->id->name,
			    g->id->tool);
		}
		sets[n++] = (struct cmd_optset){ title, g->options, opts[i] };
	}
	sets[n++] = (struct cmd_optset){ front ? "every format" : NULL,
	    cmd_opt_files, &cc };
	if (front || fmts[0]->split || fmts[0]->prepare)
		sets[n++] = (struct cmd_optset){ NULL, cmd_opt_jobs, &cc };
	sets[n++] = (struct cmd_optset){ NULL, cmd_opt_progress, &cc };
	sets[n++] = (struct cmd_optset){ NULL, cmd_opt_strict, &cc };
	sets[n++] = (struct cmd_optset){ NULL, cmd_opt_unit, &cc };
	first = cmd_parse(argc, argv, sets, n, "[file ...]");
	if (co.formats)
		status = list_formats(fmts, nfmts);
	else if (co.detect)
		status = detect(&co, &cc, argv + first, argc - first);
	else
		status = run(&co, &cc, opts, argv + first, argc - first);
	cmd_optset_release(sets, n);
	for (i = 0; i < n; i++)
		if (sets[i].base != &co && sets[i].base != &cc)
			free((char *)sets[i].title);
	for (i = 0; i < nfmts; i++)
		free(opts[i]);
	free(opts);
	free(sets);
	return status;
}

int
cmd_convert(int argc, char *argv[], const struct format *f)
{
	const struct format *one[] = { f };

	return convert(argc, argv, one, 1, 0);
}

int
cmd_convert_any(int argc, char *argv[], const struct format *const *fmts,
    size_t n)
{
	return convert(argc, argv, fmts, n, 1);
}
