/*
 * Many inputs at once (collapse.h's collapse_prepare and _commit): up to
 * eight pprof profiles, each a chunk of the input after a 2-byte length,
 * the options picked by the first byte, read one after another by
 * collapse_read and then as the jobs' threads read them: each prepared
 * by one of two workers in turn, as if on its own thread, and committed
 * in order. The same status of each, the same messages in the same
 * order, the same output, byte for byte. With the first byte's bit 7,
 * the inputs are perf script output, each read whole by a reader of its
 * own (format.h's whole), and its bits 0-4 pick perf's options and
 * --strict.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/collapse.h"
#include "formats/perf.h"
#include "formats/pprof.h"

enum { NIN = 8 };

static struct fold_in *
open_at(int fd, int i)
{
	char name[16];

	snprintf(name, sizeof name, "in%d", i);
	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
	return fold_in_fdopen(dup(fd), name);
}

/* Every input, then the output: all it fuzz_said and wrote. */
static void
run(const struct format *f, const void *opt, int strict, const int *fd,
    int n, int workers, struct fuzz_text *t)
{
	struct fuzz_collapse fc;
	struct collapse_input *ci[NIN];
	struct collapse_worker *w[2] = { NULL, NULL };
	struct fold_in *in[NIN];
	char *err[NIN];
	struct collapse *c;
	char buf[64];
	int i, rc, ok = 1, stop = 0;

	fuzz_collapse_open(&fc, f, opt, t);
	fc.diag.strict = strict;
	c = fc.c;
	if (workers) {
		w[0] = collapse_worker_new(c);
		w[1] = collapse_worker_new(c);
		/* all prepared first: the most a worker can be ahead */
		for (i = 0; i < n; i++) {
			in[i] = open_at(fd[i], i);
			err[i] = NULL;
			if (!(ci[i] = collapse_prepare(c, w[i % 2], in[i])))
				err[i] = strdup(fold_err());
		}
	}
	for (i = 0; i < n; i++) {
		if (stop) {
			if (workers) {
				collapse_drop(c, ci[i]);
				fold_in_close(in[i]);
				free(err[i]);
			}
			continue;
		}
		if (!workers) {
			in[i] = open_at(fd[i], i);
			rc = collapse_read(c, in[i], &fc.diag);
			if (rc < 0)
				fuzz_said(t, fold_err());
		} else if (ci[i]) {
			rc = collapse_commit(c, w[i % 2], ci[i], in[i],
			    &fc.diag);
			if (rc < 0)
				fuzz_said(t, fold_err());
		} else {
			fuzz_said(t, err[i]);
			rc = -1;
		}
		fold_in_close(in[i]);
		if (workers)
			free(err[i]);
		snprintf(buf, sizeof buf, "in%d: rc %d", i, rc);
		fuzz_text_add(t, buf, strlen(buf));
		ok &= rc == 0;
		stop = rc == -2;
	}
	if (!stop)
		fuzz_text_finish(t, c, ok);
	collapse_worker_free(c, w[0]);
	collapse_worker_free(c, w[1]);
	fuzz_collapse_close(&fc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd[NIN] = { -1, -1, -1, -1, -1, -1, -1, -1 };
	static const char *tags[] = { "thread", NULL };
	struct pprof_readopt opt = PPROF_READOPT_INIT;
	struct perf_opt popt = PERF_OPT_INIT;
	const struct format *f = &pprof_format;
	const void *o = &opt;
	int strict = 0;
	struct fuzz_text a = { 0 }, b = { 0 };
	unsigned flags;
	size_t len;
	int n = 0;

	if (size < 1)
		return 0;
	flags = *data++;
	size--;
	opt.lines = flags & 1;
	opt.sample_index = flags & 2 ? "0" : flags & 4 ? "alloc_space" : NULL;
	opt.list = flags >> 3 & 1;
	if (flags & 16)
		opt.negative = PPROF_NEG_KEEP;
	if (flags & 32) {
		opt.tag_root = tags;
		opt.ntag_root = 1;
	}
	opt.max_size = flags & 64 ? 20000 : 0;
	if (flags & 128) {
		f = &perf_format;
		o = &popt;
		popt.pid = flags & 1;
		popt.kernel = popt.jit = flags >> 1 & 1;
		popt.event = flags & 4 ? "cycles" : NULL;
		popt.list = flags >> 3 & 1;
		strict = flags >> 4 & 1;
	}
	while (size >= 2 && n < NIN) {
		len = (size_t)data[0] << 8 | data[1];
		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		if (fd[n] < 0)
			fd[n] = memfd_create("fuzz-in", 0);
		FUZZ_CHECK(fd[n] >= 0, "memfd_create");
		FUZZ_CHECK(ftruncate(fd[n], 0) == 0, "ftruncate");
		FUZZ_CHECK(pwrite(fd[n], data, len, 0) == (ssize_t)len,
		    "pwrite");
		data += len;
		size -= len;
		n++;
	}
	run(f, o, strict, fd, n, 0, &a);
	run(f, o, strict, fd, n, 1, &b);
	FUZZ_CHECK(a.n == b.n && memcmp(a.s, b.s, a.n) == 0,
	    "read in turn and by workers differ:\n%s\n---\n%s", a.s, b.s);
	free(a.s);
	free(b.s);
	return 0;
}
