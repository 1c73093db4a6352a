#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/str.h"
#include "formats/jfrbin.h"
#include "formats/tables.h"

#define HEADER 68
#define NOPOS SIZE_MAX
/* Inline values nested deeper than this are bad data (a type may hold
   itself, and a value of it no byte). */
#define MAX_NEST 32
/* Metadata elements nested deeper than this are bad data. */
#define MAX_ELEMENT 64

enum prim { P_NONE, P_BOOL, P_BYTE, P_SHORT, P_CHAR, P_INT, P_LONG, P_FLOAT,
    P_DOUBLE, P_STRING };

struct field {
	size_t name, nlen;	/* into the metadata strings */
	uint64_t type;		/* its class's id */
	size_t cls;		/* its class's index */
	int cp, array;
	int unit;		/* 0, 't' a time, 'b' a size */
	uint64_t num, den;	/* a time: nanoseconds = v * num / den */
};

struct class {
	uint64_t id;
	size_t name, nlen, super, slen;
	enum prim prim;
	size_t first, nfields;	/* its fields: fields[first ..] */
	int stack;		/* it has a field named stackTrace */
};

/* An annotation of a field: its class's id and value, resolved later. */
struct annot {
	size_t field;
	uint64_t cls;
	size_t value, vlen;
};

struct slot {
	uint64_t key;
	size_t cls;		/* NOPOS: free */
	size_t pos;
};

struct chunk {
	const unsigned char *b;
	size_t n;
	int compressed;
	uint64_t tps;		/* ticks per second */
	struct strtab str;	/* the metadata's strings */
	struct class *cls;
	size_t ncls, clscap;
	struct field *fld;
	size_t nfld, fldcap;
	struct annot *ann;
	size_t nann, anncap;
	struct slot *pool;	/* (class, key) -> position of the value */
	size_t poolcap, npool;
	struct slot *ids;	/* class id -> its index */
	size_t idcap, nid;
	struct slot *meth;	/* method position -> its text */
	size_t methcap, nmeth;
	char *text;		/* method texts */
	size_t tlen, tcap;
	size_t string_cls;	/* java.lang.String, or NOPOS */
	/*
	 * The metadata event the tables above were read from: a chunk
	 * whose metadata is the same bytes (as a recording's chunks
	 * mostly are) reuses them.
	 */
	unsigned char *meta;
	size_t metalen, metacap;
};

struct cur {
	const unsigned char *p, *e;
	int bad;
	int compressed;
};

struct jfrbin {
	struct chunk k;
	const struct jfrbin_cb *cb;
	const char *weight;
	char *buf;		/* a string read, as UTF-8 */
	size_t bufcap, buflen;
	char *line;		/* a frame's text */
	size_t linecap;
	const char *file;
	uint64_t at;		/* the chunk's offset in the input */
};

int
jfrbin_detect(const char *head, size_t n)
{
	return n >= 4 && memcmp(head, "FLR\0", 4) == 0;
}

/* Reading, with every read checked against the end. */

static unsigned
byte(struct cur *c)
{
	if (c->p >= c->e) {
		c->bad = 1;
		return 0;
	}
	return *c->p++;
}

static uint64_t
fixed(struct cur *c, int w)
{
	uint64_t v = 0;

	if (c->e - c->p < w) {
		c->bad = 1;
		c->p = c->e;
		return 0;
	}
	while (w--)
		v = v << 8 | *c->p++;
	return v;
}

