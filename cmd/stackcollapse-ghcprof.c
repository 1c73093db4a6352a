/*
 * stackcollapse-ghcprof: turn the call tree of a GHC profiling report
 * (.prof) into folded stacks counted by %time, ticks or bytes.
 *
 *	./prog +RTS -P -RTS && stackcollapse-ghcprof --bytes prog.prof |
 *	    flamegraph-svg --colors mem --countname bytes > alloc.svg
 */
#include "formats/ghcprof.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &ghcprof_format);
}
