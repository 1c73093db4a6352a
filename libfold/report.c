#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "folded.h"
#include "intern.h"
#include "filter.h"
#include "funcs.h"
#include "report.h"
#include "stats.h"
#include "str.h"

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
	sh->buf = fold_grow(sh->buf, &sh->cap, FOLD_STRIP_HEX_MAX(*n), 1);
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
	l->s = fold_grow(l->s, &l->cap, l->len + n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(l->s + l->len, l->cap - l->len, fmt, ap);
	va_end(ap);
	l->len += n;
}

/* --------------------------------------------------------------- diff */

struct fold_diffreport {
	struct fold_diffopt opt;
	int inferred[2];	/* weight[c] was inferred */
	const struct fold_intern *frames;
	int units;		/* units mode */
	struct fold_count sum[2];
	double samples[2];	/* sum / weight */
	struct fold_diffrow *rows;
	size_t len;
	char *notes[7];		/* the heading lines; NULL after the last */
	char *empty[3];		/* the lines of fold_diffreport_empty */
};

static void make_notes(struct fold_diffreport *r);

/* The size of a row's change: the larger of its self and total change. */
static double
size(const struct fold_diffrow *r)
{
	double s = fabs(r->m[0].diff), t = fabs(r->m[1].diff);

	return s > t ? s : t;
}

/*
 * Largest change first, whichever its sign: a function that got faster
 * is as much news as one that got slower. Then the larger self change,
 * an increase before a decrease of the same size, and the name.
 */
static int
cmp_diff(const void *x, const void *y, void *arg)
{
	const struct fold_diffrow *a = x, *b = y;
	const struct fold_intern *frames = arg;
	double sa = size(a), sb = size(b);

	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (fabs(a->m[0].diff) != fabs(b->m[0].diff))
		return fabs(a->m[0].diff) > fabs(b->m[0].diff) ? -1 : 1;
	if (a->m[0].diff != b->m[0].diff)
		return a->m[0].diff > b->m[0].diff ? -1 : 1;
	if (a->m[1].diff != b->m[1].diff)
		return a->m[1].diff > b->m[1].diff ? -1 : 1;
	return fold_intern_cmp(frames, a->id, b->id);
}

