/*
 * foldcost: what a fleet profile costs, in cores and dollars a year,
 * rolled up by service (the root frame), by team or by function.
 *
 *	foldmerge --files-from fleet.list --root-from-path '^fleet/(\w+)/' |
 *	    foldcost --window 1h --rate 0.04 --by team --owners owners.tsv
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/opt.h"
#include "cmd/util.h"
#include "libfold/cost.h"
#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "libfold/unit.h"
#include "formats/table.h"
#include "formats/unitshow.h"

/* The options: the library's, then what main checks and passes on. */
struct cost {
	struct fold_costopt opt;
	enum fold_format format;
	const char *owners;	/* --owners FILE */
	unsigned long long fleet_cores, hz, top;
	int unit_given;		/* --unit: the profile's unit line is not */
};

static int
by(void *opts, const char *value, const char *more)
{
	struct fold_costopt *o = &((struct cost *)opts)->opt;

	if (strcmp(value, "service") == 0)
		o->by = FOLD_COST_SERVICE;
	else if (strcmp(value, "team") == 0)
		o->by = FOLD_COST_TEAM;
	else if (strcmp(value, "function") == 0)
		o->by = FOLD_COST_FUNCTION;
	else
		return fold_seterr("service, team or function, not '%s'",
		    value);
	return 0;
}

static int
format(void *opts, const char *value, const char *more)
{
	return fold_format_parse(value, FOLD_COST_FORMATS,
	    &((struct cost *)opts)->format);
}

static int
rate(void *opts, const char *value, const char *more)
{
	struct fold_costopt *o = &((struct cost *)opts)->opt;

	if (fold_money_parse(value, &o->rate) < 0)
		return -1;
	o->rate_given = 1;
	return 0;
}

static int
unit(void *opts, const char *value, const char *more)
{
	static const struct { const char *name; uint64_t per_second; } units[] = {
		{ "ns", 1000000000 }, { "us", 1000000 }, { "ms", 1000 },
		{ "s", 1 }, { "samples", 0 },
	};
	struct fold_costopt *o = &((struct cost *)opts)->opt;
	size_t i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(value, units[i].name) == 0) {
			o->unit = units[i].name;
			o->per_second = units[i].per_second;
			((struct cost *)opts)->unit_given = 1;
			return 0;
		}
	return fold_seterr("ns, us, ms, s or samples, not '%s'", value);
}

/*
 * Without --unit, the unit the profile names: a time is used as it is; a
 * profile that names none (samples) is taken to count nanoseconds, as
 * before profiles named their unit; any other unit is no time.
 */
static void
profile_unit(struct fold_costopt *o, const char *unit)
{
	int kind;
	double scale = fold_unit_scale(unit, &kind);

	if (!unit || strcmp(unit, FOLD_UNIT_SAMPLES) == 0)
		return;
	if (kind != 't')
		cmd_die(EXIT_ERR, "the profile counts %s, not time: --unit "
		    "names the unit of its counts", unit);
	o->per_second = (uint64_t)llround(1 / scale);
	o->unit = fold_unit_symbol(unit);
}

static int
window(void *opts, const char *value, const char *more)
{
	return fold_duration_parse(value, &((struct cost *)opts)->opt.window);
}

#define OFF(field) offsetof(struct cost, field)

