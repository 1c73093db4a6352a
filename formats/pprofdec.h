/*
 * A decoder of pprof profiles (profile.proto) into flat tables: each
 * repeated message of the profile an array of plain structs, the lines of
 * every location one array, the location ids, values and labels of every
 * sample one array each, the strings pointers into the encoded bytes.
 * protobuf-c's unpack is generic: it looks each field up in the message's
 * descriptor, scans every message twice and allocates each one apart, and
 * its structs are trees of pointers. These arrays are kept from one
 * profile to the next, so that a fleet of small profiles allocates
 * nothing after the first few, and are read straight through by the
 * reader and the merger. They are big arrays (err.h): the first
 * profile's, from 16 KiB, share huge pages instead of faulting in small
 * ones.
 *
 * It takes what protobuf-c 1.4 takes and refuses what it refuses (a
 * differential fuzz target holds the two to it): the same framing (a tag
 * of at most 5 bytes, a varint of at most 10, a length of at most 5 and
 * INT_MAX), a known field of the wrong wire type refused, repeated
 * numbers packed or not, a bool true when any byte of its value (its
 * length prefix included) has a low bit set, a singular message replaced
 * by a later one. Unknown fields are skipped. Strings are not copied and
 * keep every byte, a NUL too. protobuf-c still writes profiles. Internal
 * to formats/.
 */
#ifndef FORMATS_PPROFDEC_H
#define FORMATS_PPROFDEC_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "formats/profile.pb-c.h"

/* profile.proto's messages, as the pprof writer and merger build them */
typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/* Profile's fields, by number. */
enum {
	PP_SAMPLE_TYPE = 1, PP_SAMPLE, PP_MAPPING, PP_LOCATION, PP_FUNCTION,
	PP_STRING_TABLE, PP_DROP_FRAMES, PP_KEEP_FRAMES, PP_TIME_NANOS,
	PP_DURATION_NANOS, PP_PERIOD_TYPE, PP_PERIOD, PP_COMMENT,
	PP_DEFAULT_SAMPLE_TYPE, PP_DOC_URL
};

/* A string of the table: its bytes, in the profile's. */
struct pp_str {
	const char *p;
	size_t n;
};

struct pp_valuetype {
	int64_t type, unit;
};

struct pp_label {
	int64_t key, str, num, num_unit;
};

/* Mappings, locations and functions begin with their ids. */
struct pp_mapping {
	uint64_t id, memory_start, memory_limit, file_offset;
	int64_t filename, build_id;
	protobuf_c_boolean has_functions, has_filenames, has_line_numbers,
	    has_inline_frames;
};

struct pp_line {
	uint64_t function_id;
	int64_t line, column;
};

struct pp_location {
	uint64_t id, mapping_id, address;
	size_t line0, n_line;	/* its lines: line0.. of the lines */
	protobuf_c_boolean is_folded;
};

struct pp_function {
	uint64_t id;
	int64_t name, system_name, filename, start_line;
};

/* Where a sample's location ids, values and labels are in theirs. */
struct pp_sample {
	size_t loc0, n_location_id;
	size_t val0, n_value;
	size_t lab0, n_label;
};

#define PP_ARRAY(type) struct { type *p; size_t n, cap; }

/* Repeated numbers: the int64 ones too, read as (int64_t)p[i]. */
struct pp_nums {
	uint64_t *p;
	size_t n, cap;
};

/*
 * A decoded profile. Every array element is charged to a budget of max
 * bytes: over is set when one was refused, so that a caller can tell
 * "too large" from "malformed".
 */
struct pprof_dec {
	PP_ARRAY(struct pp_valuetype) sample_type;
	PP_ARRAY(struct pp_sample) sample;
	PP_ARRAY(struct pp_mapping) mapping;
	PP_ARRAY(struct pp_location) location;
	PP_ARRAY(struct pp_function) function;
	PP_ARRAY(struct pp_str) string_table;
	struct pp_nums comment;
	PP_ARRAY(struct pp_line) line;		/* of the locations */
	struct pp_nums location_id, value;	/* of the samples */
	PP_ARRAY(struct pp_label) label;
	int64_t drop_frames, keep_frames, time_nanos, duration_nanos;
	int64_t period, default_sample_type, doc_url;
	struct pp_valuetype period_type;
	int has_period_type;
	/* a field numbered 0 was met (a tag of several bytes): protobuf-c
	   skips it as unknown, pb_profile_check refuses it */
	int zero_num;
	uint64_t used, max;
	int over;
};

/*
 * Empties d for a profile decoded within max bytes; keeps its arrays,
 * none of them NULL.
 */
void pprof_dec_reset(struct pprof_dec *d, uint64_t max);
void pprof_dec_free(struct pprof_dec *d);

/*
 * Decodes p[0..n), a whole Profile, into d (reset before). The strings
 * point into p. Returns 0, or -1 when it is malformed or d->over.
 */
int pprof_decode(struct pprof_dec *d, const uint8_t *p, size_t n);

/*
 * Decodes p[0..n), the payload of Profile's field num (a sample type,
 * sample, mapping, location, function, string or the period type), as
 * the whole profile's decoding would: appended to its array (the period
 * type replaced). Returns 0, or -1 as pprof_decode does.
 */
int pprof_decode_field(struct pprof_dec *d, unsigned num, const uint8_t *p,
    size_t n);

struct pb_idmap;

/*
 * The id maps (pbutil.h) of d's mappings, locations and functions, for
 * messages naming file: 0, or -1 with a message (an id 0, or repeated).
 * pb_idmap_free frees them either way.
 */
int pprof_dec_idmaps(const struct pprof_dec *d, const char *file,
    struct pb_idmap *maps, struct pb_idmap *locs, struct pb_idmap *funcs);

/*
 * Drops the samples decoded so far, their location ids, values and
 * labels: a reader that takes them one at a time keeps its memory.
 */
void pprof_dec_drop_samples(struct pprof_dec *d);

/*
 * Drops the sample types, mappings, locations, their lines and the
 * functions, their memory too when release is set: a reader done with
 * them keeps the strings for the samples.
 */
void pprof_dec_drop_tables(struct pprof_dec *d, int release);

#endif
