/*
 * svg2folded's reader of flame graph SVGs: whatever the bytes, the table
 * it fills writes the same text twice, every line of it parses back as a
 * folded line with a stack of non-empty frames, and the stacks come out
 * strictly sorted; counts are conserved: the stacks of a graph that is not
 * differential count what its base row counts, less the synthetic root's
 * own count (reported); svgread_detect never reads past its input. The
 * first byte (a blank or '<' in an SVG) picks the options: bit 1
 * --countname samples.
 */
#include <math.h>

#include "tests/fuzz/fuzz.h"

#include "formats/svgread.h"

/* The sum of the last column of the folded text, as a double. */
static double
check(const char *s, size_t n, int ncols)
{
	double sum = 0;
	struct fold_count c[2];
	const char *line = s, *e = s + n, *nl, *prev = NULL;
	size_t len, stacklen, prevlen = 0, k;

	for (; line < e; line = nl + 1) {
		nl = memchr(line, '\n', e - line);
		FUZZ_CHECK(nl != NULL, "a last line without a newline");
		len = nl - line;
		FUZZ_CHECK(fold_parse_line(line, len, &stacklen, c, ncols) ==
		    ncols, "not a folded line of %d counts: %.*s", ncols,
		    (int)len, line);
		FUZZ_CHECK(stacklen > 0 && line[0] != ';' &&
		    line[stacklen - 1] != ';', "an empty frame: %.*s",
		    (int)len, line);
		for (k = 1; k < stacklen; k++)
			FUZZ_CHECK(line[k] != ';' || line[k - 1] != ';',
			    "an empty frame: %.*s", (int)len, line);
		if (prev) {
			size_t m = prevlen < stacklen ? prevlen : stacklen;
			int r = memcmp(prev, line, m);
			FUZZ_CHECK(r < 0 || (r == 0 && prevlen < stacklen),
			    "stacks out of order: %.*s", (int)len, line);
		}
		prev = line;
		prevlen = stacklen;
		sum += fold_count_val(&c[ncols - 1]);
	}
	return sum;
}

static void
say(void *arg, const char *msg)
{
	FUZZ_CHECK(msg && *msg, "an empty summary message");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct svgread_opt opt = SVGREAD_OPT_INIT;
	void *r;
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct fold_in *in;
	struct fold_count drawn, unwritten;
	char *a, *b, *head;
	size_t alen, blen;
	double sum;
	int ret;
	/* the run's table has one column: a differential graph's two stay
	   in the reader, for its own output */
	int ncols = 1;

	/* a copy of exactly the bytes, so that reading past them is caught */
	head = malloc(size ? size : 1);
	FUZZ_CHECK(head != NULL, "malloc");
	memcpy(head, data, size);
	svgread_detect(head, size, 1);
	free(head);

	if (size && (data[0] & 2))
		opt.countname = "samples";
	fr = fold_intern_new();
	st = fold_stacks_new(fr, ncols);
	r = svgread_format.open(&opt, st);
	in = fuzz_in(data, size);
	diag.limit = 0;
	/* on a failure too: what was read is kept */
	ret = svgread_format.read(r, in, &diag);
	svgread_format.finish(r, 1, say, NULL);
	a = fuzz_folded(st, &alen);
	b = fuzz_folded(st, &blen);
	FUZZ_CHECK(alen == blen && memcmp(a, b, alen) == 0,
	    "the table written twice gives other text");
	sum = check(a, alen, ncols);
	svgread_totals(r, &drawn, &unwritten);
	if (ret != -2 && !svgread_differential(r)) {
		/* counts past 2^53 are compared as doubles: to their rounding */
		double want = fold_count_val(&drawn) -
		    fold_count_val(&unwritten);
		FUZZ_CHECK(fabs(sum - want) <= 1e-6 * fmax(1, fabs(want)),
		    "conservation: the stacks count %.17g, the graph %.17g",
		    sum, want);
	}
	free(a);
	free(b);
	fold_in_close(in);
	svgread_format.close(r);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return 0;
}
