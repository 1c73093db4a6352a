/*
 * libFuzzer target for the Chrome trace-event reader (formats/trace.c).
 *
 * Each input is read three ways (samples by default, durations with a
 * thread root, samples in microseconds with lines), twice each into
 * fresh tables. Beyond not crashing and not hanging: the same input gives
 * the same result and the same output both times, and every table has
 * the properties every reader's has (fuzz_check_table).
 */
#include "tests/fuzz/fuzz.h"

#include "formats/trace.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct trace_opt opts[3] = { { 0 },
	    { .mode = TRACE_DURATIONS, .thread_root = 1 },
	    { .mode = TRACE_SAMPLES, .time = 1, .lines = 1,
	      .thread_root = 1 } };
	struct fold_stacks *a, *b;
	size_t la, lb;
	char *ta, *tb;
	int k, rc, rc2;

	trace_detect((const char *)data, size < 65536 ? size : 65536,
	    size <= 65536);
	for (k = 0; k < 3; k++) {
		a = fuzz_load(&trace_format, data, size, &opts[k], &rc);
		b = fuzz_load(&trace_format, data, size, &opts[k], &rc2);
		FUZZ_CHECK(rc == rc2, "the same input read twice fails once");
		ta = fuzz_check_table(a, &la);
		tb = fuzz_folded(b, &lb);
		FUZZ_CHECK(la == lb && memcmp(ta, tb, la) == 0,
		    "the same input read twice gives other output");
		free(ta);
		free(tb);
		fuzz_drop(a);
		fuzz_drop(b);
	}
	return 0;
}