/* An integer w bytes wide, or 7 bits a byte (the 9th whole). */
static uint64_t
num(struct cur *c, int w)
{
	uint64_t v = 0;
	unsigned b;
	int i;

	if (!c->compressed)
		return fixed(c, w);
	for (i = 0; i < 8; i++) {
		b = byte(c);
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	return v | (uint64_t)byte(c) << 56;
}

#define rd_long(c) num((c), 8)
#define rd_int(c) num((c), 4)

/* a count: an int, which must fit what is left */
static size_t
count(struct cur *c)
{
	uint64_t v = rd_int(c);

	if ((int64_t)(int32_t)v < 0 || v > (uint64_t)(c->e - c->p)) {
		c->bad = 1;
		c->p = c->e;
		return 0;
	}
	return (size_t)v;
}

static void
put(struct jfrbin *j, const char *s, size_t n)
{
	j->buf = fold_grow(j->buf, &j->bufcap, j->buflen + n + 1, 1);
	memcpy(j->buf + j->buflen, s, n);
	j->buflen += n;
}

/* A code point as UTF-8 into j->buf. */
static void
put_cp(struct jfrbin *j, uint32_t cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	put(j, u, n);
}

static size_t lookup(const struct chunk *k, size_t cls, uint64_t key);

/*
 * A string, appended to j->buf as UTF-8 (unless skip): its encoding byte
 * 0 null, 1 empty, 2 a java.lang.String of the constant pool, 3 UTF-8,
 * 4 UTF-16 code units, 5 Latin-1. Returns 0 for null, 1 for a string.
 */
static int
string(struct jfrbin *j, struct cur *c, int skip, int depth)
{
	unsigned enc = byte(c);
	size_t n, i, pos;
	uint32_t u, lo;

	switch (enc) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2: {
		struct cur d = *c;
		uint64_t key = rd_long(c);
		if (skip)
			return 1;
		if (depth > 2 || j->k.string_cls == NOPOS ||
		    (pos = lookup(&j->k, j->k.string_cls, key)) == NOPOS)
			return 0;
		d.p = j->k.b + pos;
		d.e = j->k.b + j->k.n;
		return string(j, &d, 0, depth + 1);
	}
	case 3:
	case 5:
		n = count(c);
		if (!skip && enc == 3)
			put(j, (const char *)c->p, n);
		else if (!skip)
			for (i = 0; i < n; i++)
				put_cp(j, c->p[i]);
		c->p += n;
		return 1;
	case 4:
		n = count(c);
		for (i = 0; i < n && !c->bad; i++) {
			u = (uint32_t)num(c, 2) & 0xffff;
			if (u >= 0xd800 && u < 0xdc00 && i + 1 < n) {
				struct cur d = *c;
				lo = (uint32_t)num(&d, 2) & 0xffff;
				if (lo >= 0xdc00 && lo < 0xe000) {
					*c = d;
					i++;
					u = 0x10000 + ((u - 0xd800) << 10) +
					    (lo - 0xdc00);
				}
			}
			if (!skip)
				put_cp(j, u >= 0xd800 && u < 0xe000 ?
				    0xfffd : u);
		}
		return 1;
	default:
		c->bad = 1;
		return 0;
	}
}

/* The metadata */

static void slot_put(struct slot **tab, size_t *cap, size_t *n, size_t cls,
    uint64_t key, size_t pos);

static int
mis(const struct chunk *k, size_t i, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(k->str.b + i, s, n) == 0;
}

/* A metadata string index, read, as an offset and length into k->str.b. */
static int
mref(struct chunk *k, struct cur *c, size_t *off, size_t *len)
{
	uint64_t i = rd_int(c);

	if (i >= k->str.n) {
		c->bad = 1;
		return -1;
	}
	*off = k->str.off[i];
	*len = k->str.off[i + 1] - k->str.off[i];
	return 0;
}

static uint64_t
decimal(const struct chunk *k, size_t off, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n && fold_isdigit(k->str.b[off + i]); i++)
		v = v * 10 + (uint64_t)(k->str.b[off + i] - '0');
	return v;
}

/*
 * One element of the metadata tree and its children: "class" elements
 * (attributes id, name, superType, simpleType) hold "field" elements
 * (name, class, constantPool, dimension), which hold "annotation"
 * elements (class, value).
 */
static int
element(struct chunk *k, struct cur *c, int depth, size_t cls, size_t fld)
{
	size_t name, nlen, na, nc, i, ko, kl, vo, vl;
	size_t me_cls = cls, me_fld = fld;
	int kind = 0;		/* 1 class, 2 field, 3 annotation */

	if (depth > MAX_ELEMENT || mref(k, c, &name, &nlen) < 0)
		return c->bad = 1, -1;
	if (mis(k, name, nlen, "class")) {
		kind = 1;
		k->cls = fold_grow(k->cls, &k->clscap, k->ncls + 1,
		    sizeof *k->cls);
		me_cls = k->ncls++;
		memset(&k->cls[me_cls], 0, sizeof k->cls[me_cls]);
		k->cls[me_cls].first = k->nfld;
	} else if (mis(k, name, nlen, "field") && cls != NOPOS) {
		kind = 2;
		k->fld = fold_grow(k->fld, &k->fldcap, k->nfld + 1,
		    sizeof *k->fld);
		me_fld = k->nfld++;
		memset(&k->fld[me_fld], 0, sizeof k->fld[me_fld]);
		k->cls[cls].nfields++;
	} else if (mis(k, name, nlen, "annotation") && fld != NOPOS) {
		kind = 3;
		k->ann = fold_grow(k->ann, &k->anncap, k->nann + 1,
		    sizeof *k->ann);
		memset(&k->ann[k->nann], 0, sizeof k->ann[k->nann]);
		k->ann[k->nann].field = fld;
		k->nann++;
	}
	na = count(c);
	for (i = 0; i < na && !c->bad; i++) {
		if (mref(k, c, &ko, &kl) < 0 || mref(k, c, &vo, &vl) < 0)
			return -1;
		if (kind == 1) {
			struct class *cl = &k->cls[me_cls];
			if (mis(k, ko, kl, "id"))
				cl->id = decimal(k, vo, vl);
			else if (mis(k, ko, kl, "name"))
				cl->name = vo, cl->nlen = vl;
			else if (mis(k, ko, kl, "superType"))
				cl->super = vo, cl->slen = vl;
		} else if (kind == 2) {
			struct field *f = &k->fld[me_fld];
			if (mis(k, ko, kl, "name"))
				f->name = vo, f->nlen = vl;
			else if (mis(k, ko, kl, "class"))
				f->type = decimal(k, vo, vl);
			else if (mis(k, ko, kl, "constantPool"))
				f->cp = mis(k, vo, vl, "true");
			else if (mis(k, ko, kl, "dimension"))
				f->array = decimal(k, vo, vl) > 0;
		} else if (kind == 3) {
			struct annot *a = &k->ann[k->nann - 1];
			if (mis(k, ko, kl, "class"))
				a->cls = decimal(k, vo, vl);
			else if (mis(k, ko, kl, "value"))
				a->value = vo, a->vlen = vl;
		}
	}
	nc = count(c);
	for (i = 0; i < nc && !c->bad; i++)
		if (element(k, c, depth + 1, kind == 1 ? me_cls : cls,
		    kind == 2 ? me_fld : kind == 1 ? NOPOS : fld) < 0)
			return -1;
	/* a class's fields are the run of fields read inside it */
	(void)me_fld;
	return c->bad ? -1 : 0;
}

