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

#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "formats/ghcprof.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--time | --ticks | --bytes] [--strict]\n"
	    "       %*s [--progress | --no-progress] [file ...]\n", progname,
	    (int)strlen(progname), "");
}

static int
readone(void *r, struct fold_in *in, struct fold_diag *diag)
{
	return ghcprof_read(r, in, diag);
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
	struct ghcprof_opt opt = GHCPROF_OPT_INIT;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct ghcprof_reader *r;
	struct fold_diag diag;
	struct fold_out *out;
	int c, strict = 0, status, stopped, src = -1, s;

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
			opt.source = s;
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
	r = ghcprof_reader_new(&opt, st);
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	status = cmd_each_input(argv + optind, argc - optind, readone, r,
	    &diag, &stopped);
	if (!stopped) {
		fold_write(out, st);
		ghcprof_summary(r, say, NULL);
	}
	cmd_diag_summary(&diag, "line", "lines");
	ghcprof_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}
