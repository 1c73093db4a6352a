/*
 * foldfilter: edit the stacks of folded profiles with PCRE2 patterns and
 * other steps, applied in command-line order like sed expressions; the
 * result is merged and sorted.
 *
 *	foldfilter --focus '^parse_' --hide '^std::' --collapse-recursion \
 *	    app.folded | flamegraph-svg > parse.svg
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "libfold/filter.h"
#include "cmd/opt.h"
#include "cmd/util.h"

/* The steps, in command-line order, and -v. */
struct filter {
	struct fold_filter *f;
	int verbose;
};

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

/*
 * Appends a step. A pattern that does not compile is told as the library
 * says it, naming the step ("--grep 'a(b': missing ..."), not after the
 * option's name as a CALL's -1 would be.
 */
static int
add(void *opts, enum fold_step step, const char *opt, const char *a,
    const char *b, double num)
{
	char *l = label(opt, a, b);

	if (fold_filter_add(((struct filter *)opts)->f, step, a, b, num,
	    l) < 0)
		cmd_die(EXIT_USAGE, "%s", fold_err());
	free(l);
	return 0;
}

/* Each option's step: a CALL is not told which option it is. */
static int
collapse(void *opts, const char *value, const char *more)
{
	return add(opts, FOLD_STEP_COLLAPSE_RECURSION, "--collapse-recursion",
	    NULL, NULL, 0);
}

static int
exclude(void *opts, const char *re, const char *more)
{
	return add(opts, FOLD_STEP_EXCLUDE, "--exclude", re, NULL, 0);
}

static int
focus(void *opts, const char *re, const char *more)
{
	return add(opts, FOLD_STEP_FOCUS, "--focus", re, NULL, 0);
}

static int
grep(void *opts, const char *re, const char *more)
{
	return add(opts, FOLD_STEP_GREP, "--grep", re, NULL, 0);
}

static int
hide(void *opts, const char *re, const char *more)
{
	return add(opts, FOLD_STEP_HIDE, "--hide", re, NULL, 0);
}

static int
ignore(void *opts, const char *re, const char *more)
{
	return add(opts, FOLD_STEP_IGNORE, "--ignore", re, NULL, 0);
}

static int
max_depth(void *opts, const char *n, const char *more)
{
	unsigned long long depth = cmd_uint("--max-depth", n);

	if (depth == 0)
		return fold_seterr("must be at least 1");
	return add(opts, FOLD_STEP_MAX_DEPTH, "--max-depth", NULL, NULL,
	    (double)depth);
}

static int
min_count(void *opts, const char *n, const char *more)
{
	return add(opts, FOLD_STEP_MIN_COUNT, "--min-count", NULL, NULL,
	    cmd_number("--min-count", n));
}

/* P or P%, a share of the total. */
static int
min_share(void *opts, const char *p, const char *more)
{
	size_t len = strlen(p);
	char *num;
	double share;

	num = fold_strndup(p, len - (len > 0 && p[len - 1] == '%'));
	share = cmd_number("--min-share", num);
	free(num);
	if (share > 100)
		return fold_seterr("above 100%%");
	return add(opts, FOLD_STEP_MIN_SHARE, "--min-share", NULL, NULL,
	    share);
}

static int
prune_from(void *opts, const char *re, const char *more)
{
	return add(opts, FOLD_STEP_PRUNE_FROM, "--prune-from", re, NULL, 0);
}

static int
replace(void *opts, const char *re, const char *repl)
{
	return add(opts, FOLD_STEP_REPLACE, "--replace", re, repl, 0);
}

static int
reverse(void *opts, const char *value, const char *more)
{
	return add(opts, FOLD_STEP_REVERSE, "--reverse", NULL, NULL, 0);
}

static int
root_at(void *opts, const char *re, const char *more)
{
	return add(opts, FOLD_STEP_ROOT_AT, "--root-at", re, NULL, 0);
}

static int
strip_addrs(void *opts, const char *value, const char *more)
{
	return add(opts, FOLD_STEP_STRIP_ADDRS, "--strip-addrs", NULL, NULL,
	    0);
}

