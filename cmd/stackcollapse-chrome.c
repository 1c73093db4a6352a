/*
 * stackcollapse-chrome: turn V8 CPU profiles (.cpuprofile JSON from
 * `node --cpu-prof`, DevTools or the DevTools protocol) into folded
 * stacks, counting samples or microseconds.
 *
 *	node --cpu-prof app.js && stackcollapse-chrome CPU.*.cpuprofile |
 *	    flamegraph-svg --colors js > cpu.svg
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "formats/collapse.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--lines] [--strict] [--time]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n",
	    progname, (int)strlen(progname), "");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "lines", no_argument, NULL, 'l' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, 'S' },
		{ "time", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	struct collapse_opt all = COLLAPSE_OPT_INIT;
	struct chrome_opt *opt = &all.chrome;
	int c, strict = 0;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'l':
			opt->lines = 1;
			break;
		case 'S':
			strict = 1;
			break;
		case 't':
			opt->time = 1;
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

	return cmd_collapse(collapse_find("chrome"), &all, strict, argv + optind,
	    argc - optind, "entry", "entries");
}
