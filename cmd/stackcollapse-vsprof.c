/*
 * stackcollapse-vsprof: turn the call tree that the Visual Studio
 * profiler exports as CSV into folded stacks counted in calls.
 *
 *	stackcollapse-vsprof CallTreeSummary.csv | flamegraph-svg --countname calls > calls.svg
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
	fprintf(f, "usage: %s [--strict]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n",
	    progname, (int)strlen(progname), "");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct collapse_opt all = COLLAPSE_OPT_INIT;
	int c, strict = 0;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
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

	return cmd_collapse(collapse_find("vsprof"), &all, strict, argv + optind,
	    argc - optind, "line", "lines");
}
