// SPDX-License-Identifier: GPL-2.0-only
/* The median of a series of doubles, for the report layer's summaries. */
#include <stdlib.h>
#include "iobench/median.h"

int ib_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double ib_median_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), ib_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
