/*
 * stackcollapse-dtrace: turn the stack aggregations that dtrace prints
 * (@[stack()], @[ustack()], @[jstack()]) into folded stacks, as
 * FlameGraph's stackcollapse.pl does.
 *
 *	dtrace -x ustackframes=100 -n 'profile-97 /pid == 1234/ {
 *	    @[ustack()] = count(); } tick-60s { exit(0); }' -o out.stacks
 *	stackcollapse-dtrace out.stacks | flamegraph-svg > cpu.svg
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
	fprintf(f, "usage: %s [--includeoffset] [--strict]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n",
	    progname, (int)strlen(progname), "");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "includeoffset", no_argument, NULL, 'o' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct collapse_opt all = COLLAPSE_OPT_INIT;
	struct dtrace_opt *opt = &all.dtrace;
	int c, strict = 0;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'o':
			opt->includeoffset = 1;
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

	return cmd_collapse(collapse_find("dtrace"), &all, strict, argv + optind,
	    argc - optind, "line or stack", "lines or stacks");
}
