/*
 * foldmerge: sum identical stacks across folded profiles into one sorted
 * profile, optionally scaled, normalized or tagged by origin.
 *
 *	foldmerge --root host=web1 web1.folded --root host=web2 web2.folded |
 *	    flamegraph-svg > fleet.svg
 *	find fleet -name '*.folded' | foldmerge --files-from - \
 *	    --root-from-path '^fleet/(\w+)/' > by-service.folded
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/merge.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [-0] [--strict] [--files-from LIST] "
	    "[--min-count N] [--normalize TOTAL]\n"
	    "                 [--per N] [--root-from-path REGEX] "
	    "[--scale FACTOR]\n"
	    "                 [--progress | --no-progress] "
	    "[[--root FRAME] file ...]\n", progname);
}

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

/* An operand or a --files-from list, with the --root in effect. */
struct arg {
	const char *path;
	const char *root;
	int list;
};

/* The inputs: operands and the names of each list, in command line order. */
static struct fold_merge_input *
inputs(struct arg *a, size_t na, int nul, size_t *n, char ***lists)
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
	*n = k;
	return in;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "files-from", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "min-count", required_argument, NULL, 'm' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "normalize", required_argument, NULL, 'n' },
		{ "null", no_argument, NULL, '0' },
		{ "per", required_argument, NULL, 'p' },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "root", required_argument, NULL, 'r' },
		{ "root-from-path", required_argument, NULL, 'R' },
		{ "scale", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct fold_merge_opt opt = FOLD_MERGE_OPT_INIT;
	struct fold_merge_input *in;
	struct fold_pathroot *pr = NULL;
	struct fold_diag diag, nomatch;
	struct fold_out *out;
	struct arg *a;
	const char *root = NULL;
	char ***lists, **roots = NULL;
	size_t n = 0, na = 0, i;
	int c, strict = 0, nul = 0, status;

	cmd_init(argv[0]);
	a = fold_reallocarray(NULL, argc, sizeof *a);
	/* "-" first: operands come back in order, so --root applies to the
	   files that follow it */
	while ((c = getopt_long(argc, argv, "-0h", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
		case 'f':
			a[na].path = optarg;
			a[na].root = root;
			a[na++].list = c == 'f';
			break;
		case '0':
			nul = 1;
			break;
		case 'h':
			usage(stdout);
			free(a);
			return EXIT_OK;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		case 'm':
			if (fold_count_parse(optarg, strlen(optarg),
			    &opt.min_count) < 0)
				cmd_die(EXIT_USAGE, "--min-count: %s", fold_err());
			opt.min = 1;
			break;
		case 'n':
			opt.normalize = 1;
			opt.norm_total = cmd_number("--normalize", optarg);
			break;
		case 'p':
			opt.per = cmd_number("--per", optarg);
			if (opt.per == 0)
				cmd_die(EXIT_USAGE, "--per: must be above 0");
			break;
		case 'r':
			root = *optarg ? optarg : NULL;
			if (root && strchr(root, ';'))
				cmd_die(EXIT_USAGE, "--root: a frame cannot "
				    "contain ';'");
			break;
		case 'R':
			fold_pathroot_free(pr);
			if (!(pr = fold_pathroot_new(optarg)))
				cmd_die(EXIT_USAGE, "--root-from-path: %s",
				    fold_err());
			break;
		case 's':
			opt.scale = cmd_number("--scale", optarg);
			break;
		case 'S':
			strict = 1;
			break;
		default:
			usage(stderr);
			free(a);
			return EXIT_USAGE;
		}
	}
	if (na == 0) {
		a[0].path = NULL;
		a[0].root = root;
		a[na++].list = 0;
	}
	lists = fold_calloc(na, sizeof *lists);
	in = inputs(a, na, nul, &n, lists);
	cmd_diag_init(&nomatch, 0);
	if (pr) {
		roots = fold_calloc(n + 1, sizeof *roots);
		for (i = 0; i < n; i++) {
			int k = fold_pathroot(pr, in[i].path, &roots[i]);
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
	opt.file_error = file_error;
	opt.opened = cmd_progress_attach;
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	raise_nofile();
	status = EXIT_OK;
	switch (fold_merge(out, in, n, &opt, &diag)) {
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
	for (i = 0; i < na; i++)
		free(lists[i]);
	for (i = 0; roots && i < n; i++)
		free(roots[i]);
	free(roots);
	free(lists);
	fold_pathroot_free(pr);
	free(a);
	free(in);
	return cmd_close(out, status);
}
