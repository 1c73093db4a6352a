/*
 * pprof2folded's reader of pprof profiles (protobuf, gzip or not), with
 * options picked by the first input byte: it never crashes on tables
 * that point out of range or at themselves, and what it writes is valid
 * folded text: one count a line, or with negative values kept (a delta
 * profile) two, one of them 0.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/pprof.h"

static const char *const indexes[] = { NULL, "0", "1", "alloc_space" };
static const char *const keys[] = { "thread" };
static const char *const focus[] = { "thread=^a" };

/* Every line of a differential ends "0 N" or "N 0". */
static void
check_differential(const char *s, size_t n)
{
	const char *p, *nl, *sp;

	for (p = s; p < s + n; p = nl + 1) {
		nl = memchr(p, '\n', s + n - p);
		FUZZ_CHECK(nl != NULL, "a line without a newline");
		sp = nl;
		while (sp > p && sp[-1] != ' ')
			sp--;
		FUZZ_CHECK(sp - p >= 2 && sp[-1] == ' ',
		    "a differential line with one count");
		FUZZ_CHECK((nl - sp == 1 && *sp == '0') ||
		    (sp - p >= 3 && sp[-2] == '0' && sp[-3] == ' '),
		    "a differential line whose counts are both non-zero");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pprof_readopt opt = PPROF_READOPT_INIT;
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct pprof_reader *r;
	struct fold_out *out;
	struct fold_in *in;
	unsigned flags = size ? data[0] : 0;
	char *text;
	size_t len;

	if (size) {
		data++;
		size--;
	}
	opt.sample_index = indexes[flags & 3];
	opt.lines = flags >> 2 & 1;
	opt.filenames = flags >> 3 & 1;
	if (flags & 16) {
		opt.tag_root = keys;
		opt.ntag_root = 1;
	}
	if (flags & 32) {
		opt.tag_leaf = keys;
		opt.ntag_leaf = 1;
	}
	if (flags & 64) {
		opt.tag_focus = focus;
		opt.ntag_focus = 1;
	}
	opt.max_size = 16 << 20;
	/* both ways of taking a negative value, the option bits reused */
	opt.negative = (flags & 12) == 12 ? PPROF_NEG_SKIP : PPROF_NEG_KEEP;
	r = pprof_reader_new(&opt);
	FUZZ_CHECK(r != NULL, "pprof_reader_new: %s", fold_err());
	in = fuzz_in(data, size);
	diag.limit = 0;
	if (pprof_read(r, in, &diag) == 0) {
		out = fuzz_out_open();
		if (flags & 128) {
			pprof_list(r, out);
			free(fuzz_out_take(out, &len));
		} else if (pprof_write_folded(r, out) == 0) {
			text = fuzz_out_take(out, &len);
			FUZZ_CHECK(text != NULL, "write: %s", fold_err());
			fuzz_check_text(text, len,
			    opt.negative == PPROF_NEG_KEEP ? 2 : 1);
			if (opt.negative == PPROF_NEG_KEEP)
				check_differential(text, len);
			free(text);
		} else
			free(fuzz_out_take(out, &len));
	}
	fold_in_close(in);
	pprof_reader_free(r);
	return 0;
}
