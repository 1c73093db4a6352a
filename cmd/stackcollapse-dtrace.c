/*
 * stackcollapse-dtrace: turn the stack aggregations that dtrace prints
 * (@[stack()], @[ustack()], @[jstack()]) into folded stacks, as
 * FlameGraph's stackcollapse.pl does.
 *
 *	dtrace -x ustackframes=100 -n 'profile-97 /pid == 1234/ {
 *	    @[ustack()] = count(); } tick-60s { exit(0); }' -o out.stacks
 *	stackcollapse-dtrace out.stacks | flamegraph-svg > cpu.svg
 */
#include <stdlib.h>

#include "formats/collapse.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	const struct cmd_flag flags[] = {
		{ .name = "includeoffset", .set = &opt.dtrace.includeoffset, .value = 1 },
		{ .name = NULL }
	};

	return cmd_converter(argc, argv, "dtrace", &opt, flags, "line or stack",
	    "lines or stacks");
}
