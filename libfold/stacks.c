#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "err.h"
#include "hash.h"
#include "jobs.h"
#include "unit.h"
#include "stacks.h"

struct entry {
	size_t off;		/* into ids */
	uint32_t n;
	uint32_t hash;
};

/* the hash beside the index: a probe that misses need not read the entry */
struct sslot {
	uint32_t i;		/* entry index + 1; 0: empty */
	uint32_t hash;
};

struct fold_stacks {
	struct fold_intern *frames;
	int ncols;
	uint32_t *ids;
	size_t nids, capids;
	struct entry *ents;
	struct fold_count *counts;	/* ncols per entry */
	size_t len, cap;
	struct sslot *slots;
	size_t mask, capslots;		/* capslots >= mask + 1 */
	int hashed;			/* slots match ents */
	int sorted;			/* ents in FOLD_ORDER_x + 1; 0: no */
	uint32_t *scratch;		/* for fold_stacks_add_text */
	size_t capscratch;
	uint64_t adds;			/* fold_stacks_adds */
	char unit[FOLD_UNIT_MAX + 1];	/* "" until one is set */
	int unit_forced;
	struct ranks *ranks;		/* of its frames, made ahead */
};

static struct ranks *ranks_make(const struct fold_intern *fr, int tokens);
static void ranks_free(struct ranks *r);

struct fold_stacks *
fold_stacks_new(struct fold_intern *frames, int ncols)
{
	struct fold_stacks *st = fold_calloc(1, sizeof *st);

	st->frames = frames;
	st->ncols = ncols < 1 ? 1 : ncols > FOLD_MAXCOLS ? FOLD_MAXCOLS : ncols;
	st->mask = 1023;
	st->capslots = st->mask + 1;
	st->slots = fold_big_calloc(st->capslots, sizeof *st->slots);
	st->hashed = 1;
	return st;
}

void
fold_stacks_free(struct fold_stacks *st)
{
	if (!st)
		return;
	fold_big_free(st->ids, st->capids, sizeof *st->ids);
	fold_big_free(st->ents, st->cap, sizeof *st->ents);
	fold_big_free(st->counts, st->cap, st->ncols * sizeof *st->counts);
	fold_big_free(st->slots, st->capslots, sizeof *st->slots);
	free(st->scratch);
	ranks_free(st->ranks);
	free(st);
}

const char *
fold_stacks_unit(const struct fold_stacks *st)
{
	return st->unit[0] ? st->unit : NULL;
}

int
fold_stacks_set_unit(struct fold_stacks *st, const char *unit, size_t n)
{
	if (st->unit_forced)
		return 0;
	if (!st->unit[0] && fold_unit_valid(unit, n)) {
		memcpy(st->unit, unit, n);
		st->unit[n] = '\0';
		return 0;
	}
	if (strlen(st->unit) == n && memcmp(st->unit, unit, n) == 0)
		return 0;
	return fold_seterr("counts %.*s, but the inputs before it %s; "
	    "different units do not add up",
	    (int)(n > FOLD_UNIT_MAX ? FOLD_UNIT_MAX : n), unit,
	    st->unit[0] ? st->unit : "a unit");
}

void
fold_stacks_force_unit(struct fold_stacks *st, const char *unit)
{
	size_t n = strlen(unit);

	if (n > FOLD_UNIT_MAX)
		n = FOLD_UNIT_MAX;
	memcpy(st->unit, unit, n);
	st->unit[n] = '\0';
	st->unit_forced = 1;
}

struct fold_intern *
fold_stacks_frames(const struct fold_stacks *st)
{
	return st->frames;
}

int
fold_stacks_ncols(const struct fold_stacks *st)
{
	return st->ncols;
}

uint64_t
fold_stacks_adds(const struct fold_stacks *st)
{
	return st->adds;
}

size_t
fold_stacks_len(const struct fold_stacks *st)
{
	return st->len;
}

const uint32_t *
fold_stacks_ids(const struct fold_stacks *st, size_t i, size_t *n)
{
	*n = st->ents[i].n;
	return st->ids + st->ents[i].off;
}

void
fold_stacks_prefetch_ids(const struct fold_stacks *st, size_t i)
{
	const uint32_t *p;

	if (i >= st->len)
		return;
	p = st->ids + st->ents[i].off;
	__builtin_prefetch(p);
	__builtin_prefetch(p + (st->ents[i].n ? st->ents[i].n - 1 : 0));
}

struct fold_count *
fold_stacks_counts(struct fold_stacks *st, size_t i)
{
	return st->counts + i * st->ncols;
}

/* Room for need entries and their counts, which share a capacity. */
static void
grow_entries(struct fold_stacks *st, size_t need)
{
	size_t cap = st->cap;

	st->ents = fold_big_grow(st->ents, &cap, need, sizeof *st->ents);
	st->counts = fold_big_grow(st->counts, &st->cap, need,
	    st->ncols * sizeof *st->counts);
}

static void
rehash(struct fold_stacks *st, size_t mask)
{
	size_t i, j;

	if (!st->slots || st->capslots < mask + 1) {
		fold_big_free(st->slots, st->capslots, sizeof *st->slots);
		st->capslots = mask + 1;
		st->slots = fold_big_alloc(st->capslots, sizeof *st->slots);
	}
	st->mask = mask;
	/*
	 * Zeroed by writing: a page read first maps the zero page, and
	 * replacing it at the first write costs, once there are threads, a
	 * TLB flush on every other processor.
	 */
	memset(st->slots, 0, (mask + 1) * sizeof *st->slots);
	for (i = 0; i < st->len; i++) {
		for (j = st->ents[i].hash & mask; st->slots[j].i;
		    j = (j + 1) & mask)
			;
		st->slots[j].i = i + 1;
		st->slots[j].hash = st->ents[i].hash;
	}
	st->hashed = 1;
}

static uint32_t
hash_ids(const uint32_t *ids, size_t n)
{
	return fold_hash(ids, n * sizeof *ids);
}

