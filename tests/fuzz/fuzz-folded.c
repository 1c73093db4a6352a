/*
 * The folded reader (one and two count columns), and folded -> pprof ->
 * folded: what is read writes back the same, and a one-column profile of
 * integer counts that fit pprof's int64 survives the pprof round trip
 * byte for byte.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/pprof.h"

/* Integer counts below 2^63 only: what a pprof value can hold. */
static int
pprof_fits(struct fold_stacks *st)
{
	size_t i;
	struct fold_count t;

	for (i = 0; i < fold_stacks_len(st); i++) {
		const struct fold_count *c = fold_stacks_counts(st, i);
		if (c->frac || c->v.u > INT64_MAX)
			return 0;
	}
	return fold_stacks_total(st, 0, &t) == 0 && t.v.u <= INT64_MAX;
}

static void
roundtrip(struct fold_stacks *st, const char *text, size_t len)
{
	struct pprof_readopt ropt = PPROF_READOPT_INIT;
	const struct pprof_writeopt wopt = PPROF_WRITEOPT_INIT;
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct pprof_reader *r;
	struct fold_out *out;
	struct fold_in *in;
	char *pb, *back;
	size_t pblen, backlen;

	if (!pprof_fits(st))
		return;
	out = fuzz_out_open();
	FUZZ_CHECK(pprof_write(out, st, &wopt) == 0, "pprof_write: %s",
	    fold_err());
	pb = fuzz_out_take(out, &pblen);
	FUZZ_CHECK(pb != NULL, "pprof_write: %s", fold_err());
	r = pprof_reader_new(&ropt);
	in = fold_in_mem(pb, pblen, "fuzz.pb.gz");
	FUZZ_CHECK(pprof_read(r, in, &diag) == 0, "pprof_read: %s",
	    fold_err());
	fold_in_close(in);
	out = fuzz_out_open();
	FUZZ_CHECK(pprof_write_folded(r, out) == 0, "pprof_write_folded: %s",
	    fold_err());
	back = fuzz_out_take(out, &backlen);
	FUZZ_CHECK(back != NULL, "pprof_write_folded: %s", fold_err());
	FUZZ_CHECK(backlen == len && memcmp(back, text, len) == 0,
	    "folded -> pprof -> folded differs");
	FUZZ_CHECK(diag.count == 0, "pprof read back with warnings");
	free(back);
	pprof_reader_free(r);
	free(pb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct fold_in *in;
	char *text;
	size_t len;
	int ncols, r;

	for (ncols = 1; ncols <= 2; ncols++) {
		fr = fold_intern_new();
		st = fold_stacks_new(fr, ncols);
		in = fuzz_in(data, size);
		diag.limit = 0;
		diag.count = 0;
		r = fold_read(in, st, NULL, &diag);
		fold_in_close(in);
		if (r >= 0) {
			text = fuzz_check_table(st, &len);
			if (ncols == 1)
				roundtrip(st, text, len);
			free(text);
		}
		fold_stacks_free(st);
		fold_intern_free(fr);
	}
	return 0;
}
