/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_MEDIAN_H
#define IOBENCH_MEDIAN_H

#include <stddef.h>

/* qsort's comparison of two doubles, ascending (util/median.c). */
int ib_cmp_double(const void *a, const void *b);

/*
 * The median of v[0..n) (the mean of the middle two when n is even),
 * sorting v in place; n must be at least 1.
 */
double ib_median_sort(double *v, size_t n);

#endif
