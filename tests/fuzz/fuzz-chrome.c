/*
 * libFuzzer target for the .cpuprofile reader (formats/chrome.c).
 *
 * Each input is read twice, counting samples and then microseconds
 * (--time --lines), each time into a fresh table. Beyond not crashing:
 * the output is the same bytes when written twice from two tables; every
 * written line parses back as a folded line with a count; the table
 * total equals what the reader says it added; counting samples, that is
 * the number of samples less those dropped.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/output.h"
#include "libfold/stacks.h"
#include "formats/chrome.h"

/* The folded text of a table, in a malloc'ed buffer. */
static char *
text(struct fold_stacks *st, size_t *len)
{
	int fd = memfd_create("out", 0), dup_fd;
	struct fold_out *o;
	char *buf;
	off_t n;

	if (fd < 0 || (dup_fd = dup(fd)) < 0)
		abort();
	o = fold_out_new(dup_fd, "out");
	fold_write(o, st);
	if (fold_out_close(o) < 0)
		abort();
	n = lseek(fd, 0, SEEK_END);
	buf = malloc(n + 1);
	if (!buf || pread(fd, buf, n, 0) != n)
		abort();
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Reads data into a fresh table; returns it (and its frames) or NULL. */
static struct fold_stacks *
load(const uint8_t *data, size_t size, const struct chrome_opt *opt,
    struct chrome_stats *stats)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_stacks *st = fold_stacks_new(fold_intern_new(), 1);
	struct chrome_reader *r = chrome_reader_new(opt, st);
	struct fold_in *in = fold_in_mem(data, size, "fuzz");
	struct fold_count total;
	int rc;

	fold_in_set_limit(in, 1 << 24);
	rc = chrome_read(r, in, &diag);
	fold_in_close(in);
	*stats = *chrome_reader_stats(r);
	chrome_reader_free(r);
	if (rc == -2)
		return st;
	if (fold_stacks_total(st, 0, &total) < 0)
		abort();
	/* what the reader says it added is what the table holds */
	if (fold_count_cmp(&total, &stats->total) != 0)
		abort();
	/* counting samples: one each, none lost unreported */
	if (!opt->time && rc == 0 &&
	    total.v.u != stats->samples - stats->dropped)
		abort();
	return st;
}

static void
drop(struct fold_stacks *st)
{
	struct fold_intern *f = fold_stacks_frames(st);

	fold_stacks_free(st);
	fold_intern_free(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct chrome_opt opts[2] = { { 0, 0 }, { 1, 1 } };
	struct chrome_stats s1, s2;
	struct fold_stacks *a, *b;
	struct fold_count c;
	size_t la, lb, sl;
	char *ta, *tb, *p, *nl;
	int k;

	chrome_detect((const char *)data, size < 65536 ? size : 65536,
	    size <= 65536);
	for (k = 0; k < 2; k++) {
		a = load(data, size, &opts[k], &s1);
		b = load(data, size, &opts[k], &s2);
		ta = text(a, &la);
		tb = text(b, &lb);
		if (la != lb || memcmp(ta, tb, la) != 0)
			abort();
		for (p = ta; p < ta + la; p = nl + 1) {
			nl = memchr(p, '\n', ta + la - p);
			if (!nl || fold_parse_line(p, nl - p, &sl, &c, 1) != 1)
				abort();
		}
		free(ta);
		free(tb);
		drop(a);
		drop(b);
	}
	return 0;
}
