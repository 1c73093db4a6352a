/*
 * foldmerge: sum identical stacks across folded profiles into one sorted
 * profile, optionally scaled, normalized or tagged by origin.
 *
 *	foldmerge --root host=web1 web1.folded --root host=web2 web2.folded |
 *	    flamegraph-svg > fleet.svg
 *	find fleet -name '*.folded' | foldmerge --files-from - \
 *	    --root-from-path '^fleet/(\w+)/' > by-service.folded
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "libfold/count.h"
#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/merge.h"
#include "formats/split.h"
#include "cmd/opt.h"
#include "cmd/util.h"

/* An operand or a --files-from list, with the --root in effect. */
struct arg {
	const char *path;
	const char *root;
	int list;
};

/* The options, and the operands and lists in command line order. */
struct merge {
	struct fold_merge_opt opt;
	struct fold_pathroot *pr;	/* --root-from-path */
	const char *root;		/* the --root in effect */
	int nul;
	struct arg *a;
	size_t na;
};

static void
file_error(void *arg, const char *msg)
{
	cmd_warn("%s", msg);
}

/*
 * The merge holds as many sorted inputs open at once as the limit on
 * descriptors leaves (up to 128), and merges the rest through temporary
 * files: raise the soft limit to the hard one first, as the limit is
 * there to be raised by who needs it (this program opens no descriptor
 * it would hand to select(2)).
 */
static void
raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Appends an operand, or a list, under the --root in effect. */
static void
add(struct merge *m, const char *path, int list)
{
	m->a = fold_reallocarray(m->a, m->na + 1, sizeof *m->a);
	m->a[m->na++] = (struct arg){ path, m->root, list };
}

static void
operand(void *arg, char *path)
{
	add(arg, path, 0);
}

/* A list is merged where it stands among the operands, under its --root. */
static int
files_from(void *opts, const char *value, const char *more)
{
	add(opts, value, 1);
	return 0;
}

/* A count as the stacks' are (exact integers), and the flag that it is set. */
static int
min_count(void *opts, const char *value, const char *more)
{
	struct merge *m = opts;

	if (fold_count_parse(value, strlen(value), &m->opt.min_count) < 0)
		return -1;
	m->opt.min = 1;
	return 0;
}

/* TOTAL, and the flag that it is set: 0 is a total too. */
static int
normalize(void *opts, const char *value, const char *more)
{
	struct merge *m = opts;
	struct fold_count c;

	if (fold_count_parse(value, strlen(value), &c) < 0)
		return -1;
	m->opt.norm_total = fold_count_val(&c);
	m->opt.normalize = 1;
	return 0;
}

/* The frame of the inputs after it; an empty one ends it. */
static int
root(void *opts, const char *value, const char *more)
{
	if (strchr(value, ';'))
		return fold_seterr("a frame cannot contain ';'");
	((struct merge *)opts)->root = *value ? value : NULL;
	return 0;
}

static int
root_from_path(void *opts, const char *value, const char *more)
{
	struct merge *m = opts;

	fold_pathroot_free(m->pr);
	return (m->pr = fold_pathroot_new(value)) ? 0 : -1;
}

#define OFF(field) offsetof(struct merge, field)

static const struct fold_option options[] = {
	{ .name = "null", .shortname = '0', .kind = FOLD_OPT_FLAG,
	    .off = OFF(nul), .value = 1,
	    .help = "the --files-from lists are NUL-separated" },
	{ .name = "files-from", .arg = "LIST", .kind = FOLD_OPT_CALL,
	    .call = files_from,
	    .help = "merge the inputs named in LIST here (\"-\": stdin)" },
	{ .name = "min-count", .arg = "N", .kind = FOLD_OPT_CALL,
	    .call = min_count,
	    .help = "leave out stacks whose count is below N" },
	{ .name = "normalize", .arg = "TOTAL", .kind = FOLD_OPT_CALL,
	    .call = normalize, .help = "scale the counts to sum to TOTAL" },
	{ .name = "per", .arg = "N", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(opt.per), .min = 0, .above = 1,
	    .help = "divide every count by N" },
	{ .name = "root", .arg = "FRAME", .kind = FOLD_OPT_CALL, .call = root,
	    .help = "root the stacks of the inputs after it at FRAME" },
	{ .name = "root-from-path", .arg = "REGEX", .kind = FOLD_OPT_CALL,
	    .call = root_from_path,
	    .help = "root each input at what REGEX finds in its path" },
	{ .name = "scale", .arg = "FACTOR", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(opt.scale), .help = "multiply every count by FACTOR" },
	{ .name = NULL }
};

#undef OFF

/*
 * The inputs: operands and the names of each list, in command line order.
 * Lists that name no file, with no operand either, are reported (*empty
 * set): a fleet job that found no file has failed, as in every tool of
 * --files-from.
 */
