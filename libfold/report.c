#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "folded.h"
#include "intern.h"
#include "filter.h"
#include "report.h"
#include "stats.h"

struct striphex {
	char *buf;
	size_t cap;
};

static const char *
striphex(void *arg, const char *s, size_t *n)
{
	struct striphex *sh = arg;

	if (!fold_has_hex(s, *n))
		return s;
	if (FOLD_STRIP_HEX_MAX(*n) > sh->cap) {
		sh->cap = FOLD_STRIP_HEX_MAX(*n) * 2;
		sh->buf = fold_realloc(sh->buf, sh->cap);
	}
	*n = fold_strip_hex(s, *n, sh->buf);
	return sh->buf;
}

int
fold_read_column(struct fold_in *in, struct fold_stacks *st, int col,
    int strip_hex, struct fold_diag *diag)
{
	struct fold_readopt opt = FOLD_READOPT_INIT;
	struct striphex sh = { NULL, 0 };
	int r;

	opt.col = col;
	if (strip_hex) {
		opt.rewrite = striphex;
		opt.arg = &sh;
	}
	r = fold_read(in, st, &opt, diag);
	free(sh.buf);
	return r;
}

int
fold_diff_normalize(struct fold_stacks *st)
{
	struct fold_count t0, t1, *c;
	size_t i;

	if (fold_stacks_total(st, 0, &t0) < 0 ||
	    fold_stacks_total(st, 1, &t1) < 0)
		return -1;
	if (fold_count_iszero(&t0) || fold_count_iszero(&t1) ||
	    fold_count_cmp(&t0, &t1) == 0)
		return 0;
	for (i = 0; i < fold_stacks_len(st); i++) {
		c = fold_stacks_counts(st, i);
		if (!c[0].frac && !t0.frac && !t1.frac) {
			/* exact: the product of two 64-bit counts fits 128 bits,
			   and the quotient is at most t1 */
			unsigned __int128 p = (unsigned __int128)c[0].v.u * t1.v.u;
			c[0].v.u = (uint64_t)(p / t0.v.u);
		} else {
			c[0] = fold_count_double(floor(fold_count_val(&c[0]) *
			    fold_count_val(&t1) / fold_count_val(&t0)));
			if (fold_count_val(&c[0]) <= 9007199254740992.0)
				c[0] = fold_count_u64(
				    (uint64_t)fold_count_val(&c[0]));
		}
	}
	return 0;
}

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

size_t
fold_funcs_nstacks(const struct fold_funcs *f)
{
	return f->nstacks;
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

int
fold_format_parse(const char *s, enum fold_format *f)
{
	if (strcmp(s, "text") == 0)
		*f = FOLD_FORMAT_TEXT;
	else if (strcmp(s, "markdown") == 0 || strcmp(s, "md") == 0)
		*f = FOLD_FORMAT_MARKDOWN;
	else if (strcmp(s, "tsv") == 0)
		*f = FOLD_FORMAT_TSV;
	else
		return fold_seterr("unknown format '%s' (text, markdown or tsv)",
		    s);
	return 0;
}

/*
 * Tables are written aligned (text), as a GitHub table (markdown) or
 * tab-separated (tsv). The last column is the function name:
 * left-aligned, unpadded, a code span in markdown.
 */
static void
table_init(struct fold_table *t, size_t ncols)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols;
}

void
fold_table_release(struct fold_table *t)
{
	size_t i;

	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->caption);
	memset(t, 0, sizeof *t);
}

/* Adds a row; the cells are filled with table_set. */
static size_t
table_row(struct fold_table *t)
{
	size_t i;

	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->cells = fold_reallocarray(t->cells, t->cap * t->ncols,
		    sizeof *t->cells);
	}
	for (i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] = NULL;
	return t->nrows++;
}

static void
table_setn(struct fold_table *t, size_t row, size_t col, const char *s,
    size_t n)
{
	char **c = &t->cells[row * t->ncols + col];

	free(*c);
	*c = fold_strndup(s, n);
}

/* A name cell: shown by fold_vis, whole past a NUL, no tab or newline. */
static void
table_setname(struct fold_table *t, size_t row, size_t col, const char *s,
    size_t n)
{
	char **c = &t->cells[row * t->ncols + col];

	free(*c);
	*c = fold_visdup(s, n, NULL);
}

