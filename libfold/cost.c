#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "err.h"
#include "intern.h"
#include "report.h"

typedef unsigned __int128 u128;

struct fold_owners {
	struct fold_intern *services, *teams;
	uint32_t *team;		/* by service id */
	size_t cap;
};

/*
 * A name in a message: its first CUT bytes (as FOLD_CUT cuts), shown by
 * fold_vis into q (FOLD_VIS_MAX(CUT) bytes). The caller adds "..." when
 * the name is longer.
 */
#define CUT 60
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
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
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
fold_cost_format_parse(const char *s, enum fold_cost_format *f)
{
	static const char *const names[] = { "text", "markdown", "tsv", "json" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i]) == 0) {
			*f = (enum fold_cost_format)i;
			return 0;
		}
	return fold_seterr("unknown format '%s' (text, markdown, tsv or json)",
	    s);
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

enum { COL_CPU, COL_SHARE, COL_CORES, COL_USD, NCOL };

struct row {
	uint32_t id;		/* name in the rollup's names */
	uint64_t count;
	u128 v[NCOL];		/* printed units */
	u128 rem;		/* apportioning */
};

static int
cmp_rows(const void *x, const void *y, void *arg)
{
	const struct row *a = x, *b = y;
	const struct fold_intern *names = arg;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return fold_intern_cmp(names, a->id, b->id);
}

static int
cmp_rem(const void *x, const void *y)
{
	const struct row *const *a = x, *const *b = y;

	if ((*a)->rem != (*b)->rem)
		return (*a)->rem < (*b)->rem ? 1 : -1;
	return (*a < *b) ? -1 : (*a > *b);
}

/*
 * Column col of rows[0..n), whose counts sum to total, as their shares of
 * the column's printed total t: floors, then one more unit to the rows
 * with the largest remainders until they add up to t (additive), or each
 * rounded half up on its own (overlapping rows).
 */
static int
apportion(struct row *rows, size_t n, uint64_t total, u128 t, int col,
    int additive)
{
	struct row **by;
	u128 sum = 0, x;
	size_t i;

	for (i = 0; i < n; i++) {
		x = t;
		if (mul(&x, rows[i].count) < 0)
			return -1;
		if (!additive)
			x += total / 2;
		rows[i].v[col] = total ? x / total : 0;
		rows[i].rem = total ? x % total : 0;
		sum += rows[i].v[col];
	}
	if (!additive || sum >= t)
		return 0;
	by = fold_reallocarray(NULL, n + 1, sizeof *by);
	for (i = 0; i < n; i++)
		by[i] = &rows[i];
	qsort(by, n, sizeof *by, cmp_rem);
	for (i = 0; i < n && sum < t; i++, sum++)
		by[i]->v[col]++;
	free(by);
	return 0;
}

