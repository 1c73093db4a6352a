/*
 * stackcollapse-ghcprof: turn the call tree of a GHC profiling report
 * (.prof) into folded stacks counted by %time, ticks or bytes.
 *
 *	./prog +RTS -P -RTS && stackcollapse-ghcprof --bytes prog.prof |
 *	    flamegraph-svg --colors mem --countname bytes > alloc.svg
 */
#include <stdlib.h>

#include "formats/collapse.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	const struct cmd_flag flags[] = {
		{ .name = "time", .set = &opt.ghcprof.source, .value = GHCPROF_TIME },
		{ .name = "ticks", .set = &opt.ghcprof.source, .value = GHCPROF_TICKS },
		{ .name = "bytes", .set = &opt.ghcprof.source, .value = GHCPROF_BYTES },
		{ .name = NULL }
	};

	return cmd_converter(argc, argv, "ghcprof", &opt, flags, "line",
	    "lines");
}
