/*
 * stackcollapse-perf's reader of `perf script` text, with the option sets
 * picked by the first input byte: every table it fills is valid folded
 * output, and perf_detect answers within range on the input whole and as
 * a head cut short, reading no byte past it. (Not fuzz_converter: a
 * process name may hold a '\r', which folded text can carry.)
 */
#include "tests/fuzz/fuzz.h"

#include "formats/perf.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct perf_opt opt = PERF_OPT_INIT;
	void *r;
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct fold_in *in;
	unsigned flags = size ? data[0] : 0;
	char *text, *head;
	size_t len;

	if (size) {
		data++;
		size--;
	}
	head = malloc(size ? size : 1);
	FUZZ_CHECK(head != NULL, "malloc");
	memcpy(head, data, size);	/* exactly size bytes, for ASan */
	FUZZ_CHECK(perf_detect(head, size, 1) <= 2 &&
	    perf_detect(head, size, 0) <= 2, "detect: more than 2");
	free(head);
	opt.pid = flags & 1;
	opt.tid = flags >> 1 & 1;
	opt.kernel = flags >> 2 & 1;
	opt.jit = flags >> 2 & 1;
	opt.addrs = flags >> 3 & 1;
	opt.inlined = flags >> 4 & 1;
	opt.context = flags >> 5 & 1;
	opt.srcline = flags >> 6 & 1;
	opt.samples = flags >> 7 & 1;
	fr = fold_intern_new();
	st = fold_stacks_new(fr, 1);
	r = perf_format.open(&opt, st);
	in = fuzz_in(data, size);
	diag.limit = 0;
	/* on a read error too: what was read is kept */
	perf_format.read(r, in, &diag);
	text = fuzz_check_table(st, &len);
	free(text);
	fold_in_close(in);
	perf_format.close(r);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return 0;
}
