/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SAMPLER_H
#define IOBENCH_SAMPLER_H

#include <stdint.h>
#include "iobench/interval.h"
#include "iobench/log.h"
#include "iobench/stats.h"

/*
 * bw / iops interval sampling (doc/fio-compat.md §1.7), run by the worker
 * itself after every reap batch instead of fio's helper thread. Every
 * bwavgtime (iopsavgtime) ms each direction that did I/O in the interval
 * gets one KiB/s (IOPS) sample in dir[d].bw_samples (iops_samples); nothing
 * is sampled once runtime= has elapsed, so a 2 s run gives 3 samples and a
 * 4 s run 7, as fio. Call ib_sampler_start() when measuring starts (job
 * start, and again after the ramp-time ib_stats_reset()).
 *
 * Difference from fio's timer thread: a sample is taken at the first reap
 * after a boundary and covers the time since the previous sample, so when
 * nothing completes for several intervals (a stalled device) the next
 * sample averages over all of them where fio would divide by one interval.
 */
struct ib_sampler {
	uint64_t next_ns;		/* earliest deadline of the two */
	uint64_t end_ns;		/* start + runtime; UINT64_MAX: none */
	uint64_t start_ns;
	uint64_t ival_ns[2];		/* [0] bw, [1] iops */
	uint64_t due_ns[2];
	uint64_t last_ns[2];
	uint64_t last_val[2][IB_DDIR_RWT];	/* bytes / ios at the last sample */
	/*
	 * Interval snapshots (interval.h), NULL when off: their boundary is
	 * one more deadline in next_ns. Set after ib_sampler_start().
	 */
	struct ib_iv_pub *iv;
};

/* The intervals come from the job at the first tick. */
void ib_sampler_start(struct ib_sampler *s, const struct ib_job_stats *st,
		      uint64_t now_ns);
void ib_sampler_sample(struct ib_sampler *s, struct ib_job_stats *st,
		       const struct ib_job *job, struct ib_logs *logs, uint64_t now_ns);

/* Hot path: one compare unless an interval ended. logs may be NULL. */
static inline void ib_sampler_tick(struct ib_sampler *s, struct ib_job_stats *st,
				   const struct ib_job *job, struct ib_logs *logs,
				   uint64_t now_ns)
{
	if (ib_likely(now_ns < s->next_ns))
		return;
	ib_sampler_sample(s, st, job, logs, now_ns);
}

/* At job end: flushes averaged log windows; adds no partial sample (fio). */
void ib_sampler_finish(struct ib_sampler *s, struct ib_job_stats *st,
		       const struct ib_job *job, struct ib_logs *logs, uint64_t now_ns);

#endif
