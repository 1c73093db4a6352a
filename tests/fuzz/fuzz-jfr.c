/*
 * stackcollapse-jfr's reader of `jfr print` text, with options picked by
 * the first input byte: every table it fills is valid folded output.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/jfr.h"

static const char *const events[] = {
	NULL, "ObjectAllocationSample", "JavaMonitorEnter", "ThreadPark",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct jfr_opt opt = JFR_OPT_INIT;
	struct jfr_reader *r;
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
	opt.event = events[flags & 3];
	opt.weight = flags & 4 ? "count" : NULL;
	opt.signatures = flags >> 3 & 1;
	opt.lines = flags >> 4 & 1;
	opt.threads = flags >> 5 & 1;
	fr = fold_intern_new();
	st = fold_stacks_new(fr, 1);
	r = jfr_reader_new(&opt, st);
	in = fuzz_in(data, size);
	diag.limit = 0;
	/* on a read error too: what was read is kept */
	jfr_read(r, in, &diag);
	text = fuzz_check_table(st, &len);
	free(text);
	fold_in_close(in);
	jfr_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return 0;
}
