/*
 * stackcollapse-vtune's reader of VTune top-down CSV, the first byte
 * picking --no-modules; the properties are fuzz_converter's.
 */
#include "tests/fuzz/fuzz.h"
#include "formats/vtune.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vtune_opt opt = VTUNE_OPT_INIT;
	unsigned flags = size ? data[0] : 0;

	if (size) {
		data++;
		size--;
	}
	opt.no_modules = flags & 1;
	fuzz_converter("vtune", &opt, data, size);
	return 0;
}
