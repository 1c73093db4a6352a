/*
 * The pprof decoder (formats/pprofdec.c) against protobuf-c's unpack: a
 * whole Profile, or one of its message fields as the reader decodes them
 * one at a time, picked by the first input byte. Both refuse the same
 * bytes, and what they decode packs to the same bytes once the decoded
 * tables are built back into protobuf-c's structs and the unknown fields
 * protobuf-c keeps are left out.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/pbutil.h"
#include "formats/pprofdec.h"
#include "formats/profile.pb-c.h"

static const struct {
	unsigned num;		/* 0: the whole profile */
	const ProtobufCMessageDescriptor *d;
} kinds[] = {
	{ 0, &perftools__profiles__profile__descriptor },
	{ PP_SAMPLE_TYPE, &perftools__profiles__value_type__descriptor },
	{ PP_SAMPLE, &perftools__profiles__sample__descriptor },
	{ PP_MAPPING, &perftools__profiles__mapping__descriptor },
	{ PP_LOCATION, &perftools__profiles__location__descriptor },
	{ PP_FUNCTION, &perftools__profiles__function__descriptor },
	{ PP_PERIOD_TYPE, &perftools__profiles__value_type__descriptor },
};

static ProtobufCAllocator *al;

static void *
get(size_t n, size_t size)
{
	void *p = n ? al->alloc(al->allocator_data, n * size) : NULL;

	FUZZ_CHECK(!n || p, "out of memory");
	return p;
}

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

/* The decoded tables, built back into protobuf-c's structs. */
static ValueType *
valuetype(const struct pp_valuetype *x)
{
	ValueType *m = get(1, sizeof *m);

	perftools__profiles__value_type__init(m);
	m->type = x->type;
	m->unit = x->unit;
	return m;
}

static Sample *
sample(const struct pprof_dec *d, const struct pp_sample *x)
{
	Sample *m = get(1, sizeof *m);
	size_t i;

	perftools__profiles__sample__init(m);
	m->n_location_id = x->n_location_id;
	m->location_id = get(x->n_location_id, sizeof *m->location_id);
	for (i = 0; i < x->n_location_id; i++)
		m->location_id[i] = d->location_id.p[x->loc0 + i];
	m->n_value = x->n_value;
	m->value = get(x->n_value, sizeof *m->value);
	for (i = 0; i < x->n_value; i++)
		m->value[i] = (int64_t)d->value.p[x->val0 + i];
	m->n_label = x->n_label;
	m->label = get(x->n_label, sizeof *m->label);
	for (i = 0; i < x->n_label; i++) {
		const struct pp_label *l = &d->label.p[x->lab0 + i];
		Label *y = m->label[i] = get(1, sizeof *y);
		perftools__profiles__label__init(y);
		y->key = l->key;
		y->str = l->str;
		y->num = l->num;
		y->num_unit = l->num_unit;
	}
	return m;
}

static Mapping *
mapping(const struct pp_mapping *x)
{
	Mapping *m = get(1, sizeof *m);

	perftools__profiles__mapping__init(m);
	m->id = x->id;
	m->memory_start = x->memory_start;
	m->memory_limit = x->memory_limit;
	m->file_offset = x->file_offset;
	m->filename = x->filename;
	m->build_id = x->build_id;
	m->has_functions = x->has_functions;
	m->has_filenames = x->has_filenames;
	m->has_line_numbers = x->has_line_numbers;
	m->has_inline_frames = x->has_inline_frames;
	return m;
}

static Location *
location(const struct pprof_dec *d, const struct pp_location *x)
{
	Location *m = get(1, sizeof *m);
	size_t i;

	perftools__profiles__location__init(m);
	m->id = x->id;
	m->mapping_id = x->mapping_id;
	m->address = x->address;
	m->is_folded = x->is_folded;
	m->n_line = x->n_line;
	m->line = get(x->n_line, sizeof *m->line);
	for (i = 0; i < x->n_line; i++) {
		const struct pp_line *l = &d->line.p[x->line0 + i];
		Line *y = m->line[i] = get(1, sizeof *y);
		perftools__profiles__line__init(y);
		y->function_id = l->function_id;
		y->line = l->line;
		y->column = l->column;
	}
	return m;
}

static Function *
function(const struct pp_function *x)
{
	Function *m = get(1, sizeof *m);

	perftools__profiles__function__init(m);
	m->id = x->id;
	m->name = x->name;
	m->system_name = x->system_name;
	m->filename = x->filename;
	m->start_line = x->start_line;
	return m;
}

