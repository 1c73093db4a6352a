/*
 * stackcollapse-bcc's reader of bcc, libbpf-tools and bpftrace output,
 * with options picked by the first input byte: every table it fills is
 * valid folded output.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/bcc.h"

static const char *const maps[] = { NULL, "@", "@stacks", "x" };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct bcc_opt opt = BCC_OPT_INIT;
	void *r;
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct fold_in *in;
	unsigned flags = size ? data[0] : 0;
	char *text;
	size_t len;

	if (size) {
		data++;
		size--;
	}
	opt.pid = flags & 1;
	opt.kernel = flags >> 1 & 1;
	opt.map = maps[flags >> 2 & 3];
	fr = fold_intern_new();
	st = fold_stacks_new(fr, 1);
	r = bcc_format.open(&opt, st);
	in = fuzz_in(data, size);
	diag.limit = 0;
	/* on a read error too: what was read is kept */
	bcc_format.read(r, in, &diag);
	text = fuzz_check_table(st, &len);
	free(text);
	fold_in_close(in);
	bcc_format.close(r);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return 0;
}