static void __attribute__((format(printf, 4, 5)))
table_set(struct fold_table *t, size_t row, size_t col, const char *fmt, ...)
{
	char buf[FOLD_COUNT_BUFSZ + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	table_setn(t, row, col, buf, n);
}

const char *
fold_table_cell(const struct fold_table *t, size_t row, size_t col)
{
	const char *s = t->cells[row * t->ncols + col];
	return s ? s : "";
}

static void
put_spaces(struct fold_out *out, size_t n)
{
	while (n-- > 0)
		fold_out_putc(out, ' ');
}

/*
 * s (shown by fold_vis: no newline, no NUL) as a markdown code span that
 * survives a GitHub table. The fence is one backtick longer than the
 * longest run inside, as CommonMark requires; a space pads the inside
 * when s starts or ends with a backtick (else it would join the fence),
 * or both starts and ends with a space (else one of each would be
 * stripped). '|' is escaped: a table splits its rows at '|' before it
 * reads the spans in the cells. An empty name is an empty cell.
 */
static void
put_md_code(struct fold_out *out, const char *s)
{
	size_t run = 0, maxrun = 0, i, fence, n = strlen(s);
	int pad;
	const char *p;

	if (n == 0)
		return;
	for (p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > maxrun)
			maxrun = run;
	}
	fence = maxrun + 1;
	pad = s[0] == '`' || s[n - 1] == '`' ||
	    (s[0] == ' ' && s[n - 1] == ' ' && strspn(s, " ") < n);
	for (i = 0; i < fence; i++)
		fold_out_putc(out, '`');
	if (pad)
		fold_out_putc(out, ' ');
	for (p = s; *p; p++) {
		if (*p == '|')
			fold_out_putc(out, '\\');
		fold_out_putc(out, *p);
	}
	if (pad)
		fold_out_putc(out, ' ');
	for (i = 0; i < fence; i++)
		fold_out_putc(out, '`');
}

void
fold_name_write(struct fold_out *out, const char *s, size_t n,
    enum fold_format f)
{
	char *v = fold_visdup(s, n, NULL);

	if (f == FOLD_FORMAT_MARKDOWN)
		put_md_code(out, v);
	else
		fold_out_puts(out, v);
	free(v);
}

static void
table_write(struct fold_out *out, const struct fold_table *t,
    enum fold_format f)
{
	size_t *w = fold_calloc(t->ncols, sizeof *w), r, c, len;
	const char *s;

	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if ((len = strlen(fold_table_cell(t, r, c))) > w[c])
				w[c] = len;
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			s = fold_table_cell(t, r, c);
			switch (f) {
			case FOLD_FORMAT_TEXT:
				if (c > 0)
					fold_out_puts(out, "  ");
				if (c + 1 < t->ncols)
					put_spaces(out, w[c] - strlen(s));
				fold_out_puts(out, s);
				break;
			case FOLD_FORMAT_MARKDOWN:
				fold_out_puts(out, c ? " | " : "| ");
				if (c + 1 == t->ncols && r > 0)
					put_md_code(out, s);
				else
					fold_out_puts(out, s);
				break;
			case FOLD_FORMAT_TSV:
				if (c > 0)
					fold_out_putc(out, '\t');
				fold_out_puts(out, s);
				break;
			}
		}
		if (f == FOLD_FORMAT_MARKDOWN)
			fold_out_puts(out, " |");
		fold_out_putc(out, '\n');
		if (f == FOLD_FORMAT_MARKDOWN && r == 0) {
			for (c = 0; c < t->ncols; c++)
				fold_out_puts(out, c + 1 < t->ncols ? "| ---: " :
				    "| :--- |\n");
		}
	}
	free(w);
}

/* The share v/total in percent (0 when total is 0). */
static double
pct(double v, double total)
{
	return total > 0 ? 100 * v / total : 0;
}

