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

#include "formats/collapse.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--lines] [--signatures] [--strict] [--threads]"
	    "\n                         [--event NAME] [--weight FIELD] "
	    "[--progress | --no-progress]\n"
	    "                         [file ...]\n", progname);
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
	struct collapse_opt copt = COLLAPSE_OPT_INIT;
	int c, strict = 0;

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

	copt.jfr = opt;
	return cmd_collapse(collapse_find("jfr"), &copt, strict, argv + optind,
	    argc - optind, "event or line", "events or lines");
}
