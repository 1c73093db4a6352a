/*
 * What the fuzz targets share (tests/fuzz/fuzz-NAME.c, libFuzzer).
 *
 * A target defines LLVMFuzzerTestOneInput, feeds the bytes to one reader
 * or compiler of untrusted text through fold_in_mem, and checks properties
 * of the result with the helpers below; a broken property aborts, which
 * libFuzzer reports as a crash and saves the input. Everything is static
 * so that a target is one file linked against libfold and the formats.
 */
#ifndef FOLD_FUZZ_H
#define FOLD_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/output.h"
#include "libfold/stacks.h"
#include "formats/collapse.h"

/* Inputs are capped like a command's pprof input (bombs stay cheap). */
#define FUZZ_IN_LIMIT ((uint64_t)64 << 20)

/* Aborts with a message: the property that failed. */
#define FUZZ_CHECK(cond, ...) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz: %s:%d: property failed: %s: ",	\
		    __FILE__, __LINE__, #cond);				\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

/*
 * 1 when s[0..n) begins with bytes that every reader takes as a wrapper,
 * gzip or a UTF-16 byte order mark (folded(5)): what it holds is what the
 * reader sees, not these bytes.
 */
static inline int
fuzz_marked(const void *p, size_t n)
{
	const unsigned char *s = p;

	if (n < 2)
		return 0;
	return (s[0] == 0x1f && s[1] == 0x8b) ||
	    (s[0] == 0xfe && s[1] == 0xff) || (s[0] == 0xff && s[1] == 0xfe);
}

/* The bytes as an input named "fuzz", with the decompression cap. */
static inline struct fold_in *
fuzz_in(const uint8_t *data, size_t size)
{
	struct fold_in *in = fold_in_mem(data, size, "fuzz");

	FUZZ_CHECK(in != NULL, "fold_in_mem: %s", fold_err());
	fold_in_set_limit(in, FUZZ_IN_LIMIT);
	return in;
}

/*
 * Output into memory: fuzz_out_open gives a fold_out over an anonymous
 * file, fuzz_out_take closes it and returns what was written (caller
 * frees; NUL terminated beyond *len), or NULL when the close failed.
 */
static int fuzz_memfd = -1;

static inline struct fold_out *
fuzz_out_open(void)
{
	int fd;

	if (fuzz_memfd < 0)
		fuzz_memfd = memfd_create("fuzz-out", 0);
	FUZZ_CHECK(fuzz_memfd >= 0, "memfd_create");
	FUZZ_CHECK(ftruncate(fuzz_memfd, 0) == 0, "ftruncate");
	FUZZ_CHECK(lseek(fuzz_memfd, 0, SEEK_SET) == 0, "lseek");
	fd = dup(fuzz_memfd);
	FUZZ_CHECK(fd >= 0, "dup");
	return fold_out_new(fd, "fuzz-out");
}

static inline char *
fuzz_out_take(struct fold_out *out, size_t *len)
{
	off_t end;
	char *buf;
	ssize_t r;
	size_t got = 0;

	if (fold_out_close(out) < 0)
		return NULL;
	end = lseek(fuzz_memfd, 0, SEEK_END);
	FUZZ_CHECK(end >= 0, "lseek");
	buf = malloc((size_t)end + 1);
	FUZZ_CHECK(buf != NULL, "malloc");
	while (got < (size_t)end) {
		r = pread(fuzz_memfd, buf + got, (size_t)end - got, got);
		FUZZ_CHECK(r > 0, "pread");
		got += r;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* The folded text of st (sorted in place), written by fold_write. */
static inline char *
fuzz_folded(struct fold_stacks *st, size_t *len)
{
	struct fold_out *out = fuzz_out_open();
	char *s;

	fold_write(out, st);
	s = fuzz_out_take(out, len);
	FUZZ_CHECK(s != NULL, "fold_write: %s", fold_err());
	return s;
}

/*
 * Reads data[0..size) with format f's reader (options opt) into a fresh
 * table of its own frames; *rc is what the read returned. fuzz_drop
 * frees both.
 */
static inline struct fold_stacks *
fuzz_load(const struct format *f, const void *data, size_t size,
    const void *opt, int *rc)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_stacks *st = fold_stacks_new(fold_intern_new(), 1);
	void *r = f->open(opt, st);
	struct fold_in *in = fuzz_in(data, size);

	*rc = f->read(r, in, &diag);
	fold_in_close(in);
	f->close(r);
	return st;
}

static inline void
fuzz_drop(struct fold_stacks *st)
{
	struct fold_intern *f = fold_stacks_frames(st);

	fold_stacks_free(st);
	fold_intern_free(f);
}

static void
fuzz_report(void *arg, const char *msg)
{
	fprintf(stderr, "fuzz: %s\n", msg);
}

/* Reads folded text into a new table of its own frames. */
static inline struct fold_stacks *
fuzz_read_folded(const char *s, size_t n, int ncols, struct fold_intern **fr,
    uint64_t *warnings)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_in *in = fold_in_mem(s, n, "fuzz-out");
	struct fold_stacks *st;

	*fr = fold_intern_new();
	st = fold_stacks_new(*fr, ncols);
	diag.report = fuzz_report;	/* says why a property failed */
	diag.limit = 1;
	FUZZ_CHECK(fold_read(in, st, NULL, &diag) >= 0, "re-read: %s",
	    fold_err());
	fold_in_close(in);
	*warnings = diag.count;
	return st;
}