/* ------------------------------------------------------------------ top */

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
fold_top_table(const struct fold_stacks *st, const struct fold_topopt *opt,
    struct fold_table *t)
{
	const struct fold_intern *frames = fold_stacks_frames(st);
	struct fold_funcs *f = fold_funcs_new(st);
	struct toprow *rows;
	struct topctx ctx;
	size_t n = 0, i, shown, r, col = opt->col, nst;
	double total, sum = 0;
	char buf[FOLD_COUNT_BUFSZ], tbuf[FOLD_COUNT_BUFSZ];

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
	ctx.by_cum = opt->by_cum;
	qsort_r(rows, n, sizeof *rows, cmp_top, &ctx);
	shown = opt->top && opt->top < n ? opt->top : n;
	total = fold_count_val(&f->sum[col]);

	table_init(t, 6);
	nst = f->nstacks;
	if (f->ncols > 1) {
		/* the stacks of this profile, not of the pair */
		struct fold_stacks *s = (struct fold_stacks *)st;
		for (i = nst = 0; i < f->nstacks; i++)
			nst += !fold_count_iszero(&fold_stacks_counts(s, i)[col]);
	}
	fold_count_fmt_grouped(&f->sum[col], tbuf);
	t->caption = fold_malloc(3 * FOLD_COUNT_BUFSZ + 64);
	snprintf(t->caption, 3 * FOLD_COUNT_BUFSZ + 64, "total %s in %zu "
	    "stacks, %zu functions; showing %zu by %s", tbuf, nst, n,
	    shown, opt->by_cum ? "cum" : "flat");
	r = table_row(t);
	table_set(t, r, 0, "flat");
	table_set(t, r, 1, "flat%%");
	table_set(t, r, 2, "sum%%");
	table_set(t, r, 3, "cum");
	table_set(t, r, 4, "cum%%");
	table_set(t, r, 5, "function");
	for (i = 0; i < shown; i++) {
		size_t len;
		const char *name = fold_intern_str(frames, rows[i].id, &len);
		double flat = fold_count_val(&rows[i].flat);
		sum += flat;
		r = table_row(t);
		fold_count_fmt(&rows[i].flat, buf);
		table_set(t, r, 0, "%s", buf);
		fold_count_fmt(&rows[i].cum, buf);
		table_set(t, r, 3, "%s", buf);
		if (opt->format == FOLD_FORMAT_TSV) {
			table_set(t, r, 1, "%.4f", pct(flat, total));
			table_set(t, r, 2, "%.4f", pct(sum, total));
			table_set(t, r, 4, "%.4f",
			    pct(fold_count_val(&rows[i].cum), total));
		} else {
			table_set(t, r, 1, "%.2f%%", pct(flat, total));
			table_set(t, r, 2, "%.2f%%", pct(sum, total));
			table_set(t, r, 4, "%.2f%%",
			    pct(fold_count_val(&rows[i].cum), total));
		}
		table_setname(t, r, 5, name, len);
	}
	free(rows);
	fold_funcs_free(f);
	return 0;
}

int
fold_top_write(struct fold_out *out, const struct fold_stacks *st,
    const struct fold_topopt *opt)
{
	struct fold_table t = FOLD_TABLE_INIT;

	if (fold_top_table(st, opt, &t) < 0)
		return -1;
	if (opt->format == FOLD_FORMAT_TEXT)
		fold_out_printf(out, "%s\n", t.caption);
	else if (opt->format == FOLD_FORMAT_MARKDOWN)
		fold_out_printf(out, "T%s.\n\n", t.caption + 1);
	table_write(out, &t, opt->format);
	fold_table_release(&t);
	return 0;
}

/* A growing string, for the notes and the gate lines. */
struct line {
	char *s;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3)))
line_printf(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (l->len + n + 1 > l->cap) {
		l->cap = (l->len + n + 1) * 2;
		l->s = fold_realloc(l->s, l->cap);
	}
	va_start(ap, fmt);
	vsnprintf(l->s + l->len, l->cap - l->len, fmt, ap);
	va_end(ap);
	l->len += n;
}

/* --------------------------------------------------------------- diff */

struct metric {
	struct fold_count count[2];
	double v[2];		/* share (fraction) or count per unit */
	double diff;		/* v[1] - v[0] */
	double rel;		/* diff / v[0]; HUGE_VAL when v[0] is 0 */
	double p, q;
};

