/*
 * libFuzzer target for the macOS sample reader. Beyond not crashing: the
 * output is the same when read twice, every line of it parses back as a
 * folded line without an empty frame, --no-modules gives the same total
 * (the modules only rename frames), and the samples are conserved on a
 * report read without warnings (the threads' counts are the output's
 * total plus the waiting threads' samples reported as dropped).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libfold/count.h"
#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/output.h"
#include "libfold/stacks.h"
#include "formats/sample.h"

struct run {
	char *out;
	size_t len;
	int rc;
	uint64_t warnings;
	unsigned long long idle, skipped;
};

static void
say(void *arg, const char *msg)
{
	struct run *r = arg;
	const char *p;

	if (strstr(msg, "waiting threads") && (p = strchr(msg, '(')))
		r->idle = strtoull(p + 1, NULL, 10);
	if (strstr(msg, "next to skipped"))
		r->skipped = strtoull(msg, NULL, 10);
}

static void
run(const uint8_t *data, size_t size, int nomod, struct run *res)
{
	struct sample_opt opt = SAMPLE_OPT_INIT;
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_intern *frames = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(frames, 1);
	struct sample_reader *r;
	struct fold_in *in;
	struct fold_out *out;
	int fd = memfd_create("fuzz", 0);
	off_t n;

	if (fd < 0)
		abort();
	opt.no_modules = nomod;
	r = sample_reader_new(&opt, st);
	in = fold_in_mem(data, size, "fuzz");
	res->rc = sample_read(r, in, &diag);
	if (res->rc < -2 || res->rc > 0)
		abort();
	fold_in_close(in);
	res->warnings = diag.count;
	res->idle = res->skipped = 0;
	sample_summary(r, say, res);
	out = fold_out_new(dup(fd), "fuzz");
	fold_write(out, st);
	if (fold_out_close(out) < 0)
		abort();
	n = lseek(fd, 0, SEEK_END);
	res->out = malloc(n + 1);
	if (pread(fd, res->out, n, 0) != n)
		abort();
	res->len = n;
	close(fd);
	sample_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
}

/* The threads' counts of the call graphs, as the format defines them. */
static int
threads(const uint8_t *d, size_t n, unsigned long long *sum)
{
	size_t i = 0, e, k;
	int graph = 0;
	unsigned long long v;

	*sum = 0;
	while (i < n) {
		for (e = i; e < n && d[e] != '\n'; e++)
			;
		if (e - i >= 11 && memcmp(d + i, "Call graph:", 11) == 0)
			graph = 1;
		else if (e - i >= 21 &&
		    memcmp(d + i, "Total number in stack", 21) == 0)
			graph = 0;
		else if (graph && e - i > 4 && memcmp(d + i, "    ", 4) == 0 &&
		    d[i + 4] >= '0' && d[i + 4] <= '9') {
			for (v = 0, k = i + 4; k < e && d[k] >= '0' &&
			    d[k] <= '9'; k++)
				if (__builtin_mul_overflow(v, 10, &v) ||
				    __builtin_add_overflow(v, d[k] - '0', &v))
					return 0;
			if (__builtin_add_overflow(*sum, v, sum))
				return 0;
		}
		i = e + 1;
	}
	return 1;
}

static unsigned long long
check(const struct run *r)
{
	struct fold_count c;
	unsigned long long total = 0;
	size_t i = 0, e, slen;

	while (i < r->len) {
		for (e = i; e < r->len && r->out[e] != '\n'; e++)
			;
		if (e == r->len)
			abort();
		if (fold_parse_line(r->out + i, e - i, &slen, &c, 1) != 1)
			abort();
		if (r->out[i] == ';' || r->out[i + slen - 1] == ';' ||
		    memmem(r->out + i, slen, ";;", 2))
			abort();
		if (c.frac)
			abort();
		/* modulo 2^64: each count fits, and equal totals stay equal */
		total += c.v.u;
		i = e + 1;
	}
	return total;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run a, b, m;
	unsigned long long want, total;
	size_t k;

	for (k = 0; k <= size && k <= 4096; k += 512)
		if (sample_detect((const char *)data, k < size ? k : size,
		    k >= size) > 2)
			abort();
	run(data, size, 0, &a);
	run(data, size, 0, &b);
	run(data, size, 1, &m);
	if (a.rc != b.rc || a.len != b.len || memcmp(a.out, b.out, a.len))
		abort();
	total = check(&a);
	if (a.rc == 0 && check(&m) + m.idle != total + a.idle)
		abort();
	if (a.rc == 0 && a.warnings == 0 &&
	    !(size >= 2 && data[0] == 0x1f && data[1] == 0x8b) &&
	    threads(data, size, &want) && total + a.idle != want)
		abort();
	free(a.out);
	free(b.out);
	free(m.out);
	return 0;
}
