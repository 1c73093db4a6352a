#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pbutil.h"
#include "formats/pprofdec.h"
#include "libfold/err.h"

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

/*
 * Charges n more bytes to d's budget: 0, or -1 with d->over set when
 * they pass it.
 */
static inline int
charge(struct pprof_dec *d, uint64_t n)
{
	if (n > d->max - d->used) {
		d->over = 1;
		return -1;
	}
	d->used += n;
	return 0;
}

/*
 * A new element of array a of d, zeroed, or NULL when the budget refuses
 * it. Charged before it grows: the budget bounds what is allocated.
 */
#define PUSH(d, a) (charge((d), sizeof *(a).p) < 0 ? NULL : \
	((a).p = fold_big_grow((a).p, &(a).cap, (a).n + 1, sizeof *(a).p), \
	memset(&(a).p[(a).n++], 0, sizeof *(a).p)))

/*
 * Appends f's numbers, of a repeated int64 or uint64 (packed or not), to
 * a: 0, or -1 when f is of another wire type, a varint of it is
 * malformed or the budget refuses them. Inlined: it is called twice a
 * sample, for a few numbers each, and the call cost 0.6% of merging
 * small profiles.
 */
static inline __attribute__((always_inline)) int
numbers(struct pprof_dec *d, const struct fld *f, struct pp_nums *a)
{
	const uint8_t *p, *end;
	size_t n0 = a->n, k, i;
	uint64_t *t;
	int charged = 0;

	if (f->wt == VARINT) {
		if (charge(d, sizeof *a->p) < 0)
			return -1;
		a->p = fold_big_grow(a->p, &a->cap, a->n + 1, sizeof *a->p);
		a->p[a->n++] = f->x;
		return 0;
	}
	if (f->wt != LEN)
		return -1;
	/* packed: at most a number a byte, exactly as many as last bytes
	   when that many might not fit the budget */
	k = f->len;
	if (k > (d->max - d->used) / sizeof *a->p) {
		for (k = 0, i = 0; i < f->len; i++)
			k += !(f->d[i] & 0x80);
		if (charge(d, (uint64_t)k * sizeof *a->p) < 0)
			return -1;
		charged = 1;
	}
	a->p = fold_big_grow(a->p, &a->cap, a->n + k, sizeof *a->p);
	/* through t, not a->p[a->n]: a store there might change a->n */
	for (p = f->d, end = p + f->len, t = a->p + n0; p < end; t++)
		if (!(p = varint(p, end, t))) {
			/* none kept: what is charged is what is held */
			d->used -= charged ? k * sizeof *a->p : 0;
			return -1;
		}
	if (!charged && charge(d, (uint64_t)(t - (a->p + n0)) *
	    sizeof *a->p) < 0)
		return -1;
	a->n = t - a->p;
	return 0;
}

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
	offsetof(struct pp_valuetype, type),
	offsetof(struct pp_valuetype, unit) }, 0 };
static const struct scalars label_fields = { 4, {
	offsetof(struct pp_label, key), offsetof(struct pp_label, str),
	offsetof(struct pp_label, num), offsetof(struct pp_label, num_unit) },
	0 };
static const struct scalars line_fields = { 3, {
	offsetof(struct pp_line, function_id), offsetof(struct pp_line, line),
	offsetof(struct pp_line, column) }, 0 };
static const struct scalars function_fields = { 5, {
	offsetof(struct pp_function, id), offsetof(struct pp_function, name),
	offsetof(struct pp_function, system_name),
	offsetof(struct pp_function, filename),
	offsetof(struct pp_function, start_line) }, 0 };
static const struct scalars mapping_fields = { 10, {
	offsetof(struct pp_mapping, id),
	offsetof(struct pp_mapping, memory_start),
	offsetof(struct pp_mapping, memory_limit),
	offsetof(struct pp_mapping, file_offset),
	offsetof(struct pp_mapping, filename),
	offsetof(struct pp_mapping, build_id),
	offsetof(struct pp_mapping, has_functions),
	offsetof(struct pp_mapping, has_filenames),
	offsetof(struct pp_mapping, has_line_numbers),
	offsetof(struct pp_mapping, has_inline_frames) }, 0x3c0 };
/* a Location's numbers: its lines and is_folded (4, 5) are read apart */
static const struct scalars location_numbers = { 3, {
	offsetof(struct pp_location, id),
	offsetof(struct pp_location, mapping_id),
	offsetof(struct pp_location, address) }, 0 };

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

/*
 * Field f of m, whose numbers and bools t gives, framed by next(): 0, or
 * -1 when a number is not a varint. Any other field is skipped.
 */
