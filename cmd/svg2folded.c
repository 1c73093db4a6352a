/*
 * svg2folded: recover the folded stacks that drew a flame graph SVG
 * (flamegraph.pl, inferno or flamegraph-svg), to filter, diff or render
 * it again.
 *
 *	svg2folded old.svg | foldfilter --focus parse | flamegraph-svg > new.svg
 */
#include "formats/svgread.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &svgread_format);
}
