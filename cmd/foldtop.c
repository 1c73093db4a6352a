/*
 * foldtop: the hottest functions of a folded profile, as `pprof -top`
 * prints them: flat (self) and cum (inclusive) counts and shares.
 *
 *	perf script | stackcollapse-perf | foldtop --top 20
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "formats/table.h"
#include "cmd/opt.h"
#include "cmd/util.h"

/* The options: the table's, then what main passes on. */
struct top {
	struct fold_topopt opt;
	unsigned long long top;
};

static int
format(void *opts, const char *value, const char *more)
{
	return fold_format_parse(value, FOLD_TOP_FORMATS,
	    &((struct top *)opts)->opt.format);
}

#define OFF(field) offsetof(struct top, field)

static const struct fold_option options[] = {
	{ .name = "cum", .kind = FOLD_OPT_FLAG, .off = OFF(opt.by_cum),
	    .value = 1, .help = "sort by cumulative (total) count" },
	{ .name = "format", .arg = "FORMAT", .kind = FOLD_OPT_CALL,
	    .call = format, .help = "text (default), markdown or tsv" },
	{ .name = "top", .arg = "N", .kind = FOLD_OPT_UINT, .off = OFF(top),
	    .help = "show the N hottest functions (default: all)" },
	{ .name = NULL }
};

#undef OFF

int
main(int argc, char *argv[])
{
	struct top t = { .opt = FOLD_TOPOPT_INIT };
	struct cmd_common cc = { 0 };
	const struct cmd_optset sets[] = {
		{ NULL, options, &t },
		{ NULL, cmd_opt_jobs, &cc },
		{ NULL, cmd_opt_progress, &cc },
		{ NULL, cmd_opt_strict, &cc },
		{ NULL, cmd_opt_unit, &cc },
	};
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	int first, status;

	cmd_init(argv[0]);
	first = cmd_parse(argc, argv, sets, 5, "[file]");
	argc -= first;
	argv += first;
	if (argc > 1)
		cmd_die(EXIT_USAGE, "one profile at a time: %d files given",
		    argc);
	t.opt.top = t.top;
	cmd_diag_init(&diag, cc.strict);
	status = cmd_read_folded(argv, argc, &cc, &diag, &st);
	out = cmd_stdout();
	if (status == EXIT_OK) {
		/* no stack: an error, and an empty table all the same */
		status = cmd_stacks_found(fold_stacks_adds(st));
		if (fold_top_write(out, st, &t.opt) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
	}
	cmd_folded_free(st);
	return cmd_close(out, status);
}
