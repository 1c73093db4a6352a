#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

static _Thread_local char msg[1024];

int
fold_seterr(const char *fmt, ...)
{
	char tmp[sizeof msg];
	va_list ap;

	/* through tmp: callers may pass fold_err() itself as an argument */
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	memcpy(msg, tmp, sizeof msg);
	return -1;
}

const char *
fold_err(void)
{
	return msg;
}

static void (*oom_handler)(void) = abort;

void
fold_set_oom_handler(void (*handler)(void))
{
	oom_handler = handler ? handler : abort;
}

static void *
check(void *p)
{
	if (p == NULL) {
		oom_handler();
		abort();	/* a handler must not return */
	}
	return p;
}

void *
fold_malloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *
fold_calloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *
fold_realloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

void *
fold_reallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		return check(NULL);
	return fold_realloc(p, nmemb * size);
}

void *
fold_grow_to(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if (need <= *cap)
		return p;
	n = *cap ? *cap : 32;
	n = n > SIZE_MAX / 2 ? SIZE_MAX : 2 * n;
	if (n < need)
		n = need;
	p = fold_reallocarray(p, n, size);
	*cap = n;
	return p;
}

char *
fold_strndup(const char *s, size_t n)
{
	char *p = fold_malloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
fold_strdup(const char *s)
{
	return fold_strndup(s, strlen(s));
}
