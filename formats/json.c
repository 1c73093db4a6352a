#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/str.h"
#include "formats/json.h"

#define NIL UINT32_MAX

/* A captured value: nodes in document order, linked by index. */
struct json_val {
	unsigned char type;
	uint32_t next;		/* the next sibling, or NIL */
	uint32_t first;		/* a container's first child, or NIL */
	size_t off, n;		/* NUMBER, STRING, KEY: text in j->text */
};

struct json {
	yajl_handle h;
	json_event_fn *fn;
	void *ctx;
	const char *file;
	int depth;		/* containers open */
	int unclosed;		/* how many may be open at the end */
	int skip;		/* > 0: inside a skipped value, at this depth */
	int rc;			/* what stopped the parse */

	/* the chunk being parsed, and the line at lpos within it */
	const char *chunk;
	size_t clen, lpos;
	uint64_t line;

	/* a capture in progress (ncap > 0) or just given */
	int capdepth;		/* depth of its first token */
	uint64_t capline;
	struct json_val *vals;
	size_t nvals, valcap;
	char *text;
	size_t ntext, textcap;
	uint32_t *open;		/* containers open in the capture */
	uint32_t *last;		/* and the last child of each, or NIL */
	size_t nopen, opencap, lastcap;
	int capturing;
};

const char *
json_file(const struct json *j)
{
	return j->file;
}

uint64_t
json_line(struct json *j)
{
	size_t off = j->h ? yajl_get_bytes_consumed(j->h) : 0;
	const char *p, *e;

	if (off > j->clen)
		off = j->clen;
	/* the token just read ends at off: its last byte is the one */
	if (off > 0)
		off--;
	if (off < j->lpos)
		return j->line;
	for (p = j->chunk + j->lpos, e = j->chunk + off;
	    (p = memchr(p, '\n', e - p)) != NULL; p++)
		j->line++;
	j->lpos = off;
	return j->line;
}

int
json_fail(struct json *j, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return fold_seterr_at(j->file, json_line(j), "%s", msg);
}

/* Appends a node to the capture, as the next child of the open one. */
static uint32_t
capture_add(struct json *j, enum json_type type, const char *s, size_t n)
{
	struct json_val *v;
	uint32_t k = (uint32_t)j->nvals;

	if (j->nvals >= NIL - 1)
		return NIL;
	j->vals = fold_grow(j->vals, &j->valcap, j->nvals + 1, sizeof *j->vals);
	v = &j->vals[j->nvals++];
	v->type = (unsigned char)type;
	v->next = v->first = NIL;
	v->off = j->ntext;
	v->n = n;
	if (n) {
		j->text = fold_grow(j->text, &j->textcap, j->ntext + n, 1);
		memcpy(j->text + j->ntext, s, n);
		j->ntext += n;
	}
	if (j->nopen) {
		uint32_t parent = j->open[j->nopen - 1];
		uint32_t *last = &j->last[j->nopen - 1];
		if (*last == NIL)
			j->vals[parent].first = k;
		else
			j->vals[*last].next = k;
		*last = k;
	}
	if (type == JSON_OBJECT || type == JSON_ARRAY) {
		j->open = fold_grow(j->open, &j->opencap, j->nopen + 1,
		    sizeof *j->open);
		j->last = fold_grow(j->last, &j->lastcap, j->nopen + 1,
		    sizeof *j->last);
		j->open[j->nopen] = k;
		j->last[j->nopen] = NIL;
		j->nopen++;
	}
	return k;
}

/* Gives the finished capture to the reader. */
static int
capture_give(struct json *j)
{
	struct json_event e;

	memset(&e, 0, sizeof e);
	e.type = JSON_VALUE;
	e.depth = j->capdepth;
	e.v = &j->vals[0];
	e.line = j->capline;
	j->capturing = 0;
	return j->fn(j->ctx, j, &e);
}

/*
 * Every token comes here: kept out of a skipped value, added to a
 * capture, or given to the reader. Returns 1 to go on, 0 to stop.
 */
