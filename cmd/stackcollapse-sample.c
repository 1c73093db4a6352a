/*
 * stackcollapse-sample: turn the call graph of a macOS sample(1) report
 * into folded stacks, as FlameGraph's stackcollapse-sample.awk does.
 *
 *	sample Safari 10 -file safari.txt
 *	stackcollapse-sample safari.txt | flamegraph-svg > safari.svg
 */
#include <stdlib.h>

#include "formats/collapse.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	const struct cmd_flag flags[] = {
		{ .name = "no-modules", .set = &opt.sample.no_modules, .value = 1 },
		{ .name = NULL }
	};

	return cmd_converter(argc, argv, "sample", &opt, flags, "line", "lines");
}
