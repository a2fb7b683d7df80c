/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CURVE_H
#define IOBENCH_CURVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/job.h"
#include "iobench/stats.h"

/*
 * iobench curve: the latency-vs-load curve of a job. First the job runs as
 * given, unpaced, and its IOPS are the maximum the target sustains for it.
 * Then it runs once per step at step/steps of that maximum (10%, 20%, ...
 * 100% by default) with rate_iops and the open loop, and each step reports
 * the target rate, the achieved rate and the co-free latency percentiles
 * (p50, p99, p99.9 from each I/O's due time). The answer is the highest
 * step that was sustained (achieved at least IB_CURVE_SUSTAIN_PCT% of its
 * target) with a co-free p99 under the SLO (--slo, 1 ms by default):
 * "max IOPS at p99 < 1ms: 41.2k".
 *
 * The pure parts are here (rates, points, the answer; run/curve.c), the
 * output is curve_out.h's (report/), the driver that runs the jobs is
 * ib_curve_cmd() (cmd.h, cmd/curve_main.c).
 */
#define IB_CURVE_STEPS 10
#define IB_CURVE_MAX_STEPS 100
#define IB_CURVE_SLO_NS 1000000ull
#define IB_CURVE_SUSTAIN_PCT 95
/* The unpaced run is noisy, and every step suspect, when a job's IOPS per
 * interval (iopsavgtime) deviate from their mean by more than this, in %
 * of it (sample standard deviation over at least 3 intervals). */
#define IB_CURVE_NOISY_PCT 25

struct ib_curve_point {
	unsigned int pct;	/* step, % of the maximum; 0: the unpaced run */
	uint64_t target;	/* IOPS asked (0: unpaced) */
	double achieved;	/* IOPS done */
	uint64_t p50, p99, p999;/* co-free latency, ns (0: no rate) */
	uint64_t late;		/* I/Os started late */
	uint64_t ios;
	/* the most uneven job and direction's IOPS per interval: lowest,
	 * highest, mean, and the standard deviation in % of the mean (0: fewer
	 * than 3 intervals) */
	uint64_t iv_min, iv_max;
	double iv_mean, iv_dev_pct;
};

struct ib_curve {
	unsigned int steps;
	uint64_t slo_ns;
	char job[IB_NAME_MAX];
	struct ib_curve_point max;	/* the unpaced run */
	struct ib_curve_point pt[IB_CURVE_MAX_STEPS];
	unsigned int nr;		/* steps done */
};

/* The k-th step's target (1-based): max * k / steps, rounded down, >= 1. */
uint64_t ib_curve_target(uint64_t max, unsigned int k, unsigned int steps);
/*
 * Pace job at iops in all, split over its directions as its mix asks
 * (rwmixread), open loop; numjobs clones share it (nclones).
 */
void ib_curve_set_rate(struct ib_job *job, uint64_t iops, unsigned int nclones);
/*
 * The point of one run over its n jobs' stats: IOPS (completed I/Os over
 * each job's run time, summed) and the co-free percentiles of every
 * direction and job together. 0 or -ENOMEM.
 */
int ib_curve_measure(const struct ib_job_stats *st, unsigned int n,
		     struct ib_curve_point *p);
/* Did the run's IOPS per interval vary by more than IB_CURVE_NOISY_PCT? */
bool ib_curve_noisy(const struct ib_curve_point *p);
/*
 * A rate a job was given (rate=, rate_iops=, their minimums) would cap the
 * unpaced run, taken for the target's maximum: the job's name and the
 * option, or NULL.
 */
const char *ib_curve_paced_option(const struct ib_job *job);
/* Was the step sustained with p99 under the SLO? */
bool ib_curve_meets(const struct ib_curve *c, const struct ib_curve_point *p);
/* The highest step that meets the SLO, or NULL. */
const struct ib_curve_point *ib_curve_answer(const struct ib_curve *c);

#endif
