/*
 * Hashing and comparing byte strings a word at a time, inline: the inner
 * loops of every libfold table and of the readers' caches.
 */
#ifndef FOLD_HASH_H
#define FOLD_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static inline uint64_t
fold_load64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t
fold_load32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t
fold_mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/*
 * A 64-bit multiply-mix hash of p[0..n) (in the manner of wyhash). Names
 * are mostly short: up to 16 bytes take one multiplication, up to 32 two
 * independent ones. Reads nothing outside p[0..n).
 */
static inline __attribute__((always_inline)) uint64_t
fold_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	const uint64_t k1 = 0xa0761d6478bd642fULL, k3 = 0x8ebc6af09c88c6e3ULL,
	    k4 = 0x589965cc75374cc3ULL;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;

	if (n <= 16) {
		uint64_t a = 0, b = 0;
		if (n >= 8) {
			a = fold_load64(s);
			b = fold_load64(s + n - 8);
		} else if (n >= 4) {
			a = fold_load32(s);
			b = fold_load32(s + n - 4);
		} else if (n > 0) {
			a = (uint64_t)s[0] << 16 | (uint64_t)s[n / 2] << 8 |
			    s[n - 1];
		}
		return fold_mix(a ^ k1, b ^ h);
	}
	if (n > 32) {
		const unsigned char *e = s + n - 32;
		for (; s < e; s += 32)
			h = fold_mix(fold_load64(s) ^ k1, fold_load64(s + 8) ^ h) ^
			    fold_mix(fold_load64(s + 16) ^ k3,
			    fold_load64(s + 24) ^ k4);
		s = e;	/* the last 32 bytes, overlapping the loop's */
		n = 32;
	}
	return fold_mix(fold_load64(s) ^ k1, fold_load64(s + 8) ^ h) ^
	    fold_mix(fold_load64(s + n - 16) ^ k3, fold_load64(s + n - 8) ^ k4 ^ h);
}

/* The start of an FNV-1a hash (fold_fnv1a). */
#define FOLD_FNV1A_INIT 0xcbf29ce484222325ULL

/*
 * The 64-bit FNV-1a hash of p[0..n) continued from h (FOLD_FNV1A_INIT
 * to begin): a byte at a time, slower than fold_hash, but fixed. The
 * palettes derive a frame's colour from it and the SVG writer its
 * document id: both must stay as they are, and change with any other
 * hash.
 */
static inline uint64_t
fold_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		h ^= *s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* a[0..n) == b[0..n), a word at a time; reads nothing outside them */
static inline int
fold_same(const void *pa, const void *pb, size_t n)
{
	const char *a = pa, *b = pb;
	uint64_t d;
	size_t i;

#ifdef __SSE2__
	if (n >= 16) {
		/* 16 bytes a step; the last step overlaps */
		__m128i x = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)
		    (a + n - 16)), _mm_loadu_si128((const __m128i *)(b + n - 16)));
		for (i = 0; i + 16 < n && _mm_movemask_epi8(x) == 0xffff;
		    i += 16)
			x = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(a + i)),
			    _mm_loadu_si128((const __m128i *)(b + i)));
		return _mm_movemask_epi8(x) == 0xffff;
	}
#endif
	if (n >= 8) {
		d = fold_load64(a + n - 8) ^ fold_load64(b + n - 8);
		for (i = 0; i + 8 < n && !d; i += 8)
			d = fold_load64(a + i) ^ fold_load64(b + i);
		return d == 0;
	}
	if (n >= 4)
		return ((fold_load32(a) ^ fold_load32(b)) |
		    (fold_load32(a + n - 4) ^ fold_load32(b + n - 4))) == 0;
	return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] &&
	    a[n - 1] == b[n - 1]);
}

#endif
