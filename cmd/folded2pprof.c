/*
 * folded2pprof: write folded stacks as a gzipped pprof profile, so that
 * go tool pprof and every pprof-speaking viewer opens them.
 *
 *	foldmerge web*.folded | folded2pprof --sample-type cpu/nanoseconds \
 *	    > web.pb.gz && go tool pprof -top web.pb.gz
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/opt.h"
#include "cmd/util.h"
#include "formats/pprof.h"
#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/stacks.h"
#include "libfold/unit.h"

/* The options: pprof's, and the TYPE parts of TYPE/UNIT, owned. */
struct f2p {
	struct pprof_writeopt opt;
	char *type, *period_type;
};

/*
 * Splits "TYPE/UNIT" (UNIT defaults to count) into *type, a copy in
 * *owned (the one before freed), and *unit, the end of value.
 */
static int
type_arg(const char *value, char **owned, const char **type,
    const char **unit)
{
	const char *slash = strrchr(value, '/');

	if (!*value || slash == value || (slash && !slash[1]))
		return fold_seterr("expected TYPE/UNIT");
	free(*owned);
	*owned = fold_strndup(value, slash ? (size_t)(slash - value) :
	    strlen(value));
	*type = *owned;
	*unit = slash ? slash + 1 : "count";
	return 0;
}

static int
sample_type(void *opts, const char *value, const char *more)
{
	struct f2p *f = opts;

	return type_arg(value, &f->type, &f->opt.type, &f->opt.unit);
}

static int
period_type(void *opts, const char *value, const char *more)
{
	struct f2p *f = opts;

	return type_arg(value, &f->period_type, &f->opt.period_type,
	    &f->opt.period_unit);
}

/* A UINT, up to what a pprof value holds. */
static int
period(void *opts, const char *value, const char *more)
{
	unsigned long long v = cmd_uint("--period", value);

	if (v > INT64_MAX)
		return fold_seterr("out of range: %s", value);
	((struct f2p *)opts)->opt.period = (int64_t)v;
	return 0;
}

/*
 * The sample type of a profile in unit, when --sample-type names none:
 * "time/nanoseconds", "space/bytes", "goroutine/count" for a count of
 * goroutines; samples/count for samples. pprof2folded reads the unit back
 * from it.
 */
static void
sample_unit(struct pprof_writeopt *o, const char *unit)
{
	int kind;

	if (!unit || strcmp(unit, FOLD_UNIT_SAMPLES) == 0)
		return;
	if (fold_unit_scale(unit, &kind) == 0) {
		o->type = unit;
		o->unit = "count";
	} else {
		o->type = kind == 't' ? "time" : "space";
		o->unit = unit;
	}
}

static const struct fold_option options[] = {
	{ .name = "period", .arg = "N", .kind = FOLD_OPT_CALL, .call = period,
	    .help = "record N as the sampling period" },
	{ .name = "period-type", .arg = "TYPE/UNIT", .kind = FOLD_OPT_CALL,
	    .call = period_type,
	    .help = "the period's TYPE/UNIT (default: the sample type)" },
	{ .name = "sample-type", .arg = "TYPE/UNIT", .kind = FOLD_OPT_CALL,
	    .call = sample_type,
	    .help = "the values' TYPE/UNIT (default: samples/count)" },
	{ .name = NULL }
};

int
main(int argc, char *argv[])
{
	struct f2p f = { .opt = PPROF_WRITEOPT_INIT };
	struct cmd_common cc = { 0 };
	const struct cmd_optset sets[] = {
		{ NULL, options, &f },
		{ NULL, cmd_opt_strict, &cc },
		{ NULL, cmd_opt_unit, &cc },
		{ NULL, cmd_opt_jobs, &cc },
		{ NULL, cmd_opt_progress, &cc },
	};
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	int first, status;

	cmd_init(argv[0]);
	first = cmd_parse(argc, argv, sets, 5, "[file ...]");
	cmd_diag_init(&diag, cc.strict);
	/* everything is read before anything is written: a profile with
	   a file missing would mislead */
	status = cmd_read_folded(argv + first, argc - first, &cc, &diag, &st);
	if (st && !f.type)
		sample_unit(&f.opt, fold_stacks_unit(st));
	if (status == EXIT_OK) {
		/* no stack: an error, and an empty profile all the same */
		status = cmd_stacks_found(fold_stacks_adds(st));
		/* the writer's sort, done here on the threads */
		fold_stacks_sort_jobs(st, FOLD_ORDER_TEXT, cmd_sort_jobs(&cc));
		out = cmd_stdout();
		if (pprof_write(out, st, &f.opt) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
		status = cmd_close(out, status);
	}
	cmd_folded_free(st);
	free(f.type);
	free(f.period_type);
	return status;
}
