/*
 * svg2folded: recover the folded stacks that drew a flame graph SVG
 * (flamegraph.pl, inferno or flamegraph-svg), to filter, diff or render
 * it again.
 *
 *	svg2folded old.svg | foldfilter --focus parse | flamegraph-svg > new.svg
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "formats/svgread.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--strict] [--countname NAME]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n",
	    progname, (int)strlen(progname), "");
}

static int
readone(void *r, struct fold_in *in, struct fold_diag *diag)
{
	return svgread_read(r, in, diag);
}

static void
say(void *arg, const char *msg)
{
	cmd_warn("%s", msg);
}

/* The second column of a two-column table, as a table of its own. */
static struct fold_stacks *
aftercolumn(struct fold_stacks *st)
{
	struct fold_stacks *one = fold_stacks_new(fold_stacks_frames(st), 1);
	const uint32_t *ids;
	size_t i, n;

	for (i = 0; i < fold_stacks_len(st); i++) {
		ids = fold_stacks_ids(st, i, &n);
		fold_stacks_add(one, ids, n, fold_stacks_counts(st, i) + 1);
	}
	return one;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "countname", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct svgread_opt opt = SVGREAD_OPT_INIT;
	struct fold_intern *frames;
	struct fold_stacks *st, *one;
	struct svgread_reader *r;
	struct fold_diag diag;
	struct fold_out *out;
	int c, strict = 0, status = EXIT_OK, stopped;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!*optarg || strpbrk(optarg, ",()\n"))
				cmd_die(EXIT_USAGE, "--countname: not a unit: "
				    "'%s'", optarg);
			opt.countname = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'S':
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
	/* both counts of a differential graph; one column otherwise */
	st = fold_stacks_new(frames, 2);
	r = svgread_reader_new(&opt, st);
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	status = cmd_each_input(argv + optind, argc - optind, readone, r,
	    &diag, &stopped);
	if (stopped)
		goto done;
	if (svgread_differential(r))
		fold_write(out, st);
	else {
		one = aftercolumn(st);
		fold_write(out, one);
		fold_stacks_free(one);
	}
	svgread_summary(r, say, NULL);
done:
	cmd_diag_summary(&diag, "frame", "frames");
	svgread_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}
