#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/pprofdec.h"

enum { VARINT = 0, I64 = 1, LEN = 2, I32 = 5 };

/* A field, framed as protobuf-c frames it. */
struct fld {
	uint32_t num;
	int wt;
	const uint8_t *v;	/* the value's bytes, a length prefix too */
	size_t n;
	uint64_t x;		/* VARINT: the low 64 bits of the value */
	const uint8_t *d;	/* LEN: the bytes after the prefix */
	size_t len;
};

/*
 * Reads the varint at p (before end) as protobuf-c does: at most 10
 * bytes, the bits past 64 dropped. Returns the byte after it, or NULL.
 * Most are one or two bytes (keys, ids, line numbers, counts), read
 * before the loop.
 */
static inline __attribute__((always_inline)) const uint8_t *
varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	size_t i, max;
	uint64_t x;

	if (p < end && p[0] < 0x80) {
		*v = p[0];
		return p + 1;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*v = (p[0] & 0x7f) | (uint64_t)p[1] << 7;
		return p + 2;
	}
	max = end - p < 10 ? (size_t)(end - p) : 10;
	for (i = 0, x = 0; i < max; i++) {
		x |= (uint64_t)(p[i] & 0x7f) << 7 * i;
		if (p[i] < 0x80) {
			*v = x;
			return p + i + 1;
		}
	}
	return NULL;
}

/*
 * Frames the field at *pp (before end) and moves *pp past it. Returns 1,
 * 0 at the end, or -1 where protobuf-c fails: a first byte whose number
 * bits are all 0, a tag of more than 5 bytes, a varint of more than 10,
 * a length of more than 5 bytes or past INT_MAX or the end, a group.
 * Varints are read by varint(), not with pbutil.h's pb_varint:
 * addresses and ids are mostly of several bytes, and its call for those
 * made pprofmerge of small profiles 13% slower.
 */
static inline __attribute__((always_inline)) int
next(const uint8_t **pp, const uint8_t *end, struct fld *f)
{
	const uint8_t *p = *pp, *q;
	size_t rem, i, max;
	unsigned shift;
	uint64_t len;

	if (p == end)
		return 0;
	/* most keys are one byte: 8 (field 1) to 0x7f */
	if ((unsigned)p[0] - 8 < 0x78) {
		f->num = p[0] >> 3;
		f->wt = p[0] & 7;
		p++;
	} else {
		if (p[0] < 8)
			return -1;
		f->wt = p[0] & 7;
		f->num = (p[0] & 0x7f) >> 3;
		max = end - p < 5 ? (size_t)(end - p) : 5;
		for (i = 1, shift = 4; i < max && (p[i] & 0x80);
		    i++, shift += 7)
			f->num |= (uint32_t)(p[i] & 0x7f) << shift;
		if (i == max)
			return -1;
		f->num |= (uint32_t)p[i] << shift;
		p += i + 1;
	}
	rem = end - p;
	f->v = p;
	switch (f->wt) {
	case VARINT:
		if (!(q = varint(p, end, &f->x)))
			return -1;
		f->n = q - p;
		break;
	case I64:
	case I32:
		f->n = f->wt == I64 ? 8 : 4;
		if (rem < f->n)
			return -1;
		break;
	case LEN:
		if (rem > 0 && p[0] < 0x80) {
			len = p[0];
			i = 0;
		} else {
			max = rem < 5 ? rem : 5;
			for (i = 0, len = 0; i < max; i++) {
				len |= (uint64_t)(p[i] & 0x7f) << 7 * i;
				if (!(p[i] & 0x80))
					break;
			}
			if (i == max || len > INT_MAX)
				return -1;
		}
		if (len > rem - i - 1)
			return -1;
		f->d = p + i + 1;
		f->len = len;
		f->n = i + 1 + len;
		break;
	default:
		return -1;
	}
	*pp = p + f->n;
	return 1;
}

/* A singular int64 or uint64: a varint, else protobuf-c refuses it. */
static inline int
number(const struct fld *f, uint64_t *to)
{
	if (f->wt != VARINT)
		return -1;
	*to = f->x;
	return 0;
}

/* A bool, of any wire type: true when a byte of its value is not 0. */
static inline void
boolean(const struct fld *f, protobuf_c_boolean *to)
{
	size_t i;

	*to = 0;
	for (i = 0; i < f->n; i++)
		if (f->v[i] & 0x7f) {
			*to = 1;
			break;
		}
}

/* Adds to *n how many numbers f gives a repeated int64 or uint64. */
static inline int
count(const struct fld *f, size_t *n)
{
	size_t i;

	if (f->wt == VARINT) {
		(*n)++;
		return 0;
	}
	if (f->wt != LEN)
		return -1;
	for (i = 0; i < f->len; i++)	/* packed: a last byte each */
		*n += !(f->d[i] & 0x80);
	return 0;
}

