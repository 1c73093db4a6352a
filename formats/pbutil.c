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

enum { ARENA_MIN = 64 << 10, ARENA_MAX = 4 << 20 };

static void *
arena_alloc(void *arg, size_t n)
{
	struct pb_arena *ar = arg;
	size_t need = (n + 15) & ~(size_t)15;
	void *p;

	if (need >= n && need <= ar->size - ar->used) {
		p = ar->block + ar->used;
		ar->used += need;
		return p;
	}
	if ((p = pb_cap_alloc(ar->ca, n))) {
		if (ar->nbig == ar->capbig) {
			ar->capbig = ar->capbig ? 2 * ar->capbig : 64;
			ar->big = fold_reallocarray(ar->big, ar->capbig,
			    sizeof *ar->big);
		}
		ar->big[ar->nbig++] = p;
	}
	return p;
}

static void
arena_free(void *arg, void *p)
{
	/* freed all at once by pb_arena_empty */
}

void
pb_arena_init(struct pb_arena *ar, struct pb_capalloc *ca)
{
	memset(ar, 0, sizeof *ar);
	ar->a.alloc = arena_alloc;
	ar->a.free = arena_free;
	ar->a.allocator_data = ar;
	ar->ca = ca;
	ar->size = ARENA_MIN;
	ar->block = fold_malloc(ar->size);
}

void
pb_arena_empty(struct pb_arena *ar)
{
	size_t i;

	if (ar->nbig > 0 && ar->size < ARENA_MAX) {
		ar->size *= 2;
		free(ar->block);
		ar->block = fold_malloc(ar->size);
	}
	for (i = 0; i < ar->nbig; i++)
		pb_cap_free(ar->ca, ar->big[i]);
	ar->nbig = 0;
	ar->used = 0;
}

void
pb_arena_release(struct pb_arena *ar)
{
	size_t i;

	for (i = 0; i < ar->nbig; i++)
		pb_cap_free(ar->ca, ar->big[i]);
	free(ar->block);
	free(ar->big);
	ar->block = NULL;
	ar->big = NULL;
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
pb_gzip_begin(struct pb_gzip *g, struct fold_out *out)
{
	memset(g, 0, sizeof *g);
	g->out = out;
	/* 15 + 16: a gzip wrapper, with no name and a zero time */
	if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return fold_seterr("gzip: %s", g->z.msg ? g->z.msg :
		    "init failed");
	return 0;
}

/* Compresses p[0..n) with flush (Z_NO_FLUSH or Z_FINISH). */
static void
gzip_run(struct pb_gzip *g, const uint8_t *p, size_t n, int flush)
{
	unsigned char chunk[1 << 16];
	size_t off = 0;
	int zr;

	do {
		/* avail_in is 32 bits: larger buffers go in pieces */
		uInt take = n - off > (1u << 30) ? 1u << 30 : (uInt)(n - off);
		g->z.next_in = n ? (Bytef *)p + off : NULL;
		g->z.avail_in = take;
		off += take;
		do {
			g->z.next_out = chunk;
			g->z.avail_out = sizeof chunk;
			zr = deflate(&g->z, off < n ? Z_NO_FLUSH : flush);
			if (zr == Z_STREAM_ERROR)
				g->err = 1;
			fold_out_write(g->out, chunk,
			    sizeof chunk - g->z.avail_out);
		} while (g->z.avail_out == 0);
	} while (off < n);
	if (flush == Z_FINISH && zr != Z_STREAM_END)
		g->err = 1;
}

void
pb_gzip_add(struct pb_gzip *g, const void *p, size_t n)
{
	if (n > 0)
		gzip_run(g, p, n, Z_NO_FLUSH);
}

int
pb_gzip_end(struct pb_gzip *g)
{
	gzip_run(g, NULL, 0, Z_FINISH);
	deflateEnd(&g->z);
	if (g->err)
		return fold_seterr("gzip: compression failed");
	return 0;
}

int
pb_gzip_write(struct fold_out *out, const uint8_t *p, size_t n)
{
	struct pb_gzip g;

	if (pb_gzip_begin(&g, out) < 0)
		return -1;
	pb_gzip_add(&g, p, n);
	return pb_gzip_end(&g);
}
