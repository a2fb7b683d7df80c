// SPDX-License-Identifier: GPL-2.0-only
/*
 * Student's t distribution for the compare noise test (compare.h): the
 * two-sided p-value through the regularized incomplete beta function
 * (continued fraction, modified Lentz), and its inverse by bisection.
 */
#include <math.h>
#include "iobench/compare.h"

#define CF_ITER 300
#define CF_EPS 1e-14
#define CF_TINY 1e-300

static double fix_tiny(double v)
{
	return fabs(v) < CF_TINY ? CF_TINY : v;
}

/* The continued fraction of I_x(a, b), for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, dd = 1.0 / fix_tiny(1.0 - (a + b) * x / (a + 1.0));
	double h = dd, num, del;
	int m;

	for (m = 1; m <= CF_ITER; m++) {
		num = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
		dd = 1.0 / fix_tiny(1.0 + num * dd);
		c = fix_tiny(1.0 + num / c);
		h *= dd * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
		dd = 1.0 / fix_tiny(1.0 + num * dd);
		c = fix_tiny(1.0 + num / c);
		del = dd * c;
		h *= del;
		if (fabs(del - 1.0) < CF_EPS)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b), 0 <= x <= 1. */
static double inc_beta(double a, double b, double x)
{
	double lf;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	lf = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lf) * beta_cf(a, b, x) / a;
	return 1.0 - exp(lf) * beta_cf(b, a, 1.0 - x) / b;
}

double ib_cmp_t_p(double t, double df)
{
	if (!(df > 0.0) || !isfinite(t))
		return isfinite(t) ? 1.0 : 0.0;
	return inc_beta(df / 2.0, 0.5, df / (df + t * t));
}

double ib_cmp_t_crit(double alpha, double df)
{
	double lo = 0.0, hi = 1e6, mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2.0;
		if (ib_cmp_t_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}
