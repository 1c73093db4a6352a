/*
 * libFuzzer target for the Firefox Profiler reader (formats/firefox.c).
 *
 * Each input is read two ways (as it is; with a thread root, lines and no
 * JIT marks), twice each into fresh tables. Beyond not crashing and not
 * hanging: the same input gives the same result and the same output both
 * times, every table has the properties every reader's has
 * (fuzz_check_table), and the options that only rename frames keep every
 * count: both ways read the same total.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/firefox.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct firefox_opt opts[2] = { { 0 },
	    { .thread_root = 1, .lines = 1, .no_jit = 1 } };

	firefox_detect((const char *)data, size < 65536 ? size : 65536,
	    size <= 65536);
	fuzz_readings(&firefox_format, opts, sizeof opts[0], 2, 2, data, size);
	return 0;
}