/*
 * The slot of hash h, to be fetched: a sorted table has no slots until an
 * add. A macro, as a function whose only effect is a prefetch is taken by
 * the compiler for one without any, and its calls are dropped.
 */
#define PREFETCH_SLOT(st, h) do {					\
	if ((st)->hashed)						\
		__builtin_prefetch(&(st)->slots[(h) & (st)->mask]);	\
} while (0)

/*
 * The entry of the first slot of hash h past its place, or NULL (none, or
 * a sorted table, which has no slots until an add).
 */
static const struct entry *
probe(const struct fold_stacks *st, uint32_t h)
{
	size_t j;

	if (!st->hashed)
		return NULL;
	for (j = h & st->mask; st->slots[j].i; j = (j + 1) & st->mask)
		if (st->slots[j].hash == h)
			return &st->ents[st->slots[j].i - 1];
	return NULL;
}

static long add_hashed(struct fold_stacks *, const uint32_t *, size_t,
    uint32_t, const struct fold_count *);

/* a queued stack; room for the next is the one after the last */
struct qstack {
	uint32_t *ids;
	size_t n, cap;
	uint32_t hash;
	struct fold_count c[FOLD_MAXCOLS];
	const char *where;
	uint64_t line;
};

enum { QDEPTH = 3 };	/* loads waited on in an add, each a stage */

struct fold_addq {
	struct fold_stacks *st;
	struct qstack q[QDEPTH + 1];
	unsigned first, len;
};

struct fold_addq *
fold_addq_new(struct fold_stacks *st)
{
	struct fold_addq *q = fold_calloc(1, sizeof *q);

	q->st = st;
	return q;
}

void
fold_addq_free(struct fold_addq *q)
{
	int i;

	if (!q)
		return;
	for (i = 0; i <= QDEPTH; i++)
		free(q->q[i].ids);
	free(q);
}

static struct qstack *
qat(struct fold_addq *q, unsigned age)
{
	return &q->q[(q->first + q->len - 1 - age) % (QDEPTH + 1)];
}

uint32_t **
fold_addq_room(struct fold_addq *q, size_t **cap)
{
	struct qstack *s = &q->q[(q->first + q->len) % (QDEPTH + 1)];

	*cap = &s->cap;
	return &s->ids;
}

static int
addfirst(struct fold_addq *q)
{
	struct qstack *s = &q->q[q->first];

	q->first = (q->first + 1) % (QDEPTH + 1);
	q->len--;
	if (add_hashed(q->st, s->ids, s->n, s->hash, s->c) < 0) {
		/* the stacks after it are not added: reading stops here */
		q->first = q->len = 0;
		return fold_seterr_at(s->where, s->line, "%s", fold_err());
	}
	return 0;
}

int
fold_addq_push(struct fold_addq *q, size_t n, const struct fold_count *counts,
    const char *where, uint64_t line)
{
	struct fold_stacks *st = q->st;
	const struct entry *e;
	struct qstack *s;
	size_t k;

	q->len++;
	s = qat(q, 0);
	s->n = n;
	s->hash = hash_ids(s->ids, n);
	s->c[0] = counts[0];
	if (st->ncols > 1)
		s->c[1] = counts[1];
	s->where = where;
	s->line = line;
	/* each stage's load was asked for at the push before */
	PREFETCH_SLOT(st, s->hash);
	if (q->len > 1 && (e = probe(st, qat(q, 1)->hash)) != NULL)
		__builtin_prefetch(e);
	if (q->len > 2 && (e = probe(st, qat(q, 2)->hash)) != NULL) {
		/* a stack's first frames tell most apart */
		for (k = 0; k < e->n && k < 48; k += 16)
			__builtin_prefetch(st->ids + e->off + k);
		__builtin_prefetch(st->counts + (e - st->ents) * st->ncols,
		    1);
	}
	return q->len > QDEPTH ? addfirst(q) : 0;
}

int
fold_addq_flush(struct fold_addq *q)
{
	while (q->len)
		if (addfirst(q) < 0)
			return -1;
	return 0;
}

long
fold_stacks_add(struct fold_stacks *st, const uint32_t *ids, size_t n,
    const struct fold_count *counts)
{
	return add_hashed(st, ids, n, hash_ids(ids, n), counts);
}

/*
 * fold_stacks_add of a stack whose hash h is known (hash_ids). A new
 * stack's frames are copied to the end of st's; or, when at is not
 * SIZE_MAX, they are ids, already in st's at at.
 */
static long
add_at(struct fold_stacks *st, const uint32_t *ids, size_t n, uint32_t h,
    const struct fold_count *counts, size_t at)
{
	size_t j, i;
	int c;

	if (!st->hashed)
		rehash(st, st->mask);
	for (j = h & st->mask; st->slots[j].i; j = (j + 1) & st->mask) {
		const struct entry *e;
		if (st->slots[j].hash != h)
			continue;
		e = &st->ents[st->slots[j].i - 1];
		if (e->n == n &&
		    fold_same(st->ids + e->off, ids, n * sizeof *ids))
			break;
	}
	if (st->slots[j].i) {
		struct fold_count *acc, sum[FOLD_MAXCOLS];
		i = st->slots[j].i - 1;
		acc = fold_stacks_counts(st, i);
		/* all columns or none: an overflow leaves the stack as it was */
		for (c = 0; c < st->ncols; c++) {
			sum[c] = acc[c];
			if (fold_count_add(&sum[c], &counts[c]) < 0)
				return -1;
		}
		memcpy(acc, sum, st->ncols * sizeof *acc);
		st->adds++;
		return i;
	}
	if (n > UINT32_MAX || st->len >= UINT32_MAX - 1)
		return fold_seterr("too many stacks or frames");
	if (at == SIZE_MAX)
		st->ids = fold_big_grow(st->ids, &st->capids, st->nids + n,
		    sizeof *st->ids);
	if (st->len == st->cap)
		grow_entries(st, st->len + 1);
	i = st->len++;
	st->sorted = 0;
	st->ents[i].n = n;
	st->ents[i].hash = h;
	if (at != SIZE_MAX) {
		st->ents[i].off = at;
	} else {
		/* a stack of no frame: ids and st->ids may be NULL */
		if (n > 0)
			memcpy(st->ids + st->nids, ids, n * sizeof *ids);
		st->ents[i].off = st->nids;
		st->nids += n;
	}
	memcpy(fold_stacks_counts(st, i), counts, st->ncols * sizeof *counts);
	st->slots[j].i = i + 1;
	st->slots[j].hash = h;
	if (st->len * 2 > st->mask)
		rehash(st, st->mask * 2 + 1);
	st->adds++;
	return i;
}

