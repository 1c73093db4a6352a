/*
 * foldfilter: edit the stacks of folded profiles with PCRE2 patterns and
 * other steps, applied in command-line order like sed expressions; the
 * result is merged and sorted.
 *
 *	foldfilter --focus '^parse_' --hide '^std::' --collapse-recursion \
 *	    app.folded | flamegraph-svg > parse.svg
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "libfold/filter.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [-v] [--strict] [--grep RE] [--exclude RE] "
	    "[--focus RE] [--ignore RE]\n"
	    "                  [--hide RE] [--root-at RE] [--prune-from RE] "
	    "[--replace RE REPL]\n"
	    "                  [--collapse-recursion] [--max-depth N] "
	    "[--min-count N]\n"
	    "                  [--min-share P%%] [--strip-addrs] [--reverse]\n"
	    "                  [--progress | --no-progress] [file ...]\n",
	    progname);
}

/* "--grep 'RE'" (and the replacement) for messages. */
static char *
label(const char *opt, const char *a, const char *b)
{
	/* a long pattern or replacement is cut: the message stays readable */
	size_t n = strlen(opt) + 2 * 64 + 16;
	char *s = fold_malloc(n);

	if (b)
		snprintf(s, n, "%s '%.*s%s' '%.*s%s'", opt,
		    FOLD_CUT(a, strlen(a)), FOLD_CUT(b, strlen(b)));
	else if (a)
		snprintf(s, n, "%s '%.*s%s'", opt, FOLD_CUT(a, strlen(a)));
	else
		snprintf(s, n, "%s", opt);
	return s;
}

static void
add(struct fold_filter *f, enum fold_step step, const char *opt,
    const char *a, const char *b, double num)
{
	char *l = label(opt, a, b);

	if (fold_filter_add(f, step, a, b, num, l) < 0)
		cmd_die(EXIT_USAGE, "%s", fold_err());
	free(l);
}

/* Prints what each step kept, for -v. */
static void
verbose(const struct fold_filter *f)
{
	const struct fold_filter_stat *s;
	char in[FOLD_COUNT_BUFSZ], out[FOLD_COUNT_BUFSZ];
	size_t n, i;

	s = fold_filter_stats(f, &n);
	for (i = 0; i < n; i++) {
		double a = fold_count_val(&s[i].count_in);
		double b = fold_count_val(&s[i].count_out);
		fold_count_fmt(&s[i].count_in, in);
		fold_count_fmt(&s[i].count_out, out);
		if (fold_count_cmp(&s[i].count_in, &s[i].count_out) == 0 &&
		    s[i].stacks_in == s[i].stacks_out)
			cmd_warn("%s: %zu stacks (count %s), dropped nothing",
			    s[i].label, s[i].stacks_in, in);
		else
			cmd_warn("%s: kept %zu of %zu stacks (count %s of %s, "
			    "dropped %.2f%%)", s[i].label, s[i].stacks_out,
			    s[i].stacks_in, out, in,
			    a > 0 ? 100 * (a - b) / a : 0.0);
	}
}

/*
 * Warns of each step that selects stacks and matched none of those it was
 * given: a misspelt pattern would otherwise give an empty profile
 * silently. Under strict it is an error. Returns how many there were.
 */
static int
unmatched(const struct fold_filter *f, int strict)
{
	const struct fold_filter_stat *s;
	size_t n, i;
	int k = 0;

	s = fold_filter_stats(f, &n);
	for (i = 0; i < n; i++)
		if (s[i].selects && s[i].stacks_in > 0 &&
		    s[i].stacks_out == 0) {
			cmd_warn("%s: no stack matched%s", s[i].label,
			    strict ? " (--strict)" : "");
			k++;
		}
	return k;
}

