/*
 * Tests of a name s[0..n) (not NUL-terminated) against a NUL-terminated
 * piece p, as the readers and the palettes make them on frame names.
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

#endif
