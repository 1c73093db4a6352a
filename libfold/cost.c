#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "err.h"
#include "funcs.h"
#include "intern.h"
#include "str.h"

typedef unsigned __int128 u128;

struct fold_owners {
	struct fold_intern *services, *teams;
	uint32_t *team;		/* by service id */
	size_t cap;
};

/*
 * A name in a message: its first FOLD_CUT_MAX bytes (as FOLD_CUT cuts),
 * shown by fold_vis into q (FOLD_VIS_MAX(CUT) bytes). The caller adds
 * "..." when the name is longer.
 */
#define CUT FOLD_CUT_MAX
static const char *
cut(char *q, const char *s, size_t n)
{
	fold_vis(q, FOLD_VIS_MAX(CUT), s, n > CUT ? CUT : n, NULL);
	return q;
}

struct fold_owners *
fold_owners_read(struct fold_in *in, struct fold_diag *diag)
{
	struct fold_owners *o = fold_calloc(1, sizeof *o);
	char q[FOLD_VIS_MAX(CUT)];
	const char *line, *tab;
	size_t len, sl, tl;
	uint32_t sid, tid;
	int r;

	o->services = fold_intern_new();
	o->teams = fold_intern_new();
	while ((r = fold_in_line(in, &line, &len)) > 0) {
		while (len && fold_isblank(line[len - 1]))
			len--;
		if (len == 0 || line[0] == '#')
			continue;
		tab = memchr(line, '\t', len);
		sl = tab ? (size_t)(tab - line) : 0;
		tl = tab ? len - sl - 1 : 0;
		if (!tab || sl == 0 || tl == 0 || memchr(tab + 1, '\t', tl)) {
			if (fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
			    "expected SERVICE<TAB>TEAM") < 0)
				goto fail;
			continue;
		}
		sid = fold_intern(o->services, line, sl);
		tid = fold_intern(o->teams, tab + 1, tl);
		if (sid < o->cap) {
			if (o->team[sid] != tid && fold_warn(diag,
			    fold_in_name(in), fold_in_lineno(in), "service "
			    "%s%s listed again: its first team is kept",
			    cut(q, line, sl), sl > CUT ? "..." : "") < 0)
				goto fail;
			continue;
		}
		o->team = fold_reallocarray(o->team, sid + 1, sizeof *o->team);
		o->team[sid] = tid;
		o->cap = sid + 1;
	}
	if (r == 0)
		return o;
fail:
	fold_owners_free(o);
	return NULL;
}

void
fold_owners_free(struct fold_owners *o)
{
	if (!o)
		return;
	fold_intern_free(o->services);
	fold_intern_free(o->teams);
	free(o->team);
	free(o);
}