struct fold_diffreport *
fold_diffreport_new(const struct fold_stacks *st, const struct fold_diffopt *opt)
{
	struct fold_funcs *f = fold_funcs_new(st);
	struct fold_diffreport *r;
	const struct fold_count *sum;
	double *p, total[2], mincount;
	size_t i, n = 0, nf;
	int k, c;

	if (!f)
		return NULL;
	if (fold_funcs_ncols(f) != 2) {
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
		mincount = fold_funcs_mincount(f, c);
		if (g && mincount > (double)g * FOLD_WEIGHT_MAXMIN) {
			fold_seterr("%s: cannot tell how many samples the "
			    "counts hold (no stack below %.0f, and no common "
			    "period): give --weight", opt->names[c], mincount);
			fold_funcs_free(f);
			free(r);
			return NULL;
		}
	}
	r->frames = fold_stacks_frames(st);
	r->units = opt->units[0] > 0 && opt->units[1] > 0;
	sum = fold_funcs_sum(f);
	for (c = 0; c < 2; c++) {
		r->sum[c] = sum[c];
		total[c] = fold_count_val(&sum[c]);
		r->samples[c] = total[c] / r->opt.weight[c];
	}
	nf = fold_funcs_len(f);
	r->rows = fold_reallocarray(NULL, nf ? nf : 1, sizeof *r->rows);
	for (i = 0; i < nf; i++) {
		struct fold_diffrow *row = &r->rows[n];
		const struct fold_count *tot = fold_funcs_total(f, i), *cnt;
		if (fold_count_iszero(&tot[0]) && fold_count_iszero(&tot[1]))
			continue;
		row->id = (uint32_t)i;
		row->name = fold_intern_str(r->frames, row->id, &row->namelen);
		for (c = 0; c < 2; c++)
			row->share[c] = total[c] > 0 ?
			    fold_count_val(&tot[c]) / total[c] : 0;
		/* below the floor in both profiles, too small to judge */
		row->floored = row->share[0] < opt->floor &&
		    row->share[1] < opt->floor;
		for (k = 0; k < 2; k++) {
			struct fold_diffmetric *m = &row->m[k];
			cnt = k == FOLD_METRIC_SELF ? fold_funcs_self(f, i) : tot;
			for (c = 0; c < 2; c++) {
				m->count[c] = cnt[c];
				m->v[c] = fold_diffreport_value(r, c, &cnt[c]);
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
		for (i = 0; i < n; i++) {
			r->rows[i].m[k].q = p[n + i];
			r->rows[i].m[k].sig = p[n + i] <= opt->alpha;
		}
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

const struct fold_diffrow *
fold_diffreport_rows(const struct fold_diffreport *r, size_t *n)
{
	*n = r->len;
	return r->rows;
}

double
fold_diffreport_value(const struct fold_diffreport *r, int col,
    const struct fold_count *count)
{
	double v = fold_count_val(count), total = fold_count_val(&r->sum[col]);

	if (r->units)
		return v / r->opt.units[col];
	return total > 0 ? v / total : 0;
}

int
fold_diffreport_units(const struct fold_diffreport *r)
{
	return r->units;
}

const char *
fold_diffreport_input(const struct fold_diffreport *r, int col)
{
	return r->opt.names[col];
}

void
fold_diffreport_fmt(const struct fold_diffreport *r,
    const struct fold_diffmetric *m, enum fold_difffig fig, int raw,
    char *buf, size_t n)
{
	double v;

	switch (fig) {
	case FOLD_DIFF_BEFORE:
	case FOLD_DIFF_AFTER:
		v = m->v[fig == FOLD_DIFF_AFTER];
		if (r->units)
			snprintf(buf, n, "%.6g", v);
		else
			snprintf(buf, n, raw ? "%.4f" : "%.2f%%", 100 * v);
		break;
	case FOLD_DIFF_CHANGE:
		if (r->units)
			snprintf(buf, n, "%+.6g", m->diff);
		else
			snprintf(buf, n, raw ? "%+.4f" : "%+.2fpp",
			    100 * m->diff);
		if (strcmp(buf, "-0pp") == 0 || strcmp(buf, "-0.00pp") == 0)
			snprintf(buf, n, "+0.00pp");
		else if (strcmp(buf, "-0.0000") == 0 || strcmp(buf, "-0") == 0)
			snprintf(buf, n, raw ? "+0.0000" : "+0");
		break;
	case FOLD_DIFF_REL:
		if (m->rel == HUGE_VAL)
			snprintf(buf, n, raw ? "inf" : "new");
		else if (m->v[0] > 0 && m->v[1] == 0 && !raw)
			snprintf(buf, n, "gone");
		else
			snprintf(buf, n, raw ? "%+.4f" : "%+.1f%%",
			    100 * m->rel);
		if (strcmp(buf, "-0.0%") == 0)
			snprintf(buf, n, "+0.0%%");
		else if (strcmp(buf, "-0.0000") == 0)
			snprintf(buf, n, "+0.0000");
		break;
	default:
		if (raw)
			snprintf(buf, n, "%.3g", m->q);
		else if (m->q < 1e-99)
			snprintf(buf, n, "<1e-99%s", m->sig ? "*" : "");
		else
			snprintf(buf, n, "%.2g%s", m->q, m->sig ? "*" : "");
		break;
	}
}

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
		else if (!r->sum[c].frac &&
		    r->samples[c] == floor(r->samples[c]))
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
	return !r->rows[i].floored && r->rows[i].m[metric].sig;
}

/* --------------------------------------------------------------- gate */

int
fold_gate_parse(const char *s, int units_mode, struct fold_gate *g)
{
	char buf[sizeof g->text], *p, *end;
	size_t n = 0, ndig;
	double v;

	for (p = (char *)s; *p; p++) {
		if (fold_isblank(*p))
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
crosses(const struct fold_gate *g, const struct fold_diffmetric *m)
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

/* "self 1.00% -> 2.00% (+1.00pp, +100.0%, q 0.001)": metric k of m */
static void
change_line(struct line *l, const struct fold_diffreport *r,
    const struct fold_diffmetric *m, int k)
{
	static const char *const mname[] = { "self", "total" };
	char fig[FOLD_DIFF_NFIG][64];
	int i;

	for (i = 0; i < FOLD_DIFF_NFIG; i++)
		fold_diffreport_fmt(r, m, i, i == FOLD_DIFF_Q, fig[i],
		    sizeof fig[i]);
	line_printf(l, "%s %s -> %s%s (%s, %s, q %s)", mname[k],
	    fig[FOLD_DIFF_BEFORE], fig[FOLD_DIFF_AFTER],
	    r->units ? " per unit" : "", fig[FOLD_DIFF_CHANGE],
	    fig[FOLD_DIFF_REL], fig[FOLD_DIFF_Q]);
}

size_t
fold_diffreport_gate(const struct fold_diffreport *r,
    const struct fold_gate *g, size_t ng,
    void (*hit)(void *arg, const struct fold_gatehit *h), void *arg)
{
	struct line l = { 0, 0, 0 };
	unsigned char *crossed = fold_calloc(ng ? ng : 1, 1);
	size_t *idx = fold_reallocarray(NULL, ng ? ng : 1, sizeof *idx);
	struct fold_gatehit h;
	size_t i, j, nhit = 0;
	char *v;
	int k, any;

	for (i = 0; i < r->len; i++) {
		const struct fold_diffrow *row = &r->rows[i];
		any = 0;
		l.len = 0;
		memset(crossed, 0, ng);
		if (row->floored)
			continue;
		for (k = 0; k < 2; k++) {
			const struct fold_diffmetric *m = &row->m[k];
			int first = 1;
			if (!m->sig)
				continue;
			for (j = 0; j < ng; j++) {
				if ((int)g[j].metric != k || !crosses(&g[j], m))
					continue;
				crossed[j] = 1;
				if (!first) {
					line_printf(&l, ", %s", g[j].text);
					continue;
				}
				if (!any) {
					/* the line goes to a log, a terminal,
					   an annotation */
					v = fold_visdup(row->name, row->namelen,
					    NULL);
					line_printf(&l, "%s: ", v);
					free(v);
				} else {
					line_printf(&l, "; ");
				}
				change_line(&l, r, m, k);
				line_printf(&l, " crosses %s", g[j].text);
				first = 0;
				any = 1;
			}
		}
		if (any) {
			nhit++;
			h.name = row->name;
			h.namelen = row->namelen;
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