static uint64_t hash(size_t cls, uint64_t key);

static size_t
class_of(const struct chunk *k, uint64_t id)
{
	size_t i, m;

	if (k->idcap) {
		m = k->idcap - 1;
		for (i = hash(0, id) & m; k->ids[i].cls != NOPOS;
		    i = (i + 1) & m)
			if (k->ids[i].key == id)
				return k->ids[i].pos;
		return NOPOS;
	}
	/* while the metadata is read */
	for (i = 0; i < k->ncls; i++)
		if (k->cls[i].id == id)
			return i;
	return NOPOS;
}

/* The nanoseconds in a unit of @Timespan. */
static int
timeunit(const struct chunk *k, const struct annot *a, uint64_t *num,
    uint64_t *den)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "NANOSECONDS", 1 }, { "MICROSECONDS", 1000 },
		{ "MILLISECONDS", 1000000 }, { "SECONDS", 1000000000 },
	};
	size_t i;

	if (mis(k, a->value, a->vlen, "TICKS")) {
		*num = 1000000000;
		*den = k->tps;
		return 0;
	}
	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (mis(k, a->value, a->vlen, units[i].name)) {
			*num = units[i].ns;
			*den = 1;
			return 0;
		}
	return -1;
}

static void meta_clear(struct chunk *k);

/* The units of fields, from their annotations and the chunk's ticks. */
static int
units(struct chunk *k)
{
	size_t i, ac;

	for (i = 0; i < k->nann; i++) {
		struct annot *a = &k->ann[i];
		struct field *f = &k->fld[a->field];
		if ((ac = class_of(k, a->cls)) == NOPOS)
			continue;
		if (mis(k, k->cls[ac].name, k->cls[ac].nlen,
		    "jdk.jfr.Timespan") && timeunit(k, a, &f->num,
		    &f->den) == 0)
			f->unit = 't';
		else if (mis(k, k->cls[ac].name, k->cls[ac].nlen,
		    "jdk.jfr.DataAmount") && mis(k, a->value, a->vlen,
		    "BYTES"))
			f->unit = 'b';
	}
	return 0;
}

