/*
 * stackcollapse-ghcprof's reader of GHC .prof reports, with options picked by the first input byte: the same bytes
 * read twice give the same output, every output line parses back as a
 * folded line with one count, and detection never reads past its input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/output.h"
#include "libfold/stacks.h"
#include "formats/ghcprof.h"

/* The folded text of one read of data[0..size), malloc'd. */
static char *
collapse(const struct ghcprof_opt *opt, const uint8_t *data, size_t size,
    size_t *len)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_intern *fr = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(fr, 1);
	struct ghcprof_reader *r = ghcprof_reader_new(opt, st);
	struct fold_in *in = fold_in_mem(data, size, "fuzz");
	struct fold_out *out;
	char *text;
	int fd = memfd_create("fuzz", 0);
	off_t end;

	diag.limit = 0;
	/* on a failure too: what was read is kept */
	ghcprof_read(r, in, &diag);
	if (fd < 0 || !(out = fold_out_new(dup(fd), "fuzz")))
		abort();
	fold_write(out, st);
	if (fold_out_close(out) < 0 || (end = lseek(fd, 0, SEEK_END)) < 0)
		abort();
	*len = end;
	text = malloc(*len + 1);
	if (pread(fd, text, *len, 0) != (ssize_t)*len)
		abort();
	close(fd);
	fold_in_close(in);
	ghcprof_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return text;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ghcprof_opt opt = GHCPROF_OPT_INIT;
	unsigned flags = size ? data[0] : 0;
	struct fold_count c;
	char *a, *b, *p, *nl, *head;
	size_t alen, blen, slen;

	if (size) {
		data++;
		size--;
	}
	opt.source = flags % 3;
	/* a copy of exactly size bytes, so that ASan sees an overread */
	head = malloc(size ? size : 1);
	memcpy(head, data, size);
	if (ghcprof_detect(head, size, 1) < 0 || ghcprof_detect(head, size, 0) > 2)
		abort();
	free(head);

	a = collapse(&opt, data, size, &alen);
	b = collapse(&opt, data, size, &blen);
	if (alen != blen || memcmp(a, b, alen) != 0)
		abort();
	for (p = a; p < a + alen; p = nl + 1) {
		nl = memchr(p, '\n', a + alen - p);
		if (!nl)
			abort();
		if (fold_parse_line(p, nl - p, &slen, &c, 1) != 1 ||
		    memchr(p, '\r', nl - p) || p[0] == ';' ||
		    p[slen - 1] == ';' || memmem(p, slen, ";;", 2))
			abort();
	}
	free(a);
	free(b);
	return 0;
}
