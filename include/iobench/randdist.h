/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_RANDDIST_H
#define IOBENCH_RANDDIST_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/job.h"
#include "iobench/rand.h"

/*
 * random_distribution=: where random offsets fall. Pure computation.
 *
 * A file's region is cut into n ranges of the job's smallest block size;
 * zipf, pareto and normal draw a rank r in [0, n) with fio's definitions
 * (facts from fio's documentation and lib/zipf.c, lib/gauss.c):
 *  - zipf:theta (theta > 0, != 1): Gray et al.'s quick approximation of
 *    P(rank k) proportional to 1/k^theta, zeta(n) summed over the first
 *    min(n, 10^7) ranks;
 *  - pareto:h (0 < h < 1): r = floor((n - 1) * u^(log h / log(1 - h)));
 *  - normal:dev (0..100): the mean of 12 uniform draws in [0, n] rounded
 *    up, plus a uniform deviation in [-s/2, s/2) where s = ceil(n * dev /
 *    100) capped at n/2, halved until it stays below n.
 * The rank becomes a range as fio spreads it: (r * 0x61C8864680B583EB +
 * off) mod n, where off is n * center for a given center (the optional
 * second number, 0..1; for normal n * (center - 0.5)), else a random draw
 * (zipf, pareto) or 0 (normal). So the hot ranges are scattered but the
 * rank-frequency shape is the distribution's.
 *  - zoned:P/S:P/S...: P% of the I/Os fall uniformly in the next S% of the
 *    region, zones back to back from its start; zoned_abs: S in bytes.
 *    Per direction with ',' as bssplit; P must add up to 100.
 * Non-uniform distributions do not use the random map (fio).
 * file_service_type=zipf/pareto/normal draws over n = files << 10 ranges
 * without spreading ((rank + off) mod n), and serves file value >> 10
 * (fio's definition).
 */
enum ib_rand_dist {
	IB_DIST_RANDOM = 0,
	IB_DIST_ZIPF,
	IB_DIST_PARETO,
	IB_DIST_NORMAL,
	IB_DIST_ZONED,
	IB_DIST_ZONED_ABS,
};

struct ib_randdist_state {
	unsigned int type;	/* enum ib_rand_dist */
	uint64_t n;		/* ranges */
	uint64_t off;		/* added to the spread rank */
	double theta, zetan, zeta2, alpha, eta;	/* zipf */
	double pow_h;		/* pareto */
	uint64_t stddev;	/* normal */
	bool no_spread;		/* value = (rank + off) mod n (files) */
};

/* Parse the option's value into job->rand_dist, rand_param, rand_center, zones. */
int ib_randdist_parse(const char *v, unsigned int kb_base, struct ib_job *job,
		      struct ib_diag *d);

/*
 * For zipf, pareto, normal (type), with the value and center (-1: none) as
 * the option has them: set up over n ranges (r draws the random off).
 */
void ib_randdist_init(struct ib_randdist_state *s, unsigned int type,
		      double param, double center, uint64_t n, struct ib_rand *r);
/* The next range index in [0, n). */
uint64_t ib_randdist_next(const struct ib_randdist_state *s, struct ib_rand *r);
/* The rank before spreading (tests: the distribution's own shape). */
uint64_t ib_randdist_rank(const struct ib_randdist_state *s, struct ib_rand *r);

/*
 * zoned/zoned_abs for direction d: the zone drawn, as [*start, *start +
 * *len) in bytes within a region of region_len bytes. false if the zones
 * leave nothing there.
 */
bool ib_randdist_zone(const struct ib_job *job, int d, uint64_t region_len,
		      struct ib_rand *r, uint64_t *start, uint64_t *len);

#endif