static int
metadata(struct jfrbin *j, size_t at)
{
	struct chunk *k = &j->k;
	struct cur c = { k->b + at, k->b + k->n, 0, k->compressed };
	size_t i, n, size, body;
	static const struct { const char *name; enum prim p; } prims[] = {
		{ "boolean", P_BOOL }, { "byte", P_BYTE }, { "short", P_SHORT },
		{ "char", P_CHAR }, { "int", P_INT }, { "long", P_LONG },
		{ "float", P_FLOAT }, { "double", P_DOUBLE },
		{ "java.lang.String", P_STRING },
	};

	size = (size_t)rd_int(&c);
	if (rd_long(&c) != 0 || size > k->n - at)
		return -1;
	c.e = k->b + at + size;
	rd_long(&c);		/* start */
	rd_long(&c);		/* duration */
	rd_long(&c);		/* metadata id */
	/* the same types as the last chunk's, at another time */
	body = (size_t)(c.p - k->b);
	if (c.bad)
		return -1;
	if (k->ncls && k->metalen == at + size - body &&
	    memcmp(k->meta, c.p, k->metalen) == 0)
		return units(k);
	meta_clear(k);
	n = count(&c);
	for (i = 0; i < n && !c.bad; i++) {
		j->buflen = 0;
		string(j, &c, 0, 3);
		strtab_add(&k->str, j->buf, j->buflen);
	}
	if (c.bad || element(k, &c, 0, NOPOS, NOPOS) < 0)
		return -1;
	k->string_cls = NOPOS;
	for (i = 0; i < k->ncls; i++) {
		struct class *cl = &k->cls[i];
		size_t p;
		for (p = 0; p < sizeof prims / sizeof prims[0]; p++)
			if (mis(k, cl->name, cl->nlen, prims[p].name))
				cl->prim = prims[p].p;
		if (cl->prim == P_STRING)
			k->string_cls = i;
	}
	for (i = 0; i < k->ncls; i++)
		slot_put(&k->ids, &k->idcap, &k->nid, 0, k->cls[i].id, i);
	for (i = 0; i < k->nfld; i++) {
		struct field *f = &k->fld[i];
		if ((f->cls = class_of(k, f->type)) == NOPOS)
			return -1;
	}
	for (i = 0; i < k->ncls; i++) {
		struct class *cl = &k->cls[i];
		for (n = 0; n < cl->nfields; n++) {
			const struct field *f = &k->fld[cl->first + n];
			if (mis(k, f->name, f->nlen, "stackTrace"))
				cl->stack = 1;
		}
	}
	k->metalen = at + size - body;
	k->meta = fold_grow(k->meta, &k->metacap, k->metalen, 1);
	memcpy(k->meta, k->b + body, k->metalen);
	return units(k);
}

/* The constant pools */

static uint64_t
hash(size_t cls, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL ^
	    (uint64_t)cls * 0xff51afd7ed558ccdULL;

	return h ^ h >> 29;
}

static size_t
lookup(const struct chunk *k, size_t cls, uint64_t key)
{
	size_t m, i;

	if (k->poolcap == 0)
		return NOPOS;
	m = k->poolcap - 1;
	for (i = hash(cls, key) & m; k->pool[i].cls != NOPOS; i = (i + 1) & m)
		if (k->pool[i].cls == cls && k->pool[i].key == key)
			return k->pool[i].pos;
	return NOPOS;
}

static void
slot_put(struct slot **tab, size_t *cap, size_t *n, size_t cls, uint64_t key,
    size_t pos)
{
	size_t m, i, old = *cap;
	struct slot *t = *tab;

	if ((*n + 1) * 2 > *cap) {
		size_t ncap = old ? old * 2 : 1024;
		struct slot *nt = fold_reallocarray(NULL, ncap, sizeof *nt);
		for (i = 0; i < ncap; i++)
			nt[i].cls = NOPOS;
		*tab = nt;
		*cap = ncap;
		*n = 0;
		for (i = 0; i < old; i++)
			if (t[i].cls != NOPOS)
				slot_put(tab, cap, n, t[i].cls, t[i].key,
				    t[i].pos);
		free(t);
		t = *tab;
	}
	m = *cap - 1;
	for (i = hash(cls, key) & m; t[i].cls != NOPOS; i = (i + 1) & m)
		if (t[i].cls == cls && t[i].key == key)
			return;		/* the newest pool's value stays */
	t[i].cls = cls;
	t[i].key = key;
	t[i].pos = pos;
	(*n)++;
}

static void skip(struct jfrbin *j, struct cur *c, size_t cls, int depth);

static void
skip_field(struct jfrbin *j, struct cur *c, const struct field *f,
    int depth)
{
	size_t n = f->array ? count(c) : 1, i;

	for (i = 0; i < n && !c->bad; i++) {
		if (f->cp)
			rd_long(c);
		else
			skip(j, c, f->cls, depth + 1);
	}
}

/* Passes a value of class cls. */
static void
skip(struct jfrbin *j, struct cur *c, size_t cls, int depth)
{
	const struct class *cl = &j->k.cls[cls];
	size_t i;

	if (depth > MAX_NEST) {
		c->bad = 1;
		return;
	}
	switch (cl->prim) {
	case P_BOOL:
	case P_BYTE:
		byte(c);
		return;
	case P_SHORT:
	case P_CHAR:
		num(c, 2);
		return;
	case P_INT:
		num(c, 4);
		return;
	case P_LONG:
		num(c, 8);
		return;
	case P_FLOAT:
		fixed(c, 4);
		return;
	case P_DOUBLE:
		fixed(c, 8);
		return;
	case P_STRING:
		string(j, c, 1, 0);
		return;
	case P_NONE:
		break;
	}
	for (i = 0; i < cl->nfields && !c->bad; i++)
		skip_field(j, c, &j->k.fld[cl->first + i], depth);
}

