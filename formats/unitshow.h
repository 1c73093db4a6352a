/*
 * A count shown as people read it in its unit (libfold/unit.h): a time
 * or a size scaled to three significant digits, as pprof shows them
 * ("3.28 s", "120 ms", "1.2 GiB", "512 B"); a count of anything else as
 * the number it is.
 */
#ifndef FORMATS_UNITSHOW_H
#define FORMATS_UNITSHOW_H

#include <stddef.h>

#include "libfold/count.h"

/* Room for any text fold_unit_show writes, its NUL included. */
#define FOLD_UNIT_SHOWSZ 48

/*
 * Writes c in unit (NULL: samples) to buf (FOLD_UNIT_SHOWSZ bytes) and
 * returns its length: scaled with its symbol for a time or a size, else
 * fold_count_fmt's digits alone. Returns 0 and writes nothing but the
 * NUL when the unit does not scale (so a caller can fall back).
 */
size_t fold_unit_show(const struct fold_count *c, const char *unit,
    char *buf);

/*
 * The word a count of unit is written with, exact, in a flame graph's
 * titles: a time's or size's symbol ("ns", "B"), any other unit's name,
 * "samples" for NULL.
 */
const char *fold_unit_symbol(const char *unit);

/*
 * The unit whose symbol or name is s[0..n) ("ms": "milliseconds"), what
 * a graph's titles name, its length in *len: NULL when it is no unit
 * name.
 */
const char *fold_unit_of_symbol(const char *s, size_t n, size_t *len);

#endif
