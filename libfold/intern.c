#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "err.h"
#include "hash.h"
#include "intern.h"

/*
 * Names live in arena blocks that never move, so the pointers handed out
 * stay valid. The table is open addressing; a slot holds the name's hash,
 * id and text pointer, with the length stored just before the text, so a
 * probe reads the slot and then the name itself: two memory accesses, not
 * three. Every block ends in PAD zero bytes, so names may be read and
 * copied 16 bytes at a time past their end.
 */
struct name {
	const char *s;
	uint32_t len;
};

struct slot {
	uint32_t hash;
	uint32_t id;	/* FOLD_NOFRAME: empty */
	const char *s;	/* the length is the 4 bytes before */
};

struct fold_intern {
	struct name *names;
	size_t len, cap;
	struct slot *slots;
	size_t mask;
	char *block;
	size_t blockfree;
	size_t blocksz;		/* of the next block: doubles up to BLOCK */
	struct block {
		char *p;
		size_t n;	/* bytes: a big array (err.h) */
	} *blocks;
	size_t nblocks;
	uint64_t serial;
};

/* the last serial given; tables are made on any thread */
static uint64_t serials;

/*
 * Blocks grow from FIRSTBLOCK to BLOCK bytes, PAD included, so that a
 * small input costs little. They are big arrays (err.h): the larger ones
 * blocks of pages most often touched already, not fresh ones.
 */
enum { FIRSTBLOCK = 1 << 12, BLOCK = 1 << 20, PAD = 16 };

/* Marks n slots empty: every byte 0xff makes each id FOLD_NOFRAME. */
_Static_assert(FOLD_NOFRAME == UINT32_MAX, "an empty slot is all ones");

static void
empty(struct slot *sl, size_t n)
{
	memset(sl, 0xff, n * sizeof *sl);
}

struct fold_intern *
fold_intern_new(void)
{
	struct fold_intern *t = fold_calloc(1, sizeof *t);

	t->mask = 63;
	t->slots = fold_big_alloc(t->mask + 1, sizeof *t->slots);
	empty(t->slots, t->mask + 1);
	t->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	return t;
}

uint64_t
fold_intern_serial(const struct fold_intern *t)
{
	return t->serial;
}

struct fold_intern *
fold_intern_copy(const struct fold_intern *t)
{
	struct fold_intern *c = fold_intern_new();
	size_t i;

	for (i = 0; i < t->len; i++)
		fold_intern(c, t->names[i].s, t->names[i].len);
	return c;
}

void
fold_intern_free(struct fold_intern *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nblocks; i++)
		fold_big_free(t->blocks[i].p, t->blocks[i].n, 1);
	free(t->blocks);
	fold_big_free(t->names, t->cap, sizeof *t->names);
	fold_big_free(t->slots, t->mask + 1, sizeof *t->slots);
	free(t);
}

/* A copy of s[0..n) in the arena, after its 4-byte length. */
static const char *
store(struct fold_intern *t, const char *s, size_t n)
{
	size_t need = (4 + n + 1 + 7) & ~(size_t)7;
	uint32_t len = n;
	char *p;

	if (need > t->blockfree) {
		/* a big name gets a block of its own */
		size_t bs = t->blocksz ? t->blocksz : FIRSTBLOCK;
		size_t sz = need > (bs - PAD) / 4 ? need + PAD : bs;
		p = fold_big_calloc(sz, 1);
		t->blocks = fold_reallocarray(t->blocks, t->nblocks + 1,
		    sizeof *t->blocks);
		t->blocks[t->nblocks++] = (struct block){ p, sz };
		if (sz == bs) {
			t->block = p;
			t->blockfree = sz - PAD;
			t->blocksz = bs < BLOCK ? 2 * bs : BLOCK;
		}
	} else {
		p = t->block;
	}
	if (p == t->block) {
		t->block += need;
		t->blockfree -= need;
	}
	memcpy(p, &len, 4);
	if (n)			/* s may be NULL for "" */
		memcpy(p + 4, s, n);	/* the NUL is there: blocks start zeroed */
	return p + 4;
}

static void
grow(struct fold_intern *t)
{
	size_t nmask = t->mask * 2 + 1, i, j;
	struct slot *ns = fold_big_alloc(nmask + 1, sizeof *ns);

	empty(ns, nmask + 1);
	for (i = 0; i <= t->mask; i++) {
		if (t->slots[i].id == FOLD_NOFRAME)
			continue;
		for (j = t->slots[i].hash & nmask; ns[j].id != FOLD_NOFRAME;
		    j = (j + 1) & nmask)
			;
		ns[j] = t->slots[i];
	}
	fold_big_free(t->slots, t->mask + 1, sizeof *t->slots);
	t->slots = ns;
	t->mask = nmask;
}

/* The slot of s[0..n) with hash h: its own, or the empty one for it. */
static inline size_t
lookup(const struct fold_intern *t, const char *s, size_t n, uint32_t h)
{
	size_t i;

	for (i = h & t->mask; t->slots[i].id != FOLD_NOFRAME;
	    i = (i + 1) & t->mask) {
		const struct slot *sl = &t->slots[i];
		if (sl->hash == h && fold_load32(sl->s - 4) == n &&
		    fold_same(sl->s, s, n))
			break;
	}
	return i;
}

