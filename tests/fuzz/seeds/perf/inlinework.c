/* A hot loop whose work is done by inlined helpers, for perf's "(inlined)"
 * frames: gcc -O2 -g -fno-omit-frame-pointer -o inlinework inlinework.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline __attribute__((always_inline)) uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static inline __attribute__((always_inline)) uint64_t
hash_word(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = mix(h, p[i]);
	return h;
}

static inline __attribute__((always_inline)) uint64_t
scramble(uint64_t x)
{
	for (int r = 0; r < 8; r++) {
		x ^= x >> 31;
		x *= 0x7fb5d329728ea185ull;
		x ^= x >> 27;
	}
	return x;
}

static __attribute__((noinline)) uint64_t
work(unsigned char *buf, size_t n, long rounds)
{
	uint64_t acc = 0;
	for (long r = 0; r < rounds; r++) {
		acc += hash_word(buf, n);
		acc = scramble(acc);
		buf[r % n] = (unsigned char)acc;
	}
	return acc;
}

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	unsigned char buf[64];
	uint64_t acc = 0;
	struct timespec t0, t;

	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 7 + 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		acc ^= work(buf, sizeof buf, 20000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	printf("%llx\n", (unsigned long long)acc);
	return 0;
}