/* Appends f's numbers to to[*n..], as many as count() gave. */
static inline int
numbers(const struct fld *f, uint64_t *to, size_t *n)
{
	const uint8_t *p, *end;
	uint64_t v;

	if (f->wt == VARINT) {
		to[(*n)++] = f->x;
		return 0;
	}
	/* read, then stored: a varint cut short has no room in to */
	for (p = f->d, end = p + f->len; p < end; to[(*n)++] = v)
		if (!(p = varint(p, end, &v)))
			return -1;
	return 0;
}

static void *
get(ProtobufCAllocator *a, size_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		return NULL;
	return a->alloc(a->allocator_data, n * size);
}

/*
 * n messages of descriptor d after the array of pointers to them: one
 * allocation for a repeated field's messages.
 */
static void *
messages(ProtobufCAllocator *a, size_t n, const ProtobufCMessageDescriptor *d)
{
	size_t size = d->sizeof_message, i;
	void **v;
	char *m;

	if (!(v = get(a, n, sizeof *v + size)))
		return NULL;
	m = (char *)(v + n);
	d->message_init((ProtobufCMessage *)m);
	/* the first copied to the rest in doubling runs: a call for each
	   message was a tenth of decoding them */
	for (i = 1; i < n; i *= 2)
		memcpy(m + i * size, m, (i < n - i ? i : n - i) * size);
	for (i = 0; i < n; i++, m += size)
		v[i] = m;
	return v;
}

typedef int decoder(ProtobufCAllocator *, void *, const uint8_t *, size_t);

/*
 * A message of numbers and bools only: the member of field k at byte
 * off[k - 1], a bool when bit k - 1 of bools is set.
 */
struct scalars {
	size_t n;
	size_t off[10];
	unsigned bools;
};

static const struct scalars valuetype_fields = { 2, {
	offsetof(ValueType, type), offsetof(ValueType, unit) }, 0 };
static const struct scalars label_fields = { 4, {
	offsetof(Label, key), offsetof(Label, str), offsetof(Label, num),
	offsetof(Label, num_unit) }, 0 };
static const struct scalars line_fields = { 3, {
	offsetof(Line, function_id), offsetof(Line, line),
	offsetof(Line, column) }, 0 };
static const struct scalars function_fields = { 5, {
	offsetof(Function, id), offsetof(Function, name),
	offsetof(Function, system_name), offsetof(Function, filename),
	offsetof(Function, start_line) }, 0 };
static const struct scalars mapping_fields = { 10, {
	offsetof(Mapping, id), offsetof(Mapping, memory_start),
	offsetof(Mapping, memory_limit), offsetof(Mapping, file_offset),
	offsetof(Mapping, filename), offsetof(Mapping, build_id),
	offsetof(Mapping, has_functions), offsetof(Mapping, has_filenames),
	offsetof(Mapping, has_line_numbers),
	offsetof(Mapping, has_inline_frames) }, 0x3c0 };
/* a Location's numbers: its lines and is_folded are read apart */
static const struct scalars location_numbers = { 3, {
	offsetof(Location, id), offsetof(Location, mapping_id),
	offsetof(Location, address) }, 0 };

/*
 * Most fields: a key of one byte naming a number field of t, of the wire
 * type it should have. Reads such a field at *pp into m, moving *pp past
 * it: returns 1, or -1 when its varint is malformed; 0 for any other
 * field, left to next().
 */
static inline __attribute__((always_inline)) int
usual(const uint8_t **pp, const uint8_t *end, void *m,
    const struct scalars *t)
{
	unsigned k = (*pp)[0] >> 3;

	if (((*pp)[0] & 0x87) != VARINT || k - 1 >= t->n ||
	    (t->bools >> (k - 1) & 1))
		return 0;
	*pp = varint(*pp + 1, end, (uint64_t *)((char *)m + t->off[k - 1]));
	return *pp ? 1 : -1;
}

