/*
 * libFuzzer target for the speedscope reader and writer
 * (formats/speedscope.c).
 *
 * Each input is read twice (plain, and --lines --profile-root), each
 * time into a fresh table. Beyond not crashing: the table has the
 * properties every reader's has (fuzz_check_table); and, when the input
 * was read, written back as a speedscope file and read again it gives the
 * same table, names and counts, wherever the names are valid UTF-8 and
 * the counts whole (the writer replaces bad bytes, and a fraction of a
 * sample goes through decimal text): the writer's output is speedscope
 * the reader takes, and nothing is lost on the way.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/speedscope.h"

/* 1 when every name is valid UTF-8 and every count whole. */
static int
plain(struct fold_stacks *st)
{
	struct fold_intern *fr = fold_stacks_frames(st);
	size_t i, n, k;
	uint32_t cp;
	const char *s;

	for (i = 0; i < fold_intern_count(fr); i++) {
		s = fold_intern_str(fr, (uint32_t)i, &n);
		for (k = 0; k < n; ) {
			size_t l = fold_utf8((const unsigned char *)s + k,
			    n - k, &cp);
			if (l == 0)
				return 0;
			k += l;
		}
	}
	for (i = 0; i < fold_stacks_len(st); i++)
		if (fold_stacks_counts(st, i)->frac)
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct speedscope_opt opts[2] = { { 0 },
	    { .lines = 1, .profile_root = 1 } };
	struct fold_stacks *a, *b, *c;
	struct fold_out *out;
	size_t la, lb, lc, lw;
	char *ta, *tb, *tc, *w;
	int k, rc, rc2;

	speedscope_detect((const char *)data, size < 65536 ? size : 65536,
	    size <= 65536);
	for (k = 0; k < 2; k++) {
		a = fuzz_load(&speedscope_format, data, size, &opts[k], &rc);
		b = fuzz_load(&speedscope_format, data, size, &opts[k], &rc2);
		FUZZ_CHECK(rc == rc2, "the same input read twice fails once");
		ta = fuzz_check_table(a, &la);
		tb = fuzz_folded(b, &lb);
		FUZZ_CHECK(la == lb && memcmp(ta, tb, la) == 0,
		    "the same input read twice gives other output");
		if (rc == 0 && fold_stacks_len(a) > 0 && plain(a)) {
			out = fuzz_out_open();
			FUZZ_CHECK(speedscope_write(out, a, "fuzz") == 0,
			    "write: %s", fold_err());
			w = fuzz_out_take(out, &lw);
			FUZZ_CHECK(w != NULL, "write: %s", fold_err());
			c = fuzz_load(&speedscope_format, w, lw, &opts[0], &rc);
			FUZZ_CHECK(rc == 0, "what the writer wrote is refused: "
			    "%s", fold_err());
			tc = fuzz_folded(c, &lc);
			FUZZ_CHECK(lc == la && memcmp(tc, ta, la) == 0,
			    "written and read back, the stacks differ");
			free(w);
			free(tc);
			fuzz_drop(c);
		}
		free(ta);
		free(tb);
		fuzz_drop(a);
		fuzz_drop(b);
	}
	return 0;
}
