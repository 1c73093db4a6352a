/*
 * pprofmerge: merge pprof profiles into one gzipped pprof profile with
 * every sample, location, function, mapping and label kept, as
 * `go tool pprof -proto` merges them: a fleet's CPU profiles as the
 * default.pgo of Go's profile-guided optimization, or for Pyroscope and
 * Parca.
 *
 *	find fleet -name 'cpu*.pb.gz' | pprofmerge --files-from - > default.pgo
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/util.h"
#include "formats/pprof.h"
#include "formats/pprofmerge.h"
#include "libfold/err.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [-0] [--files-from LIST] [--max-size BYTES]\n"
	    "                  [--progress | --no-progress] [profile ...]\n",
	    progname);
}

static int
read_one(void *m, struct fold_in *in, struct fold_diag *diag)
{
	return pprof_merge_add(m, in);
}

int
main(int argc, char *argv[])
{
	enum { O_FILES_FROM = 256, O_MAX_SIZE };
	static const struct option longopts[] = {
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "files-from", required_argument, NULL, O_FILES_FROM },
		{ "help", no_argument, NULL, 'h' },
		{ "max-size", required_argument, NULL, O_MAX_SIZE },
		{ "null", no_argument, NULL, '0' },
		{ NULL, 0, NULL, 0 }
	};
	struct pprof_merger *m;
	struct fold_diag diag;
	struct fold_out *out;
	const char *list = NULL;
	unsigned long long max_size = 0;
	int c, nul = 0, stopped = 0, status, wrote;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "0h", longopts, NULL)) != -1) {
		switch (c) {
		case '0':
			nul = 1;
			break;
		case O_FILES_FROM:
			list = optarg;
			break;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case O_MAX_SIZE:
			max_size = cmd_size("--max-size", optarg);
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	m = pprof_merger_new(max_size);
	cmd_diag_init(&diag, 0);
	/* a profile that cannot be read is reported and the others merged;
	   one that breaks the merge (a sum past 64 bits) ends it */
	status = cmd_each_listed(argv + optind, argc - optind, list, nul,
	    read_one, m, &diag, &stopped);
	wrote = 0;
	out = cmd_stdout();
	if (!stopped) {
		if (pprof_merge_write(m, out) < 0)
			cmd_warn("%s", fold_err());
		else
			wrote = 1;
	}
	if (!wrote)
		status = EXIT_ERR;
	pprof_merger_free(m);
	return cmd_close(out, status);
}
