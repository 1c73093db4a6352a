/*
 * Untrusted bytes as XML (and HTML) text.
 *
 * Frame names, titles, notes and paths come from the input and may hold
 * any bytes. What these functions write is well-formed in element text
 * and in quoted attributes of XML, XHTML and HTML alike: the markup
 * characters & < > " ' are escaped, and what XML does not allow (control
 * characters, DEL, U+FFFE, U+FFFF, bytes that are not valid UTF-8) is
 * replaced by U+FFFD. A tab is replaced too, since an attribute value
 * would turn it into a space. Each replaced byte counts as one
 * character.
 *
 *	fold_xml_escape(out, name, len);
 *	fold_xml_puts(out, title);
 */
#ifndef FORMATS_XML_H
#define FORMATS_XML_H

#include <stddef.h>

#include "libfold/output.h"

/* Writes s[0..n) escaped and cleaned, as text or attribute value. */
void fold_xml_escape(struct fold_out *out, const char *s, size_t n);

/* fold_xml_escape of the NUL-terminated string s. */
void fold_xml_puts(struct fold_out *out, const char *s);

/*
 * Writes at most max characters of s[0..n) as fold_xml_escape would (a
 * label cut to fit its box). Returns how many characters it wrote.
 */
size_t fold_xml_escape_max(struct fold_out *out, const char *s, size_t n,
    size_t max);

/* How many characters s[0..n) is, as fold_xml_escape_max counts them. */
size_t fold_xml_nchars(const char *s, size_t n);

/*
 * s[0..n) with what fold_xml_escape replaces by U+FFFD so replaced, and
 * nothing escaped: valid UTF-8 made of XML characters only, for writers
 * that escape markup themselves. A new NUL-terminated string (the caller
 * frees it).
 */
char *fold_xml_clean(const char *s, size_t n);

/*
 * Writes "<!-- " prefix s " -->": prefix as it is (trusted, without
 * "--"), s escaped with each '-' followed by a space, since a comment
 * may not hold "--" nor end in '-'.
 */
void fold_xml_comment(struct fold_out *out, const char *prefix,
    const char *s);

/*
 * Whether s is an XML attribute name of ASCII letters, digits and _ - . :
 * (not starting with a digit, '-', '.' or ':'), safe to write unquoted
 * as a name.
 */
int fold_xml_isname(const char *s);

#endif