static int
token(struct json *j, enum json_type type, const char *s, size_t n)
{
	int start = type == JSON_OBJECT || type == JSON_ARRAY, rc;
	struct json_event e;

	if (type == JSON_END)
		j->depth--;
	if (j->skip) {
		if (start)
			j->depth++;
		else if (type == JSON_END && j->depth == j->skip - 1)
			j->skip = 0;
		return 1;
	}
	if (j->capturing) {
		if (type == JSON_END) {
			j->nopen--;
			if (j->nopen == 0 && (rc = capture_give(j)) < 0)
				return j->rc = rc, 0;
			return 1;
		}
		if (capture_add(j, type, s, n) == NIL) {
			j->rc = json_fail(j, "a value of more than 4 billion "
			    "parts");
			return 0;
		}
		if (start)
			j->depth++;
		else if (j->nopen == 0 && type != JSON_KEY &&
		    (rc = capture_give(j)) < 0)
			return j->rc = rc, 0;
		return 1;
	}
	memset(&e, 0, sizeof e);
	e.type = type;
	e.s = s;
	e.n = n;
	e.depth = j->depth;
	rc = j->fn(j->ctx, j, &e);
	if (rc < 0) {
		j->rc = rc;
		return 0;
	}
	if (rc == JSON_CAPTURE && type != JSON_KEY && type != JSON_END) {
		j->capturing = 1;
		j->capdepth = j->depth;
		j->capline = json_line(j);
		j->nvals = j->ntext = j->nopen = 0;
		capture_add(j, type, s, n);
		if (!start && (rc = capture_give(j)) < 0)
			return j->rc = rc, 0;
	} else if (rc == JSON_SKIP && start)
		j->skip = j->depth + 1;
	if (start)
		j->depth++;
	return 1;
}

static int
on_null(void *ctx)
{
	return token(ctx, JSON_NULL, NULL, 0);
}

static int
on_bool(void *ctx, int b)
{
	return token(ctx, b ? JSON_TRUE : JSON_FALSE, NULL, 0);
}

static int
on_number(void *ctx, const char *s, size_t n)
{
	return token(ctx, JSON_NUMBER, s, n);
}

static int
on_string(void *ctx, const unsigned char *s, size_t n)
{
	return token(ctx, JSON_STRING, (const char *)s, n);
}

static int
on_key(void *ctx, const unsigned char *s, size_t n)
{
	return token(ctx, JSON_KEY, (const char *)s, n);
}

static int
on_start_map(void *ctx)
{
	return token(ctx, JSON_OBJECT, NULL, 0);
}

static int
on_start_array(void *ctx)
{
	return token(ctx, JSON_ARRAY, NULL, 0);
}

static int
on_end(void *ctx)
{
	return token(ctx, JSON_END, NULL, 0);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end,
};

struct json *
json_new(json_event_fn *fn, void *ctx)
{
	struct json *j = fold_calloc(1, sizeof *j);

	j->fn = fn;
	j->ctx = ctx;
	return j;
}

void
json_free(struct json *j)
{
	if (!j)
		return;
	if (j->h)
		yajl_free(j->h);
	free(j->vals);
	free(j->text);
	free(j->open);
	free(j->last);
	free(j);
}

/*
 * yajl's message for the parse error at the current offset, in this
 * toolkit's words: "lexical error: invalid char in json text.\n" names
 * the byte; the rest lose their prefix and period.
 */
