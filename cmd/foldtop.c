/*
 * foldtop: the hottest functions of a folded profile, as `pprof -top`
 * prints them: flat (self) and cum (inclusive) counts and shares.
 *
 *	perf script | stackcollapse-perf | foldtop --top 20
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "formats/table.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--cum] [--format text|markdown|tsv] [--strict] "
	    "[--top N]\n"
	    "              [--progress | --no-progress] [file]\n", progname);
}

int
main(int argc, char *argv[])
{
	enum { OPT_CUM = 256, OPT_FORMAT, OPT_STRICT, OPT_TOP };
	static const struct option longopts[] = {
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "cum", no_argument, NULL, OPT_CUM },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "top", required_argument, NULL, OPT_TOP },
		{ NULL, 0, NULL, 0 }
	};
	struct fold_topopt opt = FOLD_TOPOPT_INIT;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	struct fold_in *in;
	int c, strict = 0, status = EXIT_OK;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CUM:
			opt.by_cum = 1;
			break;
		case OPT_FORMAT:
			if (fold_format_parse(optarg, FOLD_TOP_FORMATS,
			    &opt.format) < 0)
				cmd_die(EXIT_USAGE, "--format: %s", fold_err());
			break;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_STRICT:
			strict = 1;
			break;
		case OPT_TOP:
			opt.top = cmd_uint("--top", optarg);
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!(in = fold_in_open(argc ? argv[0] : NULL)))
		cmd_die(EXIT_ERR, "%s", fold_err());
	cmd_progress_attach(NULL, in);
	frames = fold_intern_new();
	st = fold_stacks_new(frames, 1);
	cmd_diag_init(&diag, strict);
	if (fold_read(in, st, NULL, &diag) < 0) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	}
	if (fold_in_close(in) < 0 && status == EXIT_OK) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	}
	cmd_diag_summary(&diag, "line", "lines");
	out = cmd_stdout();
	if (status == EXIT_OK && fold_top_write(out, st, &opt) < 0) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	}
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}
