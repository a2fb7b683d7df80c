/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_HIST_H
#define IOBENCH_HIST_H

#include <stdint.h>

/*
 * Log-linear latency histogram, bucket-compatible with fio's "plat" layout.
 *
 * Values are nanoseconds. With M = IB_HIST_BITS = 6 each group of 64 buckets
 * covers one power of two: group 0 holds 0..63 exactly, group 1 holds 64..127
 * exactly, and group g >= 2 covers [2^(g+5), 2^(g+6)) in 64 steps of 2^(g-1).
 * The relative error of a bucket's representative value (its midpoint) is at
 * most 1/2^(M+1) = 0.78%, whatever the magnitude.
 *
 * Index of a value v with highest set bit msb:
 *   msb <= M        -> v itself
 *   otherwise e = msb - M, index = (e + 1) * 64 + ((v >> e) & 63)
 * Representative value of index i >= 128:
 *   e = (i >> 6) - 1, 2^(e+M) + (i % 64 + 0.5) * 2^e, truncated.
 *
 * The bucket indices and values are fio's for every value fio can hold, so
 * percentiles and json+ "bins" mean the same thing. Unlike fio (29 groups,
 * clamping everything above 2^34 ns = 17.2 s into its last bucket) we keep
 * 38 groups: values up to 2^43 ns (2.4 hours) land in their true bucket, and
 * only larger ones are clamped.
 */
#define IB_HIST_BITS 6
#define IB_HIST_VAL (1u << IB_HIST_BITS)
#define IB_HIST_GROUPS 38
#define IB_HIST_NR (IB_HIST_GROUPS * IB_HIST_VAL)

struct ib_hist {
	uint64_t count[IB_HIST_NR];
};

/*
 * The index above without a branch: v >> e keeps the top bit (64 + the
 * 6 bits below it), so (e + 1) * 64 + ((v >> e) & 63) = e * 64 + (v >> e);
 * and v | 127 has msb 6 (e = 0, index v) for every v < 128.
 */
static inline unsigned int ib_hist_index(uint64_t v)
{
	unsigned int msb = 63u - (unsigned int)__builtin_clzll(v | (2 * IB_HIST_VAL - 1));
	unsigned int e = msb - IB_HIST_BITS;
	unsigned int idx = e * IB_HIST_VAL + (unsigned int)(v >> e);

	return idx < IB_HIST_NR ? idx : IB_HIST_NR - 1;
}

/* Representative (midpoint) value of bucket idx, in ns. */
uint64_t ib_hist_value(unsigned int idx);

static inline void ib_hist_add_n(struct ib_hist *h, uint64_t v, uint64_t c)
{
	h->count[ib_hist_index(v)] += c;
}

static inline void ib_hist_add(struct ib_hist *h, uint64_t v)
{
	ib_hist_add_n(h, v, 1);
}

/* dst += src, bucket by bucket (exact merge). */
void ib_hist_merge(struct ib_hist *dst, const struct ib_hist *src);

/*
 * Fill out[i] with the value of percentile pct[i] (sorted ascending, 0..100)
 * over the n samples in h, fio's way: walk buckets upward keeping a running
 * total; each percentile takes the first bucket where total >= pct/100 * n.
 * Returns 0, or -ENODATA when n == 0.
 */
int ib_hist_percentiles(const struct ib_hist *h, uint64_t n, const double *pct,
			unsigned int nr, uint64_t *out);

#endif