/* The constant pool events, from the last back along their deltas. */
static int
pools(struct jfrbin *j, size_t at)
{
	struct chunk *k = &j->k;
	size_t size, np, i, n, e, cls, guard = 0;
	int64_t delta;
	uint64_t type, key;

	for (;;) {
		struct cur c = { k->b + at, k->b + k->n, 0, k->compressed };
		size = (size_t)rd_int(&c);
		if (rd_long(&c) != 1 || size > k->n - at || size == 0)
			return -1;
		c.e = k->b + at + size;
		rd_long(&c);		/* start */
		rd_long(&c);		/* duration */
		delta = (int64_t)rd_long(&c);
		byte(&c);		/* flush, or the checkpoint's type */
		np = count(&c);
		for (i = 0; i < np && !c.bad; i++) {
			type = rd_long(&c);
			if ((cls = class_of(k, type)) == NOPOS)
				return -1;
			n = count(&c);
			for (e = 0; e < n && !c.bad; e++) {
				key = rd_long(&c);
				slot_put(&k->pool, &k->poolcap, &k->npool, cls,
				    key, (size_t)(c.p - k->b));
				skip(j, &c, cls, 0);
			}
		}
		if (c.bad)
			return -1;
		if (delta == 0)
			return 0;
		/* each delta goes back, to a pool after the header */
		if (delta > 0 || (uint64_t)-delta > at - HEADER ||
		    ++guard > k->n)
			return -1;
		at -= (size_t)-delta;
	}
}

/* Values of events */

static const struct field *
field_named(const struct chunk *k, size_t cls, const char *name, size_t *idx)
{
	const struct class *cl = &k->cls[cls];
	size_t i;

	for (i = 0; i < cl->nfields; i++)
		if (mis(k, k->fld[cl->first + i].name,
		    k->fld[cl->first + i].nlen, name)) {
			*idx = i;
			return &k->fld[cl->first + i];
		}
	return NULL;
}

/*
 * The value of a (not array) field of an object at c: the position of
 * the object it holds (NOPOS for null), the cursor past it.
 */
static size_t
ref(struct jfrbin *j, struct cur *c, const struct field *f)
{
	size_t at;

	if (f->cp)
		return lookup(&j->k, f->cls, rd_long(c));
	at = (size_t)(c->p - j->k.b);
	skip(j, c, f->cls, 1);
	return c->bad ? NOPOS : at;
}

/* A cursor at position pos of the chunk. */
static struct cur
at(const struct jfrbin *j, size_t pos)
{
	struct cur c = { j->k.b + pos, j->k.b + j->k.n, 0, j->k.compressed };

	return c;
}

/*
 * Moves c to the field named name of the object of class cls at c; NULL
 * when it has none (or the data is bad).
 */
static const struct field *
seek(struct jfrbin *j, struct cur *c, size_t cls, const char *name)
{
	const struct class *cl = &j->k.cls[cls];
	const struct field *f;
	size_t i, want;

	if (!(f = field_named(&j->k, cls, name, &want)))
		return NULL;
	for (i = 0; i < want && !c->bad; i++)
		skip_field(j, c, &j->k.fld[cl->first + i], 1);
	return c->bad ? NULL : f;
}

/*
 * A string field (or a Symbol's string) of the object at pos, into buf;
 * a Symbol is one level deep, and bad data that makes it go round stops
 * there.
 */
static int
text_in(struct jfrbin *j, size_t pos, size_t cls, const char *name,
    int depth)
{
	struct cur c = at(j, pos);
	const struct field *f = seek(j, &c, cls, name);
	size_t p;

	if (!f || f->array || depth > 2)
		return 0;
	if (j->k.cls[f->cls].prim == P_STRING)
		return f->cp ? ((p = lookup(&j->k, f->cls, rd_long(&c))) !=
		    NOPOS && (c = at(j, p), string(j, &c, 0, 0))) :
		    string(j, &c, 0, 0);
	/* a jdk.types.Symbol: its string */
	if ((p = ref(j, &c, f)) == NOPOS)
		return 0;
	return text_in(j, p, f->cls, "string", depth + 1);
}

static int
text_of(struct jfrbin *j, size_t pos, size_t cls, const char *name)
{
	return text_in(j, pos, cls, name, 0);
}

/* The number in a field of the object at pos (0 when none). */
static int64_t
num_of(struct jfrbin *j, size_t pos, size_t cls, const char *name)
{
	struct cur c = at(j, pos);
	const struct field *f = seek(j, &c, cls, name);

	if (!f || f->array || f->cp)
		return 0;
	switch (j->k.cls[f->cls].prim) {
	case P_BOOL:
		return byte(&c) != 0;
	case P_BYTE:
		return (int8_t)byte(&c);
	case P_SHORT:
		return (int16_t)num(&c, 2);
	case P_INT:
		return (int32_t)num(&c, 4);
	case P_LONG:
		return (int64_t)num(&c, 8);
	default:
		return 0;
	}
}

