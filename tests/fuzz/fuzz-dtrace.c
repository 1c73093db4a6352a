/*
 * libFuzzer target for the DTrace reader. Beyond not crashing: the output
 * is the same when read twice, every line of it parses back as a folded
 * line without an empty frame, and the values read are conserved (the
 * output's total plus the reported values without a stack is the sum of
 * the value lines after the header).
 */
#include "tests/fuzz/fuzz.h"

#include "formats/dtrace.h"

struct run {
	char *out;
	size_t len;
	int rc;
	unsigned long long dropped;	/* values without a stack */
};

static void
say(void *arg, const char *msg)
{
	struct run *r = arg;
	const char *p = strstr(msg, "(total ");

	if (strstr(msg, "without a stack") && p)
		r->dropped = strtoull(p + 7, NULL, 10);
}

static void
run(const uint8_t *data, size_t size, int includeoffset, struct run *res)
{
	struct dtrace_opt opt = DTRACE_OPT_INIT;
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_intern *frames = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(frames, 1);
	void *r;
	struct fold_in *in;

	opt.includeoffset = includeoffset;
	r = dtrace_format.open(&opt, st);
	in = fuzz_in(data, size);
	res->rc = dtrace_format.read(r, in, &diag);
	FUZZ_CHECK(res->rc >= -2 && res->rc <= 0, "dtrace_read: %d", res->rc);
	fold_in_close(in);
	res->dropped = 0;
	dtrace_format.finish(r, 1, say, res);
	res->out = fuzz_folded(st, &res->len);
	dtrace_format.close(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
}

/* The sum of the value lines after the header, as the format defines
   them; 0 when it overflows (no check then). */
static int
values(const uint8_t *d, size_t n, unsigned long long *sum)
{
	size_t i = 0, s, e, k;
	int head = 1;
	unsigned long long v;

	*sum = 0;
	while (i < n) {
		for (e = i; e < n && d[e] != '\n'; e++)
			;
		s = i;
		i = e + 1;
		while (s < e && strchr(" \t\r\v\f", d[s]) && d[s])
			s++;
		while (e > s && strchr(" \t\r\v\f", d[e - 1]) && d[e - 1])
			e--;
		if (s == e) {
			head = 0;
			continue;
		}
		if (head)
			continue;
		for (k = s; k < e && d[k] >= '0' && d[k] <= '9'; k++)
			;
		if (k < e)
			continue;
		for (v = 0, k = s; k < e; k++)
			if (__builtin_mul_overflow(v, 10, &v) ||
			    __builtin_add_overflow(v, d[k] - '0', &v))
				break;
		if (k < e)
			continue;	/* out of range: a warning, not counted */
		if (__builtin_add_overflow(*sum, v, sum))
			return 0;
	}
	return 1;
}

static void
check(const struct run *r, int conserve, unsigned long long want)
{
	int wrapped;
	uint64_t total = fuzz_check_lines(r->out, r->len, 1, &wrapped);

	/* a total past 2^64 - 1 cannot be compared */
	FUZZ_CHECK(!conserve || wrapped || r->rc != 0 ||
	    total + r->dropped == want, "%llu read, %llu out and %llu "
	    "without a stack", want, (unsigned long long)total, r->dropped);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run a, b;
	unsigned long long want;
	int o, conserve;
	size_t k;

	for (k = 0; k <= size && k <= 4096; k += 512)
		FUZZ_CHECK(dtrace_detect((const char *)data, k < size ? k :
		    size, k >= size) <= 2, "detect: more than 2");
	/* gzip and UTF-16 are read decoded: no count of their own bytes */
	conserve = !fuzz_marked(data, size) &&
	    values(data, size, &want);
	for (o = 0; o < 2; o++) {
		run(data, size, o, &a);
		run(data, size, o, &b);
		FUZZ_CHECK(a.rc == b.rc && a.len == b.len &&
		    memcmp(a.out, b.out, a.len) == 0,
		    "the same input read twice gives other output");
		check(&a, conserve, want);
		free(a.out);
		free(b.out);
	}
	return 0;
}
