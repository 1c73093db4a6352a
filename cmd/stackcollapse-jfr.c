/*
 * stackcollapse-jfr: turn the text of `jfr print` (Java Flight Recorder)
 * into folded stacks: CPU samples, allocations weighed by bytes, or lock
 * and park events weighed by nanoseconds.
 *
 *	jfr print --stack-depth 2048 rec.jfr | stackcollapse-jfr |
 *	    flamegraph-svg --colors java > cpu.svg
 */
#include "formats/jfr.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &jfr_format);
}