/* The object a field of the object at pos holds, or NOPOS. */
static size_t
obj_of(struct jfrbin *j, size_t pos, size_t cls, const char *name,
    size_t *fcls)
{
	struct cur c = at(j, pos);
	const struct field *f = seek(j, &c, cls, name);

	if (!f || f->array)
		return NOPOS;
	*fcls = f->cls;
	return ref(j, &c, f);
}

/* A thread, named as jfr print names it. */
static void
thread(struct jfrbin *j, size_t pos, size_t cls)
{
	j->buflen = 0;
	if (num_of(j, pos, cls, "javaThreadId") > 0)
		text_of(j, pos, cls, "javaName");
	else
		text_of(j, pos, cls, "osName");
	j->cb->thread(j->cb->arg, j->buf ? j->buf : "", j->buflen);
}

/*
 * The parameter types of a method descriptor "(ILjava/lang/String;[J)V"
 * as jfr print writes them: "int, String, long[]".
 */
static void
params(struct jfrbin *j, const char *d, size_t n)
{
	static const char *const prim[][2] = {
		{ "I", "int" }, { "J", "long" }, { "Z", "boolean" },
		{ "D", "double" }, { "F", "float" }, { "S", "short" },
		{ "C", "char" }, { "B", "byte" },
	};
	size_t i = 1, dims, k, first = 1;
	const char *s, *semi, *dot;

	while (i < n && d[i] != ')') {
		for (dims = 0; i < n && d[i] == '['; i++)
			dims++;
		if (i >= n || d[i] == ')')
			break;
		if (!first)
			put(j, ", ", 2);
		first = 0;
		if (d[i] == 'L' && (semi = memchr(d + i, ';', n - i))) {
			s = d + i + 1;
			/* the simple name: after the last '/' or '.' */
			for (dot = semi; dot > s && dot[-1] != '/' &&
			    dot[-1] != '.'; dot--)
				;
			put(j, dot, (size_t)(semi - dot));
			i = (size_t)(semi - d) + 1;
		} else {
			for (k = 0; k < 8 && prim[k][0][0] != d[i]; k++)
				;
			if (k < 8)
				put(j, prim[k][1], strlen(prim[k][1]));
			else
				put(j, "<unknown-descriptor-type>", 25);
			i++;
		}
		while (dims--)
			put(j, "[]", 2);
	}
}

/* "pkg.Class.method(int, String)" of the method at pos, into buf. */
static void
method(struct jfrbin *j, size_t pos, size_t cls)
{
	size_t c, p, start, i;
	char *d;

	j->buflen = 0;
	if ((p = obj_of(j, pos, cls, "type", &c)) != NOPOS) {
		start = j->buflen;
		text_of(j, p, c, "name");
		for (i = start; i < j->buflen; i++)
			if (j->buf[i] == '/')
				j->buf[i] = '.';
	}
	put(j, ".", 1);
	text_of(j, pos, cls, "name");
	put(j, "(", 1);
	start = j->buflen;
	text_of(j, pos, cls, "descriptor");
	d = fold_strndup(j->buf + start, j->buflen - start);
	j->buflen = start;
	params(j, d, strlen(d));
	free(d);
	put(j, ")", 1);
}

/*
 * The text of the method at pos, made once a chunk; 0, or 1 for a hidden
 * method (a lambda's proxy, a LambdaForm), which jfr print leaves out.
 */
static int
method_text(struct jfrbin *j, size_t pos, size_t cls, const char **s,
    size_t *n)
{
	struct chunk *k = &j->k;
	size_t m, i, v;
	int hidden;

	if (k->methcap) {
		m = k->methcap - 1;
		for (i = hash(0, pos) & m; k->meth[i].cls != NOPOS;
		    i = (i + 1) & m)
			if (k->meth[i].key == pos) {
				v = k->meth[i].pos;
				*s = k->text + (v >> 21);
				*n = v & 0xfffff;
				return (v >> 20) & 1;
			}
	}
	hidden = num_of(j, pos, cls, "hidden") != 0;
	method(j, pos, cls);
	if (j->buflen > 0xfffff)
		j->buflen = 0xfffff;
	k->text = fold_grow(k->text, &k->tcap, k->tlen + j->buflen + 1, 1);
	memcpy(k->text + k->tlen, j->buf, j->buflen);
	slot_put(&k->meth, &k->methcap, &k->nmeth, 0, pos,
	    k->tlen << 21 | (size_t)hidden << 20 | j->buflen);
	*s = k->text + k->tlen;
	*n = j->buflen;
	k->tlen += j->buflen;
	return hidden;
}

