/*
 * The pprof decoder (formats/pprofdec.c) against protobuf-c's unpack, on
 * one of profile.proto's messages picked by the first input byte: both
 * refuse the same bytes, and what they decode packs to the same bytes
 * once the unknown fields protobuf-c keeps are left out.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/pbutil.h"
#include "formats/pprofdec.h"
#include "formats/profile.pb-c.h"

static const ProtobufCMessageDescriptor *const descs[] = {
	&perftools__profiles__profile__descriptor,
	&perftools__profiles__sample__descriptor,
	&perftools__profiles__location__descriptor,
	&perftools__profiles__function__descriptor,
	&perftools__profiles__mapping__descriptor,
	&perftools__profiles__line__descriptor,
	&perftools__profiles__label__descriptor,
	&perftools__profiles__value_type__descriptor,
};

/* Leaves out m's unknown fields, and those of every message in it. */
static void
forget_unknown(ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	unsigned i;
	size_t j, n;
	char *at;

	m->n_unknown_fields = 0;
	for (i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		if (f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		at = (char *)m + f->offset;
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			memcpy(&n, (char *)m + f->quantifier_offset, sizeof n);
			for (j = 0; j < n; j++)
				forget_unknown((*(ProtobufCMessage ***)at)[j]);
		} else if (*(ProtobufCMessage **)at)
			forget_unknown(*(ProtobufCMessage **)at);
	}
}

static uint8_t *
packed(const ProtobufCMessage *m, size_t *n)
{
	uint8_t *p;

	*n = protobuf_c_message_get_packed_size(m);
	p = malloc(*n + 1);
	FUZZ_CHECK(p != NULL, "out of memory");
	FUZZ_CHECK(protobuf_c_message_pack(m, p) == *n, "pack size");
	return p;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const ProtobufCMessageDescriptor *d;
	struct pb_capalloc ca1, ca2;
	struct pb_arena a1, a2;
	ProtobufCMessage *m1, *m2;
	uint8_t *p1, *p2;
	size_t n1, n2;

	if (size == 0)
		return 0;
	d = descs[data[0] % (sizeof descs / sizeof descs[0])];
	data++;
	size--;
	pb_capalloc_init(&ca1, (uint64_t)1 << 30);
	pb_capalloc_init(&ca2, (uint64_t)1 << 30);
	pb_arena_init(&a1, &ca1);
	pb_arena_init(&a2, &ca2);
	m1 = protobuf_c_message_unpack(d, &a1.a, size, data);
	m2 = pprof_unpack(d, &a2.a, size, data);
	FUZZ_CHECK(!m1 == !m2, "%s: protobuf-c %s, pprof_unpack %s", d->name,
	    m1 ? "decodes" : "refuses", m2 ? "decodes" : "refuses");
	if (m1) {
		forget_unknown(m1);
		p1 = packed(m1, &n1);
		p2 = packed(m2, &n2);
		FUZZ_CHECK(n1 == n2 && memcmp(p1, p2, n1) == 0,
		    "%s: decoded differently", d->name);
		free(p1);
		free(p2);
	}
	pb_arena_release(&a1);
	pb_arena_release(&a2);
	return 0;
}
