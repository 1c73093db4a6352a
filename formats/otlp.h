/*
 * OpenTelemetry profiles (the OTLP profiles signal) to folded stacks.
 *
 * Read as OTLP/JSON, the proto3 JSON of an ExportProfilesServiceRequest
 * or ProfilesData (opentelemetry.proto.profiles.v1development), or as
 * its protobuf (formats/otlp.proto, v1.10.0's field numbers), in the
 * layout of opentelemetry-proto v1.8.0 and later: one "dictionary" for
 * the whole request (stringTable, functionTable, locationTable,
 * mappingTable, stackTable), and profiles under resourceProfiles[] and
 * scopeProfiles[], each of one sampleType, whose samples name a stack
 * of the dictionary and carry their values:
 *
 *	{"resourceProfiles":[{"scopeProfiles":[{"profiles":[{
 *	   "sampleType":{"typeStrindex":1,"unitStrindex":2},
 *	   "samples":[{"stackIndex":1,"values":["4"]}]}]}]}],
 *	 "dictionary":{"stringTable":["","cpu","nanoseconds","main"],
 *	   "functionTable":[{},{"nameStrindex":3}],
 *	   "locationTable":[{},{"lines":[{"functionIndex":1}]}],
 *	   "stackTable":[{},{"locationIndices":[1]}]}}
 *
 * A stack's locations are leaf first, a location's lines innermost
 * first; frames are named as pprof2folded names pprof's (a function's
 * name, else its system name, else the location's mapping and offset or
 * address). The layouts before v1.8.0 (tables in each profile, or
 * samples that slice a list of locations) are refused by name.
 */
#ifndef FORMATS_OTLP_H
#define FORMATS_OTLP_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"

#define OTLP_MAX_SIZE ((uint64_t)4 << 30)

struct otlp_opt {
	const char *sample_index;	/* a sample type's name or number */
	int lines;			/* ":LINE" after each function */
	int filenames;			/* " FILE" after each function */
	/* attribute keys whose "KEY=VALUE" frames go at the root (first
	   key outermost) or at the leaf (last key innermost) */
	const char *const *tag_root;
	size_t ntag_root;
	const char *const *tag_leaf;
	size_t ntag_leaf;
	/* "KEY=REGEX" (pcre2): keep samples with an attribute KEY whose
	   value matches every focus, drop those where any ignore matches */
	const char *const *tag_focus;
	size_t ntag_focus;
	const char *const *tag_ignore;
	size_t ntag_ignore;
	uint64_t max_size;
};

#define OTLP_OPT_INIT { 0 }

extern const struct format otlp_format;
extern const struct format_id otlp_id;

/* 2 when head[0..n) is OTLP/JSON of profiles, else 0. */
int otlp_detect(const char *head, size_t n, int eof);

#endif
