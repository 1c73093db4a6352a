#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/funcs.h"
#include "libfold/unit.h"
#include "formats/table.h"
#include "formats/unitshow.h"
#include "formats/xml.h"

static const char *const format_names[] = {
	[FOLD_FORMAT_TEXT] = "text",
	[FOLD_FORMAT_MARKDOWN] = "markdown",
	[FOLD_FORMAT_TSV] = "tsv",
	[FOLD_FORMAT_JSON] = "json",
	[FOLD_FORMAT_HTML] = "html",
	[FOLD_FORMAT_JUNIT] = "junit",
	[FOLD_FORMAT_GITHUB] = "github",
};

#define NFORMATS (sizeof format_names / sizeof format_names[0])

int
fold_format_parse(const char *s, unsigned accept, enum fold_format *f)
{
	char list[128];
	size_t i, n = 0, left = 0;

	for (i = 0; i < NFORMATS; i++) {
		if (!(accept & FOLD_FORMAT_SET(i)))
			continue;
		left++;
		if (strcmp(s, format_names[i]) == 0 ||
		    (i == FOLD_FORMAT_MARKDOWN && strcmp(s, "md") == 0)) {
			*f = (enum fold_format)i;
			return 0;
		}
	}
	/* "text, markdown or tsv" */
	for (i = 0; i < NFORMATS; i++) {
		if (!(accept & FOLD_FORMAT_SET(i)))
			continue;
		n += snprintf(list + n, sizeof list - n, "%s%s",
		    n == 0 ? "" : left == 1 ? " or " : ", ", format_names[i]);
		left--;
	}
	return fold_seterr("unknown format '%s' (%s)", s, list);
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

/*
 * Text of a markdown cell: what would be emphasis, a code span or a new
 * cell is escaped (a q-value's '*').
 */
static void
put_md_text(struct fold_out *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_|", *s))
			fold_out_putc(out, '\\');
		fold_out_putc(out, *s);
	}
}

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
	uint32_t cp;
	size_t k;

	fold_out_putc(out, '"');
	while (p < e) {
		/* a run of printable ASCII as it is */
		for (k = 0; p + k < e && p[k] >= 0x20 && p[k] < 0x7f &&
		    p[k] != '"' && p[k] != '\\'; k++)
			;
		if (k) {
			fold_out_write(out, p, k);
			p += k;
			continue;
		}
		if (*p == '"' || *p == '\\') {
			fold_out_putc(out, '\\');
			fold_out_putc(out, *p++);
			continue;
		}
		if ((k = fold_utf8(p, e - p, &cp)) == 0) {
			fold_out_puts(out, "\\ufffd");
			p++;
			continue;
		}
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
		    (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			fold_out_printf(out, "\\u%04x", (unsigned)cp);
		else
			fold_out_write(out, p, k);
		p += k;
	}
	fold_out_putc(out, '"');
}

void
fold_name_write(struct fold_out *out, const char *s, size_t n,
    enum fold_format f)
{
	char *v;

	if (f == FOLD_FORMAT_JSON) {
		put_json_str(out, s, n);
		return;
	}
	v = fold_visdup(s, n, NULL);
	if (f == FOLD_FORMAT_MARKDOWN)
		put_md_code(out, v);
	else if (f == FOLD_FORMAT_HTML)
		fold_xml_puts(out, v);
	else
		fold_out_puts(out, v);
	free(v);
}

/* ----------------------------------------------------------------- rows */

/* Room for n more bytes in the row's buffer. */
static void
makeroom(struct fold_row *r, size_t n)
{
	if (r->cap - r->len >= n)
		return;
	if (n > SIZE_MAX / 2 - r->len)
		r->cap = SIZE_MAX;	/* fold_realloc fails, as it must */
	else
		r->cap = (r->len + n) * 2;
	r->buf = fold_realloc(r->buf, r->cap);
}

