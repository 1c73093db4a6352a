#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libdeflate.h>

#include "err.h"

static _Thread_local char msg[1024];

int
fold_seterr(const char *fmt, ...)
{
	char tmp[sizeof msg];
	va_list ap;

	/* through tmp: callers may pass fold_err() itself as an argument */
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	memcpy(msg, tmp, sizeof msg);
	return -1;
}

const char *
fold_err(void)
{
	return msg;
}

static void (*oom_handler)(void) = abort;

void
fold_set_oom_handler(void (*handler)(void))
{
	oom_handler = handler ? handler : abort;
}

static void *
check(void *p)
{
	if (p == NULL) {
		oom_handler();
		abort();	/* a handler must not return */
	}
	return p;
}

void *
fold_malloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *
fold_calloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *
fold_realloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

void *
fold_reallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		return check(NULL);
	return fold_realloc(p, nmemb * size);
}

/* The capacity an array of cap elements grows to, to hold need. */
static size_t
grown(size_t cap, size_t need)
{
	size_t n = cap ? cap : 32;

	n = n > SIZE_MAX / 2 ? SIZE_MAX : 2 * n;
	return n < need ? need : n;
}

void *
fold_grow_to(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if (need <= *cap)
		return p;
	n = grown(*cap, need);
	p = fold_reallocarray(p, n, size);
	*cap = n;
	return p;
}

/*
 * Mappings for big arrays (err.h): not under the address sanitizer, and
 * only where mremap and MADV_HUGEPAGE exist.
 */
#if defined(__SANITIZE_ADDRESS__)
#define NOMAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NOMAP 1
#endif
#endif
#if !defined(MREMAP_MAYMOVE) || !defined(MADV_HUGEPAGE)
#define NOMAP 1
#endif
#ifndef NOMAP
#define NOMAP 0
#endif

/* a huge page; a mapping's length is a multiple of it */
#define HUGE ((size_t)2 << 20)

/* What holds a big array of so many bytes (err.h). */
enum { MALLOC, POOL, MAP };

#define POOL_MIN ((size_t)16 << 10)

static int
kind(size_t bytes)
{
	if (NOMAP || bytes < POOL_MIN)
		return MALLOC;
	return bytes <= FOLD_BIG ? POOL : MAP;
}

static int
mapped(size_t bytes)
{
	return kind(bytes) == MAP;
}

static size_t
maplen(size_t bytes)
{
	return (bytes + HUGE - 1) & ~(HUGE - 1);
}

/*
 * Mappings of freed big arrays, kept for the next arrays of their
 * length. A run that reads input after input (a fleet of files, or the
 * pieces of one on each thread) frees and makes tables of the same sizes
 * over and over. A new mapping costs its pages cleared by the system (2
 * MiB for a huge page), and unmapping one, once there are threads, a TLB
 * flush on every other processor; a kept one costs neither. At most
 * NSPARE of them, SPAREMAX bytes in all, are kept, for any thread.
 */
#if !NOMAP
#define NSPARE 8
#define SPAREMAX ((size_t)8 << 20)

static struct {
	char *p;
	size_t len;
} spare[NSPARE];
static size_t nspare, sparebytes;
static pthread_mutex_t sparelock = PTHREAD_MUTEX_INITIALIZER;

/* A kept mapping of len bytes, or NULL. */
static char *
take(size_t len)
{
	char *p = NULL;
	size_t i;

	pthread_mutex_lock(&sparelock);
	for (i = 0; i < nspare; i++)
		if (spare[i].len == len) {
			p = spare[i].p;
			sparebytes -= len;
			spare[i] = spare[--nspare];
			break;
		}
	pthread_mutex_unlock(&sparelock);
	return p;
}

/* Keeps the mapping p of len bytes; 0 when there is no room. */
static int
keep(char *p, size_t len)
{
	int kept = 0;

	pthread_mutex_lock(&sparelock);
	if (nspare < NSPARE && len <= SPAREMAX - sparebytes) {
		spare[nspare].p = p;
		spare[nspare++].len = len;
		sparebytes += len;
		kept = 1;
	}
	pthread_mutex_unlock(&sparelock);
	return kept;
}
#endif