/*
 * The properties every table a reader fills must have: no empty stack,
 * its folded text reads back without a warning into the same stacks and
 * counts (frame names hold no ';' or newline), and writing is
 * deterministic. Returns the folded text (caller frees).
 */
static inline char *
fuzz_check_table(struct fold_stacks *st, size_t *len)
{
	struct fold_intern *fr;
	struct fold_stacks *back;
	uint64_t warnings;
	size_t i, n, len2;
	char *s, *s2;

	int single_empty = 0;

	for (i = 0; i < fold_stacks_len(st); i++) {
		const uint32_t *ids = fold_stacks_ids(st, i, &n);
		size_t nl;
		FUZZ_CHECK(n > 0, "stack %zu is empty", i);
		fold_intern_str(fold_stacks_frames(st), ids[0], &nl);
		single_empty |= n == 1 && nl == 0;
	}
	s = fuzz_folded(st, len);
	/*
	 * Two things folded text cannot say, left open (see CAMPAIGN.md): a
	 * stack of one empty name is written " N", which readers take for
	 * an empty stack; and text that starts with the gzip magic bytes is
	 * read as gzip, or with a UTF-16 byte order mark as UTF-16.
	 */
	if (single_empty || fuzz_marked(s, *len))
		return s;
	back = fuzz_read_folded(s, *len, fold_stacks_ncols(st), &fr,
	    &warnings);
	FUZZ_CHECK(warnings == 0, "output read back with %llu warnings",
	    (unsigned long long)warnings);
	FUZZ_CHECK(fold_stacks_len(back) == fold_stacks_len(st),
	    "%zu stacks written, %zu read back", fold_stacks_len(st),
	    fold_stacks_len(back));
	s2 = fuzz_folded(back, &len2);
	FUZZ_CHECK(len2 == *len && memcmp(s, s2, len2) == 0,
	    "folded output does not read back the same");
	free(s2);
	fold_stacks_free(back);
	fold_intern_free(fr);
	return s;
}

/*
 * Reads data with each of n option sets of format f (the structs at
 * opts, size bytes each), twice each into fresh tables: both times the
 * same result and the same output, and every table with
 * fuzz_check_table's properties. The first nsame option sets only rename
 * frames or add some (a thread at the root): when each of them reads the
 * input, they read the same total.
 */
static inline void
fuzz_readings(const struct format *f, const void *opts, size_t size,
    size_t n, size_t nsame, const uint8_t *data, size_t len)
{
	struct fold_stacks *a, *b;
	struct fold_count tot, first = FOLD_COUNT_INIT;
	size_t k, la, lb;
	char *ta, *tb;
	int rc, rc2, all = 1;

	for (k = 0; k < n; k++) {
		const void *o = (const char *)opts + k * size;
		a = fuzz_load(f, data, len, o, &rc);
		b = fuzz_load(f, data, len, o, &rc2);
		FUZZ_CHECK(rc == rc2, "the same input read twice fails once");
		ta = fuzz_check_table(a, &la);
		tb = fuzz_folded(b, &lb);
		FUZZ_CHECK(la == lb && memcmp(ta, tb, la) == 0,
		    "the same input read twice gives other output");
		FUZZ_CHECK(fold_stacks_total(a, 0, &tot) == 0,
		    "a total out of range");
		if (k < nsame) {
			all &= rc == 0;
			if (k == 0)
				first = tot;
			else if (all)
				FUZZ_CHECK(fold_count_cmp(&first, &tot) == 0,
				    "options that rename frames changed the "
				    "total");
		}
		free(ta);
		free(tb);
		fuzz_drop(a);
		fuzz_drop(b);
	}
}