static int
syntax(struct json *j, int ended)
{
	unsigned char *m = yajl_get_error(j->h, 0, NULL, 0);
	const char *s = (const char *)m, *p;
	size_t n, off = yajl_get_bytes_consumed(j->h);
	unsigned char c;
	int rc;

	if (ended || (s && strstr(s, "premature EOF")))
		rc = json_fail(j, "not valid JSON: the input ends inside a "
		    "value");
	else if (s && strstr(s, "trailing garbage"))
		rc = json_fail(j, "not valid JSON: more after the end of the "
		    "value");
	else if (s && strstr(s, "invalid char in json text") && off > 0 &&
	    off <= j->clen) {
		c = (unsigned char)j->chunk[off - 1];
		if (c < 0x20)
			rc = json_fail(j, "not valid JSON: control byte "
			    "0x%02x", c);
		else if (c >= 0x7f)
			rc = json_fail(j, "not valid JSON: byte 0x%02x", c);
		else
			rc = json_fail(j, "not valid JSON: unexpected '%c'", c);
	} else {
		if (!s)
			s = "";
		if ((p = strstr(s, "error: ")) != NULL)
			s = p + 7;
		n = strlen(s);
		while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '.' ||
		    s[n - 1] == ' '))
			n--;
		rc = json_fail(j, "not valid JSON: %.*s", (int)n, s);
	}
	if (m)
		yajl_free_error(j->h, m);
	return rc;
}

int
json_read(struct json *j, struct fold_in *in)
{
	const char *buf;
	size_t len;
	yajl_status st;
	int r, first = 1, any = 0;

	j->file = fold_in_name(in);
	j->depth = j->skip = j->rc = j->capturing = 0;
	j->chunk = NULL;
	j->clen = j->lpos = 0;
	j->line = 1;
	if (j->h)
		yajl_free(j->h);
	j->h = yajl_alloc(&callbacks, NULL, j);
	/* names are bytes here; yajl's UTF-8 check would refuse them */
	yajl_config(j->h, yajl_dont_validate_strings, 1);
	while ((r = fold_in_chunk(in, &buf, &len)) > 0) {
		/* the lines of the chunk before, then this one */
		if (j->chunk) {
			j->lpos = j->lpos > j->clen ? j->clen : j->lpos;
			for (const char *p = j->chunk + j->lpos,
			    *e = j->chunk + j->clen;
			    (p = memchr(p, '\n', e - p)) != NULL; p++)
				j->line++;
		}
		if (first && len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
			buf += 3;
			len -= 3;
		}
		first = 0;
		j->chunk = buf;
		j->clen = len;
		j->lpos = 0;
		for (size_t i = 0; !any && i < len; i++)
			any = !fold_isblank(buf[i]) && buf[i] != '\n' &&
			    buf[i] != '\r';
		st = yajl_parse(j->h, (const unsigned char *)buf, len);
		if (st == yajl_status_client_canceled)
			return j->rc;
		if (st != yajl_status_ok)
			return syntax(j, 0);
	}
	if (r < 0)
		return -1;
	if (!any)
		return 0;
	j->lpos = j->clen;	/* the end: the last line */
	st = yajl_complete_parse(j->h);
	if (st == yajl_status_client_canceled)
		return j->rc;
	if (st != yajl_status_ok && j->depth > 0 && j->depth <= j->unclosed &&
	    !j->capturing && !j->skip) {
		/* a trace cut short between two values: close what is open */
		while (j->depth > 0)
			if (!token(j, JSON_END, NULL, 0))
				return j->rc;
		return 0;
	}
	if (st != yajl_status_ok)
		return syntax(j, 1);
	return 0;
}

void
json_allow_unclosed(struct json *j, int depth)
{
	j->unclosed = depth;
}

enum json_type
json_type(const struct json_val *v)
{
	return (enum json_type)v->type;
}

const char *
json_text(const struct json *j, const struct json_val *v, size_t *n)
{
	*n = v->n;
	return j->text + v->off;
}

int
json_is(const struct json *j, const struct json_val *v, const char *s)
{
	size_t n = strlen(s);

	return v && v->type == JSON_STRING && v->n == n &&
	    memcmp(j->text + v->off, s, n) == 0;
}

int
json_begin(struct fold_in *in, uint64_t max, const char *opens,
    const char *what)
{
	const char *head, *p;
	size_t n;
	uint64_t line;

	fold_in_set_limit(in, max);
	if (fold_in_peek(in, 4096, &head, &n) < 0)
		return -1;
	if ((p = json_start(head, n, &line)) &&
	    !memchr(opens, *p, strlen(opens)))
		return fold_seterr_at(fold_in_name(in), line, "not %s: a JSON "
		    "%s expected", what, strchr(opens, '[') ?
		    "array or object" : "object");
	return 0;
}