struct diffrow {
	uint32_t id;
	double share[2];	/* total share, for the floor */
	struct metric m[2];	/* FOLD_METRIC_SELF, FOLD_METRIC_TOTAL */
};

struct fold_diffreport {
	struct fold_diffopt opt;
	int inferred[2];	/* weight[c] was inferred */
	const struct fold_intern *frames;
	int units;		/* units mode */
	struct fold_count sum[2];
	double samples[2];	/* sum / weight */
	double mincount[2];
	size_t nstacks;
	struct diffrow *rows;
	size_t len;
	char *notes[7];		/* the heading lines; NULL after the last */
	char *empty[3];		/* the lines of fold_diffreport_empty */
};

static void make_notes(struct fold_diffreport *r);

static int
cmp_diff(const void *x, const void *y, void *arg)
{
	const struct diffrow *a = x, *b = y;
	const struct fold_intern *frames = arg;
	int k;

	for (k = 0; k < 2; k++)
		if (a->m[k].diff != b->m[k].diff)
			return a->m[k].diff > b->m[k].diff ? -1 : 1;
	return fold_intern_cmp(frames, a->id, b->id);
}

struct fold_diffreport *
fold_diffreport_new(const struct fold_stacks *st, const struct fold_diffopt *opt)
{
	struct fold_funcs *f = fold_funcs_new(st);
	struct fold_diffreport *r;
	double *p, total[2];
	size_t i, n = 0;
	int k, c;

	if (!f)
		return NULL;
	if (f->ncols != 2) {
		fold_funcs_free(f);
		fold_seterr("a report needs two columns, before and after");
		return NULL;
	}
	r = fold_calloc(1, sizeof *r);
	r->opt = *opt;
	for (c = 0; c < 2; c++) {
		uint64_t g = fold_funcs_gcd(f, c);
		if (r->opt.weight[c] > 0)
			continue;
		r->inferred[c] = 1;
		r->opt.weight[c] = g ? (double)g : 1;
		if (g && f->mincount[c] > (double)g * FOLD_WEIGHT_MAXMIN) {
			fold_seterr("%s: cannot tell how many samples the "
			    "counts hold (no stack below %.0f, and no common "
			    "period): give --weight", opt->names[c],
			    f->mincount[c]);
			fold_funcs_free(f);
			free(r);
			return NULL;
		}
	}
	r->frames = fold_stacks_frames(st);
	r->units = opt->units[0] > 0 && opt->units[1] > 0;
	r->nstacks = f->nstacks;
	for (c = 0; c < 2; c++) {
		r->sum[c] = f->sum[c];
		total[c] = fold_count_val(&f->sum[c]);
		r->samples[c] = total[c] / r->opt.weight[c];
		r->mincount[c] = f->mincount[c];
	}
	r->rows = fold_reallocarray(NULL, f->len ? f->len : 1, sizeof *r->rows);
	for (i = 0; i < f->len; i++) {
		struct diffrow *row = &r->rows[n];
		const struct fold_count *cnt;
		if (fold_count_iszero(&f->total[2 * i]) &&
		    fold_count_iszero(&f->total[2 * i + 1]))
			continue;
		row->id = (uint32_t)i;
		for (c = 0; c < 2; c++)
			row->share[c] = total[c] > 0 ?
			    fold_count_val(&f->total[2 * i + c]) / total[c] : 0;
		for (k = 0; k < 2; k++) {
			struct metric *m = &row->m[k];
			cnt = k == FOLD_METRIC_SELF ? &f->self[2 * i] :
			    &f->total[2 * i];
			for (c = 0; c < 2; c++) {
				double v = fold_count_val(&cnt[c]);
				m->count[c] = cnt[c];
				m->v[c] = r->units ? v / opt->units[c] :
				    total[c] > 0 ? v / total[c] : 0;
			}
			m->diff = m->v[1] - m->v[0];
			m->rel = m->v[0] > 0 ? m->diff / m->v[0] :
			    m->v[1] > 0 ? HUGE_VAL : 0;
			if (r->units)
				m->p = fold_rate_p(
				    fold_count_val(&cnt[0]) / r->opt.weight[0],
				    opt->units[0],
				    fold_count_val(&cnt[1]) / r->opt.weight[1],
				    opt->units[1]);
			else
				m->p = fold_share_p(
				    fold_count_val(&cnt[0]) / r->opt.weight[0],
				    r->samples[0],
				    fold_count_val(&cnt[1]) / r->opt.weight[1],
				    r->samples[1]);
		}
		n++;
	}
	r->len = n;
	fold_funcs_free(f);
	p = fold_reallocarray(NULL, n ? n : 1, 2 * sizeof *p);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n; i++)
			p[i] = r->rows[i].m[k].p;
		fold_bh(p, p + n, n);
		for (i = 0; i < n; i++)
			r->rows[i].m[k].q = p[n + i];
	}
	free(p);
	qsort_r(r->rows, n, sizeof *r->rows, cmp_diff, (void *)r->frames);
	make_notes(r);
	return r;
}

