/*
 * stackcollapse-chrome-tracing: turn Chrome trace-event JSON (DevTools'
 * Performance panel, chrome://tracing, chromium --trace-startup, node
 * --trace-events-enabled) into folded stacks: the sampled CPU profiles
 * it holds, or its duration events per thread.
 *
 *	stackcollapse-chrome-tracing Trace-20261124T101500.json.gz |
 *	    flamegraph-svg --colors js > page.svg
 */
#include "formats/trace.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &trace_format);
}