static const struct fold_option options[] = {
	{ .name = "by", .arg = "ROWS", .kind = FOLD_OPT_CALL, .call = by,
	    .help = "rows by service (default), team or function" },
	{ .name = "fleet-cores", .arg = "N", .kind = FOLD_OPT_UINT,
	    .off = OFF(fleet_cores), .min = 0, .above = 1,
	    .help = "the fleet's cores, instead of --window" },
	{ .name = "format", .arg = "FORMAT", .kind = FOLD_OPT_CALL,
	    .call = format, .help = "text (default), markdown, tsv or json" },
	{ .name = "hz", .arg = "N", .kind = FOLD_OPT_UINT, .off = OFF(hz),
	    .min = 0, .above = 1,
	    .help = "samples per CPU-second, with --unit samples" },
	{ .name = "owners", .arg = "FILE", .kind = FOLD_OPT_STRING,
	    .off = OFF(owners), .reject = "", .what = "a file name",
	    .help = "the team of each service, for --by team" },
	{ .name = "rate", .arg = "USD", .kind = FOLD_OPT_CALL, .call = rate,
	    .help = "the dollars of one core-hour: adds $/year" },
	{ .name = "top", .arg = "N", .kind = FOLD_OPT_UINT, .off = OFF(top),
	    .help = "show the N costliest rows, the rest as (other)" },
	{ .name = "total", .kind = FOLD_OPT_FLAG, .off = OFF(opt.inclusive),
	    .value = 1, .help = "with --by function: inclusive time" },
	{ .name = "unit", .arg = "UNIT", .kind = FOLD_OPT_CALL, .call = unit,
	    .help = "of a count: ns (default), us, ms, s or samples" },
	{ .name = "window", .arg = "DURATION", .kind = FOLD_OPT_CALL,
	    .call = window, .help = "the wall time covered: adds cores" },
	{ .name = NULL }
};

#undef OFF

/* The options that go together or not at all; dies on a bad mix. */
static void
check(struct cost *c)
{
	struct fold_costopt *o = &c->opt;

	o->fleet_cores = c->fleet_cores;
	o->top = c->top;
	if (o->per_second == 0 && !c->hz)
		cmd_die(EXIT_USAGE, "--unit samples needs --hz");
	if (o->per_second == 0)
		o->per_second = c->hz;
	else if (c->hz)
		cmd_die(EXIT_USAGE, "--hz goes with --unit samples");
	if (o->window && o->fleet_cores)
		cmd_die(EXIT_USAGE, "--window and --fleet-cores: one or the "
		    "other");
	if (o->rate_given && !o->window && !o->fleet_cores)
		cmd_die(EXIT_USAGE, "--rate needs --window or --fleet-cores");
	if (o->inclusive && o->by != FOLD_COST_FUNCTION)
		cmd_die(EXIT_USAGE, "--total goes with --by function");
	if ((o->by == FOLD_COST_TEAM) != (c->owners != NULL))
		cmd_die(EXIT_USAGE, "--by team and --owners go together");
}

/* Reads the owners and the profiles, writes the cost; the exit status. */
static int
run(struct cost *c, const struct cmd_common *cc, char **files, int n)
{
	struct fold_owners *owners = NULL;
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	struct fold_in *in;
	int status;

	cmd_diag_init(&diag, cc->strict);
	if (c->owners) {
		if (!(in = fold_in_open(c->owners)))
			cmd_die(EXIT_ERR, "%s", fold_err());
		owners = fold_owners_read(in, &diag);
		if (fold_in_close(in) < 0 || !owners)
			cmd_die(EXIT_ERR, "%s", fold_err());
		c->opt.owners = owners;
	}
	status = cmd_read_folded(files, n, cc, &diag, &st);
	if (status == EXIT_OK && !c->unit_given)
		profile_unit(&c->opt, fold_stacks_unit(st));
	/* a cost with an input missing would be a wrong answer */
	out = cmd_stdout();
	if (status == EXIT_OK) {
		/* no stack: an error, and an empty table all the same */
		status = cmd_stacks_found(fold_stacks_adds(st));
		if (fold_cost_write(out, st, &c->opt, c->format) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
	}
	cmd_folded_free(st);
	fold_owners_free(owners);
	return cmd_close(out, status);
}

int
main(int argc, char *argv[])
{
	struct cost c = { .opt = FOLD_COSTOPT_INIT,
	    .format = FOLD_FORMAT_TEXT };
	struct cmd_common cc = { 0 };
	const struct cmd_optset sets[] = {
		{ NULL, options, &c },
		{ NULL, cmd_opt_files, &cc },
		{ NULL, cmd_opt_jobs, &cc },
		{ NULL, cmd_opt_progress, &cc },
		{ NULL, cmd_opt_strict, &cc },
	};
	int first;

	cmd_init(argv[0]);
	first = cmd_parse(argc, argv, sets, 5, "[file ...]");
	check(&c);
	return run(&c, &cc, argv + first, argc - first);
}