void
fold_diffreport_free(struct fold_diffreport *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; r->notes[i]; i++)
		free(r->notes[i]);
	for (i = 0; r->empty[i]; i++)
		free(r->empty[i]);
	free(r->rows);
	free(r);
}

size_t
fold_diffreport_len(const struct fold_diffreport *r)
{
	return r->len;
}

double
fold_diffreport_mincount(const struct fold_diffreport *r, int col)
{
	return r->mincount[col];
}

static int
significant(const struct fold_diffreport *r, const struct metric *m)
{
	return m->q <= r->opt.alpha;
}

/* Below the floor in both profiles, a change is too small to judge. */
static int
floored(const struct fold_diffreport *r, const struct diffrow *row)
{
	return row->share[0] < r->opt.floor && row->share[1] < r->opt.floor;
}

/* A value as shown: a share in percent, or a count per unit. */
static void
fmt_value(char *buf, size_t n, const struct fold_diffreport *r, double v,
    int raw)
{
	if (r->units)
		snprintf(buf, n, "%.6g", v);
	else
		snprintf(buf, n, raw ? "%.4f" : "%.2f%%", 100 * v);
}

static void
fmt_diff(char *buf, size_t n, const struct fold_diffreport *r, double d,
    int raw)
{
	if (r->units)
		snprintf(buf, n, "%+.6g", d);
	else
		snprintf(buf, n, raw ? "%+.4f" : "%+.2fpp", 100 * d);
	if (strcmp(buf, "-0pp") == 0 || strcmp(buf, "-0.00pp") == 0)
		snprintf(buf, n, "+0.00pp");
	else if (strcmp(buf, "-0.0000") == 0 || strcmp(buf, "-0") == 0)
		snprintf(buf, n, raw ? "+0.0000" : "+0");
}

static void
fmt_rel(char *buf, size_t n, const struct metric *m, int raw)
{
	if (m->rel == HUGE_VAL)
		snprintf(buf, n, raw ? "inf" : "new");
	else if (m->v[0] > 0 && m->v[1] == 0 && !raw)
		snprintf(buf, n, "gone");
	else
		snprintf(buf, n, raw ? "%+.4f" : "%+.1f%%", 100 * m->rel);
	if (strcmp(buf, "-0.0%") == 0)
		snprintf(buf, n, "+0.0%%");
	else if (strcmp(buf, "-0.0000") == 0)
		snprintf(buf, n, "+0.0000");
}

static void
fmt_q(char *buf, size_t n, const struct fold_diffreport *r,
    const struct metric *m, int raw)
{
	/* a bare '*' could start emphasis in markdown */
	const char *star = !significant(r, m) ? "" :
	    r->opt.format == FOLD_FORMAT_MARKDOWN ? "\\*" : "*";

	if (raw)
		snprintf(buf, n, "%.3g", m->q);
	else if (m->q < 1e-99)
		snprintf(buf, n, "<1e-99%s", star);
	else
		snprintf(buf, n, "%.2g%s", m->q, star);
}

static const char *const diff_head[] = {
	"self-before", "self-after", "self-diff", "self-rel", "self-q",
	"total-before", "total-after", "total-diff", "total-rel", "total-q",
};

