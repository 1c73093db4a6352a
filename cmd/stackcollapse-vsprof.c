/*
 * stackcollapse-vsprof: turn the call tree that the Visual Studio
 * profiler exports as CSV into folded stacks counted in calls.
 *
 *	stackcollapse-vsprof CallTreeSummary.csv | flamegraph-svg --countname calls > calls.svg
 */
#include "formats/vsprof.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &vsprof_format);
}
