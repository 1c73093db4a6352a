/*
 * folded2pprof: write folded stacks as a gzipped pprof profile, so that
 * go tool pprof and every pprof-speaking viewer opens them.
 *
 *	foldmerge web*.folded | folded2pprof --sample-type cpu/nanoseconds \
 *	    > web.pb.gz && go tool pprof -top web.pb.gz
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/util.h"
#include "formats/pprof.h"
#include "libfold/err.h"
#include "libfold/folded.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--period N] [--period-type TYPE/UNIT] "
	    "[--sample-type TYPE/UNIT]\n"
	    "                    [--strict] [--progress | --no-progress] "
	    "[file ...]\n", progname);
}

static int
read_one(void *st, struct fold_in *in, struct fold_diag *diag)
{
	return fold_read(in, st, NULL, diag);
}

/* Splits "TYPE/UNIT" (UNIT defaults to count) into *type and *unit. */
static void
type_arg(const char *opt, char *s, const char **type, const char **unit)
{
	char *slash = strrchr(s, '/');

	*type = s;
	*unit = "count";
	if (slash) {
		*slash = '\0';
		*unit = slash + 1;
	}
	if (!**type || !**unit)
		cmd_die(EXIT_USAGE, "%s: expected TYPE/UNIT", opt);
}

int
main(int argc, char *argv[])
{
	enum { O_PERIOD = 256, O_PERIOD_TYPE, O_SAMPLE_TYPE, O_STRICT };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "period", required_argument, NULL, O_PERIOD },
		{ "period-type", required_argument, NULL, O_PERIOD_TYPE },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "sample-type", required_argument, NULL, O_SAMPLE_TYPE },
		{ "strict", no_argument, NULL, O_STRICT },
		{ NULL, 0, NULL, 0 }
	};
	struct pprof_writeopt opt = PPROF_WRITEOPT_INIT;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	unsigned long long period;
	int c, strict = 0, stopped, status;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case O_PERIOD:
			period = cmd_uint("--period", optarg);
			if (period > INT64_MAX)
				cmd_die(EXIT_USAGE, "--period: out of range: %s",
				    optarg);
			opt.period = (int64_t)period;
			break;
		case O_PERIOD_TYPE:
			type_arg("--period-type", optarg, &opt.period_type,
			    &opt.period_unit);
			break;
		case O_SAMPLE_TYPE:
			type_arg("--sample-type", optarg, &opt.type, &opt.unit);
			break;
		case O_STRICT:
			strict = 1;
			break;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	frames = fold_intern_new();
	st = fold_stacks_new(frames, 1);
	cmd_diag_init(&diag, strict);
	/* everything is read before anything is written: a profile with
	   a file missing would mislead */
	status = cmd_each_input(argv + optind, argc - optind, read_one, st,
	    &diag, &stopped);
	cmd_diag_summary(&diag, "line", "lines");
	if (status == EXIT_OK) {
		out = cmd_stdout();
		if (pprof_write(out, st, &opt) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
		status = cmd_close(out, status);
	}
	fold_stacks_free(st);
	fold_intern_free(frames);
	return status;
}