static struct fold_merge_input *
inputs(struct arg *a, size_t na, int nul, size_t *n, char ***lists,
    int *empty)
{
	struct fold_merge_input *in = NULL;
	size_t i, k = 0;
	int j, m, stdin_uses = 0, stdin_list = 0;

	/* standard input is read once: as the list or as a profile */
	for (i = 0; i < na; i++)
		if (!a[i].path || strcmp(a[i].path, "-") == 0) {
			stdin_uses++;
			stdin_list |= a[i].list;
		}
	if (stdin_list && stdin_uses > 1)
		cmd_die(EXIT_USAGE, "-: standard input is the file list "
		    "(--files-from -); it cannot be an input too");
	for (i = 0; i < na; i++) {
		char *one[1] = { (char *)a[i].path }, **names = one;
		m = 1;
		if (a[i].list) {
			m = cmd_files_from(NULL, 0, a[i].path, nul, &names);
			lists[i] = names;
		}
		in = fold_reallocarray(in, k + m + 1, sizeof *in);
		for (j = 0; j < m; j++) {
			in[k].path = names[j];
			in[k++].root = a[i].root;
		}
	}
	for (i = 0; k == 0 && i < na; i++)
		if (a[i].list) {
			cmd_warn("%s: no file named", a[i].path);
			*empty = 1;
		}
	*n = k;
	return in;
}

/* Merges the inputs of m (standard input when none). Returns the status. */
static int
merge(struct merge *m, int strict)
{
	struct fold_merge_input *in;
	struct fold_diag diag, nomatch;
	struct fold_out *out;
	char ***lists, **roots = NULL;
	size_t n = 0, i;
	uint64_t stacks = 0;
	int status, empty = 0;

	if (m->na == 0)
		add(m, NULL, 0);
	lists = fold_calloc(m->na, sizeof *lists);
	in = inputs(m->a, m->na, m->nul, &n, lists, &empty);
	cmd_diag_init(&nomatch, 0);
	if (m->pr) {
		roots = fold_calloc(n + 1, sizeof *roots);
		for (i = 0; i < n; i++) {
			int k = fold_pathroot(m->pr, in[i].path, &roots[i]);
			if (k < 0)
				cmd_die(EXIT_ERR, "--root-from-path %s",
				    fold_err());
			if (k > 0)
				in[i].root = roots[i];
			else
				fold_warn(&nomatch, in[i].path ? in[i].path :
				    "<stdin>", 0, "no match for "
				    "--root-from-path");
		}
	}
	m->opt.file_error = file_error;
	m->opt.opened = cmd_progress_attach;
	m->opt.stacks = &stacks;
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	raise_nofile();
	status = empty ? EXIT_ERR : EXIT_OK;
	switch (fold_merge(out, in, n, &m->opt, &diag)) {
	case 0:
		break;
	case 1:		/* each unreadable file was reported */
		status = EXIT_ERR;
		break;
	default:
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	}
	cmd_diag_summary(&diag, "line", "lines");
	if (nomatch.count > nomatch.limit)
		cmd_warn("%llu inputs with no match for --root-from-path "
		    "(first %u shown)", (unsigned long long)nomatch.count,
		    nomatch.limit);
	/* every input read and none had a stack: said before the (empty)
	   output is closed; what --min-count leaves out does not count */
	if (status == EXIT_OK)
		status = cmd_stacks_found(stacks);
	for (i = 0; i < m->na; i++)
		free(lists[i]);
	for (i = 0; roots && i < n; i++)
		free(roots[i]);
	free(roots);
	free(lists);
	free(in);
	return cmd_close(out, status);
}

int
main(int argc, char *argv[])
{
	struct merge m = { .opt = FOLD_MERGE_OPT_INIT };
	struct cmd_common cc = { 0 };
	struct split_opt so;
	const struct cmd_optset sets[] = {
		{ NULL, options, &m },
		{ NULL, cmd_opt_strict, &cc },
		{ NULL, cmd_opt_unit, &cc },
		{ NULL, cmd_opt_progress, &cc },
		{ NULL, cmd_opt_jobs, &cc },
	};
	int status;

	cmd_init(argv[0]);
	/* --root applies to the files that follow it: operands in order */
	cmd_parse_each(argc, argv, sets, 5, "[[--root FRAME] file ...]",
	    operand, &m);
	m.opt.unit = cc.unit;
	m.opt.jobs = cmd_jobs(&cc);
	/* the tests cut small inputs in pieces too */
	cmd_split_opt(&cc, &so);
	m.opt.piece = so.piece;
	status = merge(&m, cc.strict);
	fold_pathroot_free(m.pr);
	free(m.a);
	return status;
}
