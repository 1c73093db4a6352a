/*
 * stackcollapse-jfr: turn the text of `jfr print` (Java Flight Recorder)
 * into folded stacks: CPU samples, allocations weighed by bytes, or lock
 * and park events weighed by nanoseconds.
 *
 *	jfr print --stack-depth 2048 rec.jfr | stackcollapse-jfr |
 *	    flamegraph-svg --colors java > cpu.svg
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
#include "formats/jfr.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--lines] [--signatures] [--strict] [--threads]"
	    "\n                         [--event NAME] [--weight FIELD] "
	    "[--progress | --no-progress]\n"
	    "                         [file ...]\n", progname);
}

static int
readone(void *r, struct fold_in *in, struct fold_diag *diag)
{
	return jfr_read(r, in, diag);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "lines", no_argument, NULL, 'l' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "signatures", no_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ "threads", no_argument, NULL, 't' },
		{ "weight", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	struct jfr_opt opt = JFR_OPT_INIT;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct jfr_reader *r;
	struct fold_diag diag;
	struct fold_out *out;
	int c, strict = 0, status = EXIT_OK, stopped;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!*optarg || strpbrk(optarg, " \t\n{}"))
				cmd_die(EXIT_USAGE, "--event: not an event "
				    "name: '%s'", optarg);
			opt.event = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'l':
			opt.lines = 1;
			break;
		case 's':
			opt.signatures = 1;
			break;
		case 'S':
			strict = 1;
			break;
		case 't':
			opt.threads = 1;
			break;
		case 'w':
			if (!*optarg || strpbrk(optarg, " \t\n="))
				cmd_die(EXIT_USAGE, "--weight: not a field "
				    "name: '%s'", optarg);
			opt.weight = optarg;
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
	if (!(r = jfr_reader_new(&opt, st)))
		cmd_die(EXIT_USAGE, "%s", fold_err());
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	status = cmd_each_input(argv + optind, argc - optind, readone, r,
	    &diag, &stopped);
	if (stopped)
		goto done;
	fold_write(out, st);

	jfr_summary(r, &opt, status == EXIT_OK, cmd_say, NULL);
done:
	cmd_diag_summary(&diag, "event or line", "events or lines");
	jfr_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}
