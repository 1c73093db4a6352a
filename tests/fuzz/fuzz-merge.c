/*
 * foldmerge's merge: sorted files streamed k ways, the others summed in
 * memory. The input is up to three profiles separated by NUL bytes, each
 * written to a file; the first byte tags each file with a root frame or
 * not (bits 0-2), and asks for two jobs (bit 3: the files scanned on
 * threads, what they say held and said in order). Property: the merge writes exactly what reading every file into
 * one table writes (integer counts; fractional sums may round in another
 * order), and counts the same bad lines.
 */
#include <fcntl.h>

#include "tests/fuzz/fuzz.h"

#include "libfold/merge.h"

#define MAXFILES 3

static char dir[64];
static char *rootbuf;
static size_t rootcap;

static const char *
addroot(void *arg, const char *s, size_t *n)
{
	const char *root = arg;
	size_t rl = strlen(root);

	if (rl + 1 + *n > rootcap) {
		rootcap = rl + 1 + *n;
		rootbuf = fold_realloc(rootbuf, rootcap);
	}
	memcpy(rootbuf, root, rl);
	rootbuf[rl] = ';';
	memcpy(rootbuf + rl + 1, s, *n);
	*n += rl + 1;
	return rootbuf;
}

/* A new file each time: ext4 writes a file truncated to nothing back to
   disk when it is closed, which made each run wait for the disk. */
/* 1 when a line of text[0..n) has a count with a fraction */
static int
has_fraction(const char *text, size_t n)
{
	const char *p, *nl, *sp;

	for (p = text; p < text + n; p = nl + 1) {
		if (!(nl = memchr(p, '\n', text + n - p)))
			nl = text + n;
		for (sp = nl; sp > p && sp[-1] != ' '; sp--)
			;
		if (memchr(sp, '.', nl - sp) || memchr(sp, 'e', nl - sp))
			return 1;
	}
	return 0;
}

static void
put(const char *path, const uint8_t *p, size_t n)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	FUZZ_CHECK(fd >= 0, "open %s", path);
	FUZZ_CHECK(write(fd, p, n) == (ssize_t)n, "write %s", path);
	close(fd);
}

/* Every file exists: one that cannot be merged has content that cannot
   be read (a sum past 2^64-1, damaged gzip), which reading must find too. */
static void
fileerr(void *arg, const char *msg)
{
	*(int *)arg = 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const roots[MAXFILES] = { "r0", "r1", "r0" };
	struct fold_merge_input inputs[MAXFILES];
	struct fold_merge_opt opt = FOLD_MERGE_OPT_INIT;
	struct fold_diag d1 = FOLD_DIAG_INIT, d2 = FOLD_DIAG_INIT;
	struct fold_readopt ropt = FOLD_READOPT_INIT;
	static char paths[MAXFILES][80];
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct fold_out *out;
	struct fold_in *in;
	const uint8_t *p = data, *e = data + size, *z;
	unsigned flags = size ? data[0] : 0;
	size_t n = 0, i, len, len2;
	char *merged, *want;
	int rm, rr = 0, frac = 0, ferr = 0;

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%.40s/fuzz-merge-XXXXXX",
		    t && *t ? t : P_tmpdir);
		FUZZ_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	}
	if (size)
		p++;
	while (n < MAXFILES && (p < e || n == 0)) {
		z = memchr(p, '\0', e - p);
		if (!z)
			z = e;
		snprintf(paths[n], sizeof paths[n], "%s/%zu", dir, n);
		put(paths[n], p, z - p);
		inputs[n].path = paths[n];
		inputs[n].root = flags >> n & 1 ? roots[n] : NULL;
		n++;
		p = z < e ? z + 1 : e;
	}
	opt.jobs = flags & 8 ? 2 : 1;
	opt.file_error = fileerr;
	opt.arg = &ferr;
	d1.limit = d2.limit = 0;
	out = fuzz_out_open();
	rm = fold_merge(out, inputs, n, &opt, &d1);
	merged = fuzz_out_take(out, &len);
	FUZZ_CHECK(merged != NULL, "merge output: %s", fold_err());

	fr = fold_intern_new();
	st = fold_stacks_new(fr, 1);
	for (i = 0; i < n && rr >= 0; i++) {
		in = fold_in_open(paths[i]);
		FUZZ_CHECK(in != NULL, "open: %s", fold_err());
		ropt.rewrite = inputs[i].root ? addroot : NULL;
		ropt.arg = (void *)inputs[i].root;
		rr = fold_read(in, st, &ropt, &d2);
		fold_in_close(in);
	}
	for (i = 0; rr >= 0 && i < fold_stacks_len(st); i++)
		frac |= fold_stacks_counts(st, i)->frac;
	/*
	 * A stack's sum stays an integer, which may overflow, until a
	 * fraction comes, after which it is a double, which does not: when
	 * either side has a fraction, the order of summing may decide.
	 */
	frac |= rm == 0 && has_fraction(merged, len);
	FUZZ_CHECK(frac || (rm < 0 || ferr) == (rr < 0),
	    "merge %s, reading %s", rm < 0 || ferr ? "failed" : "worked",
	    rr < 0 ? "failed" : "worked");
	if (rm == 0 && !frac) {
		want = fuzz_folded(st, &len2);
		FUZZ_CHECK(len == len2 && memcmp(merged, want, len) == 0,
		    "the merge differs from the sum");
		FUZZ_CHECK(d1.count == d2.count, "%llu bad lines, %llu read",
		    (unsigned long long)d1.count, (unsigned long long)d2.count);
		free(want);
	}
	if (rm == 0)
		fuzz_check_text(merged, len, 1);
	free(merged);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return 0;
}
