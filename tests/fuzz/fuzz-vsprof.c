/*
 * stackcollapse-vsprof's reader of Visual Studio call tree CSV; the
 * properties are fuzz_converter's.
 */
#include "tests/fuzz/fuzz.h"
#include "formats/vsprof.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vsprof_opt opt = VSPROF_OPT_INIT;
	unsigned flags = size ? data[0] : 0;

	if (size) {
		data++;
		size--;
	}
	(void)flags;
	fuzz_converter("vsprof", &opt, data, size);
	return 0;
}