int
fold_duration_parse(const char *s, uint64_t *seconds)
{
	static const struct { char c; uint64_t secs; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
		{ 'w', 604800 },
	};
	size_t n = strspn(s, "0123456789"), i;
	uint64_t v = 0, mul = 1;

	if (n > 0 && s[n] && !s[n + 1]) {
		for (i = 0; i < sizeof units / sizeof units[0]; i++)
			if (units[i].c == s[n])
				break;
		if (i == sizeof units / sizeof units[0])
			goto bad;
		mul = units[i].secs;
	} else if (n == 0 || s[n]) {
		goto bad;
	}
	for (i = 0; i < n; i++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			return fold_seterr("duration out of range: %s", s);
	if (__builtin_mul_overflow(v, mul, &v))
		return fold_seterr("duration out of range: %s", s);
	if (v == 0)
		return fold_seterr("duration must be above 0: %s", s);
	*seconds = v;
	return 0;
bad:
	return fold_seterr("not a duration (a whole number and s, m, h, d or "
	    "w): %s", s);
}

int
fold_money_parse(const char *s, uint64_t *nano)
{
	size_t n = strspn(s, "0123456789"), f = 0, i;
	uint64_t v = 0;

	if (s[n] == '.')
		f = strspn(s + n + 1, "0123456789");
	if ((n == 0 && f == 0) || s[n + (s[n] == '.' ? 1 + f : 0)] || f > 9)
		return fold_seterr("not an amount of dollars (up to 9 "
		    "decimals): %s", s);
	if (n > 9)
		return fold_seterr("amount out of range: %s", s);
	for (i = 0; i < n; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	for (i = 0; i < 9; i++)
		v = v * 10 + (i < f ? (uint64_t)(s[n + 1 + i] - '0') : 0);
	*nano = v;
	return 0;
}

/* ------------------------------------------------------------ figures */

/* A figure of the fleet total as the exact fraction num / den. */
struct frac {
	u128 num, den;
};

static int
mul(u128 *acc, u128 x)
{
	if (__builtin_mul_overflow(*acc, x, acc))
		return fold_seterr("a cost figure passes 128 bits");
	return 0;
}

/* num / den * scale, rounded half up, into *t. */
static int
rounded(struct frac f, u128 scale, u128 *t)
{
	u128 n = f.num;

	if (mul(&n, scale) < 0)
		return -1;
	if (f.den == 0)
		return fold_seterr("division by zero");
	if (__builtin_add_overflow(n, f.den / 2, &n))
		return fold_seterr("a cost figure passes 128 bits");
	*t = n / f.den;
	return 0;
}

/* Largest count first, then in byte order of the names. */
static int
cmp_rows(const void *x, const void *y)
{
	const struct fold_costrow *a = x, *b = y;
	size_t n = a->namelen < b->namelen ? a->namelen : b->namelen;
	int c;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	if ((c = memcmp(a->name, b->name, n)))
		return c;
	return (a->namelen > b->namelen) - (a->namelen < b->namelen);
}

/* Largest remainder first, then in row order. */
static int
cmp_rem(const void *x, const void *y, void *arg)
{
	const size_t *a = x, *b = y;
	const u128 *rem = arg;

	if (rem[*a] != rem[*b])
		return rem[*a] < rem[*b] ? 1 : -1;
	return (*a > *b) - (*a < *b);
}

/*
 * Figure fig of rows[0..n), whose counts sum to total, as their shares
 * of the figure's shown total t: floors, then one more unit to the rows
 * with the largest remainders until they add up to t (additive), or each
 * rounded half up on its own (overlapping rows). rem holds n remainders.
 */
static int
apportion(struct fold_costrow *rows, size_t n, uint64_t total, u128 t,
    int fig, int additive, u128 *rem)
{
	size_t *by, i;
	u128 sum = 0, x;

	for (i = 0; i < n; i++) {
		x = t;
		if (mul(&x, rows[i].count) < 0)
			return -1;
		if (!additive)
			x += total / 2;
		rows[i].fig[fig] = total ? x / total : 0;
		rem[i] = total ? x % total : 0;
		sum += rows[i].fig[fig];
	}
	if (!additive || sum >= t)
		return 0;
	by = fold_reallocarray(NULL, n + 1, sizeof *by);
	for (i = 0; i < n; i++)
		by[i] = i;
	qsort_r(by, n, sizeof *by, cmp_rem, rem);
	for (i = 0; i < n && sum < t; i++, sum++)
		rows[by[i]].fig[fig]++;
	free(by);
	return 0;
}

/* The rollup: names of the rows and each one's count. */
struct rollup {
	struct fold_intern *names;
	uint64_t *count;
	size_t n;
};

static int
roll(struct rollup *r, const char *name, size_t len, uint64_t c)
{
	uint32_t id = fold_intern(r->names, name, len);
	char q[FOLD_VIS_MAX(CUT)];

	if (id >= r->n) {
		r->count = fold_reallocarray(r->count, id + 1,
		    sizeof *r->count);
		memset(r->count + r->n, 0, (id + 1 - r->n) * sizeof *r->count);
		r->n = id + 1;
	}
	if (__builtin_add_overflow(r->count[id], c, &r->count[id]))
		return fold_seterr("count overflow in %s%s", cut(q, name, len),
		    len > CUT ? "..." : "");
	return 0;
}

static int
build(struct rollup *r, const struct fold_stacks *st,
    const struct fold_costopt *opt)
{
	const struct fold_intern *fr = fold_stacks_frames(st);
	struct fold_stacks *mst = (struct fold_stacks *)st;
	size_t i, n, len, nst = fold_stacks_len(st);
	const uint32_t *ids;
	const char *s;

	if (opt->by == FOLD_COST_FUNCTION) {
		struct fold_funcs *f = fold_funcs_new(st);
		if (!f)
			return -1;
		for (i = 0; i < fold_funcs_len(f); i++) {
			const struct fold_count *c = opt->inclusive ?
			    fold_funcs_total(f, i) : fold_funcs_self(f, i);
			if (c->v.u == 0)
				continue;
			s = fold_intern_str(fr, i, &len);
			if (roll(r, s, len, c->v.u) < 0) {
				fold_funcs_free(f);
				return -1;
			}
		}
		fold_funcs_free(f);
		return 0;
	}
	for (i = 0; i < nst; i++) {
		const struct fold_count *c = fold_stacks_counts(mst, i);
		uint32_t team;
		ids = fold_stacks_ids(st, i, &n);
		if (n == 0 || c->v.u == 0)
			continue;
		s = fold_intern_str(fr, ids[0], &len);
		if (opt->by == FOLD_COST_TEAM) {
			const struct fold_owners *o = opt->owners;
			uint32_t sid = o ? fold_intern_find(o->services, s, len) :
			    FOLD_NOFRAME;
			if (sid != FOLD_NOFRAME && sid < o->cap) {
				team = o->team[sid];
				s = fold_intern_str(o->teams, team, &len);
			} else {
				s = "(unowned)";
				len = strlen(s);
			}
		}
		if (roll(r, s, len, c->v.u) < 0)
			return -1;
	}
	return 0;
}

int
fold_cost_compute(const struct fold_stacks *st,
    const struct fold_costopt *opt, struct fold_cost *cost)
{
	struct rollup r = { fold_intern_new(), NULL, 0 };
	struct fold_stacks *mst = (struct fold_stacks *)st;
	u128 t[FOLD_NFIG] = { 0 }, scale[FOLD_NFIG];
	struct frac fr[FOLD_NFIG];
	struct fold_costrow *rows;
	u128 *rem = NULL;
	size_t i, nrows, shown, nst = fold_stacks_len(st), c;
	uint64_t total = 0;
	int *on = cost->on, *dec = cost->decimals;

	memset(cost, 0, sizeof *cost);
	cost->additive = !(opt->by == FOLD_COST_FUNCTION && opt->inclusive);
	dec[FOLD_FIG_CPU] = dec[FOLD_FIG_SHARE] = dec[FOLD_FIG_CORES] = 2;
	dec[FOLD_FIG_USD] = opt->cents ? 2 : 0;
	on[FOLD_FIG_CPU] = on[FOLD_FIG_SHARE] = 1;
	on[FOLD_FIG_CORES] = opt->window || opt->fleet_cores;
	/* a rate of 0 is a rate: $0.00 is the answer asked for */
	on[FOLD_FIG_USD] = on[FOLD_FIG_CORES] && opt->rate_given;
	for (i = 0; i < nst; i++) {
		const struct fold_count *k = fold_stacks_counts(mst, i);
		if (k->frac) {
			fold_seterr("a count is not an integer: costs are "
			    "summed from integer counts");
			goto fail;
		}
		if (__builtin_add_overflow(total, k->v.u, &total)) {
			fold_seterr("the total count passes 2^64-1");
			goto fail;
		}
	}
	for (c = 0; c < FOLD_NFIG; c++) {
		int d;
		for (scale[c] = 1, d = 0; d < dec[c]; d++)
			scale[c] *= 10;
	}
	fr[FOLD_FIG_CPU].num = total;
	fr[FOLD_FIG_CPU].den = opt->per_second;
	fr[FOLD_FIG_SHARE].num = total ? 100 : 0;
	fr[FOLD_FIG_SHARE].den = 1;
	if (opt->fleet_cores) {
		fr[FOLD_FIG_CORES].num = opt->fleet_cores;
		fr[FOLD_FIG_CORES].den = 1;
	} else {
		fr[FOLD_FIG_CORES].num = total;
		fr[FOLD_FIG_CORES].den = opt->per_second;
		if (mul(&fr[FOLD_FIG_CORES].den,
		    opt->window ? opt->window : 1) < 0)
			goto fail;
	}
	fr[FOLD_FIG_USD] = fr[FOLD_FIG_CORES];
	if (mul(&fr[FOLD_FIG_USD].num, opt->rate) < 0 ||
	    mul(&fr[FOLD_FIG_USD].num, FOLD_HOURS_PER_YEAR) < 0 ||
	    mul(&fr[FOLD_FIG_USD].den, 1000000000) < 0)
		goto fail;
	for (c = 0; c < FOLD_NFIG; c++)
		if (on[c] && rounded(fr[c], scale[c], &t[c]) < 0)
			goto fail;

	if (build(&r, st, opt) < 0)
		goto fail;
	nrows = r.n;
	cost->rows = rows = fold_calloc(nrows + 1, sizeof *rows);
	for (i = 0; i < nrows; i++) {
		rows[i].name = fold_intern_str(r.names, i, &rows[i].namelen);
		rows[i].count = r.count[i];
	}
	qsort(rows, nrows, sizeof *rows, cmp_rows);
	shown = opt->top && opt->top < nrows ? opt->top : nrows;
	if (shown < nrows && cost->additive) {	/* the rest as one row */
		rows[shown].name = NULL;
		rows[shown].namelen = 0;
		for (i = shown + 1; i < nrows; i++)
			rows[shown].count += rows[i].count;
		shown++;
	}
	cost->nrows = shown;
	rem = fold_reallocarray(NULL, shown + 1, sizeof *rem);
	for (c = 0; c < FOLD_NFIG; c++)
		if (on[c] && apportion(rows, shown, total, t[c], (int)c,
		    cost->additive, rem) < 0)
			goto fail;
	cost->total.count = total;
	memcpy(cost->total.fig, t, sizeof t);
	cost->names = r.names;
	free(rem);
	free(r.count);
	return 0;
fail:
	free(rem);
	free(r.count);
	free(cost->rows);
	fold_intern_free(r.names);
	memset(cost, 0, sizeof *cost);
	return -1;
}

void
fold_cost_release(struct fold_cost *c)
{
	free(c->rows);
	fold_intern_free(c->names);
	memset(c, 0, sizeof *c);
}
