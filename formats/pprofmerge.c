#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pbutil.h"
#include "formats/pprof.h"
#include "formats/pprofdec.h"
#include "formats/pprofmerge.h"
#include "libfold/err.h"
#include "libfold/hash.h"
#include "libfold/input.h"
#include "libfold/intern.h"

/* A growable byte buffer. */
struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void
buf_add(struct buf *b, const void *s, size_t n)
{
	b->p = fold_grow(b->p, &b->cap, b->len + n, 1);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

/*
 * The keys of the merged rows are built of these, a few for each sample,
 * location and function of every input: inline, and a store of a known
 * size rather than a call to memcpy.
 */
static inline void
buf_u64(struct buf *b, uint64_t v)
{
	b->p = fold_grow(b->p, &b->cap, b->len + sizeof v, 1);
	memcpy(b->p + b->len, &v, sizeof v);
	b->len += sizeof v;
}

static uint64_t
getvarint(const uint8_t **p)
{
	uint64_t v = 0;
	int shift = 0;
	uint8_t c;

	do {
		c = *(*p)++;
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

/* Writes v as a varint at t, which has room for it; the byte after. */
static inline uint8_t *
varint_at(uint8_t *t, uint64_t v)
{
	while (v >= 0x80) {
		*t++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*t++ = (uint8_t)v;
	return t;
}

static inline void
buf_varint(struct buf *b, uint64_t v)
{
	b->p = fold_grow(b->p, &b->cap, b->len + 10, 1);
	b->len = varint_at(b->p + b->len, v) - b->p;
}

struct mfunc {
	uint32_t name, sys, file;
	int64_t start;
};

/*
 * Merged rows (functions, locations) by the hash of what makes one: an
 * open-addressed table of their index + 1 (0: empty), the caller
 * comparing the rows whose hash is the one it looks for. Most rows of an
 * input were met in the one before: a row found so is neither interned
 * nor made a key of, as a table of keys needs.
 */
struct hslot {
	uint64_t h;
	uint32_t id;
};

struct htab {
	struct hslot *slots;
	size_t mask, n;
};

_Static_assert(sizeof(struct hslot) == 16, "slots_grow's slots");

struct mmapping {
	uint64_t start, limit, offset;
	uint32_t file, build;
	protobuf_c_boolean fn, fnames, lines, inl;
};

struct mline {
	uint32_t func;		/* merged function index + 1, 0: none */
	int64_t line, column;
};

struct mloc {
	uint32_t mapping;	/* merged mapping index + 1, 0: none */
	uint64_t address;
	protobuf_c_boolean folded;
	size_t line0, nline;
};

/*
 * The merged samples, the merger's memory for a fleet: each an entry of
 * [key length, 4 bytes unused, the values, the key] in blocks appended in
 * order of first appearance, found by an open-addressed table of slots.
 * About 70 bytes a sample with two values, against twice that in an
 * intern table with a separate array of values.
 *
 * A slot holds its entry's hash and key length as well: a probe reads an
 * entry only when both match. A fleet's table is far larger than the
 * caches, and most samples are new to it: an entry read at each slot
 * passed was a wait for memory (two in three of a fleet's commit).
 */
struct sample_slot {
	uint8_t *e;
	uint32_t h, n;
};

_Static_assert(sizeof(struct sample_slot) == 16, "slots_grow's slots");

struct sample_tab {
	struct fold_arena entries;	/* in order of first appearance */
	struct sample_slot *slots;
	size_t mask, n;
};

enum { SHDR = 8 };

/* Samples whose keys are made before any is looked up. */
enum { BATCH = 32 };

/* The most decoded tables a spare keeps for the next input, in bytes. */
enum { SPARE_MAX = 4 << 20 };

/* An input decoded, its strings in buf. */
struct pprof_decoded {
	struct pprof_dec p;
	char *buf;
	char *file;
	/* validated with its ids mapped, on the decoding thread */
	struct pb_idmap mapids, locids, funcids;
	struct pprof_decoded *next;	/* in the merger's spares */
};

struct pprof_merger {
	uint64_t max_size;
	/* decoded inputs taken back, their tables kept for the next */
	pthread_mutex_t lock;
	struct pprof_decoded *spare;
	int nread;
	/* each table's rows by their key: the intern id is the row */
	struct fold_intern *strs, *mkeys, *ckeys;
	struct mfunc *funcs;
	size_t nfuncs, capfuncs;
	/* the functions by the hash of their strings and start line, the
	   locations by that of their address and lines */
	struct htab ftab, ltab;
	struct mmapping *maps;
	size_t capmaps;
	struct mloc *locs;
	size_t nlocs, caplocs;
	struct mline *lines;
	size_t nlines, caplines;
	struct sample_tab samples;
	size_t ntypes;
	uint32_t *types;	/* type, unit of each */
	uint32_t ptype[2];
	int64_t time, duration, period;
	uint32_t drop, keep, deftype;
	struct buf key, tkey;	/* a sample's key; a table row's */
	struct buf labels;	/* a sample's labels, to be sorted */
};

/* One input being merged. */
struct src {
	const char *file;
	const struct pprof_dec *p;
	struct pb_idmap *mapids, *locids, *funcids;	/* its decoded's */
	uint32_t *fmap, *mmap, *lmap;	/* merged index + 1, 0: not yet */
	uint32_t *smap;			/* the same, of the strings */
	int64_t *mdelta;		/* address shift of each mapping */
};

static void
htab_init(struct htab *t)
{
	t->mask = 255;
	t->n = 0;
	t->slots = fold_big_calloc(t->mask + 1, sizeof *t->slots);
}

static void
htab_free(struct htab *t)
{
	fold_big_free(t->slots, t->mask + 1, sizeof *t->slots);
}

/*
 * An open-addressed table of *mask + 1 slots of SLOT bytes, a slot of
 * zero bytes empty (a used one holds a row id or an entry), grown to
 * twice as many: each slot used moved to the first empty one from its
 * hash, the hlen (4 or 8) bytes at hoff in it. The table of rows and the
 * table of samples, whose slots differ, grow so.
 */
enum { SLOT = 16 };

static int
slot_used(const unsigned char *s)
{
	uint64_t a, b;

	memcpy(&a, s, sizeof a);
	memcpy(&b, s + sizeof a, sizeof b);
	return (a | b) != 0;
}

static void *
slots_grow(void *slots, size_t *mask, size_t hoff, size_t hlen)
{
	size_t nmask = 2 * *mask + 1, i, k;
	unsigned char *ns = fold_big_calloc(nmask + 1, SLOT), *s = slots;
	uint64_t h = 0;
	uint32_t h32;

	for (i = 0; i <= *mask; i++, s += SLOT) {
		if (!slot_used(s))
			continue;
		if (hlen == sizeof h32) {
			memcpy(&h32, s + hoff, sizeof h32);
			h = h32;
		} else {
			memcpy(&h, s + hoff, sizeof h);
		}
		for (k = h & nmask; slot_used(ns + k * SLOT);
		    k = (k + 1) & nmask)
			;
		memcpy(ns + k * SLOT, s, SLOT);
	}
	fold_big_free(slots, *mask + 1, SLOT);
	*mask = nmask;
	return ns;
}

/*
 * Puts row id (index + 1) with hash h at slot j of t, the empty one its
 * search ended at; at most half full.
 */
static void
htab_put(struct htab *t, size_t j, uint64_t h, uint32_t id)
{
	t->slots[j].h = h;
	t->slots[j].id = id;
	if (++t->n > t->mask / 2)
		t->slots = slots_grow(t->slots, &t->mask,
		    offsetof(struct hslot, h), sizeof t->slots->h);
}

struct pprof_merger *
pprof_merger_new(uint64_t max_size)
{
	struct pprof_merger *m = fold_calloc(1, sizeof *m);

	m->max_size = max_size ? max_size : PPROF_MAX_SIZE;
	pthread_mutex_init(&m->lock, NULL);
	m->strs = fold_intern_new();
	fold_intern(m->strs, "", 0);
	htab_init(&m->ftab);
	htab_init(&m->ltab);
	m->mkeys = fold_intern_new();
	m->samples.mask = 1023;
	m->samples.slots = fold_big_calloc(1024, sizeof *m->samples.slots);
	m->ckeys = fold_intern_new();
	return m;
}

void
pprof_merger_free(struct pprof_merger *m)
{
	struct pprof_decoded *d;

	if (!m)
		return;
	while ((d = m->spare) != NULL) {
		m->spare = d->next;
		pprof_dec_free(&d->p);
		free(d);
	}
	pthread_mutex_destroy(&m->lock);
	fold_intern_free(m->strs);
	htab_free(&m->ftab);
	htab_free(&m->ltab);
	fold_intern_free(m->mkeys);
	fold_intern_free(m->ckeys);
	fold_arena_free(&m->samples.entries);
	fold_big_free(m->samples.slots, m->samples.mask + 1,
	    sizeof *m->samples.slots);
	free(m->funcs);
	free(m->maps);
	free(m->locs);
	free(m->lines);
	free(m->types);
	free(m->key.p);
	free(m->tkey.p);
	free(m->labels.p);
	free(m);
}

static int
str_ok(const struct src *s, int64_t i, const char *what, uint64_t id)
{
	if (i < 0 || (uint64_t)i >= s->p->string_table.n)
		return fold_seterr("%s: %s %" PRIu64 ": string index %" PRId64
		    " out of range (%zu strings)", s->file, what, id, i,
		    s->p->string_table.n);
	return 0;
}

/*
 * The merged id of string i of the input (checked before), interned once
 * for the input: a function's name and system name are often the same
 * string, a file name is shared by many, labels repeat.
 */
static uint32_t
str(struct pprof_merger *m, const struct src *s, int64_t i)
{
	const struct pp_str *t = &s->p->string_table.p[i];

	if (!s->smap[i])
		s->smap[i] = fold_intern(m->strs, t->p, t->n) + 1;
	return s->smap[i] - 1;
}

/*
 * 1 when the n ids at ids, stride bytes apart, are each one of dense map
 * m's (1 to its number), or 0 where none may be: a pass with no branch
 * but its loop's. 0 when one is not, or m is not dense: each is then
 * looked up as the merge would, and the first wrong one told.
 */
static int
dense_ids(const struct pb_idmap *m, const void *ids, size_t n,
    size_t stride, int none)
{
	const char *p = ids;
	uint64_t id, max = m->n;	/* read once: ids may alias it */
	size_t i;
	int bad = 0;

	if (!m->dense)
		return 0;
	/* 0 passes the first test, fails the second (id - 1 wraps) */
	if (none)
		for (i = 0; i < n; i++, p += stride) {
			memcpy(&id, p, sizeof id);
			bad |= id > max;
		}
	else
		for (i = 0; i < n; i++, p += stride) {
			memcpy(&id, p, sizeof id);
			bad |= id - 1 >= max;
		}
	return !bad;
}

/* Every index and id the merge will follow, checked first. */
static int
validate(struct src *s)
{
	const struct pprof_dec *p = s->p;
	int locs_ok, lines_ok, maps_ok;
	size_t i, j;

	if (p->sample_type.n == 0)
		return fold_seterr("%s: not a pprof profile: no sample types",
		    s->file);
	if (p->string_table.n == 0 || p->string_table.p[0].n != 0)
		return fold_seterr("%s: string table does not start with \"\"",
		    s->file);
	for (i = 0; i < p->sample_type.n; i++)
		if (str_ok(s, p->sample_type.p[i].type, "sample type", i + 1) ||
		    str_ok(s, p->sample_type.p[i].unit, "sample type", i + 1))
			return -1;
	if (p->has_period_type && (str_ok(s, p->period_type.type,
	    "period type", 0) || str_ok(s, p->period_type.unit,
	    "period type", 0)))
		return -1;
	for (i = 0; i < p->comment.n; i++)
		if (str_ok(s, (int64_t)p->comment.p[i], "comment", i + 1))
			return -1;
	if (str_ok(s, p->drop_frames, "drop frames", 0) ||
	    str_ok(s, p->keep_frames, "keep frames", 0) ||
	    str_ok(s, p->default_sample_type, "default sample type", 0))
		return -1;
	if (pprof_dec_idmaps(p, s->file, s->mapids, s->locids,
	    s->funcids) < 0)
		return -1;
	for (i = 0; i < p->mapping.n; i++) {
		const struct pp_mapping *x = &p->mapping.p[i];
		if (str_ok(s, x->filename, "mapping", x->id) ||
		    str_ok(s, x->build_id, "mapping", x->id))
			return -1;
	}
	for (i = 0; i < p->function.n; i++) {
		const struct pp_function *f = &p->function.p[i];
		if (str_ok(s, f->name, "function", f->id) ||
		    str_ok(s, f->system_name, "function", f->id) ||
		    str_ok(s, f->filename, "function", f->id))
			return -1;
	}
	/* a location's lines are every line */
	maps_ok = dense_ids(s->mapids, &p->location.p[0].mapping_id,
	    p->location.n, sizeof *p->location.p, 1);
	lines_ok = dense_ids(s->funcids, &p->line.p[0].function_id,
	    p->line.n, sizeof *p->line.p, 1);
	for (i = 0; i < p->location.n && !(maps_ok && lines_ok); i++) {
		const struct pp_location *l = &p->location.p[i];
		const struct pp_line *ln = &p->line.p[l->line0];
		if (l->mapping_id && pb_idmap_find(s->mapids, l->mapping_id) < 0)
			return fold_seterr("%s: location %" PRIu64 ": no mapping "
			    "with id %" PRIu64, s->file, l->id, l->mapping_id);
		for (j = 0; j < l->n_line; j++)
			if (ln[j].function_id && pb_idmap_find(s->funcids,
			    ln[j].function_id) < 0)
				return fold_seterr("%s: location %" PRIu64 ": no "
				    "function with id %" PRIu64, s->file, l->id,
				    ln[j].function_id);
	}
	locs_ok = dense_ids(s->locids, p->location_id.p, p->location_id.n,
	    sizeof *p->location_id.p, 0);
	for (i = 0; i < p->sample.n; i++) {
		const struct pp_sample *x = &p->sample.p[i];
		const uint64_t *loc = &p->location_id.p[x->loc0];
		const struct pp_label *lab = &p->label.p[x->lab0];
		if (x->n_value != p->sample_type.n)
			return fold_seterr("%s: sample %zu has %zu values for "
			    "%zu sample types", s->file, i + 1, x->n_value,
			    p->sample_type.n);
		for (j = 0; j < x->n_location_id && !locs_ok; j++)
			if (pb_idmap_find(s->locids, loc[j]) < 0)
				return fold_seterr("%s: sample %zu: no location "
				    "with id %" PRIu64, s->file, i + 1, loc[j]);
		for (j = 0; j < x->n_label; j++)
			if (str_ok(s, lab[j].key, "sample", i + 1) ||
			    str_ok(s, lab[j].str, "sample", i + 1) ||
			    str_ok(s, lab[j].num_unit, "sample", i + 1))
				return -1;
	}
	return 0;
}

/* 1 when merged string id holds the bytes of s. */
static int
same_text(const struct pprof_merger *m, uint32_t id, const struct pp_str *s)
{
	size_t n;
	const char *t = fold_intern_str(m->strs, id, &n);

	return n == s->n && memcmp(t, s->p, n) == 0;
}

/* The first profile sets the sample and period types; the others match. */
static int
check_types(struct pprof_merger *m, struct src *s)
{
	static const struct pp_str none = { "", 0 };
	const struct pprof_dec *p = s->p;
	const struct pp_str *pt = p->has_period_type ?
	    &p->string_table.p[p->period_type.type] : &none;
	const struct pp_str *pu = p->has_period_type ?
	    &p->string_table.p[p->period_type.unit] : &none;
	const struct pp_valuetype *vt = p->sample_type.p;
	const char *ft, *fu;
	size_t i, ftn, fun;

	if (m->nread == 0) {
		m->ntypes = p->sample_type.n;
		m->types = fold_reallocarray(NULL, 2 * m->ntypes,
		    sizeof *m->types);
		for (i = 0; i < m->ntypes; i++) {
			m->types[2 * i] = str(m, s, vt[i].type);
			m->types[2 * i + 1] = str(m, s, vt[i].unit);
		}
		m->ptype[0] = fold_intern(m->strs, pt->p, pt->n);
		m->ptype[1] = fold_intern(m->strs, pu->p, pu->n);
		return 0;
	}
	if (p->sample_type.n != m->ntypes)
		goto differ;
	for (i = 0; i < m->ntypes; i++)
		if (!same_text(m, m->types[2 * i],
		    &p->string_table.p[vt[i].type]) ||
		    !same_text(m, m->types[2 * i + 1],
		    &p->string_table.p[vt[i].unit]))
			goto differ;
	if (!same_text(m, m->ptype[0], pt) || !same_text(m, m->ptype[1], pu)) {
		ft = fold_intern_str(m->strs, m->ptype[0], &ftn);
		fu = fold_intern_str(m->strs, m->ptype[1], &fun);
		return fold_seterr("%s: period type %.*s%s/%.*s%s differs from "
		    "the first profile's (%.*s%s/%.*s%s)", s->file,
		    FOLD_CUT(pt->p, pt->n), FOLD_CUT(pu->p, pu->n),
		    FOLD_CUT(ft, ftn), FOLD_CUT(fu, fun));
	}
	return 0;
differ:
	return fold_seterr("%s: sample types differ from the first profile's",
	    s->file);
}

/*
 * The merged index + 1 of function id of the input. A function is its
 * name, system name, file name and start line: found by the hash of
 * their bytes, its strings then compared, so that one met in an input
 * before, as most of a fleet's are, has neither its strings nor a key
 * of their merged ids interned again (three or four lookups, one).
 */
static uint32_t
map_function(struct pprof_merger *m, struct src *s, uint64_t id)
{
	long i = pb_idmap_find(s->funcids, id);
	const struct pp_function *f = &s->p->function.p[i];
	const struct pp_str *st = s->p->string_table.p;
	const struct pp_str *name = &st[f->name], *sys = &st[f->system_name];
	const struct pp_str *file = &st[f->filename];
	struct mfunc *mf;
	uint64_t h, hn;
	size_t j;

	if (s->fmap[i])
		return s->fmap[i];
	hn = fold_hash(name->p, name->n);
	h = fold_mix(hn ^ (uint64_t)f->start_line, (f->system_name ==
	    f->name ? hn : fold_hash(sys->p, sys->n)) ^
	    fold_hash(file->p, file->n) * 0x9e3779b97f4a7c15ULL);
	for (j = h & m->ftab.mask; m->ftab.slots[j].id;
	    j = (j + 1) & m->ftab.mask) {
		if (m->ftab.slots[j].h != h)
			continue;
		mf = &m->funcs[m->ftab.slots[j].id - 1];
		if (mf->start == f->start_line &&
		    same_text(m, mf->name, name) &&
		    same_text(m, mf->sys, sys) && same_text(m, mf->file, file))
			return s->fmap[i] = m->ftab.slots[j].id;
	}
	if (m->nfuncs >= UINT32_MAX - 1)
		return fold_malloc(SIZE_MAX), 0;	/* dies: out of ids */
	m->funcs = fold_grow(m->funcs, &m->capfuncs, m->nfuncs + 1,
	    sizeof *m->funcs);
	mf = &m->funcs[m->nfuncs++];
	mf->name = str(m, s, f->name);
	mf->sys = str(m, s, f->system_name);
	mf->file = str(m, s, f->filename);
	mf->start = f->start_line;
	htab_put(&m->ftab, j, h, (uint32_t)m->nfuncs);
	return s->fmap[i] = (uint32_t)m->nfuncs;
}

static uint32_t
map_mapping(struct pprof_merger *m, struct src *s, long i)
{
	const struct pp_mapping *x = &s->p->mapping.p[i];
	uint64_t size = x->memory_limit - x->memory_start;
	uint32_t k;
	size_t n;

	if (s->mmap[i])
		return s->mmap[i];
	/* pprof's key: size rounded up to 4 KiB, offset, build id or file */
	size = size + 0xfff;
	size -= size % 0x1000;
	m->tkey.len = 0;
	buf_varint(&m->tkey, size);
	buf_varint(&m->tkey, x->file_offset);
	buf_varint(&m->tkey, x->build_id ? str(m, s, x->build_id) :
	    x->filename ? str(m, s, x->filename) : 0);
	n = fold_intern_count(m->mkeys);
	k = fold_intern(m->mkeys, (const char *)m->tkey.p, m->tkey.len);
	if (k == n) {
		struct mmapping *mm;
		m->maps = fold_grow(m->maps, &m->capmaps, (size_t)k + 1,
		    sizeof *m->maps);
		mm = &m->maps[k];
		mm->start = x->memory_start;
		mm->limit = x->memory_limit;
		mm->offset = x->file_offset;
		mm->file = str(m, s, x->filename);
		mm->build = str(m, s, x->build_id);
		mm->fn = x->has_functions;
		mm->fnames = x->has_filenames;
		mm->lines = x->has_line_numbers;
		mm->inl = x->has_inline_frames;
	}
	s->mdelta[i] = (int64_t)(m->maps[k].start - x->memory_start);
	return s->mmap[i] = k + 1;
}

/*
 * 1 when merged location k is the one of mapping, address, folded and
 * the n lines at m->lines[line0].
 */
static int
same_location(const struct pprof_merger *m, size_t k, uint32_t mapping,
    uint64_t addr, protobuf_c_boolean folded, size_t line0, size_t n)
{
	const struct mloc *x = &m->locs[k];
	const struct mline *a, *b;
	size_t j;

	if (x->mapping != mapping || x->address != addr ||
	    x->folded != folded || x->nline != n)
		return 0;
	for (j = 0; j < n; j++) {
		a = &m->lines[x->line0 + j];
		b = &m->lines[line0 + j];
		if (a->func != b->func || a->line != b->line ||
		    a->column != b->column)
			return 0;
	}
	return 1;
}

static uint32_t
map_location(struct pprof_merger *m, struct src *s, long i)
{
	const struct pp_location *l = &s->p->location.p[i];
	const struct pp_line *ln = &s->p->line.p[l->line0];
	struct mline *ml;
	struct mloc *x;
	uint32_t mapping = 0;
	uint64_t addr = l->address, h;
	size_t j, k, line0;
	long mi;

	if (l->mapping_id) {
		mi = pb_idmap_find(s->mapids, l->mapping_id);
		mapping = map_mapping(m, s, mi);
		addr += (uint64_t)s->mdelta[mi];
	}
	/* the lines go at the end of the merged lines; kept if new */
	line0 = m->nlines;
	m->lines = fold_grow(m->lines, &m->caplines, line0 + l->n_line,
	    sizeof *m->lines);
	for (j = 0; j < l->n_line; j++) {
		ml = &m->lines[line0 + j];
		ml->func = ln[j].function_id ?
		    map_function(m, s, ln[j].function_id) : 0;
		ml->line = ln[j].line;
		ml->column = ln[j].column;
	}
	m->nlines = line0 + l->n_line;
	/*
	 * pprof's key: the mapping, the address within it (the same
	 * mapping, the same start: the address itself), whether folded,
	 * the lines
	 */
	h = fold_mix((uint64_t)mapping << 32 ^ (uint64_t)l->n_line << 1 ^
	    (l->is_folded != 0), addr ^ 0xa0761d6478bd642fULL);
	for (j = 0; j < l->n_line; j++) {
		ml = &m->lines[line0 + j];
		h = fold_mix(h ^ ml->func ^ (uint64_t)ml->column << 32,
		    (uint64_t)ml->line ^ 0x8ebc6af09c88c6e3ULL);
	}
	for (k = h & m->ltab.mask; m->ltab.slots[k].id;
	    k = (k + 1) & m->ltab.mask) {
		if (m->ltab.slots[k].h == h &&
		    same_location(m, m->ltab.slots[k].id - 1, mapping, addr,
		    l->is_folded, line0, l->n_line)) {
			m->nlines = line0;
			return s->lmap[i] = m->ltab.slots[k].id;
		}
	}
	if (m->nlocs >= UINT32_MAX - 1)
		return fold_malloc(SIZE_MAX), 0;	/* dies: out of ids */
	m->locs = fold_grow(m->locs, &m->caplocs, m->nlocs + 1,
	    sizeof *m->locs);
	x = &m->locs[m->nlocs++];
	x->mapping = mapping;
	x->address = addr;
	x->folded = l->is_folded;
	x->line0 = line0;
	x->nline = l->n_line;
	htab_put(&m->ltab, k, h, (uint32_t)m->nlocs);
	return s->lmap[i] = (uint32_t)m->nlocs;
}

static int
cmp_label(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;

	/* by key, then as they came (a, b[4]: the label's place) */
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return (a[4] > b[4]) - (a[4] < b[4]);
}

/* The values of the sample with key k[0..n) and hash h, a new one
   zeroed. */
static int64_t *
sample_values(struct pprof_merger *m, const uint8_t *k, size_t n, uint32_t h)
{
	struct sample_tab *t = &m->samples;
	size_t vsz = m->ntypes * sizeof(int64_t), need, i;
	struct sample_slot *sl;
	uint8_t *e;

	for (i = h & t->mask; (sl = &t->slots[i])->e; i = (i + 1) & t->mask)
		if (sl->h == h && sl->n == n &&
		    memcmp(sl->e + SHDR + vsz, k, n) == 0)
			return (int64_t *)(sl->e + SHDR);
	if (n > UINT32_MAX - 64)
		return fold_malloc(SIZE_MAX), NULL;	/* dies: out of memory */
	/* 8-byte aligned, for the values */
	need = (SHDR + vsz + n + 7) & ~(size_t)7;
	e = fold_arena_alloc(&t->entries, need);
	sl->e = e;
	sl->h = h;
	sl->n = (uint32_t)n;
	memcpy(e, &sl->n, 4);
	memset(e + 4, 0, 4 + vsz);
	memcpy(e + SHDR + vsz, k, n);
	/* at most three quarters full: the slots are cheap beside the
	   entries */
	if (++t->n > t->mask - t->mask / 4)
		t->slots = slots_grow(t->slots, &t->mask,
		    offsetof(struct sample_slot, h), sizeof t->slots->h);
	return (int64_t *)(e + SHDR);
}

/* The entry after e (NULL: the first) in order of first appearance, or
   NULL after the last. */
static const uint8_t *
sample_next(const struct sample_tab *t, size_t vsz, size_t *bi,
    const uint8_t *e)
{
	const struct fold_arena *a = &t->entries;

	if (e) {
		e += (SHDR + vsz + fold_load32(e) + 7) & ~(size_t)7;
	} else {
		*bi = 0;
		e = a->n ? (const uint8_t *)a->blocks[0].p : NULL;
	}
	while (*bi < a->n &&
	    e == (const uint8_t *)a->blocks[*bi].p + a->blocks[*bi].used)
		if (++*bi < a->n)
			e = (const uint8_t *)a->blocks[*bi].p;
	return *bi < a->n ? e : NULL;
}

/*
 * Appends sample x's key to m->key, varint-coded (a sample's key is most
 * of the merger's memory): the number of locations, their merged
 * indexes, then each label's key, string, number and unit, the labels
 * sorted by key so that their order does not matter, as in pprof, but
 * the values of one key kept in their order, which pprof counts.
 */
static void
sample_key(struct pprof_merger *m, struct src *s, const struct pp_sample *x)
{
	const uint64_t *loc = &s->p->location_id.p[x->loc0];
	const struct pp_label *l;
	size_t j;
	uint64_t *lab;
	uint8_t *t;

	/* room for the locations' varints at once: one test, not one each */
	m->key.p = fold_grow(m->key.p, &m->key.cap, m->key.len + 10 *
	    (x->n_location_id + 1), 1);
	t = varint_at(m->key.p + m->key.len, x->n_location_id);
	for (j = 0; j < x->n_location_id; j++) {
		/* a location met before in this input: most of them */
		long i = pb_idmap_find(s->locids, loc[j]);
		t = varint_at(t, s->lmap[i] ? s->lmap[i] :
		    map_location(m, s, i));
	}
	m->key.len = t - m->key.p;
	m->labels.len = 0;
	for (j = 0; j < x->n_label; j++) {
		l = &s->p->label.p[x->lab0 + j];
		buf_u64(&m->labels, str(m, s, l->key));
		buf_u64(&m->labels, str(m, s, l->str));
		buf_u64(&m->labels, (uint64_t)l->num);
		buf_u64(&m->labels, str(m, s, l->num_unit));
		buf_u64(&m->labels, j);
	}
	lab = (uint64_t *)m->labels.p;
	if (x->n_label > 1)
		qsort(lab, x->n_label, 5 * sizeof *lab, cmp_label);
	for (j = 0; j < x->n_label; j++) {
		buf_varint(&m->key, lab[5 * j]);
		buf_varint(&m->key, lab[5 * j + 1]);
		buf_varint(&m->key, lab[5 * j + 2]);
		buf_varint(&m->key, lab[5 * j + 3]);
	}
}

/*
 * Adds the input's samples, in order, BATCH at a time: the keys of a
 * batch are made first, and the slot where each is looked for fetched
 * meanwhile, so that the lookups after find their slots in the cache.
 */
static int
merge_samples(struct pprof_merger *m, struct src *s)
{
	struct {
		size_t off, n;
		uint32_t h;
		const int64_t *val;
	} b[BATCH];
	const struct pp_sample *x;
	size_t i = 0, j, k, nb;
	int64_t *v;

	while (i < s->p->sample.n) {
		m->key.len = 0;
		for (nb = 0; nb < BATCH && i < s->p->sample.n; i++) {
			x = &s->p->sample.p[i];
			b[nb].val = (const int64_t *)&s->p->value.p[x->val0];
			for (j = 0; j < x->n_value && b[nb].val[j] == 0; j++)
				;
			/* as pprof: samples of zero are dropped */
			if (j == x->n_value)
				continue;
			b[nb].off = m->key.len;
			sample_key(m, s, x);
			b[nb].n = m->key.len - b[nb].off;
			b[nb].h = (uint32_t)fold_hash((const char *)m->key.p +
			    b[nb].off, b[nb].n);
			__builtin_prefetch(&m->samples.slots[b[nb].h &
			    m->samples.mask]);
			nb++;
		}
		for (k = 0; k < nb; k++) {
			v = sample_values(m, m->key.p + b[k].off, b[k].n,
			    b[k].h);
			for (j = 0; j < m->ntypes; j++)
				if (__builtin_add_overflow(v[j], b[k].val[j],
				    &v[j]))
					return fold_seterr("%s: the sum of a "
					    "sample's values passes 64 bits",
					    s->file);
		}
	}
	return 0;
}

static void
merge_header(struct pprof_merger *m, struct src *s)
{
	const struct pprof_dec *p = s->p;
	size_t i;

	if (p->time_nanos && (!m->time || p->time_nanos < m->time))
		m->time = p->time_nanos;
	if (__builtin_add_overflow(m->duration, p->duration_nanos,
	    &m->duration))
		m->duration = INT64_MAX;
	if (p->period > m->period)
		m->period = p->period;
	for (i = 0; i < p->comment.n; i++) {
		uint32_t c = str(m, s, (int64_t)p->comment.p[i]);
		fold_intern(m->ckeys, (const char *)&c, sizeof c);
	}
	if (!m->drop)
		m->drop = str(m, s, p->drop_frames);
	if (!m->keep)
		m->keep = str(m, s, p->keep_frames);
	if (m->nread == 0)
		m->deftype = str(m, s, p->default_sample_type);
}

/* Input d to be checked or merged. */
static void
src_init(struct src *s, struct pprof_decoded *d)
{
	memset(s, 0, sizeof *s);
	s->file = d->file;
	s->p = &d->p;
	s->mapids = &d->mapids;
	s->locids = &d->locids;
	s->funcids = &d->funcids;
}

void
pprof_merge_drop(struct pprof_merger *m, struct pprof_decoded *d)
{
	if (!d)
		return;
	free(d->buf);
	d->buf = NULL;
	free(d->file);
	d->file = NULL;
	pb_idmap_free(&d->mapids);
	pb_idmap_free(&d->locids);
	pb_idmap_free(&d->funcids);
	/* a large profile's tables are not kept for the small ones after */
	if (d->p.used > SPARE_MAX)
		pprof_dec_free(&d->p);
	pthread_mutex_lock(&m->lock);
	d->next = m->spare;
	m->spare = d;
	pthread_mutex_unlock(&m->lock);
}

struct pprof_decoded *
pprof_merge_decode(struct pprof_merger *m, struct fold_in *in)
{
	struct pprof_decoded *d;
	const char *file = fold_in_name(in);
	struct src s;
	char *buf;
	size_t len;
	int unchecked;

	if (pb_profile_readall(in, m->max_size, &buf, &len, &unchecked) < 0)
		return NULL;
	pthread_mutex_lock(&m->lock);
	if ((d = m->spare) != NULL)
		m->spare = d->next;
	pthread_mutex_unlock(&m->lock);
	if (!d)
		d = fold_calloc(1, sizeof *d);
	d->file = fold_strdup(file);
	d->buf = buf;
	pprof_dec_reset(&d->p, m->max_size);
	if (pprof_decode(&d->p, (const uint8_t *)buf, len) < 0) {
		if (d->p.over)
			fold_seterr("%s: decoding needs more than %" PRIu64
			    " bytes of memory (see --max-size)", file,
			    m->max_size);
		else
			fold_seterr("%s: not a pprof profile (malformed "
			    "protocol buffer)", file);
		goto fail;
	}
	/* a field numbered 0, which the decoder skips: the check refuses
	   it */
	if (unchecked && d->p.zero_num) {
		unchecked = 0;
		if (pb_profile_check(file, buf, len, m->max_size) < 0)
			goto fail;
	}
	/* every index and id checked here, on the decoding thread */
	src_init(&s, d);
	if (validate(&s) < 0)
		goto fail;
	return d;
fail:
	/* what the check of its fields says comes first, as when it is
	   read in chunks */
	if (unchecked)
		(void)pb_profile_check(file, buf, len, m->max_size);
	pprof_merge_drop(m, d);
	return NULL;
}

int
pprof_merge_add(struct pprof_merger *m, struct fold_in *in)
{
	struct pprof_decoded *d = pprof_merge_decode(m, in);

	return d ? pprof_merge_commit(m, d) : -1;
}

int
pprof_merge_commit(struct pprof_merger *m, struct pprof_decoded *d)
{
	struct src s;
	int rc = -1;

	src_init(&s, d);
	s.smap = fold_calloc(s.p->string_table.n + 1, sizeof *s.smap);
	if (check_types(m, &s) < 0)
		goto out;
	s.fmap = fold_calloc(s.p->function.n + 1, sizeof *s.fmap);
	s.mmap = fold_calloc(s.p->mapping.n + 1, sizeof *s.mmap);
	s.mdelta = fold_calloc(s.p->mapping.n + 1, sizeof *s.mdelta);
	s.lmap = fold_calloc(s.p->location.n + 1, sizeof *s.lmap);
	/* as pprof: the first mapping is the main binary's, so it comes
	   first */
	if (fold_intern_count(m->mkeys) == 0 && s.p->mapping.n > 0)
		map_mapping(m, &s, 0);
	if (merge_samples(m, &s) < 0) {
		rc = -2;
		goto out;
	}
	merge_header(m, &s);
	m->nread++;
	rc = 0;
out:
	free(s.smap);
	free(s.fmap);
	free(s.mmap);
	free(s.mdelta);
	free(s.lmap);
	pprof_merge_drop(m, d);
	return rc;
}

/*
 * The profile is written field by field as protobuf-c packs it (proto3:
 * a number of 0 left out, repeated numbers packed, fields in order of
 * their numbers), without its structs: packing them through their
 * descriptors was a third of writing a merge.
 */
static void
put_int(struct buf *b, unsigned num, int64_t v)
{
	if (v == 0)
		return;
	buf_varint(b, (uint64_t)num << 3);
	buf_varint(b, (uint64_t)v);
}

/* Field num of wire type LEN, holding p[0..n). */
static void
put_bytes(struct buf *b, unsigned num, const void *p, size_t n)
{
	buf_varint(b, (uint64_t)num << 3 | 2);
	buf_varint(b, n);
	if (n)
		buf_add(b, p, n);
}

/* The message in body as field num of b; body emptied. */
static void
put_body(struct buf *b, unsigned num, struct buf *body)
{
	put_bytes(b, num, body->p, body->len);
	body->len = 0;
}

/* Repeated numbers v[0..n) as field num, packed, through tmp. */
static void
put_packed(struct buf *b, unsigned num, const uint64_t *v, size_t n,
    struct buf *tmp)
{
	size_t i;

	if (n == 0)
		return;
	tmp->len = 0;
	for (i = 0; i < n; i++)
		buf_varint(tmp, v[i]);
	put_body(b, num, tmp);
}

/* Compresses what b holds once it is large: the profile is never whole. */
static void
flush(struct pb_gzip *gz, struct buf *b)
{
	if (b->len >= (1 << 20)) {
		pb_gzip_add(gz, b->p, b->len);
		b->len = 0;
	}
}

int
pprof_merge_write(struct pprof_merger *m, struct fold_out *out, unsigned jobs)
{
	struct buf b = { 0, 0, 0 }, msg = { 0, 0, 0 }, sub = { 0, 0, 0 };
	struct buf tmp = { 0, 0, 0 };
	size_t i, j, n, len, nloc;
	const uint8_t *ids;
	uint64_t v;
	size_t bi, vsz = m->ntypes * sizeof(int64_t);
	const uint8_t *e;
	struct pb_gzip gz;
	int rc;

	if (m->nread == 0)
		return fold_seterr("no profile read");
	pb_gzip_begin(&gz, out, jobs);
	for (i = 0; i < m->ntypes; i++) {
		put_int(&msg, 1, m->types[2 * i]);
		put_int(&msg, 2, m->types[2 * i + 1]);
		put_body(&b, 1, &msg);
	}
	for (e = sample_next(&m->samples, vsz, &bi, NULL); e;
	    e = sample_next(&m->samples, vsz, &bi, e)) {
		const int64_t *val = (const int64_t *)(e + SHDR);
		const uint8_t *p = e + SHDR + vsz, *end;
		len = fold_load32(e);
		end = p + len;
		for (j = 0; j < m->ntypes && val[j] == 0; j++)
			;
		if (j == m->ntypes)	/* summed to zero */
			continue;
		/* the key's location ids are varints already: packed */
		nloc = getvarint(&p);
		for (ids = p, j = 0; j < nloc; j++)
			(void)getvarint(&p);
		if (nloc)
			put_bytes(&msg, 1, ids, p - ids);
		put_packed(&msg, 2, (const uint64_t *)val, m->ntypes, &tmp);
		/* the rest: four varints a label */
		while (p < end) {
			for (j = 1; j <= 4; j++) {
				v = getvarint(&p);
				put_int(&sub, j, (int64_t)v);
			}
			put_body(&msg, 3, &sub);
		}
		put_body(&b, 2, &msg);
		flush(&gz, &b);
	}
	n = fold_intern_count(m->mkeys);
	for (i = 0; i < n; i++) {
		const struct mmapping *mm = &m->maps[i];
		put_int(&msg, 1, (int64_t)(i + 1));
		put_int(&msg, 2, (int64_t)mm->start);
		put_int(&msg, 3, (int64_t)mm->limit);
		put_int(&msg, 4, (int64_t)mm->offset);
		put_int(&msg, 5, mm->file);
		put_int(&msg, 6, mm->build);
		put_int(&msg, 7, mm->fn != 0);
		put_int(&msg, 8, mm->fnames != 0);
		put_int(&msg, 9, mm->lines != 0);
		put_int(&msg, 10, mm->inl != 0);
		put_body(&b, 3, &msg);
	}
	n = m->nlocs;
	for (i = 0; i < n; i++) {
		const struct mloc *ml = &m->locs[i];
		put_int(&msg, 1, (int64_t)(i + 1));
		put_int(&msg, 2, ml->mapping);
		put_int(&msg, 3, (int64_t)ml->address);
		for (j = 0; j < ml->nline; j++) {
			const struct mline *l = &m->lines[ml->line0 + j];
			put_int(&sub, 1, l->func);
			put_int(&sub, 2, l->line);
			put_int(&sub, 3, l->column);
			put_body(&msg, 4, &sub);
		}
		put_int(&msg, 5, ml->folded != 0);
		put_body(&b, 4, &msg);
		flush(&gz, &b);
	}
	for (i = 0; i < m->nfuncs; i++) {
		put_int(&msg, 1, (int64_t)(i + 1));
		put_int(&msg, 2, m->funcs[i].name);
		put_int(&msg, 3, m->funcs[i].sys);
		put_int(&msg, 4, m->funcs[i].file);
		put_int(&msg, 5, m->funcs[i].start);
		put_body(&b, 5, &msg);
	}
	n = fold_intern_count(m->strs);
	for (i = 0; i < n; i++) {
		const char *str = fold_intern_str(m->strs, i, &len);
		put_bytes(&b, 6, str, len);
	}
	put_int(&b, 7, m->drop);
	put_int(&b, 8, m->keep);
	put_int(&b, 9, m->time);
	put_int(&b, 10, m->duration);
	if (m->ptype[0] || m->ptype[1]) {
		put_int(&msg, 1, m->ptype[0]);
		put_int(&msg, 2, m->ptype[1]);
		put_body(&b, 11, &msg);
	}
	put_int(&b, 12, m->period);
	n = fold_intern_count(m->ckeys);
	for (i = 0; i < n; i++) {
		uint32_t c;
		memcpy(&c, fold_intern_str(m->ckeys, i, NULL), sizeof c);
		buf_varint(&sub, c);
	}
	if (sub.len)
		put_body(&b, 13, &sub);
	put_int(&b, 14, m->deftype);
	pb_gzip_add(&gz, b.p, b.len);
	rc = pb_gzip_end(&gz);
	free(b.p);
	free(msg.p);
	free(sub.p);
	free(tmp.p);
	return rc;
}