/*
 * A mapping of len bytes (a multiple of HUGE) at a multiple of HUGE: a
 * fault gets a huge page only in a range of HUGE bytes so aligned. NULL
 * when there is no room. *used is set when it is a kept one, not zeroed.
 */
static char *
map(size_t len, int *used)
{
#if !NOMAP
	char *p, *a;

	if ((p = take(len)) != NULL) {
		*used = 1;
		return p;
	}
	*used = 0;
	p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (a > p)
		munmap(p, a - p);
	munmap(a + len, p + HUGE - a);
	madvise(a, len, MADV_HUGEPAGE);
	return a;
#else
	*used = 0;
	return NULL;
#endif
}

/*
 * The pool (err.h): chunks, each a mapping of HUGE bytes at a multiple of
 * HUGE, cut into blocks of POOL_MIN << k bytes (k below NORDER; a block
 * of the last order is a whole chunk, free) by halving, a buddy system: a
 * block is cut in two halves, buddies, and a freed block is merged with
 * its buddy when that is free too. A chunk's blocks are told by their
 * first units (of POOL_MIN bytes): their order + 1, 0 for a unit inside
 * a block. The chunks are few (a table has a handful of arrays of these
 * sizes) and blocks are made and freed only as arrays grow, so a block
 * is found by looking through them all, under one lock.
 */
#define UNITS (HUGE / POOL_MIN)
#define NORDER 8
_Static_assert(POOL_MIN << (NORDER - 1) == HUGE, "the last order: a chunk");
_Static_assert(FOLD_BIG == HUGE / 2, "blocks up to half a chunk");

/* The least order of a block of bytes bytes. */
static int
order_of(size_t bytes)
{
	int k = 0;

	while (POOL_MIN << k < bytes)
		k++;
	return k;
}

#if !NOMAP
struct chunk {
	char *base;
	unsigned char order[UNITS];	/* of the block there + 1, or 0 */
	unsigned char isfree[UNITS];
};

static struct chunk *chunks;
static size_t nchunks, capchunks;
static pthread_mutex_t poollock = PTHREAD_MUTEX_INITIALIZER;

/* A block of at least bytes bytes; its chunk, new, on a huge page. */
static char *
pool_alloc(size_t bytes)
{
	int k = order_of(bytes), best = NORDER, j, used;
	struct chunk *c, *bc = NULL;
	size_t i, u, bu = 0;
	char *p = NULL;

	pthread_mutex_lock(&poollock);
	/* the smallest free block that holds it */
	for (i = 0; i < nchunks && best > k; i++) {
		c = &chunks[i];
		for (u = 0; u < UNITS; u += (size_t)1 << (c->order[u] - 1)) {
			j = c->order[u] - 1;
			if (c->isfree[u] && j >= k && j < best) {
				best = j;
				bc = c;
				bu = u;
			}
		}
	}
	if (!bc && (p = map(HUGE, &used)) != NULL) {
		chunks = fold_grow(chunks, &capchunks, nchunks + 1,
		    sizeof *chunks);
		bc = &chunks[nchunks++];
		memset(bc, 0, sizeof *bc);
		bc->base = p;
		bc->order[0] = NORDER;
		bc->isfree[0] = 1;
		best = NORDER - 1;
	}
	if (bc) {
		/* cut in halves down to its order: the upper ones free */
		for (j = best; j > k; j--) {
			u = bu + ((size_t)1 << (j - 1));
			bc->order[u] = (unsigned char)j;
			bc->isfree[u] = 1;
		}
		bc->order[bu] = (unsigned char)(k + 1);
		bc->isfree[bu] = 0;
		p = bc->base + bu * POOL_MIN;
	}
	pthread_mutex_unlock(&poollock);
	return p;
}

/*
 * Frees the block at p, merged with its free buddies; a chunk free
 * again is unmapped, or kept for the next mapping of its length.
 */
