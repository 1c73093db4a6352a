/*
 * CSV records, as profilers export them (VTune, Visual Studio): one
 * record a line, fields split at a delimiter, a field quoted ("...") when
 * it holds the delimiter or a quote ("" inside stands for one). Blanks in
 * front of a field are counted apart, since VTune indents its call tree
 * there, in front of the opening quote. A quoted field never spans lines:
 * no profiler writes a newline in a function name.
 */
#ifndef FORMATS_CSV_H
#define FORMATS_CSV_H

#include <stddef.h>

struct csv_field {
	const char *s;		/* the text, unquoted */
	size_t n;
	size_t lead;		/* blanks before it */
};

/*
 * Splits the line s[0..n) at delim into at most max fields (the rest of
 * the line is ignored). Fields that need unescaping are copied into buf
 * (at least n bytes); the others point into s. Returns the number of
 * fields, or -1 when a quote is not closed or text follows a closing
 * quote.
 */
int csv_split(const char *s, size_t n, int delim, struct csv_field *f,
    int max, char *buf);

/* The byte order mark that Windows tools put in front of UTF-8 text. */
#define CSV_BOM "\xef\xbb\xbf"

/* s[0..*n) without a leading byte order mark. */
const char *csv_skip_bom(const char *s, size_t *n);

/*
 * The index of the field named name among f[0..nf), or -1. Names are
 * compared whole, blanks around them ignored.
 */
int csv_column(const struct csv_field *f, int nf, const char *name);

#endif
