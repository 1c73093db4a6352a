/*
 * svg2folded's reader of flame graph SVGs: whatever the bytes, the table
 * it fills writes the same text twice, every line of it parses back as a
 * folded line with a stack of non-empty frames, and the stacks come out
 * strictly sorted; svgread_detect never reads past its input. The
 * first byte (a blank or '<' in an SVG) picks the options: bit 0 a
 * two-column table, bit 1 --countname samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/output.h"
#include "libfold/stacks.h"
#include "formats/svgread.h"

/* fold_write's text of st. */
static char *
written(struct fold_stacks *st, size_t *len)
{
	int fd = memfd_create("fuzz-svgread", 0);
	struct fold_out *o;
	off_t n;
	char *s;

	if (fd < 0)
		abort();
	o = fold_out_new(dup(fd), "memfd");
	fold_write(o, st);
	if (fold_out_close(o) < 0 || (n = lseek(fd, 0, SEEK_END)) < 0)
		abort();
	s = malloc(n + 1);
	if (!s || pread(fd, s, n, 0) != n)
		abort();
	s[n] = '\0';
	close(fd);
	*len = n;
	return s;
}

static void
check(const char *s, size_t n, int ncols)
{
	struct fold_count c[2];
	const char *line = s, *e = s + n, *nl, *prev = NULL;
	size_t len, stacklen, prevlen = 0, k;

	for (; line < e; line = nl + 1) {
		if (!(nl = memchr(line, '\n', e - line)))
			abort();	/* every line ends in a newline */
		len = nl - line;
		if (fold_parse_line(line, len, &stacklen, c, ncols) != ncols)
			abort();
		if (stacklen == 0 || line[0] == ';' || line[stacklen - 1] == ';')
			abort();
		for (k = 1; k < stacklen; k++)
			if (line[k] == ';' && line[k - 1] == ';')
				abort();
		if (prev) {
			size_t m = prevlen < stacklen ? prevlen : stacklen;
			int r = memcmp(prev, line, m);
			if (r > 0 || (r == 0 && prevlen >= stacklen))
				abort();
		}
		prev = line;
		prevlen = stacklen;
	}
}

static void
say(void *arg, const char *msg)
{
	if (!msg || !*msg)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct svgread_opt opt = SVGREAD_OPT_INIT;
	struct svgread_reader *r;
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct fold_in *in;
	char *a, *b, *head;
	size_t alen, blen;
	int ncols = size && (data[0] & 1) ? 2 : 1;

	/* a copy of exactly the bytes, so that reading past them is caught */
	head = malloc(size ? size : 1);
	memcpy(head, data, size);
	svgread_detect(head, size, 1);
	free(head);

	if (size && (data[0] & 2))
		opt.countname = "samples";
	fr = fold_intern_new();
	st = fold_stacks_new(fr, ncols);
	r = svgread_reader_new(&opt, st);
	in = fold_in_mem(data, size, "fuzz");
	diag.limit = 0;
	/* on a failure too: what was read is kept */
	svgread_read(r, in, &diag);
	svgread_summary(r, say, NULL);
	a = written(st, &alen);
	b = written(st, &blen);
	if (alen != blen || memcmp(a, b, alen) != 0)
		abort();
	check(a, alen, ncols);
	free(a);
	free(b);
	fold_in_close(in);
	svgread_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return 0;
}
