/*
 * stackcollapse-sample: turn the call graph of a macOS sample(1) report
 * into folded stacks, as FlameGraph's stackcollapse-sample.awk does.
 *
 *	sample Safari 10 -file safari.txt
 *	stackcollapse-sample safari.txt | flamegraph-svg > safari.svg
 */
#include "formats/sample.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &sample_format);
}
