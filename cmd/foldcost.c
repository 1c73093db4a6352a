/*
 * foldcost: what a fleet profile costs, in cores and dollars a year,
 * rolled up by service (the root frame), by team or by function.
 *
 *	foldmerge --files-from fleet.list --root-from-path '^fleet/(\w+)/' |
 *	    foldcost --window 1h --rate 0.04 --by team --owners owners.tsv
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/util.h"
#include "libfold/cost.h"
#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "formats/table.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [-0] [--by service|team|function] "
	    "[--files-from LIST] [--fleet-cores N]\n"
	    "                [--format text|markdown|tsv|json] [--hz N] "
	    "[--owners FILE] [--rate USD]\n"
	    "                [--strict] [--top N] [--total] "
	    "[--unit ns|us|ms|s|samples]\n"
	    "                [--window DURATION] [--progress | --no-progress] "
	    "[file ...]\n", progname);
}

static int
read_one(void *st, struct fold_in *in, struct fold_diag *diag)
{
	return fold_read(in, st, NULL, diag) < 0 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	enum { O_BY = 256, O_FILES_FROM, O_FLEET_CORES, O_FORMAT, O_HZ, O_OWNERS, O_RATE,
	    O_STRICT, O_TOP, O_TOTAL, O_UNIT, O_WINDOW };
	static const struct option longopts[] = {
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "by", required_argument, NULL, O_BY },
		{ "files-from", required_argument, NULL, O_FILES_FROM },
		{ "fleet-cores", required_argument, NULL, O_FLEET_CORES },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "hz", required_argument, NULL, O_HZ },
		{ "null", no_argument, NULL, '0' },
		{ "owners", required_argument, NULL, O_OWNERS },
		{ "rate", required_argument, NULL, O_RATE },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "top", required_argument, NULL, O_TOP },
		{ "total", no_argument, NULL, O_TOTAL },
		{ "unit", required_argument, NULL, O_UNIT },
		{ "window", required_argument, NULL, O_WINDOW },
		{ NULL, 0, NULL, 0 }
	};
	static const struct { const char *name; uint64_t per_second; } units[] = {
		{ "ns", 1000000000 }, { "us", 1000000 }, { "ms", 1000 },
		{ "s", 1 }, { "samples", 0 },
	};
	struct fold_costopt opt = FOLD_COSTOPT_INIT;
	enum fold_format format = FOLD_FORMAT_TEXT;
	struct fold_owners *owners = NULL;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	struct fold_in *in;
	const char *owners_file = NULL, *list = NULL;
	uint64_t hz = 0;
	size_t i;
	int c, strict = 0, nul = 0, stopped, status;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "0h", longopts, NULL)) != -1) {
		switch (c) {
		case '0':
			nul = 1;
			break;
		case O_BY:
			if (strcmp(optarg, "service") == 0)
				opt.by = FOLD_COST_SERVICE;
			else if (strcmp(optarg, "team") == 0)
				opt.by = FOLD_COST_TEAM;
			else if (strcmp(optarg, "function") == 0)
				opt.by = FOLD_COST_FUNCTION;
			else
				cmd_die(EXIT_USAGE, "--by: service, team or "
				    "function, not '%s'", optarg);
			break;
		case O_FILES_FROM:
			list = optarg;
			break;
		case O_FLEET_CORES:
			if ((opt.fleet_cores = cmd_uint("--fleet-cores",
			    optarg)) == 0)
				cmd_die(EXIT_USAGE, "--fleet-cores: must be "
				    "above 0");
			break;
		case O_FORMAT:
			if (fold_format_parse(optarg, FOLD_COST_FORMATS,
			    &format) < 0)
				cmd_die(EXIT_USAGE, "--format: %s", fold_err());
			break;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case O_HZ:
			if ((hz = cmd_uint("--hz", optarg)) == 0)
				cmd_die(EXIT_USAGE, "--hz: must be above 0");
			break;
		case O_OWNERS:
			owners_file = optarg;
			break;
		case O_RATE:
			if (fold_money_parse(optarg, &opt.rate) < 0)
				cmd_die(EXIT_USAGE, "--rate: %s", fold_err());
			opt.rate_given = 1;
			break;
		case O_STRICT:
			strict = 1;
			break;
		case O_TOP:
			opt.top = cmd_uint("--top", optarg);
			break;
		case O_TOTAL:
			opt.inclusive = 1;
			break;
		case O_UNIT:
			for (i = 0; i < sizeof units / sizeof units[0]; i++)
				if (strcmp(optarg, units[i].name) == 0)
					break;
			if (i == sizeof units / sizeof units[0])
				cmd_die(EXIT_USAGE, "--unit: ns, us, ms, s or "
				    "samples, not '%s'", optarg);
			opt.unit = units[i].name;
			opt.per_second = units[i].per_second;
			break;
		case O_WINDOW:
			if (fold_duration_parse(optarg, &opt.window) < 0)
				cmd_die(EXIT_USAGE, "--window: %s", fold_err());
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (opt.per_second == 0 && !hz)
		cmd_die(EXIT_USAGE, "--unit samples needs --hz");
	if (opt.per_second == 0)
		opt.per_second = hz;
	else if (hz)
		cmd_die(EXIT_USAGE, "--hz goes with --unit samples");
	if (opt.window && opt.fleet_cores)
		cmd_die(EXIT_USAGE, "--window and --fleet-cores: one or the "
		    "other");
	if (opt.rate_given && !opt.window && !opt.fleet_cores)
		cmd_die(EXIT_USAGE, "--rate needs --window or --fleet-cores");
	if (opt.inclusive && opt.by != FOLD_COST_FUNCTION)
		cmd_die(EXIT_USAGE, "--total goes with --by function");
	if ((opt.by == FOLD_COST_TEAM) != (owners_file != NULL))
		cmd_die(EXIT_USAGE, "--by team and --owners go together");

	cmd_diag_init(&diag, strict);
	status = EXIT_OK;
	if (owners_file) {
		if (!(in = fold_in_open(owners_file)))
			cmd_die(EXIT_ERR, "%s", fold_err());
		owners = fold_owners_read(in, &diag);
		if (fold_in_close(in) < 0 || !owners)
			cmd_die(EXIT_ERR, "%s", fold_err());
		opt.owners = owners;
	}
	frames = fold_intern_new();
	st = fold_stacks_new(frames, 1);
	status = cmd_each_listed(argv + optind, argc - optind, list, nul,
	    read_one, st, &diag, &stopped);
	cmd_diag_summary(&diag, "line", "lines");
	/* a cost with an input missing would be a wrong answer */
	out = cmd_stdout();
	if (status == EXIT_OK && fold_cost_write(out, st, &opt, format) < 0) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	}
	fold_stacks_free(st);
	fold_intern_free(frames);
	fold_owners_free(owners);
	return cmd_close(out, status);
}
