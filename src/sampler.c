// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER until the stats branch lands: no samples taken. */
#include "iobench/sampler.h"

void ib_sampler_start(struct ib_sampler *smp, const struct ib_job_stats *s,
		      uint64_t now_ns)
{
	(void)s;
	smp->last_ns = now_ns;
}

void ib_sampler_tick(struct ib_sampler *smp, struct ib_job_stats *s,
		     const struct ib_job *job, struct ib_logs *logs, uint64_t now_ns)
{
	(void)smp; (void)s; (void)job; (void)logs; (void)now_ns;
}

void ib_sampler_finish(struct ib_sampler *smp, struct ib_job_stats *s,
		       const struct ib_job *job, struct ib_logs *logs, uint64_t now_ns)
{
	(void)smp; (void)s; (void)job; (void)logs; (void)now_ns;
}
