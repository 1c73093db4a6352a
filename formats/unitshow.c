#include <stdio.h>
#include <string.h>

#include "libfold/unit.h"
#include "formats/unitshow.h"

static const struct step {
	const char *sym;
	double size;		/* in seconds or bytes */
} times[] = {
	{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
	{ NULL, 0 }
}, sizes[] = {
	{ "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
	{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
	{ "PiB", 1125899906842624.0 }, { "EiB", 1152921504606846976.0 },
	{ NULL, 0 }
};

/* The units that scale, by symbol. */
static const struct {
	const char *unit, *sym;
} symbols[] = {
	{ "nanoseconds", "ns" }, { "microseconds", "us" },
	{ "milliseconds", "ms" }, { "seconds", "s" }, { "bytes", "B" },
};

const char *
fold_unit_symbol(const char *unit)
{
	size_t i;

	if (!unit)
		return FOLD_UNIT_SAMPLES;
	for (i = 0; i < sizeof symbols / sizeof *symbols; i++)
		if (strcmp(unit, symbols[i].unit) == 0)
			return symbols[i].sym;
	return unit;
}

const char *
fold_unit_of_symbol(const char *s, size_t n, size_t *len)
{
	size_t i;

	for (i = 0; i < sizeof symbols / sizeof *symbols; i++)
		if (strlen(symbols[i].sym) == n &&
		    memcmp(s, symbols[i].sym, n) == 0) {
			*len = strlen(symbols[i].unit);
			return symbols[i].unit;
		}
	*len = n;
	return fold_unit_valid(s, n) ? s : NULL;
}

size_t
fold_unit_show(const struct fold_count *c, const char *unit, char *buf)
{
	const struct step *s;
	double x, v = 0;
	int kind, n;

	buf[0] = '\0';
	if ((x = fold_unit_scale(unit, &kind)) == 0)
		return 0;
	x *= fold_count_val(c);
	s = kind == 't' ? times : sizes;
	/* the largest step the value reaches, and the smallest for 0 */
	while (s[1].sym && x >= s[1].size * 0.9995)
		s++;
	v = x / s->size;
	if (v >= 999.5)		/* past the largest step: all digits */
		n = snprintf(buf, FOLD_UNIT_SHOWSZ, "%.0f %s", v, s->sym);
	else if (v != 0 && v < 0.01)
		n = snprintf(buf, FOLD_UNIT_SHOWSZ, "%.2g %s", v, s->sym);
	else
		n = snprintf(buf, FOLD_UNIT_SHOWSZ, "%.3g %s", v, s->sym);
	return n > 0 && n < FOLD_UNIT_SHOWSZ ? (size_t)n : 0;
}
