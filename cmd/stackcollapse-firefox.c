/*
 * stackcollapse-firefox: turn Firefox Profiler files (the Gecko profiles
 * Firefox writes, and the processed profiles profiler.firefox.com saves
 * and samply writes) into folded stacks.
 *
 *	MOZ_PROFILER_STARTUP=1 MOZ_PROFILER_SHUTDOWN=prof.json firefox
 *	stackcollapse-firefox prof.json | flamegraph-svg > prof.svg
 */
#include "formats/firefox.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &firefox_format);
}