static long
add_hashed(struct fold_stacks *st, const uint32_t *ids, size_t n,
    uint32_t h, const struct fold_count *counts)
{
	return add_at(st, ids, n, h, counts, SIZE_MAX);
}

/* The mask of st's slots once it holds n more stacks, half of them free. */
static size_t
mask_for(const struct fold_stacks *st, size_t n)
{
	size_t mask = st->mask;

	while ((st->len + n) * 2 > mask)
		mask = mask * 2 + 1;
	return mask;
}

/*
 * Room in st for n more stacks of nids frames in all, so that adding them
 * neither copies its arrays again nor rehashes it on the way.
 */
static void
reserve(struct fold_stacks *st, size_t n, size_t nids)
{
	size_t mask = mask_for(st, n);

	st->ids = fold_big_grow(st->ids, &st->capids, st->nids + nids,
	    sizeof *st->ids);
	if (st->len + n > st->cap)
		grow_entries(st, st->len + n);
	if (mask != st->mask || !st->hashed)
		rehash(st, mask);
}

/* How far ahead of its add a stack's slot is fetched. */
enum { MERGE_AHEAD = 8 };

/*
 * After a table's frames were adopted at base (merge): when the stacks
 * it added, from entry first on, use less than half of them (the others'
 * stacks were dst's already), their frames are moved down to follow
 * each other, and the pages past them given back: a table takes no more
 * than twice the room of its stacks. They are in the order of their
 * frames (a table read in order), else left as they are.
 */
static void
pack(struct fold_stacks *st, size_t first, size_t base)
{
	size_t i, pos = base, used = 0, end = base;

	for (i = first; i < st->len; i++) {
		if (st->ents[i].off < end)
			return;
		end = st->ents[i].off + st->ents[i].n;
		used += st->ents[i].n;
	}
	if (used * 2 >= st->nids - base)
		return;
	for (i = first; i < st->len; i++) {
		memmove(st->ids + pos, st->ids + st->ents[i].off,
		    st->ents[i].n * sizeof *st->ids);
		st->ents[i].off = pos;
		pos += st->ents[i].n;
	}
	fold_release(st->ids + pos, (st->nids - pos) * sizeof *st->ids);
	st->nids = pos;
}

/*
 * The ids in dst's frames of src's, src's frames of a table of their own:
 * each interned in dst's once. Those below *same have the same ids in
 * both (src's frames began as a copy of dst's, fold_intern_copy). NULL
 * when src shares dst's frames.
 */
static uint32_t *
frame_map(struct fold_stacks *dst, const struct fold_stacks *src,
    size_t *same)
{
	size_t nf, i, len;
	const char *name;
	uint32_t *map;

	*same = 0;
	if (src->frames == dst->frames)
		return NULL;
	nf = fold_intern_count(src->frames);
	map = fold_reallocarray(NULL, nf ? nf : 1, sizeof *map);
	for (i = 0; i < nf; i++) {
		name = fold_intern_str(src->frames, (uint32_t)i, &len);
		map[i] = fold_intern(dst->frames, name, len);
		if (map[i] == i && *same == i)
			(*same)++;
	}
	return map;
}

/* What merge's first pass shares with its tasks. */
struct remap {
	const struct fold_stacks *src;
	const uint32_t *sids, *map;	/* map NULL: dst's frames shared */
	size_t same;
	uint32_t *hash;
};

/*
 * The ids of src's stacks [a, b) in dst's frames, in place, and their
 * hashes: a stack whose frames kept their ids keeps its hash.
 */
static void
remap_range(void *arg, size_t a, size_t b)
{
	const struct remap *r = arg;
	const struct entry *e;
	size_t i, j, m;
	uint32_t *p;

	for (i = a; i < b; i++) {
		e = &r->src->ents[i];
		p = (uint32_t *)r->sids + e->off;
		r->hash[i] = e->hash;
		if (!r->map)
			continue;
		for (j = 0; j < e->n && p[j] < r->same; j++)
			;
		if (j == e->n)
			continue;
		for (m = 0; m < e->n; m++)
			p[m] = r->map[p[m]];
		r->hash[i] = hash_ids(p, e->n);
	}
}

/*
 * Below this many stacks, merge's first pass is made on one thread:
 * starting another costs more than it saves.
 */
enum { REMAP_JOBS_MIN = 16384 };

/*
 * own: src itself when it is the caller's to free next (a take), whose
 * frames are mapped in place and whose arrays dst may take; else NULL.
 * map: the ids in dst's frames of src's (frame_map, or the caller's),
 * the same below same; NULL when src shares dst's frames. jobs: the
 * threads the first pass may take.
 */
