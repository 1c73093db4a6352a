/*
 * foldmerge: sum identical stacks across folded profiles into one sorted
 * profile, optionally scaled, normalized or tagged by origin.
 *
 *	foldmerge --root host=web1 web1.folded --root host=web2 web2.folded |
 *	    flamegraph-svg > fleet.svg
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/merge.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--strict] [--min-count N] [--normalize TOTAL] "
	    "[--per N] [--scale FACTOR]\n"
	    "                 [[--root FRAME] file ...]\n", progname);
}

static void
file_error(void *arg, const char *msg)
{
	cmd_warn("%s", msg);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "min-count", required_argument, NULL, 'm' },
		{ "normalize", required_argument, NULL, 'n' },
		{ "per", required_argument, NULL, 'p' },
		{ "root", required_argument, NULL, 'r' },
		{ "scale", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct fold_merge_opt opt = FOLD_MERGE_OPT_INIT;
	struct fold_merge_input *in;
	struct fold_diag diag;
	struct fold_out *out;
	const char *root = NULL;
	size_t n = 0;
	int c, strict = 0, status;

	cmd_init(argv[0]);
	in = fold_reallocarray(NULL, argc, sizeof *in);
	/* "-" first: operands come back in order, so --root applies to the
	   files that follow it */
	while ((c = getopt_long(argc, argv, "-h", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			in[n].path = optarg;
			in[n++].root = root;
			break;
		case 'h':
			usage(stdout);
			free(in);
			return EXIT_OK;
		case 'm':
			if (fold_count_parse(optarg, strlen(optarg),
			    &opt.min_count) < 0)
				cmd_die(EXIT_USAGE, "--min-count: %s", fold_err());
			opt.min = 1;
			break;
		case 'n':
			opt.normalize = 1;
			opt.norm_total = cmd_number("--normalize", optarg);
			break;
		case 'p':
			opt.per = cmd_number("--per", optarg);
			if (opt.per == 0)
				cmd_die(EXIT_USAGE, "--per: must be above 0");
			break;
		case 'r':
			root = *optarg ? optarg : NULL;
			if (root && strchr(root, ';'))
				cmd_die(EXIT_USAGE, "--root: a frame cannot "
				    "contain ';'");
			break;
		case 's':
			opt.scale = cmd_number("--scale", optarg);
			break;
		case 'S':
			strict = 1;
			break;
		default:
			usage(stderr);
			free(in);
			return EXIT_USAGE;
		}
	}
	if (n == 0) {
		in[0].path = NULL;
		in[n++].root = root;
	}
	opt.file_error = file_error;
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	status = EXIT_OK;
	switch (fold_merge(out, in, n, &opt, &diag)) {
	case 0:
		break;
	case 1:		/* each unreadable file was reported */
		status = EXIT_ERR;
		break;
	default:
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	}
	cmd_diag_summary(&diag, "line", "lines");
	free(in);
	return cmd_close(out, status);
}