const struct json_val *
json_first(const struct json *j, const struct json_val *v)
{
	return v && v->first != NIL ? &j->vals[v->first] : NULL;
}

const struct json_val *
json_next(const struct json *j, const struct json_val *v)
{
	return v && v->next != NIL ? &j->vals[v->next] : NULL;
}

const struct json_val *
json_member(const struct json *j, const struct json_val *obj,
    const char *key)
{
	const struct json_val *k;
	size_t n = strlen(key);

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (k = json_first(j, obj); k; k = json_next(j, json_next(j, k)))
		if (k->n == n && memcmp(j->text + k->off, key, n) == 0)
			return json_next(j, k);
	return NULL;
}

int
json_int64(const char *s, size_t n, int64_t *v)
{
	const char *e = s + n;
	uint64_t x = 0, lim;
	int neg = 0;

	if (s < e && *s == '-')
		neg = 1, s++;
	if (s == e || !fold_isdigit(*s) || (*s == '0' && e - s > 1))
		return 0;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	/* 18 digits cannot pass it: the common case, without a division */
	if (e - s <= 18) {
		for (; s < e; s++) {
			if (!fold_isdigit(*s))
				return 0;
			x = x * 10 + (uint64_t)(*s - '0');
		}
		*v = neg ? (int64_t)(0 - x) : (int64_t)x;
		return 1;
	}
	for (; s < e; s++) {
		if (!fold_isdigit(*s) || x > (lim - (*s - '0')) / 10)
			return 0;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 1;
}

int
json_fixed(const char *s, size_t n, int scale, json_fixed_t *v)
{
	const char *e = s + n;
	/* 10^38 - 1 < 2^127 - 1: 38 significant digits always fit */
	const json_fixed_t max = (json_fixed_t)(((unsigned __int128)1 << 127)
	    - 1);
	json_fixed_t m = 0, p, r;
	int neg = 0, digits = 0, round = 0, esign = 1;
	long exp = 0, x = 0;

	if (s < e && *s == '-')
		neg = 1, s++;
	if (s == e || !fold_isdigit(*s) || (*s == '0' && e - s > 1 &&
	    fold_isdigit(s[1])))
		return 0;
	/* digits past the 38th only round, and move the point */
	for (; s < e && fold_isdigit(*s); s++) {
		if (digits < 38) {
			m = m * 10 + (*s - '0');
			digits += m != 0;
		} else {
			exp++;
			round = round ? round : *s >= '5' ? 2 : 1;
		}
	}
	if (s < e && *s == '.') {
		if (++s == e || !fold_isdigit(*s))
			return 0;
		for (; s < e && fold_isdigit(*s); s++)
			if (digits < 38) {
				m = m * 10 + (*s - '0');
				digits += m != 0;
				exp--;
			} else
				round = round ? round : *s >= '5' ? 2 : 1;
	}
	if (s < e && (*s == 'e' || *s == 'E')) {
		if (++s < e && (*s == '+' || *s == '-'))
			esign = *s++ == '-' ? -1 : 1;
		if (s == e || !fold_isdigit(*s))
			return 0;
		for (; s < e && fold_isdigit(*s); s++)
			if (x < 100000)
				x = x * 10 + (*s - '0');
	}
	if (s != e)
		return 0;
	m += round == 2;
	exp += esign * x + scale;
	if (m == 0)
		exp = 0;
	for (; exp > 0; exp--) {
		if (m > max / 10)
			return 0;
		m *= 10;
	}
	if (exp < -38)		/* m < 10^38: below a half */
		m = 0;
	else if (exp < 0) {
		for (p = 1; exp < 0; exp++)
			p *= 10;
		r = m % p;
		m = m / p + (r >= p - r);
	}
	*v = neg ? -m : m;
	return 1;
}

int
json_val_int64(const struct json *j, const struct json_val *v, int64_t *out)
{
	return v && v->type == JSON_NUMBER &&
	    json_int64(j->text + v->off, v->n, out);
}
