/*
 * The SVG format told from its first bytes, apart from its reader: the
 * other converters name it in their messages without linking libxml2.
 */
#include <string.h>

#include "formats/svgread.h"

/* s[0..n) holds the NUL-terminated word w. */
static int
has(const char *s, size_t n, const char *w)
{
	return memmem(s, n, w, strlen(w)) != NULL;
}

static int
starts(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - s) >= n && memcmp(s, w, n) == 0;
}

int
svgread_detect(const char *head, size_t n, int eof)
{
	const char *s = head, *e = head + n;

	if (e - s >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	if (!starts(s, e, "<?xml") && !starts(s, e, "<!--") &&
	    !starts(s, e, "<!DOCTYPE") && !starts(s, e, "<svg"))
		return 0;
	if (!has(s, e - s, "<svg"))
		return 0;
	if (has(s, e - s, "%)</title>") || has(s, e - s, "func_g") ||
	    has(s, e - s, "fg:x=\""))
		return 2;
	return 1;
}

const struct format_id svgread_id = {
	.name = "svg",
	.tool = "svg2folded",
	.what = "flame graph SVGs (flamegraph.pl, inferno, flamegraph-svg)",
	.input = "a flame graph SVG",
	.detect = svgread_detect,
};
