/*
 * stackcollapse-ghcprof's reader of GHC .prof reports, the first byte
 * picking the column (time, ticks, bytes); the properties are
 * fuzz_converter's.
 */
#include "tests/fuzz/fuzz.h"
#include "formats/ghcprof.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ghcprof_opt opt = GHCPROF_OPT_INIT;
	unsigned flags = size ? data[0] : 0;

	if (size) {
		data++;
		size--;
	}
	opt.source = flags % 3;
	fuzz_converter("ghcprof", &opt, data, size);
	return 0;
}