/* Applied in the order given, as sed's expressions. */
static const struct fold_option steps[] = {
	{ .name = "collapse-recursion", .kind = FOLD_OPT_CALL,
	    .call = collapse,
	    .help = "merge runs of a frame: a;b;b;c -> a;b;c" },
	{ .name = "exclude", .arg = "RE", .kind = FOLD_OPT_CALL,
	    .call = exclude,
	    .help = "drop the stacks with a frame matching RE" },
	{ .name = "focus", .arg = "RE", .kind = FOLD_OPT_CALL, .call = focus,
	    .help = "keep the stacks through a frame matching RE" },
	{ .name = "grep", .arg = "RE", .kind = FOLD_OPT_CALL, .call = grep,
	    .help = "keep the stacks with a frame matching RE" },
	{ .name = "hide", .arg = "RE", .kind = FOLD_OPT_CALL, .call = hide,
	    .help = "remove the frames matching RE, keep the stack" },
	{ .name = "ignore", .arg = "RE", .kind = FOLD_OPT_CALL, .call = ignore,
	    .help = "drop the stacks through a frame matching RE" },
	{ .name = "max-depth", .arg = "N", .kind = FOLD_OPT_CALL,
	    .call = max_depth,
	    .help = "cut every stack after its first N frames" },
	{ .name = "min-count", .arg = "N", .kind = FOLD_OPT_CALL,
	    .call = min_count, .help = "drop the stacks counting less than N" },
	{ .name = "min-share", .arg = "P[%]", .kind = FOLD_OPT_CALL,
	    .call = min_share,
	    .help = "drop the stacks under P percent of the total" },
	{ .name = "prune-from", .arg = "RE", .kind = FOLD_OPT_CALL,
	    .call = prune_from,
	    .help = "cut each stack after its first frame matching RE" },
	{ .name = "replace", .arg = "RE REPL", .args = 2,
	    .kind = FOLD_OPT_CALL, .call = replace,
	    .help = "rewrite what RE matches in names to REPL ($1)" },
	{ .name = "reverse", .kind = FOLD_OPT_CALL, .call = reverse,
	    .help = "reverse every stack, leaf first" },
	{ .name = "root-at", .arg = "RE", .kind = FOLD_OPT_CALL,
	    .call = root_at,
	    .help = "root each stack at its first frame matching RE" },
	{ .name = "strip-addrs", .kind = FOLD_OPT_CALL, .call = strip_addrs,
	    .help = "write each hexadecimal 0x address as 0x..." },
	{ .name = NULL }
};

static const struct fold_option options[] = {
	{ .name = "verbose", .shortname = 'v', .kind = FOLD_OPT_FLAG,
	    .off = offsetof(struct filter, verbose), .value = 1,
	    .help = "tell on standard error what each step kept" },
	{ .name = NULL }
};

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

int
main(int argc, char *argv[])
{
	struct filter flt = { .f = fold_filter_new() };
	struct cmd_common cc = { 0 };
	const struct cmd_optset sets[] = {
		{ "Steps, applied in the order given", steps, &flt },
		{ NULL, options, &flt },
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
	/* files and steps mix: the files are the operands, wherever they are */
	first = cmd_parse(argc, argv, sets, 6, "[file ...]");

	cmd_diag_init(&diag, cc.strict);
	status = cmd_read_folded(argv + first, argc - first, &cc, &diag, &st);
	out = cmd_stdout();
	/* no stack read is an error; what the steps remove is not */
	if (status == EXIT_OK)
		status = cmd_stacks_found(fold_stacks_adds(st));
	/* what could be read is still filtered, as the status says; not
	   what a stopped run added */
	if (st && fold_filter_run(flt.f, &st) < 0) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	} else if (st) {
		if (flt.verbose)
			verbose(flt.f);
		if (unmatched(flt.f, cc.strict) && cc.strict)
			status = EXIT_ERR;
		fold_write_jobs(out, st, cmd_sort_jobs(&cc));
	}
	cmd_folded_free(st);
	fold_filter_free(flt.f);
	return cmd_close(out, status);
}
