/*
 * stackcollapse-jfr's reader of `jfr print` text, the options picked by
 * the first input byte; the properties are fuzz_converter's.
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
	unsigned flags = size ? data[0] : 0;

	if (size) {
		data++;
		size--;
	}
	opt.event = events[flags & 3];
	opt.weight = flags & 4 ? "count" : NULL;
	opt.signatures = flags >> 3 & 1;
	opt.lines = flags >> 4 & 1;
	opt.threads = flags >> 5 & 1;
	fuzz_converter("jfr", &opt, data, size);
	return 0;
}
