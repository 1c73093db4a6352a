/*
 * foldfilter's step list, its pcre2 patterns compiled from the input, run
 * over a folded profile. The input is the steps, one a line up to the
 * first empty line ("g^main" : a letter naming the step, then the
 * pattern; "r(a+)b\t$1" : a replacement after a tab; "d3" : a number),
 * then the profile. Properties: no step adds counts; each step starts
 * from what the previous one left; the steps that only reshape stacks
 * conserve the total; the result is valid folded output.
 */
#include <math.h>

#include "tests/fuzz/fuzz.h"

#include "libfold/filter.h"

static const struct {
	char letter;
	enum fold_step step;
	int conserves;
} steps[] = {
	{ 'g', FOLD_STEP_GREP, 0 },
	{ 'x', FOLD_STEP_EXCLUDE, 0 },
	{ 'f', FOLD_STEP_FOCUS, 0 },
	{ 'i', FOLD_STEP_IGNORE, 0 },
	{ 'h', FOLD_STEP_HIDE, 0 },
	{ 'a', FOLD_STEP_ROOT_AT, 0 },
	{ 'p', FOLD_STEP_PRUNE_FROM, 1 },
	{ 'r', FOLD_STEP_REPLACE, 0 },
	{ 'c', FOLD_STEP_COLLAPSE_RECURSION, 1 },
	{ 'd', FOLD_STEP_MAX_DEPTH, 1 },
	{ 'm', FOLD_STEP_MIN_COUNT, 0 },
	{ 's', FOLD_STEP_MIN_SHARE, 0 },
	{ 'o', FOLD_STEP_STRIP_ADDRS, 1 },
	{ 'v', FOLD_STEP_REVERSE, 1 },
};

#define MAXSTEPS 8

/*
 * fold_count_cmp, exact for integers; sums with a fraction are doubles,
 * added in another order by each step, so they agree to rounding only.
 */
static int
cmp_rounded(const struct fold_count *a, const struct fold_count *b)
{
	double x, y;

	if (!a->frac && !b->frac)
		return fold_count_cmp(a, b);
	x = fold_count_val(a);
	y = fold_count_val(b);
	if (fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y)))
		return 0;
	return x < y ? -1 : 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	const struct fold_filter_stat *stat;
	int conserves[MAXSTEPS];
	struct fold_filter *f;
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct fold_count total;
	struct fold_in *in;
	const uint8_t *p = data, *e = data + size, *nl;
	size_t nsteps = 0, i, k, len;
	char line[512], *tab, *text;

	f = fold_filter_new();
	while (p < e && *p != '\n' && nsteps < MAXSTEPS) {
		nl = memchr(p, '\n', e - p);
		if (!nl)
			nl = e;
		len = nl - p;
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		p = nl < e ? nl + 1 : e;
		for (k = 0; k < sizeof steps / sizeof *steps; k++)
			if (steps[k].letter == line[0])
				break;
		if (k == sizeof steps / sizeof *steps || strlen(line) != len)
			continue;
		tab = strchr(line + 1, '\t');
		if (tab)
			*tab++ = '\0';
		if (fold_filter_add(f, steps[k].step, line + 1, tab ? tab : "",
		    strtod(line + 1, NULL) >= 0 && strtod(line + 1, NULL) < 1e9 ?
		    strtod(line + 1, NULL) : 1, line) < 0)
			continue;
		conserves[nsteps++] = steps[k].conserves &&
		    !(steps[k].step == FOLD_STEP_MAX_DEPTH &&
		    strtod(line + 1, NULL) < 1);
	}
	if (p < e && *p == '\n')
		p++;
	fr = fold_intern_new();
	st = fold_stacks_new(fr, 1);
	in = fuzz_in(p, e - p);
	diag.limit = 0;
	if (fold_read(in, st, NULL, &diag) < 0 ||
	    fold_stacks_total(st, 0, &total) < 0 ||
	    fold_filter_run(f, &st) < 0)
		goto done;
	stat = fold_filter_stats(f, &k);
	FUZZ_CHECK(k == nsteps, "%zu steps, %zu statistics", nsteps, k);
	for (i = 0; i < k; i++) {
		FUZZ_CHECK(cmp_rounded(&stat[i].count_out, &stat[i].count_in) <=
		    0, "step %s added counts", stat[i].label);
		FUZZ_CHECK(i > 0 || cmp_rounded(&stat[i].count_in, &total) == 0,
		    "the first step did not start from the total");
		FUZZ_CHECK(i == 0 || cmp_rounded(&stat[i].count_in,
		    &stat[i - 1].count_out) == 0,
		    "step %s did not start where the previous one ended",
		    stat[i].label);
		FUZZ_CHECK(!conserves[i] || total.frac ||
		    fold_count_cmp(&stat[i].count_out, &stat[i].count_in) == 0,
		    "step %s lost counts", stat[i].label);
	}
	text = fuzz_check_table(st, &len);
	free(text);
done:
	fold_in_close(in);
	fold_stacks_free(st);
	fold_intern_free(fr);
	fold_filter_free(f);
	return 0;
}
