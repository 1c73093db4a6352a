#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "err.h"

/*
 * Writes "file:line: " (line 0: "file: ") to msg; returns its length,
 * cut to what msg holds.
 */
static size_t
at(char *msg, size_t size, const char *file, uint64_t line)
{
	int n;

	if (line)
		n = snprintf(msg, size, "%s:%llu: ", file,
		    (unsigned long long)line);
	else
		n = snprintf(msg, size, "%s: ", file);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

int
fold_seterr_at(const char *file, uint64_t line, const char *fmt, ...)
{
	char msg[1024];
	size_t k = at(msg, sizeof msg, file, line);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg + k, sizeof msg - k, fmt, ap);
	va_end(ap);
	return fold_seterr("%s", msg);
}

int
fold_warn(struct fold_diag *d, const char *file, uint64_t line,
    const char *fmt, ...)
{
	char text[768], msg[1024];
	size_t k = at(msg, sizeof msg, file, line);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	snprintf(msg + k, sizeof msg - k, "%s", text);
	d->count++;
	if (d->defer)
		d->defer(d->arg, file, line, text);
	if (d->strict)
		return fold_seterr("%s", msg);
	if (d->report && !d->defer && d->count <= d->limit)
		d->report(d->arg, msg);
	return 0;
}

static char *
copy(const char *s)
{
	return s ? fold_strdup(s) : NULL;
}

static void
held_add(struct fold_held *h, int warn, const char *file, uint64_t line,
    const char *text)
{
	h->v = fold_grow(h->v, &h->cap, h->n + 1, sizeof *h->v);
	h->v[h->n++] = (struct fold_held_msg){ warn, copy(file), line,
	    copy(text) };
}

static void
held(void *arg, const char *file, uint64_t line, const char *text)
{
	struct fold_held *h = arg;

	if (h->nwarn >= h->limit) {
		h->more++;
		return;
	}
	h->nwarn++;
	held_add(h, 1, file, line, text);
}

void
fold_hold(struct fold_diag *d, struct fold_held *h, unsigned limit,
    int strict)
{
	memset(h, 0, sizeof *h);
	h->limit = limit;
	*d = (struct fold_diag){ .limit = limit, .strict = strict,
	    .defer = held, .arg = h };
}

void
fold_held_note(struct fold_held *h, const char *text)
{
	held_add(h, 0, NULL, 0, text);
}

int
fold_held_say(struct fold_held *h, struct fold_diag *to, uint64_t base,
    fold_say_fn *say, void *arg)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < h->n && rc == 0; i++) {
		const struct fold_held_msg *m = &h->v[i];
		if (!m->warn)
			say(arg, m->text);
		else if (fold_warn(to, m->file, m->line ? base + m->line : 0,
		    "%s", m->text) < 0)
			rc = -1;
	}
	if (rc == 0)
		to->count += h->more;
	fold_held_free(h);
	return rc;
}

void
fold_held_free(struct fold_held *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		free(h->v[i].file);
		free(h->v[i].text);
	}
	free(h->v);
	memset(h, 0, sizeof *h);
}

size_t
fold_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, past U+10FFFF, surrogates */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/*
 * The length of the character at s[0..n) when it may be shown as it is,
 * or 0 when its first byte is to be escaped (see fold_vis in diag.h).
 */
static size_t
vis_char(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len = fold_utf8(s, n, &cp);

	if (len == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return len;
}

size_t
fold_vis(char *buf, size_t size, const char *str, size_t n, size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, j = 0, k;

	while (i < n) {
		k = vis_char(s + i, n - i);
		if (k == 1 && s[i] == '\\' && i + 1 < n && s[i + 1] == 'x')
			k = 0;
		if (k > 0) {
			if (j + k >= size)
				break;
			memcpy(buf + j, s + i, k);
			j += k;
			i += k;
			continue;
		}
		if (j + 4 >= size)
			break;
		buf[j++] = '\\';
		buf[j++] = 'x';
		buf[j++] = hex[s[i] >> 4];
		buf[j++] = hex[s[i] & 15];
		i++;
	}
	buf[j] = '\0';
	if (used)
		*used = i;
	return j;
}

char *
fold_visdup(const char *s, size_t n, size_t *len)
{
	char *t = fold_reallocarray(NULL, n + 1, 4);
	size_t k = fold_vis(t, 4 * n + 4, s, n, NULL);

	if (len)
		*len = k;
	return fold_realloc(t, k + 1);
}
