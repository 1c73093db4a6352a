/*
 * stackcollapse-vtune: turn the "Top-down Tree" CSV report of Intel
 * VTune Profiler into folded stacks counted in milliseconds of CPU time.
 *
 *	vtune -report top-down -call-stack-mode all -column="CPU Time:Self",Module \
 *	    -format csv -csv-delimiter comma -r r000hs | stackcollapse-vtune |
 *	    flamegraph-svg --countname ms > cpu.svg
 */
#include <stdlib.h>

#include "formats/collapse.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	const struct cmd_flag flags[] = {
		{ .name = "no-modules", .set = &opt.vtune.no_modules, .value = 1 },
		{ .name = NULL }
	};

	return cmd_converter(argc, argv, "vtune", &opt, flags, "line", "lines");
}
