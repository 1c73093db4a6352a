#include <stdarg.h>
#include <stdio.h>

#include "diag.h"
#include "err.h"

int
fold_warn(struct fold_diag *d, const char *file, uint64_t line,
    const char *fmt, ...)
{
	char text[768], msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (line)
		snprintf(msg, sizeof msg, "%s:%llu: %s", file,
		    (unsigned long long)line, text);
	else
		snprintf(msg, sizeof msg, "%s: %s", file, text);
	d->count++;
	if (d->strict)
		return fold_seterr("%s", msg);
	if (d->report && d->count <= d->limit)
		d->report(d->arg, msg);
	return 0;
}
