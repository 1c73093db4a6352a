#include <string.h>

#include "err.h"
#include "str.h"
#include "unit.h"

#define PREFIX "# unit="

int
fold_unit_valid(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > FOLD_UNIT_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!fold_isalnum(s[i]) && !strchr("_-./", s[i]))
			return 0;
	return 1;
}

int
fold_unit_line(const char *s, size_t n, const char **unit, size_t *len)
{
	if (!fold_startswith(s, n, PREFIX) || memchr(s, ';', n))
		return 0;
	s += strlen(PREFIX);
	n -= strlen(PREFIX);
	if (!fold_unit_valid(s, n))
		return fold_seterr("not a unit name: '%.*s'",
		    (int)(n > FOLD_UNIT_MAX ? FOLD_UNIT_MAX : n), s);
	*unit = s;
	*len = n;
	return 1;
}

int
fold_unit_take(char *unit, const char *s, size_t n)
{
	const char *u;
	size_t len;
	int k = fold_unit_line(s, n, &u, &len);

	if (k <= 0)
		return k;
	if (unit[0] && (strlen(unit) != len || memcmp(unit, u, len) != 0))
		return fold_seterr("a second unit line, '%.*s' after '%s'",
		    (int)len, u, unit);
	memcpy(unit, u, len);
	unit[len] = '\0';
	return 1;
}

void
fold_unit_out_init(struct fold_unit_out *u, const char *unit, int ncols)
{
	size_t n = unit ? strlen(unit) : 0;

	u->len = 0;
	u->ncols = ncols;
	if (n == 0 || n > FOLD_UNIT_MAX || strcmp(unit, FOLD_UNIT_SAMPLES) == 0)
		return;
	memcpy(u->text, PREFIX, strlen(PREFIX));
	memcpy(u->text + strlen(PREFIX), unit, n);
	u->len = strlen(PREFIX) + n;
}

int
fold_unit_out_due(const struct fold_unit_out *u, const char *s, size_t n)
{
	int d;

	if (u->len == 0)
		return 0;
	d = memcmp(u->text, s, u->len < n ? u->len : n);
	return d < 0 || (d == 0 && u->len <= n);
}

void
fold_unit_out_before(struct fold_unit_out *u, struct fold_out *out,
    const char *s, size_t n)
{
	if (fold_unit_out_due(u, s, n))
		fold_unit_out_end(u, out);
}

void
fold_unit_out_end(struct fold_unit_out *u, struct fold_out *out)
{
	if (u->len == 0)
		return;
	fold_out_write(out, u->text, u->len);
	fold_out_puts(out, u->ncols > 1 ? " 0 0\n" : " 0\n");
	u->len = 0;
}

double
fold_unit_scale(const char *unit, int *kind)
{
	static const struct {
		const char *name;
		int kind;
		double scale;
	} units[] = {
		{ "nanoseconds", 't', 1e-9 },
		{ "microseconds", 't', 1e-6 },
		{ "milliseconds", 't', 1e-3 },
		{ "seconds", 't', 1 },
		{ "bytes", 'b', 1 },
	};
	size_t i;

	for (i = 0; unit && i < sizeof units / sizeof *units; i++)
		if (strcmp(unit, units[i].name) == 0) {
			*kind = units[i].kind;
			return units[i].scale;
		}
	*kind = 0;
	return 0;
}
