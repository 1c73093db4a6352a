/*
 * stackcollapse-ghcprof: turn the call tree of a GHC profiling report
 * (.prof) into folded stacks counted by %time, ticks or bytes.
 *
 *	./prog +RTS -P -RTS && stackcollapse-ghcprof --bytes prog.prof |
 *	    flamegraph-svg --colors mem --countname bytes > alloc.svg
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
	fprintf(f, "usage: %s [--time | --ticks | --bytes] [--strict]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n", progname,
	    (int)strlen(progname), "");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "bytes", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, 'S' },
		{ "ticks", no_argument, NULL, 'k' },
		{ "time", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const names[] = { "--time", "--ticks", "--bytes" };
	struct collapse_opt all = COLLAPSE_OPT_INIT;
	struct ghcprof_opt *opt = &all.ghcprof;
	int c, strict = 0, src = -1, s;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'b':
		case 'k':
		case 't':
			s = c == 't' ? GHCPROF_TIME : c == 'k' ?
			    GHCPROF_TICKS : GHCPROF_BYTES;
			if (src >= 0 && src != s) {
				cmd_warn("%s cannot be used with %s",
				    names[src], names[s]);
				usage(stderr);
				return EXIT_USAGE;
			}
			src = s;
			opt->source = s;
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

	return cmd_collapse(collapse_find("ghcprof"), &all, strict, argv + optind,
	    argc - optind, "line", "lines");
}
