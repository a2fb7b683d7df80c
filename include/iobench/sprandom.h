/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SPRANDOM_H
#define IOBENCH_SPRANDOM_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/rand.h"
#include "iobench/randperm.h"

/*
 * sprandom (fio 3.42): writes that bring a flash device to its random-write
 * steady state in about one pass over its physical capacity, instead of
 * the several passes of plain random writes. Pure computation, no I/O.
 *
 * The model (P. Desnoyers, "Analytic Models of SSD Write Performance",
 * ACM ToS 8(2), 2012): at steady state under greedy garbage collection,
 * the share f of the device held by blocks of validity v follows
 * v * f(v) = constant, from v = 1 (just written) down to the validity of
 * the block garbage collection picks, v_gc = 1 - 1 / WA, with the write
 * amplification approximated from the over-provisioning ratio op as
 * WA = 0.5 / op + 0.7. ib_spr_invalid_pct() samples that curve: n
 * validities equally spaced from 1 to v_gc, each standing for a share
 * 1 / v of the device; resampled at n equally spaced cumulative shares
 * (linear interpolation), oldest region first, so region 0 is the least
 * valid and the last one fully valid. A region's invalid share is kept in
 * 1/10000 units, rounded.
 *
 * The plan (ib_spr_plan_init()): the logical size L (the job's file
 * region), the physical size P = L + ceil(L * op) rounded up to the block,
 * regions of P / n bytes, of region_ios = region bytes / bs writes each.
 * The job's byte budget becomes P (as fio's io_size).
 *
 * The writes (ib_spr_next()): new blocks come from a permutation of the L
 * / bs blocks (each once); every block written in region r (a new one or
 * a rewrite) is kept, with probability (invalid[r] + 1) / 10001 (fio's
 * draw), to be rewritten in region r + 1, which invalidates it. Each
 * region is region_ios writes: without a cache (spr_cs=0), one new block,
 * then the kept blocks of the region before, then new blocks; with a
 * cache size, new blocks first and the kept blocks of the region before
 * at the region's end, so the device's cache has flushed a block before
 * it is overwritten. The sequence ends when the permutation is exhausted
 * (then, with a cache, after the kept blocks of the region before, which
 * are not kept again), or after region n's writes.
 */
#define IB_SPR_PCT_SCALE 10000	/* invalid shares in 1/10000 */

struct ib_spr_plan {
	uint64_t logical;	/* bytes: the job's file region */
	uint64_t physical;	/* bytes: logical + over-provisioning */
	uint64_t bs;		/* write block size, a power of two */
	uint64_t region_bytes;	/* physical / regions */
	uint64_t region_ios;	/* region_bytes / bs */
	uint64_t cache;		/* spr_cs bytes (0: none) */
	unsigned int regions;
	double op;
};

/* A growable list of block numbers, consumed from the front. */
struct ib_spr_list {
	uint64_t *b;
	uint64_t n, cap, next;
};

struct ib_spr {
	struct ib_spr_plan plan;
	uint32_t *invalid;	/* per region, in 1/IB_SPR_PCT_SCALE */
	struct ib_spr_list prev;	/* kept in the region before: to rewrite */
	struct ib_spr_list cur;		/* kept in this region */
	unsigned int region;
	uint64_t left;		/* writes of this region still to come */
	struct ib_rand rand;
	uint64_t rewrites;	/* statistics: blocks written again */
};

/*
 * The plan for a file region of logical bytes: 0, or -EINVAL with d set to
 * one line naming the option (bs not a power of two, a region smaller than
 * one block, spr_cs larger than a region).
 */
int ib_spr_plan_init(struct ib_spr_plan *p, uint64_t logical, uint64_t bs,
		     unsigned int regions, double op, uint64_t cache,
		     struct ib_diag *d);
/* The invalid share of each of n regions for op, into out[n]. */
void ib_spr_invalid_pct(unsigned int n, double op, uint32_t *out);
/* 0 or -ENOMEM (d); seed for the keep/drop draws. */
int ib_spr_init(struct ib_spr *s, const struct ib_spr_plan *p, uint32_t seed,
		struct ib_diag *d);
/*
 * The next block number to write (new ones from perm's first pass over
 * logical / bs blocks); false at the end (see above).
 */
bool ib_spr_next(struct ib_spr *s, struct ib_randperm *perm, uint64_t *block);
void ib_spr_free(struct ib_spr *s);

#endif