static int
merge(struct fold_stacks *dst, const struct fold_stacks *src,
    struct fold_stacks *own, const uint32_t *map, size_t same, unsigned jobs)
{
	size_t i, first, base = SIZE_MAX, at, nmask;
	size_t hcap = 0, icap = 0;
	struct sslot *sq;
	uint32_t *q;
	int shared = !map, rc = 0;
	uint32_t *ids = NULL, *hash = NULL;
	uint64_t adds = dst->adds + src->adds;
	const uint32_t *sids;
	const struct entry *e;
	struct remap r;
	/*
	 * Two passes: the stacks' ids in dst's frames and their hashes
	 * first, in order; then the adds, each stack's slot fetched a few
	 * stacks ahead. A stack whose frames kept their ids keeps its hash;
	 * the others, most of a part's, are mapped: in place when src is to
	 * be freed (take), else in a copy of its ids.
	 */
	hash = fold_big_grow(NULL, &hcap, src->len + 1, sizeof *hash);
	sids = src->ids;
	if (!shared && !own) {
		ids = fold_big_grow(NULL, &icap, src->nids + 1, sizeof *ids);
		memcpy(ids, src->ids, src->nids * sizeof *ids);
		sids = ids;
	}
	r = (struct remap){ src, sids, map, same, hash };
	fold_jobs_ranges(src->len, map ? REMAP_JOBS_MIN : SIZE_MAX, jobs,
	    remap_range, &r);
	/*
	 * A table taken whole and large: its frames' pages are moved to the
	 * end of dst's, not copied to fresh ones, and its new stacks keep
	 * their frames where they are.
	 */
	if (own && (q = fold_big_adopt(dst->ids, &dst->capids, dst->nids,
	    own->ids, own->capids, sizeof *dst->ids, &base)) != NULL) {
		dst->ids = q;
		own->ids = NULL;
		own->capids = 0;
		sids = dst->ids + base;
		dst->nids = base + src->nids;
	}
	/*
	 * Its hash slots too, when dst's must grow to what both hold: they
	 * are not read while its stacks are added, and clearing pages that
	 * were written costs less than pages the system has yet to give.
	 */
	nmask = mask_for(dst, src->len);
	if (own && dst->slots && own->slots && nmask > dst->mask &&
	    nmask + 1 <= dst->capslots + own->capslots &&
	    (sq = fold_big_adopt(dst->slots, &dst->capslots, dst->capslots,
	    own->slots, own->capslots, sizeof *dst->slots, &at)) != NULL) {
		dst->slots = sq;
		own->slots = NULL;
		own->capslots = 0;
		dst->hashed = 0;
	}
	first = dst->len;
	reserve(dst, src->len, base == SIZE_MAX ? src->nids : 0);
	for (i = 0; i < src->len && rc == 0; i++) {
		if (i + MERGE_AHEAD < src->len)
			PREFETCH_SLOT(dst, hash[i + MERGE_AHEAD]);
		e = &src->ents[i];
		if (add_at(dst, sids + e->off, e->n, hash[i],
		    src->counts + i * src->ncols, base == SIZE_MAX ? SIZE_MAX :
		    base + e->off) < 0)
			rc = -1;
	}
	if (base != SIZE_MAX)
		pack(dst, first, base);
	if (rc == 0)
		dst->adds = adds;
	fold_big_free(ids, icap, sizeof *ids);
	fold_big_free(hash, hcap, sizeof *hash);
	return rc;
}

int
fold_stacks_merge(struct fold_stacks *dst, const struct fold_stacks *src)
{
	size_t same;
	uint32_t *map = frame_map(dst, src, &same);
	int rc = merge(dst, src, NULL, map, same, 1);

	free(map);
	return rc;
}

/* fold_stacks_take, src's frames mapped (frame_map), on jobs threads */
static int
take(struct fold_stacks *dst, struct fold_stacks *src, const uint32_t *map,
    size_t same, unsigned jobs)
{
	struct fold_stacks t;

	/*
	 * The larger table's stacks stay where they are, and the smaller's
	 * are added to them: the tables of a file's parts hold most of its
	 * stacks, the reader's only those of its first piece.
	 */
	if (!map && src->ncols == dst->ncols && src->len > dst->len) {
		t = *dst;
		dst->ids = src->ids, dst->nids = src->nids;
		dst->capids = src->capids;
		dst->ents = src->ents, dst->counts = src->counts;
		dst->len = src->len, dst->cap = src->cap;
		dst->slots = src->slots, dst->mask = src->mask;
		dst->capslots = src->capslots;
		dst->hashed = src->hashed;
		dst->sorted = src->sorted;
		src->ids = t.ids, src->nids = t.nids, src->capids = t.capids;
		src->ents = t.ents, src->counts = t.counts;
		src->len = t.len, src->cap = t.cap;
		src->slots = t.slots, src->mask = t.mask;
		src->capslots = t.capslots;
		src->hashed = t.hashed;
		src->sorted = t.sorted;
	}
	return merge(dst, src, src, map, same, jobs);
}

int
fold_stacks_take(struct fold_stacks *dst, struct fold_stacks *src)
{
	size_t same;
	uint32_t *map = frame_map(dst, src, &same);
	int rc = take(dst, src, map, same, 1);

	free(map);
	return rc;
}

/* What fold_stacks_take_parts's other thread makes. */
struct ahead {
	const struct fold_intern *fr;
	struct ranks *r;
};

static void *
ranks_ahead(void *arg)
{
	struct ahead *a = arg;

	a->r = ranks_make(a->fr, 1);
	return NULL;
}

/*
 * Below this many frames, their ranks are not made on a thread of their
 * own while the parts are added: starting it costs more than it saves.
 */
enum { RANKS_AHEAD_MIN = 1024 };

int
fold_stacks_take_parts(struct fold_stacks *dst, struct fold_stacks **src,
    size_t n, unsigned jobs)
{
	uint32_t **map = fold_calloc(n ? n : 1, sizeof *map);
	size_t *same = fold_calloc(n ? n : 1, sizeof *same), i;
	struct ahead a = { dst->frames, NULL };
	pthread_t tid;
	int rc = 0, started = 0;

	/* every frame first: dst's frames are read, not added to, after */
	for (i = 0; i < n; i++)
		map[i] = frame_map(dst, src[i], &same[i]);
	if (fold_intern_count(dst->frames) >= RANKS_AHEAD_MIN &&
	    fold_jobs_count(jobs) > 1)
		started = fold_thread_start(&tid, ranks_ahead, &a) == 0;
	for (i = 0; i < n; i++) {
		if (rc == 0 && take(dst, src[i], map[i], same[i], jobs) < 0)
			rc = -1;
		free(map[i]);
	}
	if (started) {
		pthread_join(tid, NULL);
		ranks_free(dst->ranks);
		dst->ranks = a.r;
	}
	free(map);
	free(same);
	return rc;
}

