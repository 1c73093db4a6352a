/*
 * pprof2folded: read pprof profiles (gzipped or raw protobuf, from Go,
 * gperftools, Node, Java agents ...) and write their samples as folded
 * stacks, several profiles with the same sample types merged.
 *
 *	curl -s host:6060/debug/pprof/profile?seconds=30 | pprof2folded |
 *	    flamegraph-svg > cpu.svg
 */
#include "formats/pprof.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &pprof_format);
}
