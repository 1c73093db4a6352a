/*
 * stackcollapse-chrome: turn V8 CPU profiles (.cpuprofile JSON from
 * `node --cpu-prof`, DevTools or the DevTools protocol) into folded
 * stacks, counting samples or microseconds.
 *
 *	node --cpu-prof app.js && stackcollapse-chrome CPU.*.cpuprofile |
 *	    flamegraph-svg --colors js > cpu.svg
 */
#include "formats/chrome.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &chrome_format);
}
