/*
 * Reading in parts (formats/split.h): perf, DTrace, bcc/bpftrace, jfr
 * print or sample text or folded stacks. The format, its options,
 * --strict, the size of the pieces (1 to 128 bytes) and whether
 * warnings are shown (a diag's limit of 5 or 0) are picked by the
 * first bytes. The rest is read from a file whole, then in pieces on
 * three threads, through the front door's checks: the same status, the
 * same warnings and messages in the same order, the same output, byte
 * for byte.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/bcc.h"
#include "formats/collapse.h"
#include "formats/dtrace.h"
#include "formats/folded.h"
#include "formats/jfr.h"
#include "formats/perf.h"
#include "formats/sample.h"

/* One run over the file fd: everything it fuzz_said and wrote. */
static void
run(const struct format *f, const void *opt, int fd, int strict,
    unsigned limit, const struct split_opt *so, struct fuzz_text *t)
{
	struct fuzz_collapse fc;
	struct fold_in *in;
	char buf[64];
	int rc;

	fuzz_collapse_open(&fc, f, opt, t);
	collapse_set_split(fc.c, so);
	fc.diag.strict = strict;
	fc.diag.limit = limit;
	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
	in = fold_in_fdopen(dup(fd), "fuzz");
	rc = collapse_read(fc.c, in, &fc.diag);
	snprintf(buf, sizeof buf, "rc %d, %llu warnings", rc,
	    (unsigned long long)fc.diag.count);
	fuzz_text_add(t, buf, strlen(buf));
	if (rc < 0)
		fuzz_said(t, fold_err());
	fold_in_close(in);
	if (rc != -2)
		fuzz_text_finish(t, fc.c, rc == 0);
	fuzz_collapse_close(&fc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct perf_opt popt = PERF_OPT_INIT;
	struct dtrace_opt dopt = DTRACE_OPT_INIT;
	struct sample_opt sopt = SAMPLE_OPT_INIT;
	struct bcc_opt bopt = BCC_OPT_INIT;
	struct jfr_opt jopt = JFR_OPT_INIT;
	struct split_opt whole = { .jobs = 1 }, parts = { .jobs = 3 };
	struct fuzz_text a = { 0 }, b = { 0 };
	const struct format *f;
	const void *opt;
	unsigned flags, limit;
	int strict;

	if (size < 2)
		return 0;
	flags = data[0];
	parts.piece = 1 + (data[1] & 0x7f);
	limit = data[1] & 0x80 ? 0 : FOLD_DIAG_LIMIT;
	data += 2;
	size -= 2;
	strict = flags >> 7 & 1;
	if ((flags & 5) == 5) {
		f = &folded_format;
		opt = NULL;
	} else if ((flags & 0x19) == 0x09) {
		f = &sample_format;
		sopt.no_modules = flags >> 1 & 1;
		opt = &sopt;
	} else if ((flags & 0x19) == 0x11) {
		f = &bcc_format;
		bopt.pid = flags >> 1 & 1;
		bopt.kernel = flags >> 5 & 1;
		bopt.map = flags >> 6 & 1 ? "stacks" : NULL;
		opt = &bopt;
	} else if ((flags & 0x19) == 0x19) {
		f = &jfr_format;
		jopt.threads = flags >> 1 & 1;
		jopt.lines = flags >> 5 & 1;
		jopt.event = flags >> 6 & 1 ? "ThreadPark" : NULL;
		opt = &jopt;
	} else if (flags & 1) {
		f = &dtrace_format;
		dopt.includeoffset = flags >> 1 & 1;
		opt = &dopt;
	} else {
		f = &perf_format;
		popt.pid = flags >> 1 & 1;
		popt.kernel = popt.jit = flags >> 2 & 1;
		popt.inlined = flags >> 3 & 1;
		popt.srcline = flags >> 4 & 1;
		popt.list = flags >> 5 & 1;
		popt.event = flags >> 6 & 1 ? "cycles" : NULL;
		opt = &popt;
	}
	if (fd < 0)
		fd = memfd_create("fuzz-in", 0);
	FUZZ_CHECK(fd >= 0, "memfd_create");
	FUZZ_CHECK(ftruncate(fd, 0) == 0, "ftruncate");
	FUZZ_CHECK(pwrite(fd, data, size, 0) == (ssize_t)size, "pwrite");
	run(f, opt, fd, strict, limit, &whole, &a);
	run(f, opt, fd, strict, limit, &parts, &b);
	FUZZ_CHECK(a.n == b.n && memcmp(a.s, b.s, a.n) == 0,
	    "read whole and in parts of %llu differ:\n%s\n---\n%s",
	    (unsigned long long)parts.piece, a.s, b.s);
	free(a.s);
	free(b.s);
	return 0;
}
