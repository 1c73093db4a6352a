/*
 * libFuzzer target for the macOS sample reader. Beyond not crashing: the
 * output is the same when read twice, every line of it parses back as a
 * folded line without an empty frame, --no-modules gives the same total
 * (the modules only rename frames), and the samples are conserved on a
 * report read without warnings (the threads' counts are the output's
 * total plus the waiting threads' samples reported as dropped).
 */
#include "tests/fuzz/fuzz.h"

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
	void *r;
	struct fold_in *in;

	opt.no_modules = nomod;
	r = sample_format.open(&opt, st);
	in = fuzz_in(data, size);
	res->rc = sample_format.read(r, in, &diag);
	FUZZ_CHECK(res->rc >= -2 && res->rc <= 0, "sample_read: %d", res->rc);
	fold_in_close(in);
	res->warnings = diag.count;
	res->idle = res->skipped = 0;
	sample_format.finish(r, 1, say, res);
	res->out = fuzz_folded(st, &res->len);
	sample_format.close(r);
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

/* modulo 2^64: each count fits, and equal totals stay equal */
static unsigned long long
check(const struct run *r)
{
	int wrapped;

	return fuzz_check_lines(r->out, r->len, 1, &wrapped);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run a, b, m;
	unsigned long long want, total;
	size_t k;

	for (k = 0; k <= size && k <= 4096; k += 512)
		FUZZ_CHECK(sample_detect((const char *)data, k < size ? k :
		    size, k >= size) <= 2, "detect: more than 2");
	run(data, size, 0, &a);
	run(data, size, 0, &b);
	run(data, size, 1, &m);
	FUZZ_CHECK(a.rc == b.rc && a.len == b.len &&
	    memcmp(a.out, b.out, a.len) == 0,
	    "the same input read twice gives other output");
	total = check(&a);
	FUZZ_CHECK(a.rc != 0 || check(&m) + m.idle == total + a.idle,
	    "--no-modules changes the total");
	FUZZ_CHECK(a.rc != 0 || a.warnings != 0 ||
	    fuzz_marked(data, size) ||
	    !threads(data, size, &want) || total + a.idle == want,
	    "the threads hold %llu samples, the output %llu and %llu "
	    "waiting", want, total, a.idle);
	free(a.out);
	free(b.out);
	free(m.out);
	return 0;
}
