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

	otlp_detect((const char *)data, size < 65536 ? size : 65536,
	    size <= 65536);
	fuzz_readings(&otlp_format, opts, sizeof opts[0], 3, 2, data, size);
	return 0;
}
