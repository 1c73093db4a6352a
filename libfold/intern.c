#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "intern.h"

/*
 * Names live in arena blocks that never move, so the pointers handed out
 * stay valid; the table is open addressing over ids, with each entry's
 * hash kept beside it to skip most string compares.
 */
struct name {
	const char *s;
	uint32_t len;
};

struct slot {
	uint32_t id;	/* FOLD_NOFRAME: empty */
	uint32_t hash;
};

struct fold_intern {
	struct name *names;
	size_t len, cap;
	struct slot *slots;
	size_t mask;
	char *block;
	size_t blockfree;
	char **blocks;
	size_t nblocks;
};

enum { BLOCK = 1 << 20 };

static inline uint64_t
load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t
mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* A multiply-mix hash over 16 bytes per step (in the manner of wyhash). */
uint64_t
fold_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
	const uint64_t k1 = 0xa0761d6478bd642fULL, k2 = 0xe7037ed1a0b428dbULL;

	while (n >= 16) {
		h = mix(load64(s) ^ k1, load64(s + 8) ^ h);
		s += 16;
		n -= 16;
	}
	uint64_t a = 0, b = 0;
	if (n >= 8) {
		a = load64(s);
		b = load64(s + n - 8);
	} else if (n > 0) {
		unsigned char t[8] = { 0 };
		memcpy(t, s, n);
		a = load64(t);
	}
	return mix(h ^ k2, mix(a ^ k1, b ^ k2 ^ h));
}

struct fold_intern *
fold_intern_new(void)
{
	struct fold_intern *t = fold_calloc(1, sizeof *t);
	size_t i;

	t->mask = 1023;
	t->slots = fold_malloc((t->mask + 1) * sizeof *t->slots);
	for (i = 0; i <= t->mask; i++)
		t->slots[i].id = FOLD_NOFRAME;
	return t;
}

void
fold_intern_free(struct fold_intern *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nblocks; i++)
		free(t->blocks[i]);
	free(t->blocks);
	free(t->names);
	free(t->slots);
	free(t);
}

static const char *
store(struct fold_intern *t, const char *s, size_t n)
{
	char *p;

	if (n + 1 > t->blockfree) {
		size_t sz = n + 1 > BLOCK / 4 ? n + 1 : BLOCK;
		p = fold_malloc(sz);
		t->blocks = fold_reallocarray(t->blocks, t->nblocks + 1,
		    sizeof *t->blocks);
		t->blocks[t->nblocks++] = p;
		if (sz != BLOCK) {	/* a big name gets a block of its own */
			memcpy(p, s, n);
			p[n] = '\0';
			return p;
		}
		t->block = p;
		t->blockfree = sz;
	}
	p = t->block;
	memcpy(p, s, n);
	p[n] = '\0';
	t->block += n + 1;
	t->blockfree -= n + 1;
	return p;
}

static void
grow(struct fold_intern *t)
{
	size_t nmask = t->mask * 2 + 1, i, j;
	struct slot *ns = fold_reallocarray(NULL, nmask + 1, sizeof *ns);

	for (i = 0; i <= nmask; i++)
		ns[i].id = FOLD_NOFRAME;
	for (i = 0; i <= t->mask; i++) {
		if (t->slots[i].id == FOLD_NOFRAME)
			continue;
		for (j = t->slots[i].hash & nmask; ns[j].id != FOLD_NOFRAME;
		    j = (j + 1) & nmask)
			;
		ns[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = ns;
	t->mask = nmask;
}

static size_t
lookup(const struct fold_intern *t, const char *s, size_t n, uint32_t h)
{
	size_t i;

	for (i = h & t->mask; t->slots[i].id != FOLD_NOFRAME;
	    i = (i + 1) & t->mask) {
		const struct slot *sl = &t->slots[i];
		const struct name *nm = &t->names[sl->id];
		if (sl->hash == h && nm->len == n && memcmp(nm->s, s, n) == 0)
			break;
	}
	return i;
}

uint32_t
fold_intern(struct fold_intern *t, const char *s, size_t n)
{
	uint32_t h = (uint32_t)fold_hash(s, n);
	size_t i = lookup(t, s, n, h);

	if (t->slots[i].id != FOLD_NOFRAME)
		return t->slots[i].id;
	if (n > UINT32_MAX || t->len >= UINT32_MAX - 1)
		return fold_malloc(SIZE_MAX), FOLD_NOFRAME;	/* out of ids */
	if (t->len == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->names = fold_reallocarray(t->names, t->cap, sizeof *t->names);
	}
	t->names[t->len].s = store(t, s, n);
	t->names[t->len].len = n;
	t->slots[i].id = t->len;
	t->slots[i].hash = h;
	t->len++;
	if (t->len * 2 > t->mask)
		grow(t);
	return t->len - 1;
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
