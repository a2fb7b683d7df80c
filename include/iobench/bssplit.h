/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_BSSPLIT_H
#define IOBENCH_BSSPLIT_H

#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/job.h"

/*
 * bssplit=: weighted block sizes (struct ib_bssplit, job.h). Pure.
 *
 * Syntax, as fio's: per direction "bs/pct:bs/pct...", directions read,
 * write, trim separated by ','; one list serves every direction, an
 * omitted one takes the last given. pct may have up to three decimals;
 * blank ("1k/" or "1k") shares what the given ones leave of 100 evenly.
 * Entries are kept in fio's order: by share, ascending, equal shares as
 * given; at most IB_BSSPLIT_MAX per direction.
 */
int ib_bssplit_parse(const char *v, unsigned int kb_base,
		     struct ib_bssplit out[IB_DDIR_RWT], struct ib_diag *d);

/*
 * The size for a draw r in 1..IB_BSSPLIT_SCALE (s->nr > 0), fio's walk:
 * the first entry whose running share reaches r and is at most limit;
 * past them all, the last with a share (shares summing to less than 100%;
 * it may be above limit: fio then draws again).
 */
static inline uint32_t ib_bssplit_pick_fit(const struct ib_bssplit *s, uint32_t r,
					   uint64_t limit)
{
	uint32_t sum = 0, bs = s->bs[s->nr - 1];
	unsigned int i;

	for (i = 0; i < s->nr; i++) {
		if (!s->perc[i])
			continue;
		bs = s->bs[i];
		sum += s->perc[i];
		if (r <= sum && bs <= limit)
			break;
	}
	return bs;
}

/* The same without a limit. */
static inline uint32_t ib_bssplit_pick(const struct ib_bssplit *s, uint32_t r)
{
	return ib_bssplit_pick_fit(s, r, UINT64_MAX);
}

/* Smallest and largest sizes of a non-empty split. */
static inline uint32_t ib_bssplit_min(const struct ib_bssplit *s)
{
	uint32_t m = s->bs[0];
	unsigned int i;

	for (i = 1; i < s->nr; i++)
		m = s->bs[i] < m ? s->bs[i] : m;
	return m;
}

static inline uint32_t ib_bssplit_max(const struct ib_bssplit *s)
{
	uint32_t m = s->bs[0];
	unsigned int i;

	for (i = 1; i < s->nr; i++)
		m = s->bs[i] > m ? s->bs[i] : m;
	return m;
}

#endif