/* 1 when a line of s[0..n) is " COUNT": a stack of one empty name. */
static inline int
fuzz_single_empty(const char *s, size_t n)
{
	const char *e = s + n, *nl;

	for (; s < e; s = nl + 1) {
		if (!(nl = memchr(s, '\n', e - s)))
			nl = e;
		if (*s == ' ' && !memchr(s + 1, ' ', nl - s - 1))
			return 1;
	}
	return 0;
}

/*
 * Folded text that a writer produced must read back without a warning and
 * be written again byte for byte (sorted, each stack once).
 */
static inline void
fuzz_check_text(const char *s, size_t n, int ncols)
{
	struct fold_intern *fr;
	struct fold_stacks *st;
	uint64_t warnings;
	size_t len;
	char *s2;

	if (fuzz_marked(s, n))
		return;		/* read as gzip or UTF-16: see fuzz_check_table */
	if (fuzz_single_empty(s, n))
		return;		/* a stack of one empty name: likewise */
	st = fuzz_read_folded(s, n, ncols, &fr, &warnings);
	FUZZ_CHECK(warnings == 0, "output read back with %llu warnings",
	    (unsigned long long)warnings);
	s2 = fuzz_folded(st, &len);
	FUZZ_CHECK(len == n && memcmp(s, s2, n) == 0,
	    "output is not what fold_write writes of it");
	free(s2);
	fold_stacks_free(st);
	fold_intern_free(fr);
}

/* 1 when the two totals of column col are equal (or both overflow). */
static inline int
fuzz_same_total(const struct fold_stacks *a, const struct fold_stacks *b,
    int col)
{
	struct fold_count ta, tb;
	int ra = fold_stacks_total(a, col, &ta);
	int rb = fold_stacks_total(b, col, &tb);

	if (ra < 0 || rb < 0)
		return ra == rb;
	return fold_count_cmp(&ta, &tb) == 0;
}

/*
 * Every line of the folded text s[0..n) ends in a newline and is a stack
 * of non-empty frames with one count, an integer when integer is set.
 * Returns the counts' sum modulo 2^64; *wrapped tells whether it passed
 * 2^64 - 1 (fractions are left out of the sum).
 */
static inline uint64_t
fuzz_check_lines(const char *s, size_t n, int integer, int *wrapped)
{
	const char *p, *nl;
	struct fold_count c;
	uint64_t total = 0;
	size_t slen;

	*wrapped = 0;
	for (p = s; p < s + n; p = nl + 1) {
		nl = memchr(p, '\n', s + n - p);
		FUZZ_CHECK(nl != NULL, "a last line without a newline");
		FUZZ_CHECK(fold_parse_line(p, nl - p, &slen, &c, 1) == 1 &&
		    slen > 0 && p[0] != ';' && p[slen - 1] != ';' &&
		    !memmem(p, slen, ";;", 2),
		    "not a folded line with one count and no empty frame: "
		    "%.*s", (int)(nl - p), p);
		FUZZ_CHECK(!integer || !c.frac, "a fraction: %.*s",
		    (int)(nl - p), p);
		if (!c.frac)
			*wrapped |= __builtin_add_overflow(total, c.v.u,
			    &total);
	}
	return total;
}

/*
 * A converter of formats/collapse.h on data[0..size), with options opt:
 * its detect reads no byte past its input (an exact copy, so that ASan
 * sees an overread) and answers 0, 1 or 2; the same bytes read twice give
 * the same output; every output line parses back as a folded line with
 * one count, no carriage return and no empty frame. What was read before
 * a failure is kept and checked too. The checks every converter makes of
 * an input hold: a read that succeeds and a finish that does too leave a
 * stack in the table (an input that gives none is an error), and a
 * line-based format refuses a NUL byte in the first 64 KiB at once,
 * adding nothing.
 */
static void
fuzz_say_nothing(void *arg, const char *msg)
{
}

static inline char *
fuzz_convert(const struct format *f, const void *opt, const uint8_t *data,
    size_t size, size_t *len)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_intern *fr = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(fr, 1);
	const void **opts = calloc(collapse_nformats, sizeof *opts);
	struct collapse *c;
	struct fold_in *in = fuzz_in(data, size);
	char *s;

	const void *nul = memchr(data, '\0', size < 65536 ? size : 65536);
	int rc, frc;

	FUZZ_CHECK(opts != NULL, "calloc");
	opts[collapse_index(collapse_formats, collapse_nformats, f)] = opt;
	c = collapse_new(collapse_formats, collapse_nformats, opts, f, st,
	    fuzz_say_nothing, NULL);
	free(opts);
	FUZZ_CHECK(c != NULL, "collapse_new: %s", fold_err());
	diag.limit = 0;
	rc = collapse_read(c, in, &diag);
	FUZZ_CHECK(rc == 0 || rc == -1 || rc == -2, "collapse_read: %d", rc);
	frc = collapse_finish(c, rc == 0, NULL);
	FUZZ_CHECK(rc != 0 || frc != 0 || fold_stacks_len(st) > 0,
	    "no stack in the table, and the run did not fail");
	/* (not gzip or UTF-16: what it decodes to is what counts; nor a
	   binary form the format's reader reads, a JFR recording) */
	FUZZ_CHECK(!nul || f->kind != FOLD_LINES || fuzz_marked(data, size) ||
	    (f->id->binary && f->id->binary((const char *)data, size)) ||
	    (rc == -1 && fold_stacks_len(st) == 0),
	    "a NUL byte in the head read as %s", f->id->input);
	s = fuzz_folded(st, len);
	fold_in_close(in);
	collapse_free(c);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return s;
}