/* The frames of the stack trace at pos, leaf first; its truncation. */
static int
stack(struct jfrbin *j, size_t pos, size_t cls)
{
	struct cur c = at(j, pos);
	const struct class *cl = &j->k.cls[cls];
	const struct field *f;
	size_t i, n, e, fp, mp, mc;
	int truncated = 0;
	int64_t line;
	const char *s;
	size_t sl, ln;

	for (i = 0; i < cl->nfields && !c.bad; i++) {
		f = &j->k.fld[cl->first + i];
		if (mis(&j->k, f->name, f->nlen, "truncated") && !f->array &&
		    j->k.cls[f->cls].prim == P_BOOL) {
			truncated = byte(&c) != 0;
			continue;
		}
		if (!mis(&j->k, f->name, f->nlen, "frames") || !f->array) {
			skip_field(j, &c, f, 1);
			continue;
		}
		n = count(&c);
		for (e = 0; e < n && !c.bad; e++) {
			if ((fp = ref(j, &c, f)) == NOPOS)
				continue;
			mp = obj_of(j, fp, f->cls, "method", &mc);
			if (mp == NOPOS)
				continue;
			line = num_of(j, fp, f->cls, "lineNumber");
			if (method_text(j, mp, mc, &s, &sl))
				continue;
			j->line = fold_grow(j->line, &j->linecap, sl + 32, 1);
			memcpy(j->line, s, sl);
			ln = sl;
			if (line >= 0) {
				char num[24];
				size_t nd = 0;
				uint64_t v = (uint64_t)line;
				do
					num[nd++] = (char)('0' + v % 10);
				while ((v /= 10) != 0);
				memcpy(j->line + ln, " line: ", 7);
				for (ln += 7; nd > 0; )
					j->line[ln++] = num[--nd];
			}
			j->cb->frame(j->cb->arg, j->line, ln);
		}
	}
	if (truncated)
		j->cb->truncated(j->cb->arg);
	return c.bad ? -1 : 0;
}

/* One event of class cls at c (past its size and type). */
static int
event(struct jfrbin *j, struct cur *c, size_t cls)
{
	const struct class *cl = &j->k.cls[cls];
	const struct field *f;
	size_t i, stackpos = NOPOS, stackcls = 0, thr = NOPOS, thrcls = 0;
	int sampled = 0;
	uint64_t v;

	if (!j->cb->begin(j->cb->arg, j->k.str.b + cl->name, cl->nlen,
	    cl->stack))
		return 0;
	for (i = 0; i < cl->nfields && !c->bad; i++) {
		f = &j->k.fld[cl->first + i];
		if (!f->array && mis(&j->k, f->name, f->nlen, "stackTrace")) {
			stackpos = ref(j, c, f);
			stackcls = f->cls;
		} else if (!f->array && (mis(&j->k, f->name, f->nlen,
		    "sampledThread") || (!sampled && mis(&j->k, f->name,
		    f->nlen, "eventThread")))) {
			sampled |= mis(&j->k, f->name, f->nlen,
			    "sampledThread");
			thr = ref(j, c, f);
			thrcls = f->cls;
		} else if (j->weight && !f->array && !f->cp &&
		    mis(&j->k, f->name, f->nlen, j->weight) &&
		    j->k.cls[f->cls].prim >= P_BYTE &&
		    j->k.cls[f->cls].prim <= P_LONG) {
			enum prim pr = j->k.cls[f->cls].prim;
			int64_t s = pr == P_BYTE ? (int8_t)byte(c) :
			    pr == P_LONG ? (int64_t)num(c, 8) :
			    pr == P_INT ? (int32_t)num(c, 4) :
			    (int16_t)num(c, 2);
			v = s < 0 ? 0 : (uint64_t)s;
			if (f->unit == 't' && f->den)
				v = (uint64_t)((unsigned __int128)v * f->num /
				    f->den);
			j->cb->weight(j->cb->arg, v, f->unit ? f->unit : 'n');
		} else
			skip_field(j, c, f, 1);
	}
	if (c->bad)
		return -1;
	if (thr != NOPOS)
		thread(j, thr, thrcls);
	if (stackpos != NOPOS && stack(j, stackpos, stackcls) < 0)
		return -1;
	return 1;
}

/* What a chunk's constant pools and events leave. */
static void
pools_clear(struct chunk *k)
{
	size_t i;

	for (i = 0; i < k->poolcap; i++)
		k->pool[i].cls = NOPOS;
	k->npool = 0;
	for (i = 0; i < k->methcap; i++)
		k->meth[i].cls = NOPOS;
	k->nmeth = 0;
	k->tlen = 0;
}