/* Every element of array a of d, as messages by f. */
#define ALL(m, d, a, f, ...) do {					\
	size_t i_;							\
	(m)->n_##a = (d)->a.n;						\
	(m)->a = get((d)->a.n, sizeof *(m)->a);				\
	for (i_ = 0; i_ < (d)->a.n; i_++)				\
		(m)->a[i_] = f(__VA_ARGS__ &(d)->a.p[i_]);		\
} while (0)

static Profile *
profile(const struct pprof_dec *d)
{
	Profile *m = get(1, sizeof *m);
	size_t i;

	perftools__profiles__profile__init(m);
	ALL(m, d, sample_type, valuetype);
	ALL(m, d, sample, sample, d,);
	ALL(m, d, mapping, mapping);
	ALL(m, d, location, location, d,);
	ALL(m, d, function, function);
	m->n_string_table = d->string_table.n;
	m->string_table = get(d->string_table.n, sizeof *m->string_table);
	for (i = 0; i < d->string_table.n; i++) {
		const struct pp_str *s = &d->string_table.p[i];
		m->string_table[i] = get(s->n + 1, 1);
		memcpy(m->string_table[i], s->p, s->n);
		m->string_table[i][s->n] = '\0';
	}
	m->drop_frames = d->drop_frames;
	m->keep_frames = d->keep_frames;
	m->time_nanos = d->time_nanos;
	m->duration_nanos = d->duration_nanos;
	if (d->has_period_type)
		m->period_type = valuetype(&d->period_type);
	m->period = d->period;
	m->n_comment = d->comment.n;
	m->comment = get(d->comment.n, sizeof *m->comment);
	for (i = 0; i < d->comment.n; i++)
		m->comment[i] = (int64_t)d->comment.p[i];
	m->default_sample_type = d->default_sample_type;
	m->doc_url = d->doc_url;
	return m;
}

/* What d decoded as field num (0: the whole profile). */
static ProtobufCMessage *
decoded(const struct pprof_dec *d, unsigned num)
{
	switch (num) {
	case PP_SAMPLE_TYPE:
		return &valuetype(&d->sample_type.p[0])->base;
	case PP_SAMPLE:
		return &sample(d, &d->sample.p[0])->base;
	case PP_MAPPING:
		return &mapping(&d->mapping.p[0])->base;
	case PP_LOCATION:
		return &location(d, &d->location.p[0])->base;
	case PP_FUNCTION:
		return &function(&d->function.p[0])->base;
	case PP_PERIOD_TYPE:
		return &valuetype(&d->period_type)->base;
	default:
		return &profile(d)->base;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_capalloc ca1, ca2;
	struct pb_arena a1, a2;
	struct pprof_dec d = { 0 };
	ProtobufCMessage *m1, *m2;
	uint8_t *p1, *p2;
	size_t n1, n2;
	unsigned num;
	int r;

	if (size == 0)
		return 0;
	num = kinds[data[0] % (sizeof kinds / sizeof kinds[0])].num;
	/* protobuf-c's arena too: it leaks on some refusals */
	pb_capalloc_init(&ca1, (uint64_t)1 << 30);
	pb_capalloc_init(&ca2, (uint64_t)1 << 30);
	pb_arena_init(&a1, &ca1);
	pb_arena_init(&a2, &ca2);
	m1 = protobuf_c_message_unpack(kinds[data[0] %
	    (sizeof kinds / sizeof kinds[0])].d, &a1.a, size - 1, data + 1);
	pprof_dec_reset(&d, (uint64_t)1 << 30);
	r = num ? pprof_decode_field(&d, num, data + 1, size - 1) :
	    pprof_decode(&d, data + 1, size - 1);
	FUZZ_CHECK(!m1 == (r < 0), "field %u: protobuf-c %s, pprofdec %s",
	    num, m1 ? "decodes" : "refuses", r < 0 ? "refuses" : "decodes");
	if (m1) {
		al = &a2.a;
		m2 = decoded(&d, num);
		forget_unknown(m1);
		p1 = packed(m1, &n1);
		p2 = packed(m2, &n2);
		FUZZ_CHECK(n1 == n2 && memcmp(p1, p2, n1) == 0,
		    "field %u: decoded differently", num);
		free(p1);
		free(p2);
	}
	pb_arena_release(&a1);
	pb_arena_release(&a2);
	pprof_dec_free(&d);
	return 0;
}
