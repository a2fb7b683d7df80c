// SPDX-License-Identifier: GPL-2.0-only
/*
 * Log-linear histogram helpers (the layout is explained in hist.h).
 */
#include <errno.h>
#include "iobench/hist.h"

uint64_t ib_hist_value(unsigned int idx)
{
	unsigned int e, k;

	if (idx < 2 * IB_HIST_VAL)
		return idx;
	if (idx >= IB_HIST_NR)
		idx = IB_HIST_NR - 1;
	e = (idx >> IB_HIST_BITS) - 1;
	k = idx & (IB_HIST_VAL - 1);
	/* 2^(e+M) + (k + 0.5) * 2^e; e >= 1 here, so the half step is exact */
	return (1ull << (e + IB_HIST_BITS)) + ((uint64_t)k << e) + (1ull << (e - 1));
}

void ib_hist_merge(struct ib_hist *dst, const struct ib_hist *src)
{
	unsigned int i;

	for (i = 0; i < IB_HIST_NR; i++)
		dst->count[i] += src->count[i];
}

int ib_hist_percentiles(const struct ib_hist *h, uint64_t n, const double *pct,
			unsigned int nr, uint64_t *out)
{
	unsigned int i, j = 0;
	uint64_t sum = 0;

	if (n == 0)
		return -ENODATA;
	for (i = 0; i < IB_HIST_NR && j < nr; i++) {
		sum += h->count[i];
		while (j < nr && (double)sum >= pct[j] / 100.0 * (double)n)
			out[j++] = ib_hist_value(i);
	}
	/* fewer counts than n (should not happen): the rest take the top */
	for (; j < nr; j++)
		out[j] = ib_hist_value(IB_HIST_NR - 1);
	return 0;
}
