#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "err.h"
#include "str.h"

/* Quotes at most a few bytes of bad input in a message, safely. */
static const char *
excerpt(const char *s, size_t n, char *buf, size_t bufsz)
{
	size_t i, j = 0;

	for (i = 0; i < n && j + 5 < bufsz && i < 32; i++) {
		unsigned char c = s[i];
		if (c >= 0x20 && c < 0x7f)
			buf[j++] = c;
		else
			j += snprintf(buf + j, bufsz - j, "\\x%02x", c);
	}
	if (i < n && j + 4 < bufsz)
		j += snprintf(buf + j, bufsz - j, "...");
	buf[j] = '\0';
	return buf;
}

int
fold_count_parse(const char *s, size_t n, struct fold_count *c)
{
	char q[160], tmp[400];
	size_t i = 0, point = n;
	uint64_t u = 0;

	if (n == 0)
		return fold_seterr("missing count");
	for (i = 0; i < n; i++) {
		unsigned char ch = s[i];
		if (fold_isdigit(ch))
			continue;
		if (ch == '.' && point == n && i > 0 && i + 1 < n) {
			point = i;
			continue;
		}
		if ((ch == 'e' || ch == 'E') && i > 0 && point + 1 != i)
			return fold_seterr("exponent form not accepted: %s",
			    excerpt(s, n, q, sizeof q));
		return fold_seterr("count is not a number: %s",
		    excerpt(s, n, q, sizeof q));
	}
	if (point == n) {
		for (i = 0; i < n; i++) {
			unsigned d = s[i] - '0';
			if (u > (UINT64_MAX - d) / 10)
				return fold_seterr("count out of range: %s",
				    excerpt(s, n, q, sizeof q));
			u = u * 10 + d;
		}
		*c = fold_count_u64(u);
		return 0;
	}
	if (n >= sizeof tmp)
		return fold_seterr("count out of range: %s",
		    excerpt(s, n, q, sizeof q));
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	double d = strtod(tmp, NULL);
	if (!isfinite(d))
		return fold_seterr("count out of range: %s",
		    excerpt(s, n, q, sizeof q));
	*c = fold_count_double(d);
	return 0;
}

int
fold_count_add(struct fold_count *acc, const struct fold_count *c)
{
	if (!acc->frac && !c->frac) {
		if (acc->v.u > UINT64_MAX - c->v.u)
			return fold_seterr("count overflow: sum passes %llu",
			    (unsigned long long)UINT64_MAX);
		acc->v.u += c->v.u;
		return 0;
	}
	double d = fold_count_val(acc) + fold_count_val(c);
	if (!isfinite(d))
		return fold_seterr("count overflow: sum is not finite");
	*acc = fold_count_double(d);
	return 0;
}

int
fold_count_scale(struct fold_count *c, double factor)
{
	if (factor == 1)
		return 0;
	if (!c->frac && factor == floor(factor) && factor < 0x1p64) {
		uint64_t f = (uint64_t)factor;
		if (f && c->v.u > UINT64_MAX / f)
			return fold_seterr("count overflow: %llu times %llu",
			    (unsigned long long)c->v.u, (unsigned long long)f);
		c->v.u *= f;
		return 0;
	}
	double d = fold_count_val(c) * factor;
	if (!isfinite(d))
		return fold_seterr("count overflow: scaled count is not finite");
	*c = fold_count_double(d);
	return 0;
}

int
fold_count_cmp(const struct fold_count *a, const struct fold_count *b)
{
	if (!a->frac && !b->frac)
		return (a->v.u > b->v.u) - (a->v.u < b->v.u);
	/* compare exactly when one side is an integer beyond 2^53 */
	double x = fold_count_val(a), y = fold_count_val(b);
	return (x > y) - (x < y);
}

static size_t
fmt_u64(uint64_t u, char *buf)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = '0' + u % 10;
		u /= 10;
	} while (u);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

/*
 * Shortest round-trip digits come from "%.*e" with the smallest precision
 * that reads back to the same double; they are then written out in plain
 * positional form, since an exponent would not be a valid count.
 */
