// SPDX-License-Identifier: GPL-2.0-only
/*
 * The offset generator's block lengths for a job of several sizes (bsrange,
 * bs=MIN-MAX, bssplit), fio's: one taus88 stream per direction
 * (iogen_init.c seeds them as fio does), one draw per I/O; a length that
 * does not fit the region's rest walks on to one that does, then is drawn
 * again (doc/fio-compat.md, "Block sizes").
 */
#include "iobench/bssplit.h"
#include "iogen_priv.h"

/*
 * The length of draw r in direction d, at most limit where it can: fio's
 * walk of a split (the first entry in its order whose running share
 * reaches the draw and that fits, else its last), or its range (min plus
 * a uniform part of max, a multiple of min unless bs_unaligned, at most
 * max: bsrange=4k-10k gives 4k 40%, 8k 40%, 10k 20%).
 */
static uint64_t len_of(const struct ib_job *job, enum ib_ddir d, uint32_t r,
		       uint64_t limit)
{
	uint64_t min = job->bs.min[d], max = job->bs.max[d], len;

	if (job->bssplit[d].nr)
		return ib_bssplit_pick_fit(&job->bssplit[d],
					   (uint32_t)(((uint64_t)r * IB_BSSPLIT_SCALE) >> 32) + 1,
					   limit);
	len = min + (((uint64_t)r * max) >> 32);
	if (!job->bs_unaligned)
		len -= len % min;
	return len < max ? len : max;
}

uint64_t iogen_len_draw(struct ib_iogen *g, enum ib_ddir d)
{
	g->bs_r[d] = ib_rand32(&g->bs_rand[d]);
	return len_of(g->job, d, g->bs_r[d], UINT64_MAX);
}

/*
 * The offset (or the sequential position) leaves less than the length
 * drawn before the region's end, limit bytes: fio draws the length after
 * the offset and walks on to a size that fits, drawing again while none
 * does.
 */
uint64_t iogen_len_refit(struct ib_iogen *g, enum ib_ddir d, uint64_t limit)
{
	const struct ib_job *job = g->job;
	uint64_t len = len_of(job, d, g->bs_r[d], limit);

	while (len > limit && job->bs.min[d] <= limit) {
		g->bs_r[d] = ib_rand32(&g->bs_rand[d]);
		len = len_of(job, d, g->bs_r[d], limit);
	}
	return len;
}
