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

#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "formats/vtune.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--no-modules] [--strict]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n",
	    progname, (int)strlen(progname), "");
}

static int
readone(void *r, struct fold_in *in, struct fold_diag *diag)
{
	return vtune_read(r, in, diag);
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
		{ "no-modules", no_argument, NULL, 'M' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct vtune_opt opt = VTUNE_OPT_INIT;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct vtune_reader *r;
	struct fold_diag diag;
	struct fold_out *out;
	int c, strict = 0, status, stopped;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'M':
			opt.no_modules = 1;
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
	r = vtune_reader_new(&opt, st);
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	status = cmd_each_input(argv + optind, argc - optind, readone, r,
	    &diag, &stopped);
	if (!stopped) {
		fold_write(out, st);
		vtune_summary(r, say, NULL);
	}
	cmd_diag_summary(&diag, "line", "lines");
	vtune_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}