/* v in units of 10^-dec, with thousands separators. */
static void
fmt_fixed(char *buf, size_t size, u128 v, int dec, int group)
{
	char digits[64];
	size_t n = 0, i, k = 0, intlen;
	u128 x = v;

	do {
		digits[n++] = (char)('0' + (int)(x % 10));
		x /= 10;
	} while (x);
	while (n <= (size_t)dec)
		digits[n++] = '0';
	intlen = n - dec;
	for (i = 0; i < intlen && k + 2 < size; i++) {
		if (group && i > 0 && (intlen - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[n - 1 - i];
	}
	if (dec > 0 && k + 1 < size)
		buf[k++] = '.';
	for (i = intlen; i < n && k + 1 < size; i++)
		buf[k++] = digits[n - 1 - i];
	buf[k] = '\0';
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

static const char *const by_names[] = { "service", "team", "function" };

/*
 * A JSON string (RFC 8259): '"', '\\' and the C0 controls escaped, a NUL
 * as \u0000, so that the name is exact. DEL, the C1 controls and the
 * bidirectional overrides and isolates are escaped as \uXXXX too (the
 * same string, and safe when the file is shown on a terminal). Invalid
 * UTF-8, which a JSON string cannot hold, becomes U+FFFD, byte by byte.
 */
static void
put_json_str(struct fold_out *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;

	fold_out_putc(out, '"');
	while (p < e) {
		unsigned char c = *p;
		uint32_t cp;
		size_t k = 0, j;
		if (c == '"' || c == '\\') {
			fold_out_putc(out, '\\');
			fold_out_putc(out, c);
			p++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fold_out_printf(out, "\\u%04x", c);
			p++;
			continue;
		}
		if (c < 0x80) {
			fold_out_putc(out, c);
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			k = 1;
		else if (c >= 0xe0 && c <= 0xef)
			k = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 3;
		for (j = 1; k && j <= k; j++)
			if (p + j >= e || (p[j] & 0xc0) != 0x80)
				k = 0;
		/* overlong, surrogate and beyond U+10FFFF forms */
		if (k == 2 && ((c == 0xe0 && p[1] < 0xa0) ||
		    (c == 0xed && p[1] >= 0xa0)))
			k = 0;
		if (k == 3 && ((c == 0xf0 && p[1] < 0x90) ||
		    (c == 0xf4 && p[1] >= 0x90)))
			k = 0;
		if (k == 0) {
			fold_out_puts(out, "\\ufffd");
			p++;
			continue;
		}
		/* a 4-byte character is past every range escaped */
		cp = k == 1 ? (uint32_t)(c & 0x1f) << 6 | (p[1] & 0x3f) :
		    k == 2 ? (uint32_t)(c & 0x0f) << 12 |
		    (uint32_t)(p[1] & 0x3f) << 6 | (p[2] & 0x3f) : 0x10000;
		if (cp <= 0x9f || (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			fold_out_printf(out, "\\u%04x", (unsigned)cp);
		else
			fold_out_write(out, p, k + 1);
		p += k + 1;
	}
	fold_out_putc(out, '"');
}

/* A name: a JSON string, or as the reports write a name in a table. */
static void
put_name(struct fold_out *out, const char *s, size_t n,
    enum fold_cost_format f)
{
	static const enum fold_format table[] = {
		[FOLD_COST_TEXT] = FOLD_FORMAT_TEXT,
		[FOLD_COST_MARKDOWN] = FOLD_FORMAT_MARKDOWN,
		[FOLD_COST_TSV] = FOLD_FORMAT_TSV,
	};

	if (f == FOLD_COST_JSON)
		put_json_str(out, s, n);
	else
		fold_name_write(out, s, n, table[f]);
}

int
fold_cost_write(struct fold_out *out, const struct fold_stacks *st,
    const struct fold_costopt *opt)
{
	static const char *const heads[NCOL] = { "cpu-s", "share", "cores",
		"$/year" };
	static const char *const keys[NCOL] = { "cpu_seconds", "share",
		"cores", "usd_per_year" };
	enum fold_cost_format fmt = opt->format;
	struct rollup r = { fold_intern_new(), NULL, 0 };
	struct fold_stacks *mst = (struct fold_stacks *)st;
	int dec[NCOL] = { 2, 2, 2, fmt == FOLD_COST_TSV ||
	    fmt == FOLD_COST_JSON ? 2 : 0 };
	int on[NCOL] = { 1, 1, opt->window || opt->fleet_cores, 0 };
	u128 t[NCOL], scale[NCOL];
	struct frac fr[NCOL];
	struct row *rows = NULL, tot;
	size_t i, nrows, shown, nst = fold_stacks_len(st), c;
	uint64_t total = 0;
	int additive = !(opt->by == FOLD_COST_FUNCTION && opt->inclusive);
	int rc = -1;

	/* a rate of 0 is a rate: $0.00 is the answer asked for */
	on[COL_USD] = on[COL_CORES] && opt->rate_given;
	for (i = 0; i < nst; i++) {
		const struct fold_count *k = fold_stacks_counts(mst, i);
		if (k->frac)
			goto frac;
		if (__builtin_add_overflow(total, k->v.u, &total)) {
			fold_seterr("the total count passes 2^64-1");
			goto out;
		}
	}
	for (c = 0; c < NCOL; c++) {
		int d;
		for (scale[c] = 1, d = 0; d < dec[c]; d++)
			scale[c] *= 10;
	}
	fr[COL_CPU].num = total;
	fr[COL_CPU].den = opt->per_second;
	fr[COL_SHARE].num = total ? 100 : 0;
	fr[COL_SHARE].den = 1;
	if (opt->fleet_cores) {
		fr[COL_CORES].num = opt->fleet_cores;
		fr[COL_CORES].den = 1;
	} else {
		fr[COL_CORES].num = total;
		fr[COL_CORES].den = opt->per_second;
		if (mul(&fr[COL_CORES].den, opt->window ? opt->window : 1) < 0)
			goto out;
	}
	fr[COL_USD] = fr[COL_CORES];
	if (mul(&fr[COL_USD].num, opt->rate) < 0 ||
	    mul(&fr[COL_USD].num, FOLD_HOURS_PER_YEAR) < 0 ||
	    mul(&fr[COL_USD].den, 1000000000) < 0)
		goto out;
	for (c = 0; c < NCOL; c++)
		if (on[c] && rounded(fr[c], scale[c], &t[c]) < 0)
			goto out;

	if (build(&r, st, opt) < 0)
		goto out;
	nrows = r.n;
	rows = fold_calloc(nrows + 1, sizeof *rows);
	for (i = 0; i < nrows; i++) {
		rows[i].id = (uint32_t)i;
		rows[i].count = r.count[i];
	}
	qsort_r(rows, nrows, sizeof *rows, cmp_rows, r.names);
	shown = opt->top && opt->top < nrows ? opt->top : nrows;
	if (shown < nrows && additive) {	/* the rest as one row */
		rows[shown].id = FOLD_NOFRAME;
		for (i = shown + 1; i < nrows; i++)
			rows[shown].count += rows[i].count;
		shown++;
	}
	for (c = 0; c < NCOL; c++)
		if (on[c] && apportion(rows, shown, total, t[c], (int)c,
		    additive) < 0)
			goto out;
	memset(&tot, 0, sizeof tot);
	tot.count = total;
	memcpy(tot.v, t, sizeof t);

	/* the table */
	char cells[NCOL][64];
	size_t w[NCOL] = { 0 }, len, k;
	const char *name;
	if (fmt == FOLD_COST_JSON) {
		fold_out_printf(out, "{\"by\": \"%s%s\", \"unit\": ",
		    by_names[opt->by], opt->by == FOLD_COST_FUNCTION ?
		    (opt->inclusive ? " total" : " self") : "");
		put_json_str(out, opt->unit, strlen(opt->unit));
		if (opt->window)
			fold_out_printf(out, ", \"window_seconds\": %" PRIu64,
			    opt->window);
		if (opt->fleet_cores)
			fold_out_printf(out, ", \"fleet_cores\": %" PRIu64,
			    opt->fleet_cores);
		if (on[COL_USD]) {
			fmt_fixed(cells[0], sizeof cells[0], opt->rate, 9, 0);
			len = strlen(cells[0]);
			while (cells[0][len - 1] == '0')
				cells[0][--len] = '\0';
			if (cells[0][len - 1] == '.')
				cells[0][--len] = '\0';
			fold_out_printf(out, ", \"usd_per_core_hour\": %s",
			    cells[0]);
		}
		fold_out_puts(out, ",\n \"rows\": [");
	}
	/* text: the widths of the heads, the rows and the total */
	for (c = 0; c < NCOL && fmt == FOLD_COST_TEXT; c++) {
		w[c] = strlen(heads[c]);
		for (i = 0; i <= shown && on[c]; i++) {
			fmt_fixed(cells[c], sizeof cells[c], i < shown ?
			    rows[i].v[c] : tot.v[c], dec[c], 1);
			len = strlen(cells[c]) + (c == COL_SHARE || c == COL_USD);
			if (len > w[c])
				w[c] = len;
		}
	}
	if (fmt == FOLD_COST_TEXT || fmt == FOLD_COST_MARKDOWN ||
	    fmt == FOLD_COST_TSV) {
		for (c = 0; c < NCOL; c++) {
			if (!on[c])
				continue;
			if (fmt == FOLD_COST_TEXT)
				fold_out_printf(out, "%*s  ", (int)w[c],
				    heads[c]);
			else
				fold_out_printf(out, fmt == FOLD_COST_TSV ?
				    "%s\t" : "| %s ", heads[c]);
		}
		fold_out_printf(out, "%s%s%s\n", fmt == FOLD_COST_MARKDOWN ?
		    "| " : "", by_names[opt->by], fmt == FOLD_COST_MARKDOWN ?
		    " |" : "");
		for (c = 0; c < NCOL && fmt == FOLD_COST_MARKDOWN; c++)
			if (on[c])
				fold_out_puts(out, "| ---: ");
		if (fmt == FOLD_COST_MARKDOWN)
			fold_out_puts(out, "| :--- |\n");
	}
	for (i = 0; i <= shown; i++) {
		const struct row *rw = i < shown ? &rows[i] : &tot;
		if (i == shown && !additive && fmt != FOLD_COST_JSON)
			fold_out_puts(out, fmt == FOLD_COST_TEXT ?
			    "# inclusive: rows overlap, the total is the "
			    "profile's\n" : "");
		if (i == shown)
			name = "(total)";
		else if (rw->id == FOLD_NOFRAME)
			name = "(other)";
		else
			name = fold_intern_str(r.names, rw->id, &k);
		if (fmt == FOLD_COST_JSON) {
			fold_out_puts(out, i == shown ? "],\n \"total\": {" :
			    i ? ",\n  {" : "\n  {");
			if (i < shown) {
				fold_out_puts(out, "\"name\": ");
				if (rw->id == FOLD_NOFRAME)
					fold_out_puts(out, "null");
				else
					put_json_str(out, name, k);
				fold_out_puts(out, ", ");
			}
			fold_out_printf(out, "\"count\": %" PRIu64, rw->count);
			for (c = 0; c < NCOL; c++) {
				if (!on[c])
					continue;
				fmt_fixed(cells[c], sizeof cells[c], rw->v[c],
				    dec[c], 0);
				fold_out_printf(out, ", \"%s\": %s", keys[c],
				    cells[c]);
			}
			fold_out_puts(out, i == shown ? "}}\n" : "}");
			continue;
		}
		for (c = 0; c < NCOL; c++) {
			char cell[72];
			if (!on[c])
				continue;
			fmt_fixed(cells[c], sizeof cells[c], rw->v[c], dec[c],
			    fmt != FOLD_COST_TSV);
			snprintf(cell, sizeof cell, "%s%s%s", c == COL_USD &&
			    fmt != FOLD_COST_TSV ? "$" : "", cells[c],
			    c == COL_SHARE && fmt != FOLD_COST_TSV ? "%" : "");
			if (fmt == FOLD_COST_TEXT)
				fold_out_printf(out, "%*s  ", (int)w[c], cell);
			else
				fold_out_printf(out, fmt == FOLD_COST_TSV ?
				    "%s\t" : "| %s ", cell);
		}
		if (fmt == FOLD_COST_MARKDOWN)
			fold_out_puts(out, "| ");
		if (i < shown && rw->id != FOLD_NOFRAME)
			put_name(out, name, k, fmt);
		else
			fold_out_puts(out, name);
		fold_out_puts(out, fmt == FOLD_COST_MARKDOWN ? " |\n" : "\n");
	}
	rc = 0;
	goto out;
frac:
	fold_seterr("a count is not an integer: costs are summed from "
	    "integer counts");
out:
	free(rows);
	free(r.count);
	fold_intern_free(r.names);
	return rc;
}
