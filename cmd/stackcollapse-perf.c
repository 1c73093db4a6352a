/*
 * stackcollapse-perf: turn `perf script` output into folded stacks, one
 * line per unique stack with its total period (or sample count).
 *
 *	perf record -F 99 -a -g -- sleep 10
 *	perf script | stackcollapse-perf | flamegraph-svg > cpu.svg
 */
#include "formats/perf.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &perf_format);
}
