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

static int
mapped(size_t bytes)
{
	return !NOMAP && bytes >= FOLD_BIG;
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

void *
fold_big_grow_to(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n, old = *cap * size, len;
	char *q;
	int used;

	if (need <= *cap)
		return p;
	n = grown(*cap, need);
	if (size && n > (SIZE_MAX - 2 * HUGE) / size)
		return check(NULL);
	if (!mapped(n * size))
		return fold_grow_to(p, cap, need, size);
	len = maplen(n * size);
	if (!mapped(old)) {
		/* from malloc's block to a mapping: a copy of under FOLD_BIG */
		q = check(map(len, &used));
		if (old)
			memcpy(q, p, old);
		free(p);
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
fold_big_alloc(size_t nmemb, size_t size)
{
	int used;

	if (size && nmemb > (SIZE_MAX - 2 * HUGE) / size)
		return check(NULL);
	if (!mapped(nmemb * size))
		return fold_reallocarray(NULL, nmemb, size);
	return check(map(maplen(nmemb * size), &used));
}

void *
fold_big_calloc(size_t nmemb, size_t size)
{
	char *p;
	int used;

	if (size && nmemb > (SIZE_MAX - 2 * HUGE) / size)
		return check(NULL);
	if (!mapped(nmemb * size))
		return fold_calloc(nmemb, size);
	p = check(map(maplen(nmemb * size), &used));
	if (used)
		memset(p, 0, nmemb * size);
	return p;
}

void
fold_big_free(void *p, size_t cap, size_t size)
{
#if !NOMAP
	if (p && mapped(cap * size)) {
		if (!keep(p, maplen(cap * size)))
			munmap(p, maplen(cap * size));
		return;
	}
#endif
	free(p);
}

void
fold_release(void *p, size_t n)
{
#ifdef MADV_DONTNEED
	static size_t page;
	uintptr_t a, b;

	if (!page)
		page = (size_t)sysconf(_SC_PAGESIZE);
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
