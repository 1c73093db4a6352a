/*
 * stackcollapse-chrome: turn V8 CPU profiles (.cpuprofile JSON from
 * `node --cpu-prof`, DevTools or the DevTools protocol) into folded
 * stacks, counting samples or microseconds.
 *
 *	node --cpu-prof app.js && stackcollapse-chrome CPU.*.cpuprofile |
 *	    flamegraph-svg --colors js > cpu.svg
 */
#include <stdlib.h>

#include "formats/collapse.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	const struct cmd_flag flags[] = {
		{ .name = "lines", .set = &opt.chrome.lines, .value = 1 },
		{ .name = "max-size", .bytes = &opt.chrome.max_size },
		{ .name = "time", .set = &opt.chrome.time, .value = 1 },
		{ .name = NULL }
	};

	return cmd_converter(argc, argv, "chrome", &opt, flags, "entry", "entries");
}
