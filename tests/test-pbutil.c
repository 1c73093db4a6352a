/*
 * Unit tests of formats/pbutil's gzip writer: a stream of any length, in
 * chunks compressed on any number of threads and handed over in any
 * pieces, gives the same bytes, one gzip member that inflates to what was
 * added, and each chunk uses the one before as its dictionary. Prints
 * "ok NAME" or "FAIL NAME" per check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdeflate.h>
#include <zlib.h>

#include "formats/pbutil.h"
#include "libfold/output.h"
#include "tests/check.h"

/* gzip of p[0..n) on jobs threads, added in pieces of piece bytes */
static unsigned char *
gz(const unsigned char *p, size_t n, unsigned jobs, size_t piece,
    size_t *len)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;
	struct fold_out *o;
	struct pb_gzip g;
	unsigned char *b;
	FILE *f;
	size_t k;
	long sz;

	snprintf(path, sizeof path, "%s/test-pbutil.XXXXXX", dir && *dir ?
	    dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return NULL;
	o = fold_out_new(fd, path);
	pb_gzip_begin(&g, o, jobs);
	for (k = 0; k < n; k += piece) {
		pb_gzip_add(&g, p + k, n - k < piece ? n - k : piece);
		pb_gzip_add(&g, NULL, 0);	/* nothing, whatever p is */
	}
	if (pb_gzip_end(&g) < 0 || fold_out_close(o) < 0)
		return NULL;
	f = fopen(path, "rb");
	unlink(path);
	if (!f || fseek(f, 0, SEEK_END) < 0 || (sz = ftell(f)) < 0)
		return NULL;
	rewind(f);
	b = malloc(sz + 1);
	*len = fread(b, 1, sz, f);
	fclose(f);
	return b;
}

/* 1 when z[0..zn) is one gzip member, all of it, of p[0..n) */
static int
inflates_to(const unsigned char *z, size_t zn, const unsigned char *p,
    size_t n)
{
	z_stream s;
	unsigned char *out = malloc(n + 1);
	int zr, good;

	memset(&s, 0, sizeof s);
	if (inflateInit2(&s, 16 + 15) != Z_OK)
		return 0;
	s.next_in = (unsigned char *)z;
	s.avail_in = zn;
	s.next_out = out;
	s.avail_out = n + 1;
	zr = inflate(&s, Z_FINISH);
	good = zr == Z_STREAM_END && s.avail_in == 0 && s.total_out == n &&
	    memcmp(out, p, n) == 0;
	inflateEnd(&s);
	free(out);
	return good;
}

/*
 * libdeflate's gzip of p[0..n) at PB_GZ_LEVEL, in one call, with zlib's
 * header for that level: no name, time 0, Unix
 */
static unsigned char *
libdeflate_gz(const unsigned char *p, size_t n, size_t *len)
{
	static const unsigned char head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0,
	    4, 3 };
	struct libdeflate_compressor *c =
	    libdeflate_alloc_compressor(PB_GZ_LEVEL);
	size_t max = libdeflate_gzip_compress_bound(c, n), i;
	unsigned char *out = malloc(max + 64);
	uint32_t crc = libdeflate_crc32(0, p, n);

	memcpy(out, head, sizeof head);
	*len = sizeof head + libdeflate_deflate_compress(c, p, n,
	    out + sizeof head, max);
	for (i = 0; i < 4; i++) {
		out[*len + i] = (unsigned char)(crc >> 8 * i);
		out[*len + 4 + i] = (unsigned char)(n >> 8 * i);
	}
	*len += 8;
	libdeflate_free_compressor(c);
	return out;
}

/* words of a small vocabulary: text that compresses as profiles do */
static void
fill(unsigned char *p, size_t n)
{
	static const char *const w[] = { "runtime.", "main.", "mallocgc",
	    "0x4a5f", "scanobject", ";", "\n", "net/http.(*conn).serve" };
	unsigned seed = 7;
	size_t i = 0, k;

	while (i < n) {
		seed = seed * 1103515245 + 12345;
		k = strlen(w[seed >> 16 & 7]);
		memcpy(p + i, w[seed >> 16 & 7], n - i < k ? n - i : k);
		i += n - i < k ? n - i : k;
	}
}

static void
test_sizes(void)
{
	static const size_t sizes[] = { 0, 1, 100000, PB_GZ_CHUNK - 1,
	    PB_GZ_CHUNK, PB_GZ_CHUNK + 1, 3 * (size_t)PB_GZ_CHUNK + 12345 };
	static const struct { unsigned jobs; size_t piece; } ways[] = {
	    { 1, 7777 }, { 2, SIZE_MAX }, { 3, 7777 }, { 8, 1 << 16 },
	    { 64, 1000003 } };
	size_t n = 3 * (size_t)PB_GZ_CHUNK + 12345, i, j, len, wlen, zlen;
	unsigned char *p = malloc(n), *want, *got, *z;
	char name[128];
	int same, ok;

	fill(p, n);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		want = gz(p, sizes[i], 1, SIZE_MAX, &wlen);
		snprintf(name, sizeof name, "gzip of %zu bytes: one member, "
		    "inflates to them", sizes[i]);
		CHECK(want && inflates_to(want, wlen, p, sizes[i]), name);
		same = 1;
		for (j = 0; j < sizeof ways / sizeof ways[0]; j++) {
			got = gz(p, sizes[i], ways[j].jobs, ways[j].piece, &len);
			same &= got && len == wlen && memcmp(got, want, len) == 0;
			free(got);
		}
		snprintf(name, sizeof name, "gzip of %zu bytes: the same on "
		    "1 to 64 threads, in any pieces", sizes[i]);
		CHECK(same, name);
		if (sizes[i] < PB_GZ_CHUNK) {
			/* one chunk: libdeflate's, with no dictionary */
			z = libdeflate_gz(p, sizes[i], &zlen);
			ok = z && zlen == wlen && memcmp(z, want, zlen) == 0;
			snprintf(name, sizeof name, "gzip of %zu bytes: "
			    "libdeflate's bytes", sizes[i]);
			CHECK(ok, name);
			free(z);
		}
		free(want);
	}
	free(p);
}

/*
 * A 16 KiB block of noise, over and over: each chunk after the first
 * finds it in its dictionary, so that its noise is not stored again. At
 * level 1, four chunks take 81 KB, where one alone takes 32 KB.
 */
static void
test_dictionary(void)
{
	size_t n = 4 * (size_t)PB_GZ_CHUNK, i, len, one;
	unsigned char *p = malloc(n), *z;
	unsigned seed = 99;

	for (i = 0; i < 16384; i++)
		p[i] = (unsigned char)((seed = seed * 1103515245 + 12345) >> 16);
	for (i = 16384; i < n; i++)
		p[i] = p[i - 16384];
	free(gz(p, PB_GZ_CHUNK, 1, SIZE_MAX, &one));
	z = gz(p, n, 2, SIZE_MAX, &len);
	CHECK(z && inflates_to(z, len, p, n) && len < 3 * one,
	    "gzip: a chunk's dictionary is the 32 KiB before it");
	free(z);
	free(p);
}

int
main(void)
{
	test_sizes();
	test_dictionary();
	return failed;
}
