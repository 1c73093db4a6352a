/*
 * stackcollapse-vsprof: turn the call tree that the Visual Studio
 * profiler exports as CSV into folded stacks counted in calls.
 *
 *	stackcollapse-vsprof CallTreeSummary.csv | flamegraph-svg --countname calls > calls.svg
 */
#include <stdlib.h>

#include "formats/collapse.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	const struct cmd_flag flags[] = {
		{ .name = NULL }
	};

	return cmd_converter(argc, argv, "vsprof", &opt, flags, "line", "lines");
}
