#include <stdint.h>
#include <string.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/str.h"
#include "formats/xml.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD in UTF-8 */

/*
 * The length of the UTF-8 character at s[0..n) (n >= 1), or 0 when it is
 * not a character XML allows.
 */
static size_t
utf8_valid(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len = fold_utf8(s, n, &cp);

	if (len == 0 || (cp < 0x20 && cp != '\t') || cp == 0x7f ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return len;
}

size_t
fold_xml_escape_max(struct fold_out *out, const char *str, size_t n,
    size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0, chars = 0, k;

	while (i < n && chars < max) {
		unsigned char c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '&' && c != '<' &&
		    c != '>' && c != '"' && c != '\'') {
			i++;
			chars++;
			continue;
		}
		fold_out_write(out, s + run, i - run);
		switch (c) {
		case '&': fold_out_puts(out, "&amp;"); k = 1; break;
		case '<': fold_out_puts(out, "&lt;"); k = 1; break;
		case '>': fold_out_puts(out, "&gt;"); k = 1; break;
		case '"': fold_out_puts(out, "&quot;"); k = 1; break;
		case '\'': fold_out_puts(out, "&#39;"); k = 1; break;
		default:
			k = utf8_valid(s + i, n - i);
			if (k == 0 || c == '\t') {
				/* a tab would be normalized away in attributes */
				fold_out_puts(out, REPLACEMENT);
				k = 1;
			} else
				fold_out_write(out, s + i, k);
		}
		i += k;
		run = i;
		chars++;
	}
	fold_out_write(out, s + run, i - run);
	return chars;
}

void
fold_xml_escape(struct fold_out *out, const char *s, size_t n)
{
	fold_xml_escape_max(out, s, n, SIZE_MAX);
}

void
fold_xml_puts(struct fold_out *out, const char *s)
{
	fold_xml_escape_max(out, s, strlen(s), SIZE_MAX);
}

size_t
fold_xml_nchars(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, chars = 0, k;

	while (i < n) {
		if (s[i] < 0x80)
			k = 1;
		else if ((k = utf8_valid(s + i, n - i)) == 0)
			k = 1;
		i += k;
		chars++;
	}
	return chars;
}

char *
fold_xml_clean(const char *s, size_t n)
{
	/* U+FFFD is 3 bytes: each bad byte may grow to three */
	char *t = fold_reallocarray(NULL, n + 1, 3), *p = t;
	size_t i = 0, k;

	while (i < n) {
		if ((k = utf8_valid((const unsigned char *)s + i, n - i)) &&
		    s[i] != '\t') {
			memcpy(p, s + i, k);
			p += k;
			i += k;
		} else {
			memcpy(p, REPLACEMENT, 3);
			p += 3;
			i++;
		}
	}
	*p = '\0';
	return t;
}

void
fold_xml_comment(struct fold_out *out, const char *prefix, const char *s)
{
	size_t n = strlen(s), i, j;

	fold_out_puts(out, "<!-- ");
	fold_out_puts(out, prefix);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && s[j] != '-'; j++)
			;
		fold_xml_escape(out, s + i, j - i);
		if (j < n) {
			fold_out_puts(out, "- ");
			j++;
		}
	}
	fold_out_puts(out, " -->");
}

static int
namestart(int c)
{
	return fold_isalpha(c) || c == '_';
}

int
fold_xml_isname(const char *s)
{
	const char *p;

	if (!namestart(*s))
		return 0;
	for (p = s + 1; *p; p++)
		if (!(fold_isident(*p) || *p == '-' || *p == '.' || *p == ':'))
			return 0;
	return 1;
}