/* Interns s[0..n) with hash h at its slot i (from lookup). */
static __attribute__((noinline)) uint32_t
add(struct fold_intern *t, size_t i, const char *s, size_t n, uint32_t h)
{
	if (t->slots[i].id != FOLD_NOFRAME)
		return t->slots[i].id;
	if (n > UINT32_MAX - 16 || t->len >= UINT32_MAX - 1)
		return fold_malloc(SIZE_MAX), FOLD_NOFRAME;	/* out of ids */
	t->names = fold_big_grow(t->names, &t->cap, t->len + 1,
	    sizeof *t->names);
	t->names[t->len].s = store(t, s, n);
	t->names[t->len].len = n;
	t->slots[i].id = t->len;
	t->slots[i].hash = h;
	t->slots[i].s = t->names[t->len].s;
	t->len++;
	if (t->len * 2 > t->mask)
		grow(t);
	return t->len - 1;
}

uint32_t
fold_intern(struct fold_intern *t, const char *s, size_t n)
{
	uint32_t h = (uint32_t)fold_hash(s, n);

	return add(t, lookup(t, s, n, h), s, n, h);
}

/* bit i set when p[i] is ';', for the n <= 16 bytes at p */
static inline uint32_t
semicolons(const char *p, size_t n)
{
	uint32_t m = 0;
	size_t i;

#ifdef __SSE2__
	if (n == 16)
		return _mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_loadu_si128((const __m128i *)p), _mm_set1_epi8(';')));
#endif
	for (i = 0; i < n; i++)
		m |= (uint32_t)(p[i] == ';') << i;
	return m;
}

size_t
fold_intern_stack(struct fold_intern *t, const char *s, size_t n,
    uint32_t **ids, size_t *cap, size_t k)
{
	struct span { uint32_t off, len, hash; } *sp;
	size_t nf = 0, capsp = 64, off, base, e, i;
	struct span buf[64];

	/*
	 * First every name's bounds and hash, fetching its slot ahead, then
	 * the text the slots point to; then the lookups, which no longer wait
	 * for memory one after another.
	 */
	sp = buf;
	if (n > UINT32_MAX)
		return fold_malloc(SIZE_MAX), k;	/* too long */
	for (base = 0, off = 0; base <= n; base += 16) {
		/* the ';' of 16 bytes at once; past the end, a last name */
		uint32_t m = base < n ? semicolons(s + base, n - base < 16 ?
		    n - base : 16) : 0;
		if (base + 16 > n)
			m |= (uint32_t)1 << (n - base);
		for (; m; m &= m - 1) {
			e = base + __builtin_ctz(m);
			if (nf == capsp) {
				struct span *nsp = fold_reallocarray(NULL,
				    capsp * 2, sizeof *nsp);
				memcpy(nsp, sp, nf * sizeof *sp);
				if (sp != buf)
					free(sp);
				sp = nsp;
				capsp *= 2;
			}
			sp[nf].off = off;
			sp[nf].len = e - off;
			sp[nf].hash = fold_hash(s + off, e - off);
			__builtin_prefetch(&t->slots[sp[nf].hash & t->mask]);
			nf++;
			off = e + 1;
		}
	}
	*ids = fold_grow(*ids, cap, k + nf, sizeof **ids);
	for (i = 0; i < nf; i++) {
		const struct slot *sl = &t->slots[sp[i].hash & t->mask];
		if (sl->id != FOLD_NOFRAME)
			__builtin_prefetch(sl->s - 4);
	}
	for (i = 0; i < nf; i++) {
		const char *f = s + sp[i].off;
		size_t j = lookup(t, f, sp[i].len, sp[i].hash);
		(*ids)[k++] = t->slots[j].id != FOLD_NOFRAME ? t->slots[j].id :
		    add(t, j, f, sp[i].len, sp[i].hash);
	}
	if (sp != buf)
		free(sp);
	return k;
}

size_t
fold_intern_join(const struct fold_intern *t, const uint32_t *ids, size_t n,
    char **buf, size_t *cap, size_t off)
{
	size_t need = off + 16, i, k;
	char *d;

	for (i = 0; i < n; i++)
		need += t->names[ids[i]].len + 1;
	*buf = fold_grow(*buf, cap, need, 1);
	d = *buf + off;
	for (i = 0; i < n; i++) {
		const struct name *nm = &t->names[ids[i]];
		/* 16 bytes at a time: names are padded, the buffer has room */
		for (k = 0; k < nm->len; k += 16)
			memcpy(d + k, nm->s + k, 16);
		d += nm->len;
		*d++ = ';';
	}
	return d - *buf - (n > 0);
}

uint32_t
fold_intern_find(const struct fold_intern *t, const char *s, size_t n)
{
	return t->slots[lookup(t, s, n, (uint32_t)fold_hash(s, n))].id;
}

const char *
fold_intern_str(const struct fold_intern *t, uint32_t id, size_t *len)
{
	if (len)
		*len = t->names[id].len;
	return t->names[id].s;
}

size_t
fold_intern_count(const struct fold_intern *t)
{
	return t->len;
}

int
fold_intern_cmp(const struct fold_intern *t, uint32_t a, uint32_t b)
{
	const struct name *x = &t->names[a], *y = &t->names[b];
	size_t n = x->len < y->len ? x->len : y->len;
	int c;

	if (a == b)
		return 0;
	c = memcmp(x->s, y->s, n);
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}