static const char *const tsv_head[] = {
	"self_before", "self_after", "self_diff", "self_rel", "self_q",
	"total_before", "total_after", "total_diff", "total_rel", "total_q",
	"self_count_before", "self_count_after", "total_count_before",
	"total_count_after",
};

/* A heading line of the report; l is reset for the next. */
static void
note(struct fold_diffreport *r, struct line *l)
{
	size_t i;

	for (i = 0; r->notes[i]; i++)
		;
	r->notes[i] = fold_strndup(l->s, l->len);
	l->len = 0;
}

static void
make_notes(struct fold_diffreport *r)
{
	const struct fold_diffopt *o = &r->opt;
	char a[FOLD_COUNT_BUFSZ], b[FOLD_COUNT_BUFSZ];
	struct line l = { 0, 0, 0 };
	char *name[2];
	size_t i;
	int c;

	for (c = 0; c < 2; c++) {
		struct fold_count s = fold_count_double(r->samples[c]);
		if (o->weight[c] == 1)
			s = r->sum[c];
		else if (!r->sum[c].frac && fmod(r->samples[c], 1) == 0)
			s = fold_count_u64((uint64_t)r->samples[c]);
		fold_count_fmt_grouped(&s, c ? b : a);
	}
	/* a file name may hold what a terminal acts on, as a frame may */
	for (c = 0; c < 2; c++)
		name[c] = fold_visdup(o->names[c], strlen(o->names[c]), NULL);
	line_printf(&l, "before: %s, %s samples; after: %s, %s samples",
	    name[0], a, name[1], b);
	note(r, &l);
	for (c = 0, i = 0; c < 2; c++) {
		if (!fold_count_iszero(&r->sum[c]))
			continue;
		line_printf(&l, "%s: no samples: %s", name[c], o->gated ?
		    "the gate cannot pass on an empty profile" :
		    "nothing to compare");
		r->empty[i++] = fold_strndup(l.s, l.len);
		note(r, &l);
	}
	free(name[0]);
	free(name[1]);
	if (r->units)
		line_printf(&l, "compared: count per unit of work "
		    "(%.10g units before, %.10g after)", o->units[0],
		    o->units[1]);
	else
		line_printf(&l, "compared: share of each profile's total");
	note(r, &l);
	if (o->weight[0] == 1 && o->weight[1] == 1)
		line_printf(&l, "counts taken as samples (weight 1%s)",
		    r->inferred[0] && r->inferred[1] ? ", inferred" : "");
	else
		line_printf(&l, "counts divided by a weight to give "
		    "samples: %.10g before, %.10g after (%s)",
		    o->weight[0], o->weight[1],
		    r->inferred[0] && r->inferred[1] ?
		    "inferred: the common divisor of the stack counts, "
		    "a fixed sampling period" : r->inferred[0] ||
		    r->inferred[1] ? "given and inferred" : "given");
	note(r, &l);
	line_printf(&l, "test: %s, Benjamini-Hochberg q over %zu "
	    "functions; * marks q <= %g", r->units ?
	    "binomial test of two Poisson rates" :
	    "Fisher's exact test of two proportions",
	    r->len, o->alpha);
	note(r, &l);
	free(l.s);
}

const char *
fold_diffreport_note(const struct fold_diffreport *r, size_t i)
{
	size_t n;

	for (n = 0; n < i && r->notes[n]; n++)
		;
	return r->notes[n];
}

const char *
fold_diffreport_empty(const struct fold_diffreport *r, size_t i)
{
	size_t n;

	for (n = 0; n < i && r->empty[n]; n++)
		;
	return r->empty[n];
}

int
fold_diffreport_significant(const struct fold_diffreport *r, size_t i,
    enum fold_metric metric)
{
	return !floored(r, &r->rows[i]) &&
	    significant(r, &r->rows[i].m[metric]);
}

void
fold_diffreport_table(const struct fold_diffreport *r,
    enum fold_format f, struct fold_table *t)
{
	int raw = f == FOLD_FORMAT_TSV;
	size_t shown = r->opt.top && r->opt.top < r->len ? r->opt.top : r->len;
	size_t i, row, col, ncols = raw ? 15 : 11, len;
	struct fold_diffreport rf = *r;
	char buf[FOLD_COUNT_BUFSZ];
	int k, c;

