/*
 * pprofmerge: merge pprof profiles into one gzipped pprof profile with
 * every sample, location, function, mapping and label kept, as
 * `go tool pprof -proto` merges them: a fleet's CPU profiles as the
 * default.pgo of Go's profile-guided optimization, or for Pyroscope and
 * Parca.
 *
 *	find fleet -name 'cpu*.pb.gz' | pprofmerge --files-from - > default.pgo
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/opt.h"
#include "cmd/util.h"
#include "formats/pprof.h"
#include "formats/pprofmerge.h"
#include "libfold/err.h"

/* decoding is most of the work: it runs on the jobs' threads */
static void *
prepare(void *m, void *w, struct fold_in *in)
{
	return pprof_merge_decode(m, in);
}

static int
commit(void *m, void *w, void *d, struct fold_in *in, struct fold_diag *diag)
{
	return pprof_merge_commit(m, d);
}

static void
drop(void *m, void *d)
{
	pprof_merge_drop(m, d);
}

static const struct cmd_twostep twostep = {
	.prepare = prepare, .commit = commit, .drop = drop
};

/* Its one value: the table's base is the uint64_t max_size of main. */
static const struct fold_option options[] = {
	{ .name = "max-size", .arg = "BYTES", .kind = FOLD_OPT_SIZE, .off = 0,
	    .help = "refuse a profile larger than BYTES (2G)" },
	{ .name = NULL }
};

int
main(int argc, char *argv[])
{
	uint64_t max_size = 0;
	struct cmd_common cc = { 0 };
	const struct cmd_optset sets[] = {
		{ NULL, options, &max_size },
		{ NULL, cmd_opt_files, &cc },
		{ NULL, cmd_opt_jobs, &cc },
		{ NULL, cmd_opt_progress, &cc },
	};
	struct pprof_merger *m;
	struct fold_diag diag;
	struct fold_out *out;
	int first, stopped = 0, status, wrote;

	cmd_init(argv[0]);
	first = cmd_parse(argc, argv, sets, 4, "[profile ...]");
	m = pprof_merger_new(max_size);
	cmd_diag_init(&diag, 0);
	/* a profile that cannot be read is reported and the others merged;
	   one that breaks the merge (a sum past 64 bits) ends it */
	status = cmd_each_listed_jobs(argv + first, argc - first, &cc,
	    &twostep, m, &diag, &stopped);
	wrote = 0;
	out = cmd_stdout();
	if (!stopped) {
		if (pprof_merge_write(m, out, cmd_sort_jobs(&cc)) < 0)
			cmd_warn("%s", fold_err());
		else
			wrote = 1;
	}
	if (!wrote)
		status = EXIT_ERR;
	pprof_merger_free(m);
	return cmd_close(out, status);
}
