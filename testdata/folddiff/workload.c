/*
 * A small CPU-bound workload with a few functions of known relative cost,
 * used to make the folddiff regression captures. CHECKSUM_WORK is the
 * relative amount of work done by checksum() in percent: 100 for the
 * baseline build, 120 for the deliberately slowed one.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef CHECKSUM_WORK
#define CHECKSUM_WORK 100
#endif

#define N 4096

static uint32_t buf[N];
static volatile uint64_t sink;

/* Called once per round so that the hot functions are not leaves and keep
   their frame pointer: the stacks then show their callers. */
static __attribute__((noinline)) void
tick(void)
{
	sink++;
}

static __attribute__((noinline)) void
parse_input(uint32_t seed)
{
	uint32_t x = seed;
	for (int r = 0; r < 30; r++, tick())
		for (int i = 0; i < N; i++) {
			x = x * 1664525u + 1013904223u;
			buf[i] = (buf[i] >> 3) ^ x;
		}
}

static __attribute__((noinline)) uint64_t
hash_table(void)
{
	uint64_t h = 1469598103934665603ull;
	for (int r = 0; r < 25; r++, tick())
		for (int i = 0; i < N; i++) {
			h ^= buf[(i * 7 + r) % N];
			h *= 1099511628211ull;
		}
	return h;
}

static __attribute__((noinline)) uint64_t
compress_block(void)
{
	uint64_t s = 0;
	for (int r = 0; r < 20; r++, tick())
		for (int i = 1; i < N; i++)
			s += (buf[i] - buf[i - 1]) & 0xff;
	return s;
}

static __attribute__((noinline)) uint64_t
checksum(void)
{
	uint64_t a = 1, b = 0;
	for (int r = 0; r < 6; r++, tick())
		for (int i = 0; i < N * CHECKSUM_WORK / 100; i++) {
			a = (a + buf[i & (N - 1)]) % 65521;
			b = (b + a) % 65521;
		}
	return (b << 16) | a;
}

static __attribute__((noinline)) void
format_output(uint64_t v)
{
	char out[64];
	for (int r = 0; r < 4000; r++, tick()) {
		uint64_t x = v + r;
		int n = 0;
		do {
			out[n++] = '0' + x % 10;
			x /= 10;
		} while (x && n < 63);
		sink += out[0] + n;
	}
}

static __attribute__((noinline)) void
process_request(uint32_t i)
{
	parse_input(i);
	uint64_t v = hash_table();
	v += compress_block();
	v += checksum();
	format_output(v);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	for (long i = 0; i < n; i++)
		process_request((uint32_t)i);
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