static int
read_one(void *st, struct fold_in *in, struct fold_diag *diag)
{
	return fold_read(in, st, NULL, diag) < 0 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	enum { OPT_COLLAPSE = 256, OPT_EXCLUDE, OPT_FOCUS, OPT_GREP, OPT_HIDE,
	    OPT_IGNORE, OPT_MAX_DEPTH, OPT_MIN_COUNT, OPT_MIN_SHARE,
	    OPT_PRUNE_FROM, OPT_REPLACE, OPT_REVERSE, OPT_ROOT_AT, OPT_STRICT,
	    OPT_STRIP_ADDRS };
	static const struct option longopts[] = {
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "collapse-recursion", no_argument, NULL, OPT_COLLAPSE },
		{ "exclude", required_argument, NULL, OPT_EXCLUDE },
		{ "focus", required_argument, NULL, OPT_FOCUS },
		{ "grep", required_argument, NULL, OPT_GREP },
		{ "help", no_argument, NULL, 'h' },
		{ "hide", required_argument, NULL, OPT_HIDE },
		{ "ignore", required_argument, NULL, OPT_IGNORE },
		{ "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
		{ "min-count", required_argument, NULL, OPT_MIN_COUNT },
		{ "min-share", required_argument, NULL, OPT_MIN_SHARE },
		{ "prune-from", required_argument, NULL, OPT_PRUNE_FROM },
		{ "replace", required_argument, NULL, OPT_REPLACE },
		{ "reverse", no_argument, NULL, OPT_REVERSE },
		{ "root-at", required_argument, NULL, OPT_ROOT_AT },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "strip-addrs", no_argument, NULL, OPT_STRIP_ADDRS },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct fold_filter *f = fold_filter_new();
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	char **files;
	int nfiles = 0;
	int c, strict = 0, verb = 0, stopped, status = EXIT_OK;
	unsigned long long depth;
	double share;
	char *pct;

	cmd_init(argv[0]);
	files = fold_reallocarray(NULL, argc, sizeof *files);
	/* "-": operands come back in order, so that files and steps mix */
	while ((c = getopt_long(argc, argv, "-hv", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			files[nfiles++] = optarg;
			break;
		case OPT_COLLAPSE:
			add(f, FOLD_STEP_COLLAPSE_RECURSION,
			    "--collapse-recursion", NULL, NULL, 0);
			break;
		case OPT_EXCLUDE:
			add(f, FOLD_STEP_EXCLUDE, "--exclude", optarg, NULL, 0);
			break;
		case OPT_FOCUS:
			add(f, FOLD_STEP_FOCUS, "--focus", optarg, NULL, 0);
			break;
		case OPT_GREP:
			add(f, FOLD_STEP_GREP, "--grep", optarg, NULL, 0);
			break;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		case 'h':
			usage(stdout);
			status = EXIT_OK;
			goto done;
		case OPT_HIDE:
			add(f, FOLD_STEP_HIDE, "--hide", optarg, NULL, 0);
			break;
		case OPT_IGNORE:
			add(f, FOLD_STEP_IGNORE, "--ignore", optarg, NULL, 0);
			break;
		case OPT_MAX_DEPTH:
			depth = cmd_uint("--max-depth", optarg);
			if (depth == 0)
				cmd_die(EXIT_USAGE, "--max-depth: must be at "
				    "least 1");
			add(f, FOLD_STEP_MAX_DEPTH, "--max-depth", NULL, NULL,
			    (double)depth);
			break;
		case OPT_MIN_COUNT:
			add(f, FOLD_STEP_MIN_COUNT, "--min-count", NULL, NULL,
			    cmd_number("--min-count", optarg));
			break;
		case OPT_MIN_SHARE:
			pct = fold_strndup(optarg, strlen(optarg));
			if (*pct && pct[strlen(pct) - 1] == '%')
				pct[strlen(pct) - 1] = '\0';
			share = cmd_number("--min-share", pct);
			free(pct);
			if (share > 100)
				cmd_die(EXIT_USAGE, "--min-share: above 100%%");
			add(f, FOLD_STEP_MIN_SHARE, "--min-share", NULL, NULL,
			    share);
			break;
		case OPT_PRUNE_FROM:
			add(f, FOLD_STEP_PRUNE_FROM, "--prune-from", optarg,
			    NULL, 0);
			break;
		case OPT_REPLACE:
			/* the replacement is the next argument */
			if (optind >= argc) {
				cmd_warn("--replace: needs a pattern and a "
				    "replacement");
				usage(stderr);
				status = EXIT_USAGE;
				goto done;
			}
			add(f, FOLD_STEP_REPLACE, "--replace", optarg,
			    argv[optind], 0);
			optind++;
			break;
		case OPT_REVERSE:
			add(f, FOLD_STEP_REVERSE, "--reverse", NULL, NULL, 0);
			break;
		case OPT_ROOT_AT:
			add(f, FOLD_STEP_ROOT_AT, "--root-at", optarg, NULL, 0);
			break;
		case OPT_STRICT:
			strict = 1;
			break;
		case OPT_STRIP_ADDRS:
			add(f, FOLD_STEP_STRIP_ADDRS, "--strip-addrs", NULL,
			    NULL, 0);
			break;
		case 'v':
			verb = 1;
			break;
		default:
			usage(stderr);
			status = EXIT_USAGE;
			goto done;
		}
	}

	frames = fold_intern_new();
	st = fold_stacks_new(frames, 1);
	cmd_diag_init(&diag, strict);
	status = cmd_each_input(files, nfiles, read_one, st, &diag, &stopped);
	cmd_diag_summary(&diag, "line", "lines");
	out = cmd_stdout();
	/* what could be read is still filtered, as the status says */
	if (fold_filter_run(f, &st) < 0) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	} else {
		if (verb)
			verbose(f);
		if (unmatched(f, strict) && strict)
			status = EXIT_ERR;
		fold_write(out, st);
	}
	fold_stacks_free(st);
	fold_intern_free(frames);
	fold_filter_free(f);
	free(files);
	return cmd_close(out, status);
done:
	fold_filter_free(f);
	free(files);
	return status;
}