static void
pool_free(char *p)
{
	char *base = (char *)((uintptr_t)p & ~(uintptr_t)(HUGE - 1));
	struct chunk *c = NULL;
	size_t i, u, b;
	int k;

	pthread_mutex_lock(&poollock);
	for (i = 0; i < nchunks; i++)
		if (chunks[i].base == base)
			c = &chunks[i];
	if (!c)
		abort();	/* not a block of the pool */
	u = (size_t)(p - base) / POOL_MIN;
	for (k = c->order[u] - 1; k < NORDER - 1; k++) {
		b = u ^ ((size_t)1 << k);
		if (!c->isfree[b] || c->order[b] != k + 1)
			break;
		c->order[u > b ? u : b] = 0;
		c->isfree[u > b ? u : b] = 0;
		u = u < b ? u : b;
	}
	c->order[u] = (unsigned char)(k + 1);
	c->isfree[u] = 1;
	if (k == NORDER - 1) {
		*c = chunks[--nchunks];
		if (!keep(base, HUGE))
			munmap(base, HUGE);
	}
	pthread_mutex_unlock(&poollock);
}
#else
static char *
pool_alloc(size_t bytes)
{
	return NULL;
}

static void
pool_free(char *p)
{
}
#endif

/* Frees p, a big array of bytes bytes; a mapping kept when keeping. */
static void
big_free_keep(void *p, size_t bytes, int keeping)
{
	if (!p)
		return;
	switch (kind(bytes)) {
	case POOL:
		pool_free(p);
		break;
	case MAP:
#if !NOMAP
		if (!keeping || !keep(p, maplen(bytes)))
			munmap(p, maplen(bytes));
#endif
		break;
	default:
		free(p);
	}
}

static void
big_free(void *p, size_t bytes)
{
	big_free_keep(p, bytes, 1);
}

void *
fold_big_grow_to(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	return fold_big_resize(p, cap, grown(*cap, need), size);
}

void *
fold_big_resize(void *p, size_t *cap, size_t n, size_t size)
{
	size_t old = *cap * size, len;
	char *q;
	int used;

	if (n <= *cap)
		return p;
	if (size && n > (SIZE_MAX - 2 * HUGE) / size)
		return check(NULL);
	if (kind(n * size) == MALLOC) {
		*cap = n;
		return fold_reallocarray(p, n, size);
	}
	if (kind(n * size) == POOL) {
		/* a block of the pool holds up to a power of two */
		if (kind(old) != POOL || order_of(n * size) > order_of(old)) {
			q = check(pool_alloc(n * size));
			if (old)
				memcpy(q, p, old);
			big_free(p, old);
		} else {
			q = p;
		}
		*cap = n;
		return q;
	}
	len = maplen(n * size);
	if (!mapped(old)) {
		/* from malloc's or the pool's block to a mapping: a copy of
		   FOLD_BIG bytes at most */
		q = check(map(len, &used));
		if (old)
			memcpy(q, p, old);
		big_free(p, old);
	} else if (len > maplen(old)) {
#if !NOMAP
		/* in place if the pages after it are free, else moved to
		   a place aligned as map() aligns */
		q = mremap(p, maplen(old), len, 0);
		if (q == MAP_FAILED) {
			q = check(map(len, &used));
			q = mremap(p, maplen(old), len,
			    MREMAP_MAYMOVE | MREMAP_FIXED, q);
			if (q == MAP_FAILED)
				return check(NULL);
		}
		madvise(q, len, MADV_HUGEPAGE);
#else
		q = p;
#endif
	} else {
		q = p;
	}
	*cap = n;
	return q;
}

