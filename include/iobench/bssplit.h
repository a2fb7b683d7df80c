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
 * Entries are kept sorted by size; at most IB_BSSPLIT_MAX per direction.
 */
int ib_bssplit_parse(const char *v, unsigned int kb_base,
		     struct ib_bssplit out[IB_DDIR_RWT], struct ib_diag *d);

/* The size for a draw r in 1..IB_BSSPLIT_SCALE (s->nr > 0). */
static inline uint32_t ib_bssplit_pick(const struct ib_bssplit *s, uint32_t r)
{
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i + 1 < s->nr; i++) {
		sum += s->perc[i];
		if (s->perc[i] && r <= sum)
			return s->bs[i];
	}
	return s->bs[s->nr - 1];
}

/* Smallest and largest sizes of a non-empty split. */
static inline uint32_t ib_bssplit_min(const struct ib_bssplit *s)
{
	return s->bs[0];
}

static inline uint32_t ib_bssplit_max(const struct ib_bssplit *s)
{
	return s->bs[s->nr - 1];
}

#endif
