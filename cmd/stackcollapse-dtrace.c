/*
 * stackcollapse-dtrace: turn the stack aggregations that dtrace prints
 * (@[stack()], @[ustack()], @[jstack()]) into folded stacks, as
 * FlameGraph's stackcollapse.pl does.
 *
 *	dtrace -x ustackframes=100 -n 'profile-97 /pid == 1234/ {
 *	    @[ustack()] = count(); } tick-60s { exit(0); }' -o out.stacks
 *	stackcollapse-dtrace out.stacks | flamegraph-svg > cpu.svg
 */
#include "formats/dtrace.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &dtrace_format);
}
