/*
 * stackcollapse-otlp: turn OpenTelemetry profiles (OTLP/JSON, as the
 * Collector's file exporter and debug tools write them) into folded
 * stacks.
 *
 *	stackcollapse-otlp profiles.json | flamegraph-svg > prof.svg
 */
#include "formats/otlp.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &otlp_format);
}
