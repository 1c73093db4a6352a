#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "stats.h"

/* Outcomes whose probability is within this factor of the observed one
   count as equally likely (rounding in the log-probabilities). */
#define REL_TIE (1 + 1e-7)

static double
lchoose(double n, double k)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

static double
normal_p(double x, double mean, double var)
{
	double z;

	if (var <= 0)
		return x == mean ? 1 : 0;
	z = fabs(x - mean) - 0.5;
	if (z <= 0)
		return 1;
	return erfc(z / sqrt(2 * var));
}

/*
 * Sums the probabilities of the outcomes lo..hi at most as likely as the
 * observed one. lp0 is the log-probability of lo; step(a, k) is
 * log(P(k+1)/P(k)). Terms are taken relative to the observed one, so that
 * tiny probabilities do not underflow before they must.
 */
static double
exact_p(double (*step)(const double *a, double k), const double *a, double lo,
    double hi, double lp0, double obs)
{
	double *l, lobs, sum = 0, k;
	size_t i, n = (size_t)(hi - lo) + 1;

	/* past 2^53 the sums that bound lo..hi are rounded: obs may fall
	   just outside them, where it cannot be */
	if (obs < lo)
		obs = lo;
	if (obs > hi)
		obs = hi;
	l = fold_reallocarray(NULL, n, sizeof *l);
	l[0] = lp0;
	for (i = 1, k = lo; i < n; i++, k++)
		l[i] = l[i - 1] + step(a, k);
	lobs = l[(size_t)(obs - lo)];
	for (i = 0; i < n; i++)
		if (l[i] <= lobs + log(REL_TIE))
			sum += exp(l[i] - lobs);
	free(l);
	sum *= exp(lobs);
	return sum > 1 ? 1 : sum;
}

/* a: m (successes in all), n1, n2; x2 = k is hypergeometric */
static double
hyper_step(const double *a, double k)
{
	return log((a[0] - k) * (a[2] - k)) -
	    log((k + 1) * (a[1] - a[0] + k + 1));
}

double
fold_share_p(double x1, double n1, double x2, double n2)
{
	double a[3], m, n, lo, hi, mean, var;

	x1 = round(x1), x2 = round(x2), n1 = round(n1), n2 = round(n2);
	if (x1 > n1)
		x1 = n1;
	if (x2 > n2)
		x2 = n2;
	m = x1 + x2;
	n = n1 + n2;
	if (n1 <= 0 || n2 <= 0 || m <= 0 || m >= n)
		return 1;
	lo = m - n1 > 0 ? m - n1 : 0;
	hi = m < n2 ? m : n2;
	if (hi - lo <= FOLD_EXACT_MAX) {
		a[0] = m, a[1] = n1, a[2] = n2;
		return exact_p(hyper_step, a, lo, hi, lchoose(m, lo) +
		    lchoose(n - m, n2 - lo) - lchoose(n, n2), x2);
	}
	mean = m * n2 / n;
	var = mean * (n1 / n) * (n - m) / (n - 1);
	return normal_p(x2, mean, var);
}

/* a: m, q; x2 = k is binomial */
static double
binom_step(const double *a, double k)
{
	return log((a[0] - k) / (k + 1)) + log(a[1]) - log1p(-a[1]);
}

double
fold_rate_p(double x1, double u1, double x2, double u2)
{
	double a[2], m, q;

	x1 = round(x1), x2 = round(x2);
	m = x1 + x2;
	if (m <= 0 || u1 <= 0 || u2 <= 0)
		return 1;
	q = u2 / (u1 + u2);
	if (m <= FOLD_EXACT_MAX) {
		a[0] = m, a[1] = q;
		return exact_p(binom_step, a, 0, m, m * log1p(-q), x2);
	}
	return normal_p(x2, m * q, m * q * (1 - q));
}

struct pidx {
	double p;
	size_t i;
};

static int
cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

void
fold_bh(const double *p, double *q, size_t n)
{
	struct pidx *s;
	double min = 1, v;
	size_t k;

	if (n == 0)
		return;
	s = fold_reallocarray(NULL, n, sizeof *s);
	for (k = 0; k < n; k++)
		s[k].p = p[k], s[k].i = k;
	qsort(s, n, sizeof *s, cmp_pidx);
	for (k = n; k-- > 0;) {
		v = s[k].p * (double)n / (double)(k + 1);
		if (v < min)
			min = v;
		q[s[k].i] = min;
	}
	free(s);
}
