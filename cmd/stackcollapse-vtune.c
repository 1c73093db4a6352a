/*
 * stackcollapse-vtune: turn the "Top-down Tree" CSV report of Intel
 * VTune Profiler into folded stacks counted in milliseconds of CPU time.
 *
 *	vtune -report top-down -call-stack-mode all -column="CPU Time:Self",Module \
 *	    -format csv -csv-delimiter comma -r r000hs | stackcollapse-vtune |
 *	    flamegraph-svg --countname ms > cpu.svg
 */
#include "formats/vtune.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &vtune_format);
}