void
fold_row_set(struct fold_row *r, size_t col, enum fold_cellkind kind,
    const char *fmt, ...)
{
	struct fold_cell *c = &r->cells[col];
	va_list ap;
	int n;

	makeroom(r, 64);
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->len, r->cap - r->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0, r->buf[r->len] = '\0';
	if ((size_t)n >= r->cap - r->len) {
		makeroom(r, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(r->buf + r->len, r->cap - r->len, fmt, ap);
		va_end(ap);
	}
	c->off = r->len;
	c->n = n;
	c->kind = kind;
	r->len += (size_t)n + 1;
}

void
fold_row_text(struct fold_row *r, size_t col, enum fold_cellkind kind,
    const char *s, size_t n)
{
	struct fold_cell *c = &r->cells[col];

	makeroom(r, n + 1);
	memcpy(r->buf + r->len, s, n);
	r->buf[r->len + n] = '\0';
	c->off = r->len;
	c->n = n;
	c->kind = kind;
	r->len += n + 1;
}

static void
row_init(struct fold_row *r, size_t ncols)
{
	memset(r, 0, sizeof *r);
	r->ncols = ncols;
	r->cells = fold_calloc(ncols ? ncols : 1, sizeof *r->cells);
}

static void
row_release(struct fold_row *r)
{
	free(r->cells);
	free(r->buf);
}

/* Row i of t (the heads when i is 0) in r, cleared first. */
static void
row_get(const struct fold_table *t, size_t i, struct fold_row *r)
{
	size_t c;

	memset(r->cells, 0, r->ncols * sizeof *r->cells);
	r->cls = NULL;
	r->len = 0;
	if (i > 0) {
		t->fill(t->arg, i - 1, r);
		return;
	}
	for (c = 0; c < r->ncols; c++)
		fold_row_text(r, c, FOLD_CELL_TEXT, t->heads[c],
		    strlen(t->heads[c]));
}

static const char *
text(const struct fold_row *r, size_t col)
{
	const struct fold_cell *c = &r->cells[col];

	return c->kind == FOLD_CELL_NONE ? "" : r->buf + c->off;
}

/* -------------------------------------------------------------- tables */

void
fold_table_release(struct fold_table *t)
{
	size_t i;

	if (t->free)
		t->free(t->arg);
	for (i = 0; i < t->nprops; i++)
		free(t->props[i].v);
	free(t->props);
	free(t->caption);
	memset(t, 0, sizeof *t);
}

/* A new string, printf-style. */
static char *
vformat(const char *fmt, va_list ap)
{
	va_list aq;
	char *s;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		n = 0;
	s = fold_malloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static char * __attribute__((format(printf, 1, 2)))
format(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	return s;
}

void
fold_table_prop(struct fold_table *t, const char *key,
    enum fold_cellkind kind, const char *fmt, ...)
{
	struct fold_prop *p;
	va_list ap;

	t->props = fold_reallocarray(t->props, t->nprops + 1, sizeof *t->props);
	p = &t->props[t->nprops++];
	p->key = key;
	p->kind = kind;
	va_start(ap, fmt);
	p->v = vformat(fmt, ap);
	va_end(ap);
}

/* Writes s (n bytes), of kind, as format f shows it. */
static void
put_text(struct fold_out *out, const char *s, size_t n,
    enum fold_cellkind kind, enum fold_format f)
{
	if (kind == FOLD_CELL_NAME)
		fold_name_write(out, s, n, f);
	else if (f == FOLD_FORMAT_MARKDOWN)
		put_md_text(out, s);
	else if (f == FOLD_FORMAT_HTML)
		fold_xml_puts(out, s);
	else if (f == FOLD_FORMAT_JSON && kind == FOLD_CELL_TEXT)
		put_json_str(out, s, n);
	else
		fold_out_write(out, s, n);
}

static void
put_cell(struct fold_out *out, const struct fold_row *r, size_t col,
    enum fold_format f)
{
	const struct fold_cell *c = &r->cells[col];

	put_text(out, text(r, col), c->n, c->kind, f);
}

/*
 * Text pads each column to its widest cell: the rows are made once and
 * kept, each cell as shown (a name through fold_vis) in one buffer, at
 * the offsets in off, until written.
 */
static void
write_text(struct fold_out *out, const struct fold_table *t,
    struct fold_row *r)
{
	size_t *w = fold_calloc(t->ncols, sizeof *w), i, c, k, len;
	size_t ncells = (t->nrows + 1) * t->ncols;
	size_t *off = fold_reallocarray(NULL, ncells + 1, sizeof *off);
	struct fold_row all;
	const char *s;

	memset(&all, 0, sizeof all);
	for (i = k = 0; i <= t->nrows; i++) {
		row_get(t, i, r);
		for (c = 0; c < t->ncols; c++, k++) {
			const struct fold_cell *cell = &r->cells[c];
			s = text(r, c);
			off[k] = all.len;
			if (cell->kind == FOLD_CELL_NAME) {
				makeroom(&all, FOLD_VIS_MAX(cell->n));
				len = fold_vis(all.buf + all.len,
				    FOLD_VIS_MAX(cell->n), s, cell->n, NULL);
			} else {
				len = cell->n;
				makeroom(&all, len + 1);
				memcpy(all.buf + all.len, s, len + 1);
			}
			all.len += len + 1;
			/* the last column is not padded */
			if (c + 1 < t->ncols && len > w[c])
				w[c] = len;
		}
	}
	off[k] = all.len;
	for (i = k = 0; i <= t->nrows; i++) {
		if (t->total && t->footnote && i == t->nrows && i > 0)
			fold_out_printf(out, "%s\n", t->footnote);
		for (c = 0; c < t->ncols; c++, k++) {
			len = off[k + 1] - off[k] - 1;
			if (c > 0)
				fold_out_puts(out, "  ");
			for (; c + 1 < t->ncols && len < w[c]; len++)
				fold_out_putc(out, ' ');
			fold_out_write(out, all.buf + off[k],
			    off[k + 1] - off[k] - 1);
		}
		fold_out_putc(out, '\n');
	}
	free(all.buf);
	free(off);
	free(w);
}

/*
 * Markdown and TSV: each row on a line, its cells between lead, sep and
 * end; markdown aligns the columns in a line under the heads.
 */
static void
write_lines(struct fold_out *out, const struct fold_table *t,
    struct fold_row *r, enum fold_format f)
{
	int md = f == FOLD_FORMAT_MARKDOWN;
	size_t i, c;

	for (i = 0; i <= t->nrows; i++) {
		row_get(t, i, r);
		for (c = 0; c < t->ncols; c++) {
			fold_out_puts(out, md ? c ? " | " : "| " : c ? "\t" :
			    "");
			put_cell(out, r, c, f);
		}
		fold_out_puts(out, md ? " |\n" : "\n");
		for (c = 0; md && i == 0 && c < t->ncols; c++)
			fold_out_puts(out, c + 1 < t->ncols ? "| ---: " :
			    "| :--- |\n");
	}
}

/* Row i as a JSON object keyed by the heads; unset cells left out. */
static void
put_json_row(struct fold_out *out, const struct fold_table *t, size_t i,
    struct fold_row *r)
{
	size_t c;
	int first = 1;

	row_get(t, i, r);
	fold_out_putc(out, '{');
	for (c = 0; c < t->ncols; c++) {
		if (r->cells[c].kind == FOLD_CELL_NONE)
			continue;
		if (!first)
			fold_out_puts(out, ", ");
		put_json_str(out, t->heads[c], strlen(t->heads[c]));
		fold_out_puts(out, ": ");
		put_cell(out, r, c, FOLD_FORMAT_JSON);
		first = 0;
	}
	fold_out_putc(out, '}');
}

static void
write_json(struct fold_out *out, const struct fold_table *t,
    struct fold_row *r)
{
	size_t i, end = t->total && t->nrows ? t->nrows : t->nrows + 1;
	const struct fold_prop *p;

	fold_out_putc(out, '{');
	for (i = 0; i < t->nprops; i++) {
		p = &t->props[i];
		if (i)
			fold_out_puts(out, ", ");
		put_json_str(out, p->key, strlen(p->key));
		fold_out_puts(out, ": ");
		put_text(out, p->v, strlen(p->v), p->kind, FOLD_FORMAT_JSON);
	}
	fold_out_puts(out, t->nprops ? ",\n \"rows\": [" : "\"rows\": [");
	for (i = 1; i < end; i++) {
		fold_out_puts(out, i > 1 ? ",\n  " : "\n  ");
		put_json_row(out, t, i, r);
	}
	fold_out_putc(out, ']');
	if (end <= t->nrows) {
		fold_out_puts(out, ",\n \"total\": ");
		put_json_row(out, t, end, r);
	}
	fold_out_puts(out, "}\n");
}

static void
put_th(struct fold_out *out, const char *s)
{
	fold_out_puts(out, "<th>");
	fold_xml_puts(out, s);
	fold_out_puts(out, "</th>");
}

static void
write_html(struct fold_out *out, const struct fold_table *t,
    struct fold_row *r)
{
	size_t i, c, fn = t->ncols - 1;
	const char *cls;

	fold_out_puts(out, "<table");
	if (t->id) {
		fold_out_puts(out, " id=\"");
		fold_xml_puts(out, t->id);
		fold_out_putc(out, '"');
	}
	fold_out_puts(out, ">\n<thead>");
	if (t->ngroups) {
		/* a row of groups, then the heads: a line each */
		fold_out_puts(out, "\n<tr><th rowspan=\"2\">");
		fold_xml_puts(out, t->heads[fn]);
		fold_out_puts(out, "</th>");
		for (c = 0; c < t->ngroups; c++) {
			fold_out_printf(out, "<th colspan=\"%zu\">",
			    t->groups[c].span);
			fold_xml_puts(out, t->groups[c].head);
			fold_out_puts(out, "</th>");
		}
		fold_out_puts(out, "</tr>\n<tr>");
	} else {
		fold_out_puts(out, "<tr>");
		put_th(out, t->heads[fn]);
	}
	for (c = 0; c < fn; c++)
		put_th(out, t->heads[c]);
	fold_out_puts(out, t->ngroups ? "</tr>\n" : "</tr>");
	fold_out_puts(out, "</thead>\n<tbody>\n");
	for (i = 1; i <= t->nrows; i++) {
		row_get(t, i, r);
		if (r->cls)
			fold_out_printf(out, "<tr class=\"%s\">", r->cls);
		else
			fold_out_puts(out, "<tr>");
		fold_out_puts(out, "<td class=\"fn\">");
		put_cell(out, r, fn, FOLD_FORMAT_HTML);
		fold_out_puts(out, "</td>");
		for (c = 0; c < fn; c++) {
			if ((cls = r->cells[c].cls))
				fold_out_printf(out, "<td class=\"%s\">", cls);
			else
				fold_out_puts(out, "<td>");
			put_cell(out, r, c, FOLD_FORMAT_HTML);
			fold_out_puts(out, "</td>");
		}
		fold_out_puts(out, "</tr>\n");
	}
	fold_out_puts(out, "</tbody>\n</table>");
}

void
fold_table_write(struct fold_out *out, const struct fold_table *t,
    enum fold_format f)
{
	struct fold_row r;

	row_init(&r, t->ncols);
	switch (f) {
	case FOLD_FORMAT_TEXT:
		write_text(out, t, &r);
		break;
	case FOLD_FORMAT_MARKDOWN:
	case FOLD_FORMAT_TSV:
		write_lines(out, t, &r, f);
		break;
	case FOLD_FORMAT_JSON:
		write_json(out, t, &r);
		break;
	case FOLD_FORMAT_HTML:
		write_html(out, t, &r);
		break;
	default:
		break;
	}
	row_release(&r);
}

/* ------------------------------------------------------------------ top */

static const char *const top_head[] = { "flat", "flat%", "sum%", "cum",
    "cum%", "function" };

struct toptable {
	struct fold_top top;
	const char *pct;	/* format of a percentage */
	const char *unit;	/* to show counts in; NULL: as numbers */
};

/* A count as the table shows it: in its unit, or as its digits. */
static size_t
top_count(const struct toptable *tt, const struct fold_count *c, char *buf)
{
	size_t n = tt->unit ? fold_unit_show(c, tt->unit, buf) : 0;

	return n ? n : fold_count_fmt(c, buf);
}

static void
top_fill(void *arg, size_t i, struct fold_row *r)
{
	const struct toptable *tt = arg;
	const struct fold_toprow *row = &tt->top.rows[i];
	char buf[FOLD_COUNT_BUFSZ + FOLD_UNIT_SHOWSZ];
	size_t n;

	n = top_count(tt, &row->flat, buf);
	fold_row_text(r, 0, FOLD_CELL_NUMBER, buf, n);
	fold_row_set(r, 1, FOLD_CELL_NUMBER, tt->pct, row->flat_pct);
	fold_row_set(r, 2, FOLD_CELL_NUMBER, tt->pct, row->sum_pct);
	n = top_count(tt, &row->cum, buf);
	fold_row_text(r, 3, FOLD_CELL_NUMBER, buf, n);
	fold_row_set(r, 4, FOLD_CELL_NUMBER, tt->pct, row->cum_pct);
	fold_row_text(r, 5, FOLD_CELL_NAME, row->name, row->namelen);
}

static void
top_free(void *arg)
{
	struct toptable *tt = arg;

	fold_top_release(&tt->top);
	free(tt);
}

int
fold_top_table(const struct fold_stacks *st, const struct fold_topopt *opt,
    struct fold_table *t)
{
	struct toptable *tt = fold_calloc(1, sizeof *tt);
	const char *unit = fold_stacks_unit(st);
	char buf[FOLD_COUNT_BUFSZ + FOLD_UNIT_SHOWSZ + FOLD_UNIT_MAX];
	size_t n;

	memset(t, 0, sizeof *t);
	if (fold_top_compute(st, opt->col, opt->by_cum, &tt->top) < 0) {
		free(tt);
		return -1;
	}
	/* tsv: plain numbers */
	tt->pct = opt->format == FOLD_FORMAT_TSV ? "%.4f" : "%.2f%%";
	t->ncols = 6;
	t->heads = top_head;
	t->nrows = opt->top && opt->top < tt->top.nrows ? opt->top :
	    tt->top.nrows;
	t->fill = top_fill;
	t->arg = tt;
	t->free = top_free;
	/* text and markdown are read: a time or size in its unit; tsv is
	   parsed: the exact count */
	if (opt->format != FOLD_FORMAT_TSV)
		tt->unit = unit;
	if (!tt->unit || !(n = fold_unit_show(&tt->top.total, unit, buf))) {
		n = fold_count_fmt_grouped(&tt->top.total, buf);
		/* samples are what a count is unless said otherwise */
		if (unit && strcmp(unit, FOLD_UNIT_SAMPLES) != 0)
			snprintf(buf + n, sizeof buf - n, " %s", unit);
	}
	t->caption = format("total %s in %zu stacks, %zu functions; showing "
	    "%zu by %s", buf, tt->top.nstacks, tt->top.nrows, t->nrows,
	    opt->by_cum ? "cum" : "flat");
	return 0;
}

int
fold_top_write(struct fold_out *out, const struct fold_stacks *st,
    const struct fold_topopt *opt)
{
	struct fold_table t;

	if (fold_top_table(st, opt, &t) < 0)
		return -1;
	if (opt->format == FOLD_FORMAT_TEXT)
		fold_out_printf(out, "%s\n", t.caption);
	else if (opt->format == FOLD_FORMAT_MARKDOWN)
		fold_out_printf(out, "T%s.\n\n", t.caption + 1);
	fold_table_write(out, &t, opt->format);
	fold_table_release(&t);
	return 0;
}

/* ----------------------------------------------------------------- diff */

static const char *const diff_head[] = {
	"self-before", "self-after", "self-diff", "self-rel", "self-q",
	"total-before", "total-after", "total-diff", "total-rel", "total-q",
	"function",
};

/* the function leads in tsv, closes the row elsewhere */
static const char *const tsv_head[] = {
	"function",
	"self_before", "self_after", "self_diff", "self_rel", "self_q",
	"total_before", "total_after", "total_diff", "total_rel", "total_q",
	"self_count_before", "self_count_after", "total_count_before",
	"total_count_after",
};

static const char *const html_head[] = {
	"before", "after", "change", "relative", "q",
	"before", "after", "change", "relative", "q",
	"function",
};

static const struct fold_colgroup html_groups[] = {
	{ "self", 5 }, { "total", 5 },
};

struct difftable {
	const struct fold_diffreport *r;
	const struct fold_diffrow *rows;
	int raw, html;
};

/*
 * HTML: a change coloured by its direction when significant as the gate
 * judges it (above its floor): emphasis below the floor would flag what
 * the gate lets pass.
 */
static const char *
change_class(const char *s)
{
	if (s[0] == '+' && strcmp(s, "+0.00pp") && strcmp(s, "+0"))
		return "up";
	return s[0] == '-' ? "down" : NULL;
}

static void
diff_fill(void *arg, size_t i, struct fold_row *r)
{
	const struct difftable *dt = arg;
	const struct fold_diffrow *d = &dt->rows[i];
	size_t col = dt->raw ? 1 : 0, n;
	char buf[FOLD_COUNT_BUFSZ];
	int k, c, sig[2];

	for (k = 0; k < 2; k++)
		sig[k] = dt->html && fold_diffreport_significant(dt->r, i, k);
	if (sig[0] || sig[1])
		r->cls = "sig";
	for (k = 0; k < 2; k++)
		for (c = 0; c < FOLD_DIFF_NFIG; c++, col++) {
			fold_diffreport_fmt(dt->r, &d->m[k], c, dt->raw, buf,
			    sizeof buf);
			fold_row_text(r, col, FOLD_CELL_NUMBER, buf,
			    strlen(buf));
			if (sig[k] && (c == FOLD_DIFF_CHANGE ||
			    c == FOLD_DIFF_REL))
				r->cells[col].cls = change_class(buf);
		}
	for (k = 0; dt->raw && k < 2; k++)
		for (c = 0; c < 2; c++) {
			n = fold_count_fmt(&d->m[k].count[c], buf);
			fold_row_text(r, col++, FOLD_CELL_NUMBER, buf, n);
		}
	fold_row_text(r, dt->raw ? 0 : r->ncols - 1, FOLD_CELL_NAME, d->name,
	    d->namelen);
}

void
fold_diff_table(const struct fold_diffreport *r, enum fold_format f,
    size_t top, struct fold_table *t)
{
	struct difftable *dt = fold_malloc(sizeof *dt);
	size_t len;

	memset(t, 0, sizeof *t);
	dt->r = r;
	dt->rows = fold_diffreport_rows(r, &len);
	dt->raw = f == FOLD_FORMAT_TSV;
	dt->html = f == FOLD_FORMAT_HTML;
	t->ncols = dt->raw ? 15 : 11;
	t->heads = dt->raw ? tsv_head : dt->html ? html_head : diff_head;
	if (dt->html) {
		t->groups = html_groups;
		t->ngroups = 2;
	}
	t->nrows = top && top < len ? top : len;
	t->fill = diff_fill;
	t->arg = dt;
	t->free = free;
	if (t->nrows < len)
		t->caption = format("(%zu more functions not shown)",
		    len - t->nrows);
}

void
fold_diff_table_write(struct fold_out *out, const struct fold_diffreport *r,
    enum fold_format f, size_t top)
{
	int md = f == FOLD_FORMAT_MARKDOWN;
	struct fold_table t;
	const char *s;
	size_t i;

	/* tsv has no room for a line about the table */
	if (f != FOLD_FORMAT_TSV) {
		for (i = 0; (s = fold_diffreport_note(r, i)); i++)
			fold_out_printf(out, "%s%s\n", md ? "- " : "", s);
		if (md)
			fold_out_putc(out, '\n');
	}
	fold_diff_table(r, f, top, &t);
	fold_table_write(out, &t, f);
	if (t.caption && f != FOLD_FORMAT_TSV)
		fold_out_printf(out, "%s%s\n", md ? "\n" : "", t.caption);
	fold_table_release(&t);
}

/* ----------------------------------------------------------------- cost */

/* v in units of 10^-dec, with thousands separators when group. */
static void
fmt_fixed(char *buf, size_t size, unsigned __int128 v, int dec, int group)
{
	char digits[64];
	size_t n = 0, i, k = 0, intlen;
	unsigned __int128 x = v;

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

static const char *const by_names[] = { "service", "team", "function" };

struct costtable {
	struct fold_cost cost;
	const char *heads[2 + FOLD_NFIG];
	int json, plain;	/* plain: no grouping, "$" or "%" */
};

static void
cost_fill(void *arg, size_t i, struct fold_row *r)
{
	const struct costtable *ct = arg;
	const struct fold_cost *cost = &ct->cost;
	const struct fold_costrow *rw = i < cost->nrows ? &cost->rows[i] :
	    &cost->total;
	/* json: the name and the count lead */
	size_t namecol = ct->json ? 0 : r->ncols - 1, col = ct->json ? 2 : 0, n;
	char buf[72];
	int k;

	if (rw->name)
		fold_row_text(r, namecol, FOLD_CELL_NAME, rw->name,
		    rw->namelen);
	else if (i < cost->nrows)
		fold_row_set(r, namecol, ct->json ? FOLD_CELL_NUMBER :
		    FOLD_CELL_TEXT, "%s", ct->json ? "null" : "(other)");
	else if (!ct->json)
		fold_row_set(r, namecol, FOLD_CELL_TEXT, "(total)");
	if (ct->json)
		fold_row_set(r, 1, FOLD_CELL_NUMBER, "%" PRIu64, rw->count);
	for (k = 0; k < FOLD_NFIG; k++) {
		if (!cost->on[k])
			continue;
		n = 0;
		if (k == FOLD_FIG_USD && !ct->plain)
			buf[n++] = '$';
		fmt_fixed(buf + n, sizeof buf - n - 1, rw->fig[k],
		    cost->decimals[k], !ct->plain);
		n += strlen(buf + n);
		if (k == FOLD_FIG_SHARE && !ct->plain)
			buf[n++] = '%';
		fold_row_text(r, col++, FOLD_CELL_NUMBER, buf, n);
	}
}

static void
cost_free(void *arg)
{
	struct costtable *ct = arg;

	fold_cost_release(&ct->cost);
	free(ct);
}

/* The JSON members: what the rollup is of, and of what it is made. */
static void
cost_props(struct fold_table *t, const struct fold_costopt *opt,
    const struct fold_cost *cost)
{
	char buf[64];
	size_t n;

	fold_table_prop(t, "by", FOLD_CELL_TEXT, "%s%s", by_names[opt->by],
	    opt->by != FOLD_COST_FUNCTION ? "" : opt->inclusive ? " total" :
	    " self");
	fold_table_prop(t, "unit", FOLD_CELL_TEXT, "%s", opt->unit);
	if (opt->window)
		fold_table_prop(t, "window_seconds", FOLD_CELL_NUMBER,
		    "%" PRIu64, opt->window);
	if (opt->fleet_cores)
		fold_table_prop(t, "fleet_cores", FOLD_CELL_NUMBER,
		    "%" PRIu64, opt->fleet_cores);
	if (cost->on[FOLD_FIG_USD]) {
		/* the rate as given: no trailing zeros */
		fmt_fixed(buf, sizeof buf, opt->rate, 9, 0);
		n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		if (buf[n - 1] == '.')
			buf[--n] = '\0';
		fold_table_prop(t, "usd_per_core_hour", FOLD_CELL_NUMBER, "%s",
		    buf);
	}
}

int
fold_cost_write(struct fold_out *out, const struct fold_stacks *st,
    const struct fold_costopt *opt, enum fold_format f)
{
	static const char *const heads[FOLD_NFIG] = { "cpu-s", "share",
	    "cores", "$/year" };
	static const char *const keys[FOLD_NFIG] = { "cpu_seconds", "share",
	    "cores", "usd_per_year" };
	struct costtable *ct = fold_calloc(1, sizeof *ct);
	struct fold_costopt o = *opt;
	struct fold_table t = FOLD_TABLE_INIT;
	size_t n = 0;
	int k;

	ct->json = f == FOLD_FORMAT_JSON;
	/* tsv and json: plain numbers, to the cent */
	ct->plain = ct->json || f == FOLD_FORMAT_TSV;
	o.cents = ct->plain;
	if (fold_cost_compute(st, &o, &ct->cost) < 0) {
		free(ct);
		return -1;
	}
	if (ct->json) {
		ct->heads[n++] = "name";
		ct->heads[n++] = "count";
	}
	for (k = 0; k < FOLD_NFIG; k++)
		if (ct->cost.on[k])
			ct->heads[n++] = ct->json ? keys[k] : heads[k];
	if (!ct->json)
		ct->heads[n++] = by_names[opt->by];
	t.ncols = n;
	t.heads = ct->heads;
	t.nrows = ct->cost.nrows + 1;
	t.fill = cost_fill;
	t.arg = ct;
	t.free = cost_free;
	t.total = 1;
	if (!ct->cost.additive)
		t.footnote = "# inclusive: rows overlap, the total is the "
		    "profile's";
	if (ct->json)
		cost_props(&t, opt, &ct->cost);
	fold_table_write(out, &t, f);
	fold_table_release(&t);
	return 0;
}
