/*
 * pprof told from its first bytes, apart from its reader and writer: a
 * tool of another format names it without linking them and what they
 * need, protobuf-c and pcre2.
 */
#include <stdint.h>

#include "formats/pbutil.h"
#include "formats/pprof.h"

/*
 * FOLD_DETECT_SURE (2) when head[0..n) (decompressed) frames as a protobuf
 * Profile message: every field a known number with its wire type, binary
 * bytes among them; else 0.
 */
static int
pprof_detect(const char *head, size_t n, int eof)
{
	const uint8_t *p = (const uint8_t *)head;
	size_t pos = 0, i, ctl = 0;
	uint64_t key, v;
	int fields = 0;

	/* varints and packed ids: text with a stray control byte is not */
	for (i = 0; i < n; i++)
		ctl += p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' &&
		    p[i] != '\r';
	if (ctl == 0 || ctl < n / 100)
		return 0;
	while (pos < n) {
		if (pb_varint(p, n, &pos, &key) < 0)
			break;
		switch (key) {
		case 1 << 3 | 2: case 2 << 3 | 2: case 3 << 3 | 2:
		case 4 << 3 | 2: case 5 << 3 | 2: case 6 << 3 | 2:
		case 11 << 3 | 2: case 13 << 3 | 2:
			/* sample_type ... string_table, period_type, comment */
			if (pb_varint(p, n, &pos, &v) < 0 || v > n - pos) {
				pos = n + 1;	/* goes on past the head */
				break;
			}
			pos += v;
			break;
		case 7 << 3: case 8 << 3: case 9 << 3: case 10 << 3:
		case 12 << 3: case 13 << 3: case 14 << 3:
			/* drop_frames ... default_sample_type */
			if (pb_varint(p, n, &pos, &v) < 0)
				pos = n + 1;
			break;
		default:
			return fields ? 1 : 0;
		}
		if (pos <= n)
			fields++;
	}
	if (fields == 0)
		return 0;
	/* a field cut by the end of the head is fine; by the end of the
	   input, or a field that is not there, is a damaged profile: the
	   reader says what is wrong */
	return pos > n && eof ? 1 : 2;
}

const struct format_id pprof_id = {
	.name = "pprof",
	.tool = "pprof2folded",
	.what = "pprof profiles (gzip or raw protobuf)",
	.input = "a pprof profile",
	.detect = pprof_detect,
};
