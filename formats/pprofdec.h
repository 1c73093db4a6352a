/*
 * A decoder of pprof's messages (profile.proto) into protobuf-c's
 * generated structs: what protobuf_c_message_unpack gives, at a fraction
 * of its cost. protobuf-c's unpack is generic: it looks each field up in
 * the message's descriptor, scans every message twice and allocates each
 * one apart. On a small real profile (30 KB decoded) it took 108 us of
 * the 248 us a file cost pprofmerge; this one knows the eight messages
 * and took 51 us. protobuf-c still writes profiles.
 *
 * It takes what protobuf-c 1.4 takes and refuses what it refuses (a
 * differential fuzz target holds the two to it): the same framing (a tag
 * of at most 5 bytes, a varint of at most 10, a length of at most 5 and
 * INT_MAX), a known field of the wrong wire type refused, repeated
 * numbers packed or not, a bool true when any byte of its value (its
 * length prefix included) has a low bit set, a singular message replaced
 * by a later one, strings copied and NUL-terminated. Unknown fields are
 * skipped, not kept. Internal to formats/.
 */
#ifndef FORMATS_PPROFDEC_H
#define FORMATS_PPROFDEC_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "formats/profile.pb-c.h"

/* profile.proto's messages, as the pprof reader, merger and writer
   call them */
typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/*
 * Decodes p[0..n) as a message of descriptor d, one of profile.proto's
 * (any other is handed to protobuf-c), allocating from a. Returns the
 * message, or NULL when it is malformed or an allocation was refused.
 * Its parts are allocated together: free it with a's arena, never with
 * protobuf_c_message_free_unpacked.
 */
void *pprof_unpack(const ProtobufCMessageDescriptor *d,
    ProtobufCAllocator *a, size_t n, const uint8_t *p);

#endif
