#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "funcs.h"
#include "intern.h"

struct fold_funcs {
	int ncols;
	size_t len, nstacks;
	struct fold_count *self, *total;	/* len * ncols */
	struct fold_count sum[FOLD_MAXCOLS];
	double mincount[FOLD_MAXCOLS];
	uint64_t gcd[FOLD_MAXCOLS];
	int frac[FOLD_MAXCOLS];
};

static uint64_t
gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

struct fold_funcs *
fold_funcs_new(const struct fold_stacks *st)
{
	struct fold_stacks *s = (struct fold_stacks *)st;
	struct fold_funcs *f = fold_calloc(1, sizeof *f);
	size_t i, j, n, nst = fold_stacks_len(st);
	uint32_t *seen;
	int c;

	f->ncols = fold_stacks_ncols(st);
	f->len = fold_intern_count(fold_stacks_frames(st));
	f->nstacks = nst;
	f->self = fold_calloc(f->len ? f->len * f->ncols : 1, sizeof *f->self);
	f->total = fold_calloc(f->len ? f->len * f->ncols : 1, sizeof *f->total);
	/* seen[id] = 1 + the last stack that counted id in its total */
	seen = fold_calloc(f->len ? f->len : 1, sizeof *seen);
	for (i = 0; i < nst; i++) {
		const uint32_t *ids = fold_stacks_ids(st, i, &n);
		const struct fold_count *cnt = fold_stacks_counts(s, i);
		uint32_t stamp = (uint32_t)(i + 1);
		for (c = 0; c < f->ncols; c++) {
			double v = fold_count_val(&cnt[c]);
			if (fold_count_add(&f->sum[c], &cnt[c]) < 0)
				goto overflow;
			if (v > 0 && (f->mincount[c] == 0 || v < f->mincount[c]))
				f->mincount[c] = v;
			if (cnt[c].frac)
				f->frac[c] = 1;
			else if (f->gcd[c] != 1)
				f->gcd[c] = gcd64(cnt[c].v.u, f->gcd[c]);
		}
		if (n == 0)
			continue;
		for (c = 0; c < f->ncols; c++)
			if (fold_count_add(&f->self[ids[n - 1] * f->ncols + c],
			    &cnt[c]) < 0)
				goto overflow;
		for (j = 0; j < n; j++) {
			if (seen[ids[j]] == stamp)
				continue;
			seen[ids[j]] = stamp;
			for (c = 0; c < f->ncols; c++)
				if (fold_count_add(&f->total[ids[j] * f->ncols + c],
				    &cnt[c]) < 0)
					goto overflow;
		}
	}
	free(seen);
	return f;
overflow:
	free(seen);
	fold_funcs_free(f);
	return NULL;
}

void
fold_funcs_free(struct fold_funcs *f)
{
	if (!f)
		return;
	free(f->self);
	free(f->total);
	free(f);
}

size_t
fold_funcs_len(const struct fold_funcs *f)
{
	return f->len;
}

int
fold_funcs_ncols(const struct fold_funcs *f)
{
	return f->ncols;
}

const struct fold_count *
fold_funcs_self(const struct fold_funcs *f, uint32_t id)
{
	return f->self + (size_t)id * f->ncols;
}

const struct fold_count *
fold_funcs_total(const struct fold_funcs *f, uint32_t id)
{
	return f->total + (size_t)id * f->ncols;
}

const struct fold_count *
fold_funcs_sum(const struct fold_funcs *f)
{
	return f->sum;
}

double
fold_funcs_mincount(const struct fold_funcs *f, int col)
{
	return f->mincount[col];
}

uint64_t
fold_funcs_gcd(const struct fold_funcs *f, int col)
{
	return f->frac[col] ? 0 : f->gcd[col];
}


/* The share v/total in percent (0 when total is 0). */
static double
pct(double v, double total)
{
	return total > 0 ? 100 * v / total : 0;
}

struct toprow {
	uint32_t id;
	struct fold_count flat, cum;
};

struct topctx {
	const struct fold_intern *frames;
	int by_cum;
};

static int
cmp_top(const void *x, const void *y, void *arg)
{
	const struct toprow *a = x, *b = y;
	const struct topctx *ctx = arg;
	int c;

	if (ctx->by_cum) {
		if ((c = fold_count_cmp(&b->cum, &a->cum)))
			return c;
		if ((c = fold_count_cmp(&b->flat, &a->flat)))
			return c;
	} else {
		if ((c = fold_count_cmp(&b->flat, &a->flat)))
			return c;
		if ((c = fold_count_cmp(&b->cum, &a->cum)))
			return c;
	}
	return fold_intern_cmp(ctx->frames, a->id, b->id);
}

int
fold_top_compute(const struct fold_stacks *st, int col, int by_cum,
    struct fold_top *t)
{
	const struct fold_intern *frames = fold_stacks_frames(st);
	struct fold_funcs *f = fold_funcs_new(st);
	struct toprow *rows;
	struct topctx ctx;
	size_t n = 0, i;
	double total, sum = 0;

	memset(t, 0, sizeof *t);
	if (!f)
		return -1;
	rows = fold_reallocarray(NULL, f->len ? f->len : 1, sizeof *rows);
	for (i = 0; i < f->len; i++) {
		const struct fold_count *self = &f->self[i * f->ncols + col];
		const struct fold_count *cum = &f->total[i * f->ncols + col];
		if (fold_count_iszero(cum) && fold_count_iszero(self))
			continue;
		rows[n].id = (uint32_t)i;
		rows[n].flat = *self;
		rows[n++].cum = *cum;
	}
	ctx.frames = frames;
	ctx.by_cum = by_cum;
	qsort_r(rows, n, sizeof *rows, cmp_top, &ctx);
	t->total = f->sum[col];
	total = fold_count_val(&f->sum[col]);
	t->nstacks = f->nstacks;
	if (f->ncols > 1) {
		/* the stacks of this profile, not of the pair */
		struct fold_stacks *s = (struct fold_stacks *)st;
		for (i = t->nstacks = 0; i < f->nstacks; i++)
			t->nstacks += !fold_count_iszero(
			    &fold_stacks_counts(s, i)[col]);
	}
	t->rows = fold_reallocarray(NULL, n ? n : 1, sizeof *t->rows);
	t->nrows = n;
	for (i = 0; i < n; i++) {
		struct fold_toprow *r = &t->rows[i];
		double flat = fold_count_val(&rows[i].flat);
		r->name = fold_intern_str(frames, rows[i].id, &r->namelen);
		r->flat = rows[i].flat;
		r->cum = rows[i].cum;
		sum += flat;
		r->flat_pct = pct(flat, total);
		r->sum_pct = pct(sum, total);
		r->cum_pct = pct(fold_count_val(&rows[i].cum), total);
	}
	free(rows);
	fold_funcs_free(f);
	return 0;
}

void
fold_top_release(struct fold_top *t)
{
	free(t->rows);
	memset(t, 0, sizeof *t);
}
