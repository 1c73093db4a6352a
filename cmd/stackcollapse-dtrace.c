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
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "formats/dtrace.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--includeoffset] [--strict]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n",
	    progname, (int)strlen(progname), "");
}

static int
readone(void *r, struct fold_in *in, struct fold_diag *diag)
{
	return dtrace_read(r, in, diag);
}

static void
say(void *arg, const char *msg)
{
	cmd_warn("%s", msg);
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
	struct dtrace_opt opt = DTRACE_OPT_INIT;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct dtrace_reader *r;
	struct fold_diag diag;
	struct fold_out *out;
	int c, strict = 0, status, stopped;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'o':
			opt.includeoffset = 1;
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

	frames = fold_intern_new();
	st = fold_stacks_new(frames, 1);
	r = dtrace_reader_new(&opt, st);
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	status = cmd_each_input(argv + optind, argc - optind, readone, r,
	    &diag, &stopped);
	if (!stopped) {
		fold_write(out, st);
		dtrace_summary(r, say, NULL);
	}
	cmd_diag_summary(&diag, "line or stack", "lines or stacks");
	dtrace_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}