/* The tables of a chunk's metadata. */
static void
meta_clear(struct chunk *k)
{
	strtab_free(&k->str);
	free(k->cls);
	free(k->fld);
	free(k->ann);
	free(k->ids);
	k->cls = NULL;
	k->fld = NULL;
	k->ann = NULL;
	k->ids = NULL;
	k->ncls = k->clscap = k->nfld = k->fldcap = k->nann = k->anncap = 0;
	k->idcap = k->nid = 0;
	k->metalen = 0;
}

static void
chunk_clear(struct chunk *k)
{
	meta_clear(k);
	free(k->pool);
	free(k->meth);
	free(k->text);
	free(k->meta);
	memset(k, 0, sizeof *k);
}

static int
bad(struct jfrbin *j, const char *what)
{
	return fold_seterr("%s: chunk at byte %llu: %s", j->file,
	    (unsigned long long)j->at, what);
}

/* One whole chunk, b[0..n). */
static int
chunk(struct jfrbin *j, const unsigned char *b, size_t n)
{
	struct chunk *k = &j->k;
	struct cur c = { b + 8, b + n, 0, 0 };
	uint64_t cp, meta, size, type;
	size_t pos, cls;
	int rc;

	pools_clear(k);
	k->b = b;
	k->n = n;
	size = fixed(&c, 8);
	cp = fixed(&c, 8);
	meta = fixed(&c, 8);
	fixed(&c, 8);		/* start, in nanoseconds */
	fixed(&c, 8);		/* duration */
	fixed(&c, 8);		/* start, in ticks */
	k->tps = fixed(&c, 8);
	k->compressed = (fixed(&c, 4) & 1) != 0;
	if (size != n || cp < HEADER || cp >= n || meta < HEADER || meta >= n)
		return bad(j, "its header is not a finished chunk's");
	if (k->tps == 0)
		k->tps = 1000000000;
	if (metadata(j, (size_t)meta) < 0)
		return bad(j, "its metadata cannot be read");
	if (pools(j, (size_t)cp) < 0)
		return bad(j, "its constant pools cannot be read");
	for (pos = HEADER; pos < n; ) {
		c = at(j, pos);
		size = rd_int(&c);
		if (c.bad || size == 0 || size > n - pos)
			return bad(j, "an event's size runs past the chunk");
		c.e = b + pos + size;
		type = rd_long(&c);
		pos += (size_t)size;
		if (type == 0 || type == 1)
			continue;
		if ((cls = class_of(k, type)) == NOPOS)
			return bad(j, "an event of a type its metadata does "
			    "not declare");
		if ((rc = event(j, &c, cls)) < 0)
			return bad(j, "an event cannot be read");
		if (rc > 0 && (rc = j->cb->end(j->cb->arg)) < 0)
			return rc;
	}
	return 0;
}

int
jfrbin_read(struct fold_in *in, const char *weight,
    const struct jfrbin_cb *cb)
{
	struct jfrbin j = { .cb = cb, .weight = weight };
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;
	const char *p;
	uint64_t size;
	int rc = 0, r = 1;

	j.file = fold_in_name(in);
	/* never NULL: an empty string is copied from it too */
	j.buf = fold_grow(NULL, &j.bufcap, 256, 1);
	for (;;) {
		/* a chunk's header, then the rest of it */
		while (len < HEADER && (r = fold_in_chunk(in, &p, &n)) > 0) {
			buf = fold_grow(buf, &cap, len + n, 1);
			memcpy(buf + len, p, n);
			len += n;
		}
		if (r < 0) {
			rc = -1;
			break;
		}
		if (len == 0)
			break;
		if (len < HEADER || memcmp(buf, "FLR\0", 4) != 0) {
			rc = len < HEADER ? bad(&j, "the recording is cut "
			    "short") : bad(&j, "no chunk begins here (it "
			    "must begin \"FLR\\0\")");
			break;
		}
		size = 0;
		for (n = 8; n < 16; n++)
			size = size << 8 | buf[n];
		if (size < HEADER) {
			rc = bad(&j, "its header is not a finished chunk's");
			break;
		}
		while (len < size && (r = fold_in_chunk(in, &p, &n)) > 0) {
			buf = fold_grow(buf, &cap, len + n, 1);
			memcpy(buf + len, p, n);
			len += n;
		}
		if (r < 0) {
			rc = -1;
			break;
		}
		if (len < size) {
			rc = bad(&j, "the recording is cut short");
			break;
		}
		if ((rc = chunk(&j, buf, (size_t)size)) < 0)
			break;
		memmove(buf, buf + size, len - (size_t)size);
		len -= (size_t)size;
		j.at += size;
	}
	chunk_clear(&j.k);
	free(buf);
	free(j.buf);
	free(j.line);
	return rc;
}
