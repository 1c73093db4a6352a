/*
 * stackcollapse-jfr's reader of `jfr print` text, the options picked by
 * the first input byte; the properties are fuzz_converter's.
 */
#include "tests/fuzz/fuzz.h"

static const char *const events[] = {
	NULL, "ObjectAllocationSample", "JavaMonitorEnter", "ThreadPark",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	unsigned flags = size ? data[0] : 0;

	if (size) {
		data++;
		size--;
	}
	opt.jfr.event = events[flags & 3];
	opt.jfr.weight = flags & 4 ? "count" : NULL;
	opt.jfr.signatures = flags >> 3 & 1;
	opt.jfr.lines = flags >> 4 & 1;
	opt.jfr.threads = flags >> 5 & 1;
	fuzz_converter("jfr", &opt, data, size);
	return 0;
}
