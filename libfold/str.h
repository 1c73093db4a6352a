/*
 * Tests of a name s[0..n) (not NUL-terminated) against a NUL-terminated
 * piece p, as the readers and the palettes make them on frame names; and
 * the classes of ASCII bytes that the readers parse by.
 */
#ifndef FOLD_STR_H
#define FOLD_STR_H

#include <stddef.h>
#include <string.h>

/* 1 when s[0..n) begins with p. */
static inline int
fold_startswith(const char *s, size_t n, const char *p)
{
	size_t m = strlen(p);

	return n >= m && memcmp(s, p, m) == 0;
}

/* 1 when s[0..n) ends with p. */
static inline int
fold_endswith(const char *s, size_t n, const char *p)
{
	size_t m = strlen(p);

	return n >= m && memcmp(s + n - m, p, m) == 0;
}

/* 1 when p occurs in s[0..n). */
static inline int
fold_contains(const char *s, size_t n, const char *p)
{
	return memmem(s, n, p, strlen(p)) != NULL;
}

/*
 * The length of s[0..n) without its annotation: the "_[k]", "_[w]",
 * "_[i]" or "_[j]" that marks a kernel, waker, inlined or JIT frame
 * (perf --all, stackcollapse-chrome) for the palettes to colour by.
 */
static inline size_t
fold_unannotated(const char *s, size_t n)
{
	if (n >= 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
	    memchr("kwij", s[n - 2], 4))
		return n - 4;
	return n;
}

/*
 * Byte classes, as <ctype.h> has them in the C locale, whatever the
 * locale: an input's bytes mean the same everywhere, and a byte past
 * ASCII (a UTF-8 name) is in none of them. c is a byte's value or a
 * char, negative or not (no cast needed).
 */

/* '0' to '9'. */
static inline int
fold_isdigit(int c)
{
	return c >= '0' && c <= '9';
}

/* A hexadecimal digit: '0' to '9', 'a' to 'f', 'A' to 'F'. */
static inline int
fold_isxdigit(int c)
{
	return fold_isdigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* 'a' to 'z' and 'A' to 'Z'. */
static inline int
fold_isalpha(int c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* A letter or a digit. */
static inline int
fold_isalnum(int c)
{
	return fold_isalpha(c) || fold_isdigit(c);
}

/* A letter, a digit or '_': a byte of a C identifier. */
static inline int
fold_isident(int c)
{
	return fold_isalnum(c) || c == '_';
}

/*
 * Makes s[0..n) a name that a folded frame can hold, as the JSON readers
 * take names: ';' (which separates frames), the C0 controls (a newline
 * would end the line) and DEL become '_'.
 */
static inline void
fold_frame_clean(char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == ';' || (unsigned char)s[i] < ' ' || s[i] == 0x7f)
			s[i] = '_';
}

/* ' ' and '\t', as isblank(3). */
static inline int
fold_isblank(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * ' ', '\t', '\v', '\f' and '\r': isspace(3) but for the newline, which
 * ends a line and so is never inside one; what the readers trim lines
 * and split them at. (The compilers make these five tests one bit test.)
 */
static inline int
fold_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

#endif
