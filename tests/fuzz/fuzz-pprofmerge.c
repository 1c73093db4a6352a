/*
 * pprofmerge's merger on one profile given twice: it never crashes on
 * tables that point out of range or at themselves, it takes both or
 * neither, and what it writes is a profile whose values sum, type by
 * type, to twice the input's, in the bytes protobuf-c would pack it to
 * (when no string has a NUL byte, which protobuf-c would cut short).
 * Gzipped, it comes whole and is checked only when something is wrong
 * with it: the merger says the same of it.
 */
#include "tests/fuzz/fuzz.h"

#include "formats/pbutil.h"
#include "formats/pprofdec.h"
#include "formats/pprofmerge.h"
#include "formats/profile.pb-c.h"

#include <zlib.h>

/* What merging data[0..size) once gives: its status, and its message. */
static int
merge_once(const void *data, size_t size, char **msg)
{
	struct pprof_merger *m = pprof_merger_new(FUZZ_IN_LIMIT);
	struct fold_in *f = fuzz_in(data, size);
	int r;

	fold_seterr("%s", "");
	r = pprof_merge_add(m, f);
	*msg = strdup(fold_err());
	FUZZ_CHECK(*msg != NULL, "out of memory");
	fold_in_close(f);
	pprof_merger_free(m);
	return r;
}

/* data[0..size) merged raw and gzipped: the same status and message. */
static void
same_gzipped(const uint8_t *data, size_t size)
{
	uLong cap = compressBound(size) + 64;
	uint8_t *gz = malloc(cap);
	char *m1, *m2;
	z_stream z;
	int r1, r2;

	FUZZ_CHECK(gz != NULL, "out of memory");
	memset(&z, 0, sizeof z);
	FUZZ_CHECK(deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
	z.next_in = (uint8_t *)data;
	z.avail_in = size;
	z.next_out = gz;
	z.avail_out = cap;
	FUZZ_CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
	r1 = merge_once(data, size, &m1);
	r2 = merge_once(gz, cap - z.avail_out, &m2);
	deflateEnd(&z);
	FUZZ_CHECK(r1 == r2 && strcmp(m1, m2) == 0, "raw %d (%s), gzipped %d "
	    "(%s)", r1, m1, r2, m2);
	free(m1);
	free(m2);
	free(gz);
}

/* p[0..n) as protobuf-c unpacks and packs it again. */
static int
canonical(const char *p, size_t n)
{
	ProtobufCMessage *m = protobuf_c_message_unpack(
	    &perftools__profiles__profile__descriptor, NULL, n,
	    (const uint8_t *)p);
	uint8_t *q;
	int same;

	FUZZ_CHECK(m != NULL, "protobuf-c cannot unpack the merge");
	FUZZ_CHECK(protobuf_c_message_get_packed_size(m) == n,
	    "protobuf-c packs the merge to another size");
	q = malloc(n + 1);
	FUZZ_CHECK(q != NULL, "out of memory");
	protobuf_c_message_pack(m, q);
	same = memcmp(p, q, n) == 0;
	free(q);
	protobuf_c_message_free_unpacked(m, NULL);
	return same;
}

/* The sum of each value type over the samples of d, in sums[0..n). */
static void
sums(const struct pprof_dec *d, __int128 *s, size_t n)
{
	size_t i, j;

	for (j = 0; j < n; j++)
		s[j] = 0;
	for (i = 0; i < d->sample.n; i++)
		for (j = 0; j < n && j < d->sample.p[i].n_value; j++)
			s[j] += (int64_t)d->value.p[d->sample.p[i].val0 + j];
}

/* Reads data[0..size), gzipped or not, whole into d (its bytes in
   *buf[0..*len)): 0, or -1. */
static int
decode(const void *data, size_t size, struct pprof_dec *d, char **buf,
    size_t *len)
{
	struct fold_in *in = fuzz_in(data, size);
	int rc = pb_profile_readall(in, FUZZ_IN_LIMIT, buf, len, NULL);

	fold_in_close(in);
	if (rc < 0)
		return -1;
	pprof_dec_reset(d, FUZZ_IN_LIMIT);
	return pprof_decode(d, (const uint8_t *)*buf, *len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pprof_merger *m = pprof_merger_new(FUZZ_IN_LIMIT);
	struct pprof_dec in = { 0 }, out = { 0 };
	struct fold_out *o;
	struct fold_in *f;
	__int128 want[8], got[8];
	char *inbuf = NULL, *outbuf = NULL, *w;
	size_t n, j, wlen, inlen, outlen;
	int r1, r2;

	if (!fuzz_marked(data, size))
		same_gzipped(data, size);
	f = fuzz_in(data, size);
	r1 = pprof_merge_add(m, f);
	fold_in_close(f);
	r2 = r1;	/* a sum past 64 bits: the merger is done with */
	if (r1 != -2) {
		f = fuzz_in(data, size);
		r2 = pprof_merge_add(m, f);
		fold_in_close(f);
	}
	FUZZ_CHECK(r1 == r2 || (r1 == 0 && r2 == -2),
	    "first %d, second %d", r1, r2);
	if (r1 == 0 && r2 == 0) {
		o = fuzz_out_open();
		FUZZ_CHECK(pprof_merge_write(m, o, 1) == 0, "write: %s",
		    fold_err());
		w = fuzz_out_take(o, &wlen);
		FUZZ_CHECK(w != NULL, "close: %s", fold_err());
		FUZZ_CHECK(decode(data, size, &in, &inbuf, &inlen) == 0,
		    "the input merged but does not decode");
		FUZZ_CHECK(decode(w, wlen, &out, &outbuf, &outlen) == 0,
		    "the merge does not decode");
		/* protobuf-c cuts a string at a NUL: those are not its */
		for (j = 0; j < out.string_table.n; j++)
			if (memchr(out.string_table.p[j].p, '\0',
			    out.string_table.p[j].n))
				break;
		FUZZ_CHECK(j < out.string_table.n || canonical(outbuf, outlen),
		    "the merge is not as protobuf-c would pack it");
		n = in.sample_type.n;
		FUZZ_CHECK(out.sample_type.n == n, "%zu sample types, not %zu",
		    out.sample_type.n, n);
		if (n > 8)
			n = 8;
		sums(&in, want, n);
		sums(&out, got, n);
		for (j = 0; j < n; j++)
			FUZZ_CHECK(got[j] == 2 * want[j],
			    "type %zu: the merge's values do not sum to twice "
			    "the input's", j);
		free(w);
	}
	free(inbuf);
	free(outbuf);
	pprof_dec_free(&in);
	pprof_dec_free(&out);
	pprof_merger_free(m);
	return 0;
}
