/*
 * stackcollapse-bcc: turn the stacks printed by eBPF tools (bcc's
 * profile, offcputime, offwaketime, wakeuptime and stackcount,
 * libbpf-tools, bpftrace maps) into folded stacks; the form is detected.
 *
 *	offcputime -p 1234 30 | stackcollapse-bcc |
 *	    flamegraph-svg --colors io --countname us > offcpu.svg
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
	fprintf(f, "usage: %s [--kernel] [--pid] [--strict] [--map NAME] "
	    "[--progress | --no-progress]\n"
	    "                         [file ...]\n", progname);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "map", required_argument, NULL, 'm' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "pid", no_argument, NULL, 'p' },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct bcc_opt opt = BCC_OPT_INIT;
	struct collapse_opt copt = COLLAPSE_OPT_INIT;
	int c, strict = 0;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'k':
			opt.kernel = 1;
			break;
		case 'm':
			if (!*optarg || strpbrk(optarg, " \t\n[]:"))
				cmd_die(EXIT_USAGE, "--map: not a map name: "
				    "'%s'", optarg);
			opt.map = optarg;
			break;
		case 'p':
			opt.pid = 1;
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

	copt.bcc = opt;
	return cmd_collapse(collapse_find("bcc"), &copt, strict, argv + optind,
	    argc - optind, "line or entry", "lines or entries");
}