static size_t
fmt_double(double d, char *buf)
{
	char e[40], digits[24];
	int prec, exp10, nd = 0, i;
	size_t n = 0;

	if (d == 0) {
		strcpy(buf, "0");
		return 1;
	}
	for (prec = 0; prec < 17; prec++) {
		snprintf(e, sizeof e, "%.*e", prec, d);
		if (strtod(e, NULL) == d)
			break;
	}
	snprintf(e, sizeof e, "%.*e", prec, d);
	/* e is "D.DDDDe[+-]XX" */
	char *p = e;
	while (*p && *p != 'e') {
		if (fold_isdigit(*p))
			digits[nd++] = *p;
		p++;
	}
	exp10 = atoi(p + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	/* the value is 0.digits * 10^(exp10+1) */
	int intlen = exp10 + 1;
	if (intlen <= 0) {
		buf[n++] = '0';
		buf[n++] = '.';
		for (i = 0; i < -intlen; i++)
			buf[n++] = '0';
		for (i = 0; i < nd; i++)
			buf[n++] = digits[i];
	} else {
		for (i = 0; i < intlen; i++)
			buf[n++] = i < nd ? digits[i] : '0';
		if (nd > intlen) {
			buf[n++] = '.';
			for (i = intlen; i < nd; i++)
				buf[n++] = digits[i];
		} else if (d >= 0x1p64) {
			/* too large for an integer count: keep it a fraction */
			buf[n++] = '.';
			buf[n++] = '0';
		}
	}
	buf[n] = '\0';
	return n;
}

size_t
fold_count_fmt(const struct fold_count *c, char *buf)
{
	return c->frac ? fmt_double(c->v.d, buf) : fmt_u64(c->v.u, buf);
}

size_t
fold_count_fmt_grouped(const struct fold_count *c, char *buf)
{
	char plain[FOLD_COUNT_BUFSZ];
	size_t n = fold_count_fmt(c, plain), intlen, i, j = 0;
	const char *point = memchr(plain, '.', n);

	intlen = point ? (size_t)(point - plain) : n;
	for (i = 0; i < intlen; i++) {
		if (i && (intlen - i) % 3 == 0 && j < FOLD_COUNT_BUFSZ - 2)
			buf[j++] = ',';
		if (j < FOLD_COUNT_BUFSZ - 1)
			buf[j++] = plain[i];
	}
	for (; i < n && j < FOLD_COUNT_BUFSZ - 1; i++)
		buf[j++] = plain[i];
	buf[j] = '\0';
	return j;
}

/*
 * The rounding error of x, the product a * b rounded: a * b - x, exact
 * (Dekker's product, each factor split in halves of 26 bits), where the
 * product neither overflows nor underflows. fma(a, b, -x) would give it,
 * but from libm, which a tool loads at each start (0.05 ms) for it only.
 * Expressions are not contracted into fused operations in ISO C mode.
 */
static double
product_error(double a, double b, double x)
{
	const double split = 134217729.0;	/* 2^27 + 1 */
	double t, ah, al, bh, bl;

	t = split * a;
	ah = t - (t - a);
	al = a - ah;
	t = split * b;
	bh = t - (t - b);
	bl = b - bh;
	return ((ah * bh - x) + ah * bl + al * bh) + al * bl;
}

size_t
fold_fixed_fmt(double v, int d, char *buf)
{
	static const double scale[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
	    1e7, 1e8, 1e9 };
	char tmp[24];
	double a = fabs(v), x, err, q;
	uint64_t u;
	size_t n = 0;
	int i = 24;

	if (d < 0 || d > 9 || !(a * scale[d] < 0x1p52))
		return (size_t)snprintf(buf, FOLD_COUNT_BUFSZ, "%.*f", d, v);
	/*
	 * printf rounds the exact value of v times 10^d to the nearest
	 * integer, halves to even. x, the nearest double to that product,
	 * rounds the same way unless it is itself a half (k + 0.5 is a
	 * double here, so the product and x are on the same side of any
	 * other half); then the product's rounding error tells which side
	 * the product is on. Such an x is at least 0.5: no underflow.
	 */
	x = a * scale[d];
	err = product_error(a, scale[d], x);
	q = floor(x);
	if (x - q > 0.5 || (x - q == 0.5 && (err > 0 ||
	    (err == 0 && ((uint64_t)q & 1)))))
		q++;
	u = (uint64_t)q;
	do {
		tmp[--i] = '0' + u % 10;
		u /= 10;
		if (--d == 0)
			tmp[--i] = '.';
	} while (u || d >= 0);
	if (signbit(v))
		buf[n++] = '-';
	memcpy(buf + n, tmp + i, 24 - i);
	n += 24 - i;
	buf[n] = '\0';
	return n;
}