int
fold_stacks_take_mapped(struct fold_stacks *dst, struct fold_stacks *src,
    const uint32_t *map)
{
	return merge(dst, src, src, map, 0, 1);
}

long
fold_stacks_add_text(struct fold_stacks *st, const char *s, size_t n,
    const struct fold_count *counts)
{
	size_t k = fold_intern_stack(st->frames, s, n, &st->scratch,
	    &st->capscratch, 0);

	return fold_stacks_add(st, st->scratch, k, counts);
}

int
fold_stacks_sum(const struct fold_stacks *st, uint64_t *sum)
{
	size_t i, n = st->len * st->ncols;
	uint64_t s = 0;

	for (i = 0; i < n; i++) {
		if (st->counts[i].frac || st->counts[i].v.u > UINT64_MAX - s)
			return -1;
		s += st->counts[i].v.u;
	}
	*sum = s;
	return 0;
}

int
fold_stacks_total(const struct fold_stacks *st, int col,
    struct fold_count *total)
{
	struct fold_count t = FOLD_COUNT_INIT;
	size_t i;

	for (i = 0; i < st->len; i++)
		if (fold_count_add(&t, &st->counts[i * st->ncols + col]) < 0)
			return -1;
	*total = t;
	return 0;
}

/*
 * Byte order of the joined texts, compared from frame i on, where both
 * stacks first differ. Reached only when one differing name is a prefix of
 * the other, so that what follows it (';', the next frame, or the end)
 * decides.
 */
static int
cmp_text_from(const struct fold_intern *fr, const uint32_t *a, size_t na,
    const uint32_t *b, size_t nb, size_t i)
{
	size_t fa = i, fb = i, pa = 0, pb = 0, la, lb;
	const char *sa = fold_intern_str(fr, a[fa], &la);
	const char *sb = fold_intern_str(fr, b[fb], &lb);

	for (;;) {
		int ca, cb;	/* -1: end of text */
		if (pa < la)
			ca = (unsigned char)sa[pa];
		else
			ca = fa + 1 < na ? ';' : -1;
		if (pb < lb)
			cb = (unsigned char)sb[pb];
		else
			cb = fb + 1 < nb ? ';' : -1;
		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (ca == -1)
			return 0;
		if (pa < la)
			pa++;
		else
			sa = fold_intern_str(fr, a[++fa], &la), pa = 0;
		if (pb < lb)
			pb++;
		else
			sb = fold_intern_str(fr, b[++fb], &lb), pb = 0;
	}
}

/* Compares two frame sequences in the given order. */
static int
fold_stacks_cmp_ids(const struct fold_intern *fr, enum fold_order order,
    const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t n = na < nb ? na : nb, i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	if (i == n)
		return (na > nb) - (na < nb);
	if (order == FOLD_ORDER_FRAMES)
		return fold_intern_cmp(fr, a[i], b[i]);
	size_t la, lb;
	const char *sa = fold_intern_str(fr, a[i], &la);
	const char *sb = fold_intern_str(fr, b[i], &lb);
	int c = memcmp(sa, sb, la < lb ? la : lb);
	if (c || la == lb)
		return c ? c : cmp_text_from(fr, a, na, b, nb, i);
	return cmp_text_from(fr, a, na, b, nb, i);
}

/*
 * Sorting works on ranks: every frame's position in the byte order of all
 * names, computed once. Stacks are sorted on 64-bit keys that pack the
 * ranks of as many frames as fit (rank + 1; 0 for "no more frames", so a
 * prefix sorts first), a radix sort per run of equal keys, a few frames
 * deeper each time: integer work, and a shared prefix looked at once per
 * run instead of once per comparison.
 *
 * In text order a name's rank is not enough when one name is a proper
 * prefix of another: "a;x" against "ab" is decided by ';' against 'b',
 * "a" against "a:b" by the end of the text. Then every name is ranked
 * twice, as "name;" (a frame with more after it) and as "name" at the end
 * of the text (a stack's last frame), among all those tokens. No token is
 * a prefix of another, so comparing token ranks compares the texts
 * exactly. Only names that hold ';' themselves (never read from folded
 * text) fall back to a comparison sort on the texts.
 */
struct keyed {
	uint64_t key;
	const uint32_t *ids;
	uint32_t n;		/* frames in ids */
	uint32_t i;		/* index in the table */
};

struct sortctx {
	const struct fold_stacks *st;
	uint32_t *rank;
	unsigned char *isprefix;	/* by rank */
};

static int
cmp_id(const void *x, const void *y, void *arg)
{
	return fold_intern_cmp(arg, *(const uint32_t *)x, *(const uint32_t *)y);
}

static int
cmp_text(const void *x, const void *y, void *arg)
{
	const struct sortctx *c = arg;
	const struct keyed *a = x, *b = y;
	size_t n = a->n < b->n ? a->n : b->n, i;

	for (i = 0; i < n && a->ids[i] == b->ids[i]; i++)
		;
	if (i == n)
		return (a->n > b->n) - (a->n < b->n);
	uint32_t ra = c->rank[a->ids[i]], rb = c->rank[b->ids[i]];
	if (c->isprefix[ra < rb ? ra : rb])
		return fold_stacks_cmp_ids(c->st->frames, FOLD_ORDER_TEXT,
		    a->ids, a->n, b->ids, b->n);
	return ra < rb ? -1 : 1;
}

/*
 * The ranks of the tokens (see above) from the names in byte order,
 * byname[0..nf), none holding ';': r[id] of name id at the end of the
 * text, r[nf + id] of it followed by ';'. A name's end comes where the
 * name does, before every longer name it prefixes; its ';' comes after
 * the longer names whose next byte is below ';', before those above. The
 * names prefixing the one at hand wait on a stack for their ';', shortest
 * at the bottom: one pass instead of a sort of twice the names.
 */
