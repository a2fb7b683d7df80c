/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SAMPLER_H
#define IOBENCH_SAMPLER_H

#include <stdint.h>
#include "iobench/log.h"
#include "iobench/stats.h"

/* bw/iops samples every bwavgtime/iopsavgtime, kept by the worker. */
struct ib_sampler {
	uint64_t last_ns;
};

void ib_sampler_start(struct ib_sampler *smp, const struct ib_job_stats *s,
		      uint64_t now_ns);
void ib_sampler_tick(struct ib_sampler *smp, struct ib_job_stats *s,
		     const struct ib_job *job, struct ib_logs *logs, uint64_t now_ns);
void ib_sampler_finish(struct ib_sampler *smp, struct ib_job_stats *s,
		       const struct ib_job *job, struct ib_logs *logs, uint64_t now_ns);

#endif