static inline int
scalars(void *m, const uint8_t *p, size_t n, const struct scalars *t)
{
	const uint8_t *end = p + n;
	struct fld f = { 0 };
	char *to;
	int r;

	while (p < end) {
		if ((r = usual(&p, end, m, t)) != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		if ((r = next(&p, end, &f)) < 0)
			return -1;
		if (f.num == 0 || f.num > t->n)
			continue;
		to = (char *)m + t->off[f.num - 1];
		if (t->bools >> (f.num - 1) & 1)
			boolean(&f, (protobuf_c_boolean *)to);
		else if (number(&f, (uint64_t *)to) < 0)
			return -1;
	}
	return 0;
}

/*
 * The repeated fields of a message, kept as one pass meets them so that
 * their arrays are allocated once: a second pass counts them only when a
 * message has more than STASH.
 */
enum { STASH = 8 };

static int
location(ProtobufCAllocator *a, void *msg, const uint8_t *p, size_t n)
{
	Location *m = msg;
	const uint8_t *q = p, *end = p + n;
	struct fld f = { 0 }, lines[STASH];
	size_t nline = 0, i;
	void *to;
	int r;

	while (q < end) {
		if ((r = usual(&q, end, m, &location_numbers)) != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		if ((r = next(&q, end, &f)) < 0)
			return -1;
		switch (f.num) {
		case 1: to = &m->id; break;
		case 2: to = &m->mapping_id; break;
		case 3: to = &m->address; break;
		case 4:
			if (f.wt != LEN)
				return -1;
			if (nline < STASH)
				lines[nline] = f;
			nline++;
			continue;
		case 5: boolean(&f, &m->is_folded); continue;
		default: continue;
		}
		if (number(&f, to) < 0)
			return -1;
	}
	if (nline == 0)
		return 0;
	if (!(m->line = messages(a, nline,
	    &perftools__profiles__line__descriptor)))
		return -1;
	for (i = 0; i < nline && i < STASH; i++)
		if (scalars(m->line[i], lines[i].d, lines[i].len,
		    &line_fields) < 0)
			return -1;
	/* more than the stash held: the rest, from the start again */
	for (i = 0, q = p; nline > STASH && next(&q, end, &f) > 0; )
		if (f.num == 4 && i++ >= STASH &&
		    scalars(m->line[i - 1], f.d, f.len, &line_fields) < 0)
			return -1;
	m->n_line = nline;
	return 0;
}

static int
sample(ProtobufCAllocator *a, void *msg, const uint8_t *p, size_t n)
{
	Sample *m = msg;
	const uint8_t *q = p, *end = p + n;
	size_t nloc = 0, nval = 0, nlab = 0, nrep = 0, i;
	struct fld f = { 0 }, rep[STASH];
	int r;

	while ((r = next(&q, end, &f)) > 0) {
		if ((f.num == 1 && count(&f, &nloc) < 0) ||
		    (f.num == 2 && count(&f, &nval) < 0) ||
		    (f.num == 3 && f.wt != LEN))
			return -1;
		if (f.num == 3)
			nlab++;
		if (f.num >= 1 && f.num <= 3 && nrep++ < STASH)
			rep[nrep - 1] = f;
	}
	if (r < 0 ||
	    (nloc && !(m->location_id = get(a, nloc, sizeof (uint64_t)))) ||
	    (nval && !(m->value = get(a, nval, sizeof (int64_t)))) ||
	    (nlab && !(m->label = messages(a, nlab,
	    &perftools__profiles__label__descriptor))))
		return -1;
	/* more than the stash held: all of them, from the start again */
	for (i = 0, q = p; i < nrep; i++) {
		if (nrep <= STASH)
			f = rep[i];
		else
			while (next(&q, end, &f) > 0 && (f.num < 1 ||
			    f.num > 3))
				;
		if ((f.num == 1 && numbers(&f, m->location_id,
		    &m->n_location_id) < 0) ||
		    (f.num == 2 && numbers(&f, (uint64_t *)m->value,
		    &m->n_value) < 0) ||
		    (f.num == 3 && scalars(m->label[m->n_label++], f.d,
		    f.len, &label_fields) < 0))
			return -1;
	}
	return 0;
}

/* A message: its descriptor, and how its fields are decoded. */
struct kind {
	const ProtobufCMessageDescriptor *d;
	decoder *dec;			/* else: */
	const struct scalars *sc;	/* numbers and bools only */
};

enum { K_PROFILE, K_SAMPLE, K_LOCATION, K_FUNCTION, K_MAPPING, K_LINE,
    K_LABEL, K_VALUETYPE, NKIND };

static int profile(ProtobufCAllocator *, void *, const uint8_t *, size_t);

static const struct kind kinds[NKIND] = {
	[K_PROFILE] = { &perftools__profiles__profile__descriptor, profile,
	    NULL },
	[K_SAMPLE] = { &perftools__profiles__sample__descriptor, sample,
	    NULL },
	[K_LOCATION] = { &perftools__profiles__location__descriptor,
	    location, NULL },
	[K_FUNCTION] = { &perftools__profiles__function__descriptor, NULL,
	    &function_fields },
	[K_MAPPING] = { &perftools__profiles__mapping__descriptor, NULL,
	    &mapping_fields },
	[K_LINE] = { &perftools__profiles__line__descriptor, NULL,
	    &line_fields },
	[K_LABEL] = { &perftools__profiles__label__descriptor, NULL,
	    &label_fields },
	[K_VALUETYPE] = { &perftools__profiles__value_type__descriptor, NULL,
	    &valuetype_fields },
};

static int
decode(const struct kind *k, ProtobufCAllocator *a, void *m,
    const uint8_t *p, size_t n)
{
	return k->sc ? scalars(m, p, n, k->sc) : k->dec(a, m, p, n);
}

/* Profile's repeated message fields, by number. */
static const struct rep {
	size_t count, array;	/* offsets in Profile */
	const struct kind *k;
} reps[] = {
	[1] = { offsetof(Profile, n_sample_type),
	    offsetof(Profile, sample_type), &kinds[K_VALUETYPE] },
	[2] = { offsetof(Profile, n_sample), offsetof(Profile, sample),
	    &kinds[K_SAMPLE] },
	[3] = { offsetof(Profile, n_mapping), offsetof(Profile, mapping),
	    &kinds[K_MAPPING] },
	[4] = { offsetof(Profile, n_location), offsetof(Profile, location),
	    &kinds[K_LOCATION] },
	[5] = { offsetof(Profile, n_function), offsetof(Profile, function),
	    &kinds[K_FUNCTION] },
};

#define AT(m, off, type) ((type *)((char *)(m) + (off)))

static int
profile(ProtobufCAllocator *a, void *msg, const uint8_t *p, size_t n)
{
	Profile *m = msg;
	const uint8_t *q = p, *end = p + n;
	size_t want[6] = { 0 }, ncomment = 0, nstr = 0, strbytes = 0, i;
	const struct rep *rp;
	struct fld f = { 0 };
	char *s = NULL;
	void *to;
	int r;

	/* first the counts, to allocate each repeated field once */
	while ((r = next(&q, end, &f)) > 0) {
		if (f.num >= 1 && f.num <= 6 && f.wt != LEN)
			return -1;
		if (f.num >= 1 && f.num <= 5)
			want[f.num]++;
		else if (f.num == 6) {
			nstr++;
			strbytes += f.len + 1;
		} else if (f.num == 13 && count(&f, &ncomment) < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	for (i = 1; i <= 5; i++)
		if (want[i] && !(*AT(m, reps[i].array, void *) = messages(a,
		    want[i], reps[i].k->d)))
			return -1;
	if ((nstr && (!(m->string_table = get(a, nstr, sizeof (char *))) ||
	    !(s = get(a, strbytes, 1)))) ||
	    (ncomment && !(m->comment = get(a, ncomment, sizeof (int64_t)))))
		return -1;
	while ((r = next(&p, end, &f)) > 0) {
		switch (f.num) {
		case 1: case 2: case 3: case 4: case 5:
			rp = &reps[f.num];
			i = (*AT(m, rp->count, size_t))++;
			if (decode(rp->k, a, AT(m, rp->array, void **)[0][i],
			    f.d, f.len) < 0)
				return -1;
			continue;
		case 6:
			memcpy(s, f.d, f.len);
			s[f.len] = '\0';
			m->string_table[m->n_string_table++] = s;
			s += f.len + 1;
			continue;
		case 7: to = &m->drop_frames; break;
		case 8: to = &m->keep_frames; break;
		case 9: to = &m->time_nanos; break;
		case 10: to = &m->duration_nanos; break;
		case 11:
			/* a later one replaces it, as protobuf-c does */
			if (f.wt != LEN || (!m->period_type &&
			    !(m->period_type = get(a, 1, sizeof (ValueType)))))
				return -1;
			perftools__profiles__value_type__init(m->period_type);
			if (scalars(m->period_type, f.d, f.len,
			    &valuetype_fields) < 0)
				return -1;
			continue;
		case 12: to = &m->period; break;
		case 13:
			if (numbers(&f, (uint64_t *)m->comment,
			    &m->n_comment) < 0)
				return -1;
			continue;
		case 14: to = &m->default_sample_type; break;
		case 15: to = &m->doc_url; break;
		default: continue;
		}
		if (number(&f, to) < 0)
			return -1;
	}
	return r;
}

void *
pprof_unpack(const ProtobufCMessageDescriptor *d, ProtobufCAllocator *a,
    size_t n, const uint8_t *p)
{
	const struct kind *k;
	void *m;

	for (k = kinds; k < kinds + NKIND; k++)
		if (k->d == d) {
			if (!(m = get(a, 1, d->sizeof_message)))
				return NULL;
			d->message_init(m);
			return decode(k, a, m, p, n) < 0 ? NULL : m;
		}
	return protobuf_c_message_unpack(d, a, n, p);
}