static void
rank_tokens(const struct fold_intern *fr, const uint32_t *byname, size_t nf,
    uint32_t *r)
{
	uint32_t *open = fold_reallocarray(NULL, nf + 1, sizeof *open);
	size_t i, k = 0, nopen = 0, l, ol;
	const char *s, *o;

	for (i = 0; i < nf; i++) {
		s = fold_intern_str(fr, byname[i], &l);
		while (nopen > 0) {
			o = fold_intern_str(fr, open[nopen - 1], &ol);
			if (ol < l && memcmp(o, s, ol) == 0 &&
			    (unsigned char)s[ol] < ';')
				break;
			r[nf + open[--nopen]] = k++;
		}
		r[byname[i]] = k++;
		open[nopen++] = byname[i];
	}
	while (nopen > 0)
		r[nf + open[--nopen]] = k++;
	free(open);
}

/*
 * Quicksort of a[0..n) on key (Hoare's partition around the middle key),
 * insertion sort below 16: for the short runs, where a radix sort's
 * passes cost more than they save. The smaller side is sorted first by
 * recursion, so its depth stays below log2(n).
 */
static void
key_sort(struct keyed *a, size_t n)
{
	struct keyed x;
	size_t i, j;

	while (n > 16) {
		uint64_t p = a[(n - 1) / 2].key;
		ptrdiff_t lo = -1, hi = n;
		for (;;) {
			do
				lo++;
			while (a[lo].key < p);
			do
				hi--;
			while (a[hi].key > p);
			if (lo >= hi)
				break;
			x = a[lo], a[lo] = a[hi], a[hi] = x;
		}
		/* a[0..hi] <= p <= a[hi+1..n) */
		if ((size_t)hi + 1 < n - hi - 1) {
			key_sort(a, hi + 1);
			a += hi + 1;
			n -= hi + 1;
		} else {
			key_sort(a + hi + 1, n - hi - 1);
			n = hi + 1;
		}
	}
	for (i = 1; i < n; i++) {
		x = a[i];
		for (j = i; j > 0 && a[j - 1].key > x.key; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* LSD radix sort of a[0..n) on the low `bits` bits of key, 11 at a time. */
static void
radix_sort(struct keyed *a, struct keyed *tmp, size_t n, int bits)
{
	size_t count[2048], i, sum;
	struct keyed *src = a, *dst = tmp, *t;
	int shift;

	for (shift = 0; shift < bits; shift += 11) {
		memset(count, 0, sizeof count);
		for (i = 0; i < n; i++)
			count[src[i].key >> shift & 2047]++;
		for (i = 0, sum = 0; i < 2048; i++) {
			size_t c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[src[i].key >> shift & 2047]++] = src[i];
		t = src, src = dst, dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

/* A run of ks to sort on the frames from depth on. */
struct seg {
	size_t lo, hi, depth;
};

/* What rank_sort's jobs share. */
struct rsort {
	struct keyed *ks, *tmp;	/* tmp[lo..hi) is scratch for ks[lo..hi) */
	const uint32_t *lrank, *mrank;
	int bits, per;
	struct seg *segs;	/* the runs the first level left */
	size_t *group;		/* job g sorts segs[group[g]..group[g + 1]) */
};

/*
 * Sorts the run sg on the ranks of its next per frames, and pushes the
 * runs of equal keys that do not end their stacks onto todo[0..*ntodo).
 */
static struct seg *
rank_level(const struct rsort *r, struct seg sg, struct seg *todo,
    size_t *ntodo, size_t *cap)
{
	struct keyed *ks = r->ks;
	uint64_t last = ((uint64_t)1 << r->bits) - 1;
	size_t i, j;
	int k;

	for (i = sg.lo; i < sg.hi; i++) {
		const struct keyed *e = &ks[i];
		uint64_t key = 0;
		if (i + 8 < sg.hi)
			__builtin_prefetch(ks[i + 8].ids + sg.depth);
		for (k = 0; k < r->per; k++) {
			size_t d = sg.depth + k;
			uint64_t v = 0;
			if (d + 1 < e->n)
				v = r->mrank[e->ids[d]] + 1;
			else if (d + 1 == e->n)
				v = r->lrank[e->ids[d]] + 1;
			key = key << r->bits | v;
		}
		ks[i].key = key;
	}
	if (sg.hi - sg.lo > 512)
		radix_sort(ks + sg.lo, r->tmp + sg.lo, sg.hi - sg.lo,
		    r->bits * r->per);
	else
		key_sort(ks + sg.lo, sg.hi - sg.lo);
	for (i = sg.lo; i < sg.hi; i = j) {
		for (j = i + 1; j < sg.hi && ks[j].key == ks[i].key; j++)
			;
		/* equal keys that do not end the stacks: look deeper */
		if (j - i > 1 && (ks[i].key & last)) {
			todo = fold_grow(todo, cap, *ntodo + 1, sizeof *todo);
			todo[(*ntodo)++] = (struct seg){ i, j,
			    sg.depth + r->per };
		}
	}
	return todo;
}

/* Sorts the runs todo[0..ntodo) to the ends of their stacks; frees todo. */
static void
rank_runs(const struct rsort *r, struct seg *todo, size_t ntodo, size_t cap)
{
	while (ntodo > 0) {
		struct seg sg = todo[--ntodo];
		todo = rank_level(r, sg, todo, &ntodo, &cap);
	}
	free(todo);
}

static void
rank_job(void *arg, size_t g)
{
	const struct rsort *r = arg;
	size_t n = r->group[g + 1] - r->group[g], cap = n + 16;
	struct seg *todo = fold_reallocarray(NULL, cap, sizeof *todo);

	memcpy(todo, r->segs + r->group[g], n * sizeof *todo);
	rank_runs(r, todo, n, cap);
}

/*
 * Below this many stacks a table is sorted on one thread:
 * starting threads costs more than they save.
 */
enum { SORT_JOBS_MIN = 8192 };

/*
 * Sorts ks[0..n) (tmp[0..n) its scratch) by frame ranks: lrank[id] for a
 * stack's last frame, mrank[id] for the others (see fold_stacks_sort), all
 * below nranks. No recursion, however deep the stacks. With jobs, the runs
 * the first level leaves, which share their first frames and are sorted
 * apart from each other, are dealt out to the threads in groups of about
 * equal size.
 */
static void
rank_sort(struct keyed *ks, struct keyed *tmp, size_t n, const uint32_t *lrank,
    const uint32_t *mrank, size_t nranks, unsigned jobs)
{
	struct rsort r = { ks, tmp, lrank, mrank, 1, 0, NULL, NULL };
	size_t ntodo = 0, cap = 64, i, g, ng, sum = 0, total = 0;

	while (((uint64_t)1 << r.bits) <= nranks)
		r.bits++;
	r.per = 64 / r.bits;
	r.segs = fold_reallocarray(NULL, cap, sizeof *r.segs);
	r.segs = rank_level(&r, (struct seg){ 0, n, 0 }, r.segs, &ntodo,
	    &cap);
	if (n < SORT_JOBS_MIN || (jobs = fold_jobs_count(jobs)) <= 1) {
		rank_runs(&r, r.segs, ntodo, cap);
		return;
	}
	/* four groups a thread: a thread done early takes another */
	ng = (size_t)jobs * 4;
	r.group = fold_calloc(ng + 1, sizeof *r.group);
	for (i = 0; i < ntodo; i++)
		total += r.segs[i].hi - r.segs[i].lo;
	for (i = 0, g = 0; i < ntodo; i++) {
		sum += r.segs[i].hi - r.segs[i].lo;
		while (g + 1 < ng && sum * ng > total * (g + 1))
			r.group[++g] = i + 1;
	}
	while (g < ng)
		r.group[++g] = ntodo;
	fold_jobs(ng, jobs, rank_job, &r);
	free(r.group);
	free(r.segs);
}

/*
 * The ids of the nf names of fr in byte order, in byname. Sorted first on
 * their first 8 bytes as an integer (big-endian, zeros after a shorter
 * name: a name sorts no later than the names it prefixes), then the runs
 * of equal keys on the whole names: most of the compares are of integers,
 * and the names are read once each instead of at each compare.
 */
static void
sort_names(const struct fold_intern *fr, uint32_t *byname, size_t nf)
{
	struct keyed *k = fold_big_alloc(nf + 1, sizeof *k);
	size_t i, j, m, l;
	const char *s;

	for (i = 0; i < nf; i++) {
		uint64_t key = 0;
		s = fold_intern_str(fr, (uint32_t)i, &l);
		for (j = 0; j < 8; j++)
			key = key << 8 | (j < l ? (unsigned char)s[j] : 0);
		k[i].key = key;
		k[i].i = (uint32_t)i;
	}
	key_sort(k, nf);
	for (i = 0; i < nf; i++)
		byname[i] = k[i].i;
	for (i = 0; i < nf; i = j) {
		for (j = i + 1; j < nf && k[j].key == k[i].key; j++)
			;
		if ((m = j - i) > 1)
			qsort_r(byname + i, m, sizeof *byname, cmp_id,
			    (void *)fr);
	}
	fold_big_free(k, nf + 1, sizeof *k);
}

/*
 * Puts the entries in the order of ks (entry ks[i].i goes to i), in the
 * sort's scratch, ks[0..nks), which holds 48 bytes an entry: ks, then
 * the radix sort's tmp. Each array is gathered in order into the scratch,
 * then copied back: the entries and the order (its last 4 bytes an entry)
 * into tmp while ks is read, then the counts into its start. The gathers
 * are loads independent of each other, where following the permutation's
 * cycles in place was a chain of dependent ones; no fresh page is
 * written; and from REORDER_JOBS_MIN entries each step is dealt out to
 * the threads, a range of entries a task.
 */
_Static_assert(sizeof(struct entry) + sizeof(uint32_t) <=
    sizeof(struct keyed) && FOLD_MAXCOLS * sizeof(struct fold_count) +
    sizeof(uint32_t) <= 2 * sizeof(struct keyed), "reorder's scratch");

enum { REORDER_JOBS_MIN = 65536 };

struct reorder {
	struct fold_stacks *st;
	const struct keyed *ks;
	uint32_t *perm;
	struct entry *e;
	struct fold_count *c;
};

/* Each step on entries [a, b). */
static void
gather_entries(void *arg, size_t a, size_t b)
{
	const struct reorder *r = arg;
	size_t i;

	for (i = a; i < b; i++) {
		r->perm[i] = r->ks[i].i;
		r->e[i] = r->st->ents[r->perm[i]];
	}
}

static void
put_entries(void *arg, size_t a, size_t b)
{
	const struct reorder *r = arg;

	memcpy(r->st->ents + a, r->e + a, (b - a) * sizeof *r->e);
}

static void
gather_counts(void *arg, size_t a, size_t b)
{
	const struct reorder *r = arg;
	size_t nc = r->st->ncols, i;

	for (i = a; i < b; i++)
		memcpy(r->c + i * nc, r->st->counts + (size_t)r->perm[i] * nc,
		    nc * sizeof *r->c);
}

static void
put_counts(void *arg, size_t a, size_t b)
{
	const struct reorder *r = arg;
	size_t nc = r->st->ncols;

	memcpy(r->st->counts + a * nc, r->c + a * nc,
	    (b - a) * nc * sizeof *r->c);
}

static void
reorder(struct fold_stacks *st, struct keyed *ks, size_t nks, unsigned jobs)
{
	size_t n = st->len, m = REORDER_JOBS_MIN;
	struct reorder r = { st, ks, (uint32_t *)(ks + nks) - n,
	    (struct entry *)(ks + n + 1), (struct fold_count *)ks };

	if (n == 0)	/* the arrays of an empty table may be NULL */
		return;
	/* each step done on every range before the next is begun */
	fold_jobs_ranges(n, m, jobs, gather_entries, &r);
	fold_jobs_ranges(n, m, jobs, put_entries, &r);
	fold_jobs_ranges(n, m, jobs, gather_counts, &r);
	fold_jobs_ranges(n, m, jobs, put_counts, &r);
}

void
fold_stacks_sort(struct fold_stacks *st, enum fold_order order)
{
	fold_stacks_sort_jobs(st, order, 1);
}

/*
 * What sorting a table's stacks needs of its frames alone: their ranks in
 * the byte order of their names (fold_stacks_sort), and the ranks of the
 * tokens where one name prefixes another (rank_tokens). A merge of parts
 * makes them on another thread while it adds stacks (fold_stacks_take_parts).
 */
struct ranks {
	size_t nf;			/* of the frames there were */
	uint32_t *rank;			/* by id */
	unsigned char *isprefix;	/* by rank: the next name's prefix */
	uint32_t *r2;			/* rank_tokens', or NULL */
	int anyprefix, anysemi;
	int tokens;			/* r2 made where it is needed */
};

/* The ranks of fr's frames; with tokens, those for text order too. */
static struct ranks *
ranks_make(const struct fold_intern *fr, int tokens)
{
	struct ranks *r = fold_calloc(1, sizeof *r);
	size_t nf = fold_intern_count(fr), i, la, lb;
	uint32_t *byname = fold_big_alloc(nf + 1, sizeof *byname);

	r->nf = nf;
	r->tokens = tokens;
	r->rank = fold_big_alloc(nf + 1, sizeof *r->rank);
	r->isprefix = fold_big_calloc(nf + 1, 1);
	sort_names(fr, byname, nf);
	for (i = 0; i < nf; i++) {
		r->rank[byname[i]] = i;
		if (i + 1 < nf) {
			const char *a = fold_intern_str(fr, byname[i], &la);
			const char *b = fold_intern_str(fr, byname[i + 1], &lb);
			r->isprefix[i] = la < lb && memcmp(a, b, la) == 0;
			r->anyprefix |= r->isprefix[i];
		}
	}
	for (i = 0; r->anyprefix && i < nf && !r->anysemi; i++) {
		const char *a = fold_intern_str(fr, i, &la);
		r->anysemi = memchr(a, ';', la) != NULL;
	}
	if (tokens && r->anyprefix && !r->anysemi) {
		/* r2[0..nf): as the last frame; r2[nf..2nf): with more after */
		r->r2 = fold_big_alloc(2 * nf + 1, sizeof *r->r2);
		rank_tokens(fr, byname, nf, r->r2);
	}
	fold_big_free(byname, nf + 1, sizeof *byname);
	return r;
}

static void
ranks_free(struct ranks *r)
{
	if (!r)
		return;
	fold_big_free(r->rank, r->nf + 1, sizeof *r->rank);
	fold_big_free(r->isprefix, r->nf + 1, 1);
	if (r->r2)
		fold_big_free(r->r2, 2 * r->nf + 1, sizeof *r->r2);
	free(r);
}

static void
sort_table(struct fold_stacks *st, enum fold_order order, unsigned jobs)
{
	size_t nf = fold_intern_count(st->frames), i;
	struct sortctx ctx = { st, NULL, NULL };
	size_t kcap = 0;
	struct keyed *ks, *tmp;
	struct ranks *r = st->ranks;

	/* made ahead for the frames there are now, or made here */
	st->ranks = NULL;
	if (!r || r->nf != nf || (order == FOLD_ORDER_TEXT && !r->tokens)) {
		ranks_free(r);
		r = ranks_make(st->frames, order == FOLD_ORDER_TEXT);
	}
	/*
	 * The hash slots go (a sorted table is hashed again when added
	 * to), and the keys and the radix sort's scratch are one array:
	 * the table's peak is at its sort.
	 */
	fold_big_free(st->slots, st->capslots, sizeof *st->slots);
	st->slots = NULL;
	st->capslots = 0;
	st->hashed = 0;
	ks = fold_big_grow(NULL, &kcap, 2 * (st->len + 1), sizeof *ks);
	tmp = ks + st->len + 1;
	for (i = 0; i < st->len; i++) {
		ks[i].ids = st->ids + st->ents[i].off;
		ks[i].n = st->ents[i].n;
		ks[i].i = i;
	}
	ctx.rank = r->rank;
	ctx.isprefix = r->isprefix;
	if (order != FOLD_ORDER_TEXT || !r->anyprefix)
		rank_sort(ks, tmp, st->len, r->rank, r->rank, nf, jobs);
	else if (!r->anysemi)
		rank_sort(ks, tmp, st->len, r->r2, r->r2 + nf, 2 * nf, jobs);
	else
		qsort_r(ks, st->len, sizeof *ks, cmp_text, &ctx);
	reorder(st, ks, kcap, jobs);
	fold_big_free(ks, kcap, sizeof *ks);
	ranks_free(r);
}

void
fold_stacks_sort_jobs(struct fold_stacks *st, enum fold_order order,
    unsigned jobs)
{
	/*
	 * Sorted since its last new stack, it is still: a writer that sorts
	 * what it writes finds done what its caller did on threads.
	 */
	if (st->sorted == (int)order + 1)
		return;
	sort_table(st, order, jobs);
	st->sorted = (int)order + 1;
}

void
fold_stacks_filter(struct fold_stacks *st,
    int (*keep)(void *arg, struct fold_stacks *st, size_t i), void *arg,
    int drop_zero)
{
	size_t i, j = 0;
	int c;

	for (i = 0; i < st->len; i++) {
		int k = keep ? keep(arg, st, i) : 1;
		if (k && drop_zero) {
			k = 0;
			for (c = 0; c < st->ncols; c++)
				if (!fold_count_iszero(&st->counts[i * st->ncols + c]))
					k = 1;
		}
		if (!k)
			continue;
		st->ents[j] = st->ents[i];
		memmove(st->counts + j * st->ncols, st->counts + i * st->ncols,
		    st->ncols * sizeof *st->counts);
		j++;
	}
	st->len = j;
	st->hashed = 0;
}
