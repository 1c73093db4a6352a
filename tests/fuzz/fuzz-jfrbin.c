/*
 * stackcollapse-jfr's reader of JFR recordings (formats/jfrbin.c), the
 * options picked by the recording's length; the properties are
 * fuzz_converter's. Inputs that do not begin a recording are left to
 * fuzz-jfr. Recordings are large (a JDK's metadata alone is tens of
 * KiB): tests/fuzz/jfrbin.max_len lets inputs be.
 */
#include "tests/fuzz/fuzz.h"
#include "formats/jfr.h"

static const char *const events[] = {
	NULL, "ObjectAllocationSample", "JavaMonitorEnter", "ThreadPark",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jfr_opt opt = JFR_OPT_INIT;

	if (size < 4 || memcmp(data, "FLR\0", 4) != 0)
		return 0;
	opt.event = events[size & 3];
	opt.threads = size >> 2 & 1;
	opt.lines = size >> 3 & 1;
	opt.signatures = size >> 4 & 1;
	fuzz_converter("jfr", &opt, data, size);
	return 0;
}
