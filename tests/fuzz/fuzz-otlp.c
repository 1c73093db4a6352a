/*
 * libFuzzer target for the OTLP profiles reader (formats/otlp.c).
 *
 * Each input is read three ways (as it is; with lines, file names and
 * attributes at the root and the leaf; through attribute filters),
 * twice each into fresh tables. Beyond not crashing and not hanging: the
 * same input gives the same result and the same output both times, every
 * table has the properties every reader's has (fuzz_check_table), and
 * the options that only rename or add frames keep every count (the
 * first two ways have the same total).
 */
#include "tests/fuzz/fuzz.h"

#include "formats/otlp.h"

static const char *const tags[] = { "service.name", "endpoint" };
static const char *const focus[] = { "endpoint=^/" };
static const char *const ignore[] = { "service.name=a|b" };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct otlp_opt opts[3] = { { 0 },
	    { .lines = 1, .filenames = 1, .tag_root = tags, .ntag_root = 1,
	      .tag_leaf = tags + 1, .ntag_leaf = 1 },
	    { .tag_focus = focus, .ntag_focus = 1, .tag_ignore = ignore,
	      .ntag_ignore = 1 } };
	struct fold_stacks *a, *b;
	struct fold_count tot[3];
	size_t la, lb;
	char *ta, *tb;
	int k, rc[3], rc2;

	otlp_detect((const char *)data, size < 65536 ? size : 65536,
	    size <= 65536);
	for (k = 0; k < 3; k++) {
		a = fuzz_load(&otlp_format, data, size, &opts[k], &rc[k]);
		b = fuzz_load(&otlp_format, data, size, &opts[k], &rc2);
		FUZZ_CHECK(rc[k] == rc2, "the same input read twice fails once");
		ta = fuzz_check_table(a, &la);
		tb = fuzz_folded(b, &lb);
		FUZZ_CHECK(la == lb && memcmp(ta, tb, la) == 0,
		    "the same input read twice gives other output");
		FUZZ_CHECK(fold_stacks_total(a, 0, &tot[k]) == 0,
		    "a total out of range");
		free(ta);
		free(tb);
		fuzz_drop(a);
		fuzz_drop(b);
	}
	if (rc[0] == 0 && rc[1] == 0)
		FUZZ_CHECK(fold_count_cmp(&tot[0], &tot[1]) == 0,
		    "names or attribute frames changed the total");
	return 0;
}
