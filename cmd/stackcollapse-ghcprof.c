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
		{ "time", &opt.ghcprof.source, GHCPROF_TIME },
		{ "ticks", &opt.ghcprof.source, GHCPROF_TICKS },
		{ "bytes", &opt.ghcprof.source, GHCPROF_BYTES },
		{ NULL, NULL, 0 }
	};

	return cmd_converter(argc, argv, "ghcprof", &opt, flags, "line",
	    "lines");
}