	rf.opt.format = f;	/* the cells are formatted for f */
	r = &rf;
	table_init(t, ncols);
	row = table_row(t);
	/* the function leads in tsv, closes the row elsewhere */
	for (col = 0; col < ncols - 1; col++)
		table_set(t, row, raw ? col + 1 : col, "%s",
		    raw ? tsv_head[col] : diff_head[col]);
	table_set(t, row, raw ? 0 : ncols - 1, "function");
	for (i = 0; i < shown; i++) {
		const struct diffrow *d = &r->rows[i];
		const char *name = fold_intern_str(r->frames, d->id, &len);
		row = table_row(t);
		col = raw ? 1 : 0;
		for (k = 0; k < 2; k++) {
			const struct metric *m = &d->m[k];
			for (c = 0; c < 2; c++) {
				fmt_value(buf, sizeof buf, r, m->v[c], raw);
				table_set(t, row, col++, "%s", buf);
			}
			fmt_diff(buf, sizeof buf, r, m->diff, raw);
			table_set(t, row, col++, "%s", buf);
			fmt_rel(buf, sizeof buf, m, raw);
			table_set(t, row, col++, "%s", buf);
			fmt_q(buf, sizeof buf, r, m, raw);
			table_set(t, row, col++, "%s", buf);
		}
		if (raw) {
			for (k = 0; k < 2; k++)
				for (c = 0; c < 2; c++) {
					fold_count_fmt(&d->m[k].count[c], buf);
					table_set(t, row, col++, "%s", buf);
				}
			table_setname(t, row, 0, name, len);
		} else {
			table_setname(t, row, ncols - 1, name, len);
		}
	}
	if (shown < r->len) {
		t->caption = fold_malloc(64);
		snprintf(t->caption, 64, "(%zu more functions not shown)",
		    r->len - shown);
	}
}

void
fold_diffreport_write(struct fold_out *out, const struct fold_diffreport *r)
{
	enum fold_format f = r->opt.format;
	struct fold_table t = FOLD_TABLE_INIT;
	size_t i;

	if (f != FOLD_FORMAT_TSV) {
		for (i = 0; r->notes[i]; i++)
			fold_out_printf(out, "%s%s\n",
			    f == FOLD_FORMAT_MARKDOWN ? "- " : "", r->notes[i]);
		if (f == FOLD_FORMAT_MARKDOWN)
			fold_out_putc(out, '\n');
	}
	fold_diffreport_table(r, f, &t);
	table_write(out, &t, f);
	/* tsv has no room for a line about the table */
	if (t.caption && f != FOLD_FORMAT_TSV)
		fold_out_printf(out, "%s%s\n",
		    f == FOLD_FORMAT_MARKDOWN ? "\n" : "", t.caption);
	fold_table_release(&t);
}

/* --------------------------------------------------------------- gate */

int
fold_gate_parse(const char *s, int units_mode, struct fold_gate *g)
{
	char buf[sizeof g->text], *p, *end;
	size_t n = 0, ndig;
	double v;

	for (p = (char *)s; *p; p++) {
		if (*p == ' ' || *p == '\t')
			continue;
		if (n + 1 >= sizeof buf)
			return fold_seterr("gate too long: %s", s);
		buf[n++] = *p;
	}
	buf[n] = '\0';
	memset(g, 0, sizeof *g);
	memcpy(g->text, buf, n + 1);
	p = buf;
	if (strncmp(p, "self", 4) == 0)
		g->metric = FOLD_METRIC_SELF, p += 4;
	else if (strncmp(p, "total", 5) == 0)
		g->metric = FOLD_METRIC_TOTAL, p += 5;
	else
		return fold_seterr("gate '%s': expected self or total", s);
	if (*p != '>' && *p != '<')
		return fold_seterr("gate '%s': expected > or < after the metric",
		    s);
	g->op = *p++;
	/* [+|-] digits [. digits]: no exponent, hex, inf or nan */
	end = p + (*p == '+' || *p == '-');
	ndig = strspn(end, "0123456789");
	end += ndig;
	if (*end == '.') {
		size_t frac = strspn(end + 1, "0123456789");
		end += 1 + frac;
		ndig += frac;
	}
	if (ndig == 0)
		return fold_seterr("gate '%s': expected a number", s);
	v = strtod(p, NULL);
	g->value = v;
	if (strcmp(end, "pp") == 0)
		g->unit = FOLD_UNIT_PP;
	else if (strcmp(end, "%") == 0)
		g->unit = FOLD_UNIT_REL;
	else if (*end == '\0')
		g->unit = FOLD_UNIT_ABS;
	else
		return fold_seterr("gate '%s': unit must be pp or %%", s);
	if (g->unit == FOLD_UNIT_PP && units_mode)
		return fold_seterr("gate '%s': pp (a change of share) does not "
		    "apply per unit of work; use %% or a count per unit", s);
	if (g->unit == FOLD_UNIT_ABS && !units_mode)
		return fold_seterr("gate '%s': give the unit: pp (points of "
		    "share) or %% (relative)", s);
	return 0;
}

