/*
 * folded2speedscope: write folded stacks as a speedscope file, which
 * speedscope (https://www.speedscope.app, or `speedscope FILE`) opens
 * with its time-order, left-heavy and sandwich views.
 *
 *	stackcollapse-perf perf.txt | folded2speedscope > perf.speedscope.json
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/opt.h"
#include "cmd/util.h"
#include "formats/speedscope.h"
#include "libfold/err.h"
#include "libfold/stacks.h"

struct f2s {
	const char *name;
};

static const struct fold_option options[] = {
	{ .name = "name", .arg = "TEXT", .kind = FOLD_OPT_TEXT,
	    .off = offsetof(struct f2s, name),
	    .help = "the profile's name (default: the first input's)" },
	{ .name = NULL }
};

int
main(int argc, char *argv[])
{
	struct f2s f = { NULL };
	struct cmd_common cc = { 0 };
	const struct cmd_optset sets[] = {
		{ NULL, options, &f },
		{ NULL, cmd_opt_strict, &cc },
		{ NULL, cmd_opt_unit, &cc },
		{ NULL, cmd_opt_jobs, &cc },
		{ NULL, cmd_opt_progress, &cc },
		{ NULL, cmd_opt_files, &cc },
	};
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	const char *name;
	int first, status;

	cmd_init(argv[0]);
	first = cmd_parse(argc, argv, sets, 6, "[file ...]");
	cmd_diag_init(&diag, cc.strict);
	name = f.name ? f.name : first < argc && strcmp(argv[first], "-") ?
	    argv[first] : cc.list ? cc.list : "stdin";
	status = cmd_read_folded(argv + first, argc - first, &cc, &diag, &st);
	if (status == EXIT_OK) {
		status = cmd_stacks_found(fold_stacks_adds(st));
		/* the writer's sort, done here on the threads */
		fold_stacks_sort_jobs(st, FOLD_ORDER_TEXT, cmd_sort_jobs(&cc));
		out = cmd_stdout();
		if (speedscope_write(out, st, name) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
		status = cmd_close(out, status);
	}
	cmd_folded_free(st);
	return status;
}
