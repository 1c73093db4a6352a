/*
 * stackcollapse-vtune: turn the "Top-down Tree" CSV report of Intel
 * VTune Profiler into folded stacks counted in milliseconds of CPU time.
 *
 *	vtune -report top-down -call-stack-mode all -column="CPU Time:Self",Module \
 *	    -format csv -csv-delimiter comma -r r000hs | stackcollapse-vtune |
 *	    flamegraph-svg --countname ms > cpu.svg
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
	fprintf(f, "usage: %s [--no-modules] [--strict]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n",
	    progname, (int)strlen(progname), "");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "no-modules", no_argument, NULL, 'M' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct collapse_opt all = COLLAPSE_OPT_INIT;
	struct vtune_opt *opt = &all.vtune;
	int c, strict = 0;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'M':
			opt->no_modules = 1;
			break;
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

	return cmd_collapse(collapse_find("vtune"), &all, strict, argv + optind,
	    argc - optind, "line", "lines");
}