static int
crosses(const struct fold_gate *g, const struct metric *m)
{
	double d;

	switch (g->unit) {
	case FOLD_UNIT_PP:
		d = 100 * m->diff;
		break;
	case FOLD_UNIT_REL:
		if (m->rel == HUGE_VAL)
			return g->op == '>';
		d = 100 * m->rel;
		break;
	default:
		d = m->diff;
		break;
	}
	return g->op == '>' ? d > g->value : d < g->value;
}

size_t
fold_diffreport_gate(const struct fold_diffreport *r,
    const struct fold_gate *g, size_t ng,
    void (*hit)(void *arg, const struct fold_gatehit *h), void *arg)
{
	static const char *const mname[] = { "self", "total" };
	struct line l = { 0, 0, 0 };
	char v0[64], v1[64], d[64], rel[64], q[64];
	unsigned char *crossed = fold_calloc(ng ? ng : 1, 1);
	size_t *idx = fold_reallocarray(NULL, ng ? ng : 1, sizeof *idx);
	struct fold_gatehit h;
	size_t i, j, nhit = 0, len;
	const char *name;
	char *v;
	int k, any;

	for (i = 0; i < r->len; i++) {
		const struct diffrow *row = &r->rows[i];
		any = 0;
		l.len = 0;
		memset(crossed, 0, ng);
		if (floored(r, row))
			continue;
		for (k = 0; k < 2; k++) {
			const struct metric *m = &row->m[k];
			int first = 1;
			if (!significant(r, m))
				continue;
			for (j = 0; j < ng; j++) {
				if ((int)g[j].metric != k || !crosses(&g[j], m))
					continue;
				crossed[j] = 1;
				if (first) {
					fmt_value(v0, sizeof v0, r, m->v[0], 0);
					fmt_value(v1, sizeof v1, r, m->v[1], 0);
					fmt_diff(d, sizeof d, r, m->diff, 0);
					fmt_rel(rel, sizeof rel, m, 0);
					fmt_q(q, sizeof q, r, m, 1);
					if (!any) {
						/* the line goes to a log, a
						   terminal, an annotation */
						name = fold_intern_str(
						    r->frames, row->id, &len);
						v = fold_visdup(name, len,
						    NULL);
						line_printf(&l, "%s: ", v);
						free(v);
					} else {
						line_printf(&l, "; ");
					}
					line_printf(&l, "%s %s -> %s%s (%s, %s, "
					    "q %s) crosses %s", mname[k], v0,
					    v1, r->units ? " per unit" : "", d,
					    rel, q, g[j].text);
					first = 0;
					any = 1;
				} else {
					line_printf(&l, ", %s", g[j].text);
				}
			}
		}
		if (any) {
			nhit++;
			h.name = fold_intern_str(r->frames, row->id, &h.namelen);
			h.line = l.s;
			h.gates = idx;
			h.ngates = 0;
			for (j = 0; j < ng; j++)
				if (crossed[j])
					idx[h.ngates++] = j;
			if (hit)
				hit(arg, &h);
		}
	}
	free(crossed);
	free(idx);
	free(l.s);
	return nhit;
}
