/*
 * stackcollapse-speedscope: turn speedscope JSON files (py-spy record
 * -f speedscope, rbspy, pyinstrument, speedscope's own export) into folded
 * stacks, times in nanoseconds.
 *
 *	py-spy record -f speedscope -o prof.json -- python3 app.py
 *	stackcollapse-speedscope prof.json | flamegraph-svg > prof.svg
 */
#include "formats/speedscope.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &speedscope_format);
}
