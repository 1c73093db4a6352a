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

	trace_detect((const char *)data, size < 65536 ? size : 65536,
	    size <= 65536);
	fuzz_readings(&trace_format, opts, sizeof opts[0], 3, 0, data, size);
	return 0;
}
