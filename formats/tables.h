/*
 * The growing arrays the readers of table-shaped formats keep (Firefox
 * profiles, OTLP, speedscope, JFR metadata): indices by row, and strings
 * by index. Internal to formats/.
 */
#ifndef FORMATS_TABLES_H
#define FORMATS_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"

/* A growing array of uint32_t. */
struct u32vec {
	uint32_t *v;
	size_t n, cap;
};

static inline void
u32vec_push(struct u32vec *v, uint32_t x)
{
	if (v->n == v->cap)
		v->v = fold_grow(v->v, &v->cap, v->n + 1, sizeof *v->v);
	v->v[v->n++] = x;
}

/*
 * Strings by index, as a format's string table holds them (repeats kept,
 * so that indices stay those of the file): string i is the bytes
 * b[off[i] .. off[i + 1]), b NUL-ended beyond them.
 */
struct strtab {
	char *b;
	size_t len, cap;
	size_t *off;
	size_t n, offcap;
};

static inline void
strtab_add(struct strtab *t, const char *s, size_t n)
{
	if (t->n + 2 > t->offcap)
		t->off = fold_grow(t->off, &t->offcap, t->n + 2,
		    sizeof *t->off);
	t->off[0] = 0;
	t->b = fold_grow(t->b, &t->cap, t->len + n + 1, 1);
	if (n)		/* s may be NULL then */
		memcpy(t->b + t->len, s, n);
	t->len += n;
	t->b[t->len] = '\0';
	t->off[++t->n] = t->len;
}

/* String i and *n, or NULL (and *n 0) when there is no string i. */
static inline const char *
strtab_get(const struct strtab *t, size_t i, size_t *n)
{
	if (i >= t->n) {
		*n = 0;
		return NULL;
	}
	*n = t->off[i + 1] - t->off[i];
	return t->b + t->off[i];
}

/* Empty, its memory kept. */
static inline void
strtab_clear(struct strtab *t)
{
	t->n = t->len = 0;
}

static inline void
strtab_free(struct strtab *t)
{
	free(t->b);
	free(t->off);
	memset(t, 0, sizeof *t);
}

#endif
