/*
 * Exact sample counts.
 *
 * A count is a non-negative number held in one of two representations:
 *
 *   - an unsigned 64-bit integer (frac == 0). Sums of integers are exact;
 *     a sum that would pass 2^64-1 is an error, never a wrap.
 *   - an IEEE 754 double (frac == 1), as soon as a fractional value takes
 *     part (a count written "0.25" in the input, or a scaled count). Such
 *     sums carry double precision (53 bits), and integers above 2^53 that
 *     meet a fraction are rounded to the nearest double.
 *
 * Counts print as plain decimals: integers as integers, doubles in the
 * shortest form that reads back to the same double, never in exponent
 * form ("0.1", "12.5", "1" for 1.0; ".0" is added from 2^64 on, where an
 * integer count would be out of range), so that every printed count is
 * again a valid folded count.
 */
#ifndef FOLD_COUNT_H
#define FOLD_COUNT_H

#include <stddef.h>
#include <stdint.h>

struct fold_count {
	union {
		uint64_t u;	/* when frac == 0 */
		double d;	/* when frac == 1 */
	} v;
	unsigned char frac;
};

#define FOLD_COUNT_INIT { 0 }

/* Enough for any count printed by fold_count_fmt(), with the NUL. */
#define FOLD_COUNT_BUFSZ 400

static inline struct fold_count
fold_count_u64(uint64_t u)
{
	struct fold_count c = FOLD_COUNT_INIT;
	c.v.u = u;
	return c;
}

/* d must be finite and >= 0 */
static inline struct fold_count
fold_count_double(double d)
{
	struct fold_count c = FOLD_COUNT_INIT;
	c.v.d = d;
	c.frac = 1;
	return c;
}

/* The value as a double (exact for integers up to 2^53). */
static inline double
fold_count_val(const struct fold_count *c)
{
	return c->frac ? c->v.d : (double)c->v.u;
}

static inline int
fold_count_iszero(const struct fold_count *c)
{
	return c->frac ? c->v.d == 0 : c->v.u == 0;
}

/*
 * Parses s[0..n) as a count: digits ("12") or digits, a point and digits
 * ("0.25"). Anything else (sign, exponent, hex, "inf", spaces) is refused.
 * Returns 0, or -1 with a message ("count is not a number: ...",
 * "count out of range: ...", "exponent form not accepted: ...").
 */
int fold_count_parse(const char *s, size_t n, struct fold_count *c);

/*
 * acc += c. Returns 0, or -1 with a message when an integer sum would
 * overflow (acc is then unchanged).
 */
int fold_count_add(struct fold_count *acc, const struct fold_count *c);

/*
 * c *= factor (finite, >= 0). An integer count times an integral factor
 * stays an exact integer (-1 with a message on overflow); otherwise the
 * result is a double.
 */
int fold_count_scale(struct fold_count *c, double factor);

/* Compares by value: <0, 0, >0. */
int fold_count_cmp(const struct fold_count *a, const struct fold_count *b);

/*
 * Writes c to buf (FOLD_COUNT_BUFSZ bytes) as a plain decimal, NUL
 * terminated, and returns its length.
 */
size_t fold_count_fmt(const struct fold_count *c, char *buf);

/*
 * Writes n with thousands separators ("1,234,567.5") for display.
 * Returns the length; buf holds FOLD_COUNT_BUFSZ bytes.
 */
size_t fold_count_fmt_grouped(const struct fold_count *c, char *buf);

/*
 * Writes v with exactly d decimals (0 <= d <= 9) to buf (FOLD_COUNT_BUFSZ
 * bytes), byte for byte as printf's "%.*f" does, NUL terminated, and
 * returns its length. A renderer writes a few numbers for every frame it
 * draws; done here they cost a tenth of printf's.
 */
size_t fold_fixed_fmt(double v, int d, char *buf);

#endif
