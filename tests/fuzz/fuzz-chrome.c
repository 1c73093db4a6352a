/*
 * libFuzzer target for the .cpuprofile reader (formats/chrome.c).
 *
 * Each input is read twice, counting samples and then microseconds
 * (--time --lines), each time into a fresh table. Beyond not crashing:
 * the output is the same bytes when written twice from two tables; every
 * written line parses back as a folded line with a count; the table
 * total equals what the reader says it added; counting samples, that is
 * the number of samples less those dropped.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/chrome.h"

/* Reads data into a fresh table; returns it (and its frames) or NULL. */
static struct fold_stacks *
load(const uint8_t *data, size_t size, const struct chrome_opt *opt,
    struct chrome_stats *stats)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_stacks *st = fold_stacks_new(fold_intern_new(), 1);
	void *r = chrome_format.open(opt, st);
	struct fold_in *in = fuzz_in(data, size);
	struct fold_count total;
	int rc;

	rc = chrome_format.read(r, in, &diag);
	fold_in_close(in);
	*stats = *chrome_reader_stats(r);
	chrome_format.close(r);
	if (rc == -2)
		return st;
	FUZZ_CHECK(fold_stacks_total(st, 0, &total) == 0, "total: %s",
	    fold_err());
	FUZZ_CHECK(fold_count_cmp(&total, &stats->total) == 0,
	    "the table does not hold what the reader says it added");
	FUZZ_CHECK(opt->time || rc != 0 ||
	    total.v.u == stats->samples - stats->dropped,
	    "counting samples, some were lost unreported");
	return st;
}

static void
drop(struct fold_stacks *st)
{
	struct fold_intern *f = fold_stacks_frames(st);

	fold_stacks_free(st);
	fold_intern_free(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct chrome_opt opts[2] = { { 0 },
	    { .time = 1, .lines = 1 } };
	struct chrome_stats s1, s2;
	struct fold_stacks *a, *b;
	struct fold_count c;
	size_t la, lb, sl;
	char *ta, *tb, *p, *nl;
	int k;

	chrome_detect((const char *)data, size < 65536 ? size : 65536,
	    size <= 65536);
	for (k = 0; k < 2; k++) {
		a = load(data, size, &opts[k], &s1);
		b = load(data, size, &opts[k], &s2);
		ta = fuzz_folded(a, &la);
		tb = fuzz_folded(b, &lb);
		FUZZ_CHECK(la == lb && memcmp(ta, tb, la) == 0,
		    "the same input read twice gives other output");
		for (p = ta; p < ta + la; p = nl + 1) {
			nl = memchr(p, '\n', ta + la - p);
			FUZZ_CHECK(nl && fold_parse_line(p, nl - p, &sl, &c, 1)
			    == 1, "not a folded line with one count");
		}
		free(ta);
		free(tb);
		drop(a);
		drop(b);
	}
	return 0;
}