static inline void
fuzz_converter(const char *name, const void *opt,
    const uint8_t *data, size_t size)
{
	const struct format *f = collapse_find(collapse_formats,
	    collapse_nformats, name);
	char *a, *b, *head;
	size_t alen, blen;
	int k;

	FUZZ_CHECK(f != NULL, "no format %s", name);
	head = malloc(size ? size : 1);
	FUZZ_CHECK(head != NULL, "malloc");
	memcpy(head, data, size);
	k = f->id->detect(head, size, 1);
	FUZZ_CHECK(k >= 0 && k <= 2, "detect at the end: %d", k);
	k = f->id->detect(head, size, 0);
	FUZZ_CHECK(k >= 0 && k <= 2, "detect cut short: %d", k);
	free(head);

	a = fuzz_convert(f, opt, data, size, &alen);
	b = fuzz_convert(f, opt, data, size, &blen);
	FUZZ_CHECK(alen == blen && memcmp(a, b, alen) == 0,
	    "the same input read twice gives other output");
	fuzz_check_lines(a, alen, 0, &k);
	FUZZ_CHECK(!memchr(a, '\r', alen), "a carriage return in the output");
	free(a);
	free(b);
}

/*
 * What a run said and wrote, line after line, for targets that compare
 * two runs: fuzz_text_add appends s[0..n) and a newline, fuzz_said is
 * its fold_say_fn (arg: the text). The caller frees t->s.
 */
struct fuzz_text {
	char *s;
	size_t n;
};

static inline void
fuzz_text_add(struct fuzz_text *t, const char *s, size_t n)
{
	t->s = realloc(t->s, t->n + n + 2);
	FUZZ_CHECK(t->s != NULL, "realloc");
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n++] = '\n';
	t->s[t->n] = '\0';
}

static inline void
fuzz_said(void *arg, const char *msg)
{
	fuzz_text_add(arg, msg, strlen(msg));
}

/*
 * A collapse of format f alone (its options opt), into a table of its
 * own, saying its messages to t, with a diag that says them there too.
 */
struct fuzz_collapse {
	const void **opts;
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct collapse *c;
	struct fold_diag diag;
};

static inline void
fuzz_collapse_open(struct fuzz_collapse *fc, const struct format *f,
    const void *opt, struct fuzz_text *t)
{
	fc->opts = calloc(collapse_nformats, sizeof *fc->opts);
	FUZZ_CHECK(fc->opts != NULL, "calloc");
	fc->opts[collapse_index(collapse_formats, collapse_nformats, f)] = opt;
	fc->fr = fold_intern_new();
	fc->st = fold_stacks_new(fc->fr, 1);
	fc->c = collapse_new(collapse_formats, collapse_nformats, fc->opts,
	    f, fc->st, fuzz_said, t);
	FUZZ_CHECK(fc->c != NULL, "collapse_new: %s", fold_err());
	fc->diag = (struct fold_diag)FOLD_DIAG_INIT;
	fc->diag.report = fuzz_said;
	fc->diag.arg = t;
}

static inline void
fuzz_collapse_close(struct fuzz_collapse *fc)
{
	collapse_free(fc->c);
	fold_stacks_free(fc->st);
	fold_intern_free(fc->fr);
	free(fc->opts);
}

/* collapse_finish's output and status, added to t. */
static inline void
fuzz_text_finish(struct fuzz_text *t, struct collapse *c, int ok)
{
	struct fold_out *out = fuzz_out_open();
	int rc = collapse_finish(c, ok, out);
	char buf[32], *o;
	size_t n;

	o = fuzz_out_take(out, &n);
	FUZZ_CHECK(o != NULL, "output");
	fuzz_text_add(t, o, n);
	free(o);
	snprintf(buf, sizeof buf, "finish %d", rc);
	fuzz_text_add(t, buf, strlen(buf));
}

#endif