static inline int
scalar(struct pprof_dec *d, void *m, const struct fld *f,
    const struct scalars *t)
{
	char *to;

	if (f->num == 0 || f->num > t->n) {
		d->zero_num |= f->num == 0;
		return 0;
	}
	to = (char *)m + t->off[f->num - 1];
	if (t->bools >> (f->num - 1) & 1) {
		boolean(f, (protobuf_c_boolean *)to);
		return 0;
	}
	return number(f, (uint64_t *)to);
}

/*
 * Inlined with pushed_scalars, at each message of its own: its table's
 * number of fields, bools and offsets become constants there (2.5% of
 * the instructions of merging small profiles).
 */
static inline __attribute__((always_inline)) int
scalars(struct pprof_dec *d, void *m, const uint8_t *p, size_t n,
    const struct scalars *t)
{
	const uint8_t *end = p + n;
	struct fld f = { 0 };
	int r;

	while (p < end) {
		if ((r = usual(&p, end, m, t)) != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		if (next(&p, end, &f) < 0 || scalar(d, m, &f, t) < 0)
			return -1;
	}
	return 0;
}

/* m, just pushed (NULL: refused), decoded from p[0..n) as t says. */
static inline __attribute__((always_inline)) int
pushed_scalars(struct pprof_dec *d, void *m, const uint8_t *p, size_t n,
    const struct scalars *t)
{
	return m ? scalars(d, m, p, n, t) : -1;
}

#define SCALARS(d, a, p, n, t) pushed_scalars(d, PUSH(d, a), p, n, t)

static int
location(struct pprof_dec *d, const uint8_t *p, size_t n)
{
	struct pp_location *m = PUSH(d, d->location);
	const uint8_t *end = p + n;
	struct fld f = { 0 };
	int r;

	if (!m)
		return -1;
	m->line0 = d->line.n;
	while (p < end) {
		if ((r = usual(&p, end, m, &location_numbers)) != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		if (next(&p, end, &f) < 0)
			return -1;
		if (f.num == 4) {
			if (f.wt != LEN ||
			    SCALARS(d, d->line, f.d, f.len, &line_fields) < 0)
				return -1;
			m->n_line++;
		} else if (f.num == 5) {
			boolean(&f, &m->is_folded);
		} else if (scalar(d, m, &f, &location_numbers) < 0) {
			return -1;
		}
	}
	return 0;
}

static int
sample(struct pprof_dec *d, const uint8_t *p, size_t n)
{
	struct pp_sample *m = PUSH(d, d->sample);
	const uint8_t *end = p + n;
	struct fld f = { 0 };
	int r;

	if (!m)
		return -1;
	m->loc0 = d->location_id.n;
	m->val0 = d->value.n;
	m->lab0 = d->label.n;
	while ((r = next(&p, end, &f)) > 0) {
		d->zero_num |= f.num == 0;
		if ((f.num == 1 && numbers(d, &f, &d->location_id) < 0) ||
		    (f.num == 2 && numbers(d, &f, &d->value) < 0) ||
		    (f.num == 3 && (f.wt != LEN || SCALARS(d, d->label, f.d,
		    f.len, &label_fields) < 0)))
			return -1;
	}
	m->n_location_id = d->location_id.n - m->loc0;
	m->n_value = d->value.n - m->val0;
	m->n_label = d->label.n - m->lab0;
	return r;
}

/*
 * pprof_decode_field, inlined in pprof_decode too: a call and a second
 * switch for each message of the profile were 2% of merging small ones.
 */
static inline __attribute__((always_inline)) int
decode_field(struct pprof_dec *d, unsigned num, const uint8_t *p, size_t n)
{
	struct pp_str *s;

	switch (num) {
	case PP_SAMPLE_TYPE:
		return SCALARS(d, d->sample_type, p, n, &valuetype_fields);
	case PP_SAMPLE:
		return sample(d, p, n);
	case PP_MAPPING:
		return SCALARS(d, d->mapping, p, n, &mapping_fields);
	case PP_LOCATION:
		return location(d, p, n);
	case PP_FUNCTION:
		return SCALARS(d, d->function, p, n, &function_fields);
	case PP_STRING_TABLE:
		if (!(s = PUSH(d, d->string_table)))
			return -1;
		s->p = (const char *)p;
		s->n = n;
		return 0;
	case PP_PERIOD_TYPE:
		/* a later one replaces it, as protobuf-c does */
		memset(&d->period_type, 0, sizeof d->period_type);
		d->has_period_type = 1;
		return scalars(d, &d->period_type, p, n, &valuetype_fields);
	default:
		return -1;
	}
}

int
pprof_decode_field(struct pprof_dec *d, unsigned num, const uint8_t *p,
    size_t n)
{
	return decode_field(d, num, p, n);
}

int
pprof_decode(struct pprof_dec *d, const uint8_t *p, size_t n)
{
	const uint8_t *end = p + n;
	struct fld f = { 0 };
	void *to;
	int r;

	while ((r = next(&p, end, &f)) > 0) {
		switch (f.num) {
		case PP_SAMPLE_TYPE: case PP_SAMPLE: case PP_MAPPING:
		case PP_LOCATION: case PP_FUNCTION: case PP_STRING_TABLE:
		case PP_PERIOD_TYPE:
			if (f.wt != LEN ||
			    decode_field(d, f.num, f.d, f.len) < 0)
				return -1;
			continue;
		case PP_DROP_FRAMES: to = &d->drop_frames; break;
		case PP_KEEP_FRAMES: to = &d->keep_frames; break;
		case PP_TIME_NANOS: to = &d->time_nanos; break;
		case PP_DURATION_NANOS: to = &d->duration_nanos; break;
		case PP_PERIOD: to = &d->period; break;
		case PP_COMMENT:
			if (numbers(d, &f, &d->comment) < 0)
				return -1;
			continue;
		case PP_DEFAULT_SAMPLE_TYPE:
			to = &d->default_sample_type;
			break;
		case PP_DOC_URL: to = &d->doc_url; break;
		default: d->zero_num |= f.num == 0; continue;
		}
		if (number(&f, to) < 0)
			return -1;
	}
	return r;
}

int
pprof_dec_idmaps(const struct pprof_dec *d, const char *file,
    struct pb_idmap *maps, struct pb_idmap *locs, struct pb_idmap *funcs)
{
	if (pb_idmap_build(maps, d->mapping.p, d->mapping.n,
	    sizeof *d->mapping.p, file, "mapping") < 0 ||
	    pb_idmap_build(locs, d->location.p, d->location.n,
	    sizeof *d->location.p, file, "location") < 0 ||
	    pb_idmap_build(funcs, d->function.p, d->function.n,
	    sizeof *d->function.p, file, "function") < 0)
		return -1;
	return 0;
}

/* Every array of a struct pprof_dec, to each of which X is applied. */
#define ARRAYS(X) X(sample_type) X(sample) X(mapping) X(location) \
	X(function) X(string_table) X(comment) X(line) X(location_id) \
	X(value) X(label)

/* Room for one at least: &a.p[i] of an empty array is no null pointer. */
#define ROOM(a) ((a).p = fold_big_grow((a).p, &(a).cap, 1, sizeof *(a).p))

/* Empties array a of d, its memory freed when release is set. */
#define DROP(d, a, release) do {					\
	(d)->used -= (a).n * sizeof *(a).p;				\
	(a).n = 0;							\
	if (release) {							\
		fold_big_free((a).p, (a).cap, sizeof *(a).p);		\
		(a).p = NULL;						\
		(a).cap = 0;						\
		ROOM(a);						\
	}								\
} while (0)

void
pprof_dec_drop_samples(struct pprof_dec *d)
{
	DROP(d, d->sample, 0);
	DROP(d, d->location_id, 0);
	DROP(d, d->value, 0);
	DROP(d, d->label, 0);
}

void
pprof_dec_drop_tables(struct pprof_dec *d, int release)
{
	DROP(d, d->sample_type, release);
	DROP(d, d->mapping, release);
	DROP(d, d->location, release);
	DROP(d, d->line, release);
	DROP(d, d->function, release);
}

void
pprof_dec_reset(struct pprof_dec *d, uint64_t max)
{
#define EMPTY(a) ROOM(d->a); d->a.n = 0;
	ARRAYS(EMPTY)
#undef EMPTY
	d->drop_frames = d->keep_frames = d->time_nanos = 0;
	d->duration_nanos = d->period = d->default_sample_type = 0;
	d->doc_url = 0;
	memset(&d->period_type, 0, sizeof d->period_type);
	d->has_period_type = 0;
	d->zero_num = 0;
	d->used = 0;
	d->max = max;
	d->over = 0;
}

void
pprof_dec_free(struct pprof_dec *d)
{
#define FREE(a) fold_big_free(d->a.p, d->a.cap, sizeof *d->a.p);
	ARRAYS(FREE)
#undef FREE
	memset(d, 0, sizeof *d);
}
