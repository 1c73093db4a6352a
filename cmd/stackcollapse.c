/*
 * stackcollapse: turn a profile of any format this toolkit reads into
 * folded stacks, telling each input's format from its first bytes and
 * converting it with the same reader as the tool of that format.
 *
 *	perf script | stackcollapse | flamegraph-svg > cpu.svg
 */
#include <stddef.h>

#include "formats/collapse.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert_any(argc, argv, collapse_formats,
	    collapse_nformats);
}
