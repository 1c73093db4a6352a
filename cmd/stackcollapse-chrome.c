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

#include "formats/collapse.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--lines] [--max-size BYTES] [--time] "
	    "[--strict]\n"
	    "                            [--progress | --no-progress] "
	    "[file ...]\n", progname);
}

/* Its own main, not cmd_converter's: --max-size takes a value. */
int
main(int argc, char *argv[])
{
	enum { O_LINES = 256, O_MAX_SIZE, O_STRICT, O_TIME };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "lines", no_argument, NULL, O_LINES },
		{ "max-size", required_argument, NULL, O_MAX_SIZE },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "time", no_argument, NULL, O_TIME },
		{ NULL, 0, NULL, 0 }
	};
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	int c, strict = 0;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case O_LINES:
			opt.chrome.lines = 1;
			break;
		case O_MAX_SIZE:
			opt.chrome.max_size = cmd_size("--max-size", optarg);
			break;
		case O_STRICT:
			strict = 1;
			break;
		case O_TIME:
			opt.chrome.time = 1;
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
	return cmd_collapse(collapse_find("chrome"), &opt, strict,
	    argv + optind, argc - optind, "entry", "entries");
}
