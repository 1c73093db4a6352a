#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "formats/pbutil.h"
#include "libfold/err.h"

#define HDR 16	/* size header, keeping malloc's alignment */

void
pb_capalloc_init(struct pb_capalloc *c, uint64_t cap)
{
	memset(c, 0, sizeof *c);
	c->a.alloc = pb_cap_alloc;
	c->a.free = pb_cap_free;
	c->a.allocator_data = c;
	c->cap = cap;
}

void *
pb_cap_alloc(void *arg, size_t n)
{
	struct pb_capalloc *c = arg;
	char *p;

	if (n > c->cap - c->used || c->cap - c->used - n < HDR) {
		c->over = 1;
		return NULL;
	}
	p = fold_malloc(n + HDR);
	memcpy(p, &n, sizeof n);
	c->used += n + HDR;
	return p + HDR;
}

void
pb_cap_free(void *arg, void *p)
{
	struct pb_capalloc *c = arg;
	size_t n;

	if (!p)
		return;
	p = (char *)p - HDR;
	memcpy(&n, p, sizeof n);
	c->used -= n + HDR;
	free(p);
}

static int
cmp_idpair(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;	/* the id comes first */

	return (*a > *b) - (*a < *b);
}

int
pb_idmap_build(struct pb_idmap *m, void *const *msgs, size_t n,
    size_t idoff, const char *file, const char *what)
{
	size_t i;
	uint64_t id;

	m->n = n;
	m->dense = 1;
	m->pairs = NULL;
	for (i = 0; i < n && m->dense; i++) {
		memcpy(&id, (const char *)msgs[i] + idoff, sizeof id);
		m->dense = id == i + 1;
	}
	if (m->dense)
		return 0;
	m->pairs = fold_reallocarray(NULL, n, sizeof *m->pairs);
	for (i = 0; i < n; i++) {
		memcpy(&m->pairs[i].id, (const char *)msgs[i] + idoff,
		    sizeof id);
		m->pairs[i].idx = i;
	}
	qsort(m->pairs, n, sizeof *m->pairs, cmp_idpair);
	for (i = 0; i < n; i++) {
		if (m->pairs[i].id == 0)
			return fold_seterr("%s: %s with id 0", file, what);
		if (i > 0 && m->pairs[i].id == m->pairs[i - 1].id)
			return fold_seterr("%s: duplicate %s id %" PRIu64, file,
			    what, m->pairs[i].id);
	}
	return 0;
}

long
pb_idmap_find(const struct pb_idmap *m, uint64_t id)
{
	size_t lo = 0, hi = m->n;

	if (m->dense)
		return id >= 1 && id <= m->n ? (long)(id - 1) : -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->pairs[mid].id == id)
			return (long)m->pairs[mid].idx;
		if (m->pairs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void
pb_idmap_free(struct pb_idmap *m)
{
	free(m->pairs);
	m->pairs = NULL;
}

int
pb_gzip_write(struct fold_out *out, const uint8_t *p, size_t n)
{
	unsigned char chunk[1 << 16];
	z_stream z;
	int zr;

	memset(&z, 0, sizeof z);
	/* 15 + 16: a gzip wrapper, with no name and a zero time */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return fold_seterr("gzip: %s", z.msg ? z.msg : "init failed");
	do {
		/* avail_in is 32 bits: larger buffers go in pieces */
		uInt take = n > (1u << 30) ? 1u << 30 : (uInt)n;
		z.next_in = (Bytef *)p;
		z.avail_in = take;
		p += take;
		n -= take;
		do {
			z.next_out = chunk;
			z.avail_out = sizeof chunk;
			zr = deflate(&z, n ? Z_NO_FLUSH : Z_FINISH);
			fold_out_write(out, chunk, sizeof chunk - z.avail_out);
		} while (z.avail_out == 0);
	} while (n > 0);
	deflateEnd(&z);
	if (zr != Z_STREAM_END)
		return fold_seterr("gzip: compression failed");
	return 0;
}
