/*
 * Significance tests for sampled profiles.
 *
 * A sampling profiler charges each sample to one stack, so a function's
 * count is a number of successes among the profile's samples. These tests
 * ask whether a function's count changed between two profiles more than
 * sampling alone explains. Counts are numbers of samples (divide
 * period-weighted counts by the period first); they are rounded to whole
 * samples here.
 *
 * Each test is exact while the number of outcomes it sums over is at most
 * FOLD_EXACT_MAX, and uses the normal approximation (with a continuity
 * correction) beyond, where the two agree closely.
 */
#ifndef FOLD_STATS_H
#define FOLD_STATS_H

#include <stddef.h>

#define FOLD_EXACT_MAX 20000

/*
 * Two-sided p-value that the share x1/n1 before equals the share x2/n2
 * after: Fisher's exact test of the 2x2 table (x1, n1-x1; x2, n2-x2),
 * that is conditional on the function's total x1+x2, under which x2 is
 * hypergeometric. Returns 1 when there is nothing to test (n1 or n2 is 0,
 * or x1+x2 is 0 or all samples). Requires 0 <= x <= n.
 */
double fold_share_p(double x1, double n1, double x2, double n2);

/*
 * Two-sided p-value that the rate per unit of work x1/u1 before equals
 * x2/u2 after, the counts being Poisson: conditional on x1+x2, x2 is
 * binomial with probability u2/(u1+u2). Returns 1 when x1+x2 is 0.
 * u1 and u2 must be above 0.
 */
double fold_rate_p(double x1, double u1, double x2, double u2);

/*
 * Benjamini-Hochberg adjusted p-values ("q-values") of p[0..n) into
 * q[0..n) (q may be p): rejecting every hypothesis with q <= alpha keeps
 * the expected share of false discoveries among them at most alpha.
 */
void fold_bh(const double *p, double *q, size_t n);

#endif