void *
fold_big_adopt(void *dst, size_t *cap, size_t used, void *src, size_t scap,
    size_t size, size_t *at)
{
#if !NOMAP
	size_t old = *cap * size, start = maplen(used * size);
	size_t slen = maplen(scap * size);
	char *r;
	int kept;

	if (!mapped(old) || !mapped(scap * size) || start % size)
		return NULL;
	/* a place for both; src's pages moved in first, then dst's */
	if (!(r = map(start + slen, &kept)))
		return NULL;
	if (mremap(src, slen, slen, MREMAP_MAYMOVE | MREMAP_FIXED, r + start)
	    == MAP_FAILED) {
		munmap(r, start + slen);
		return NULL;
	}
	if (start == 0) {
		big_free(dst, old);
	} else if (mremap(dst, start, start, MREMAP_MAYMOVE | MREMAP_FIXED, r)
	    == MAP_FAILED) {
		memcpy(r, dst, used * size);
		big_free(dst, old);
	} else if (maplen(old) > start) {
		munmap((char *)dst + start, maplen(old) - start);
	}
	*at = start / size;
	*cap = (start + slen) / size;
	return r;
#else
	return NULL;
#endif
}

void *
fold_big_alloc(size_t nmemb, size_t size)
{
	int used;

	if (size && nmemb > (SIZE_MAX - 2 * HUGE) / size)
		return check(NULL);
	switch (kind(nmemb * size)) {
	case POOL:
		return check(pool_alloc(nmemb * size));
	case MAP:
		return check(map(maplen(nmemb * size), &used));
	default:
		return fold_reallocarray(NULL, nmemb, size);
	}
}

void *
fold_big_calloc(size_t nmemb, size_t size)
{
	char *p;
	int used;

	if (size && nmemb > (SIZE_MAX - 2 * HUGE) / size)
		return check(NULL);
	switch (kind(nmemb * size)) {
	case POOL:
		/* a block may have been another array's */
		p = check(pool_alloc(nmemb * size));
		memset(p, 0, nmemb * size);
		return p;
	case MAP:
		p = check(map(maplen(nmemb * size), &used));
		if (used)
			memset(p, 0, nmemb * size);
		return p;
	default:
		return fold_calloc(nmemb, size);
	}
}

void
fold_big_free(void *p, size_t cap, size_t size)
{
	big_free(p, cap * size);
}

void
fold_big_discard(void *p, size_t cap, size_t size)
{
	big_free_keep(p, cap * size, 0);
}

void
fold_release(void *p, size_t n)
{
#ifdef MADV_DONTNEED
	/* asked each time: a call for each MiB given back, on any thread */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t a, b;

	a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	b = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);
	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
#endif
}

/* A block for libdeflate: a big array of its length and n more bytes. */
static void *
deflate_alloc(size_t n)
{
	size_t *p;

	if (n > SIZE_MAX - 16)
		return NULL;
	p = fold_big_alloc(n + 16, 1);
	p[0] = n + 16;
	return p + 2;	/* as aligned as malloc's */
}

static void
deflate_free(void *q)
{
	size_t *p = (size_t *)q - 2;

	if (q)
		fold_big_free(p, p[0], 1);
}

static void
deflate_init(void)
{
	libdeflate_set_memory_allocator(deflate_alloc, deflate_free);
}

void
fold_libdeflate_alloc(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, deflate_init);
}

void *
fold_arena_alloc(struct fold_arena *a, size_t n)
{
	enum { FIRST = 64 << 10, LAST = 4 << 20 };
	struct fold_block *b = a->n ? &a->blocks[a->n - 1] : NULL;
	char *p;

	if (!b || n > b->size - b->used) {
		if (a->next == 0)
			a->next = FIRST;
		a->blocks = fold_reallocarray(a->blocks, a->n + 1,
		    sizeof *a->blocks);
		b = &a->blocks[a->n++];
		b->size = n > a->next ? n : a->next;
		b->used = 0;
		b->p = fold_big_alloc(b->size, 1);
		if (b->size == a->next && a->next < LAST)
			a->next *= 4;
	}
	p = b->p + b->used;
	b->used += n;
	return p;
}

void
fold_arena_free(struct fold_arena *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		fold_big_free(a->blocks[i].p, a->blocks[i].size, 1);
	free(a->blocks);
	memset(a, 0, sizeof *a);
}

char *
fold_strndup(const char *s, size_t n)
{
	char *p = fold_malloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
fold_strdup(const char *s)
{
	return fold_strndup(s, strlen(s));
}
