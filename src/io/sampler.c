// SPDX-License-Identifier: GPL-2.0-only
/*
 * Interval bw/iops sampling (see sampler.h).
 */
#include <string.h>
#include "iobench/sampler.h"

enum { S_BW = 0, S_IOPS = 1 };

void ib_sampler_start(struct ib_sampler *s, const struct ib_job_stats *st,
		      uint64_t now_ns)
{
	unsigned int d;

	memset(s, 0, sizeof(*s));
	s->start_ns = now_ns;
	s->next_ns = now_ns;	/* first tick sets the intervals up */
	s->end_ns = UINT64_MAX;
	for (d = 0; d < IB_DDIR_RWT; d++) {
		s->last_val[S_BW][d] = st->dir[d].io_bytes;
		s->last_val[S_IOPS][d] = st->dir[d].total_ios;
	}
	s->last_ns[S_BW] = s->last_ns[S_IOPS] = now_ns;
}

static uint64_t interval_ms(const struct ib_job *job, unsigned int k)
{
	bool logged = k == S_BW ? job->logs.bw[0] : job->logs.iops[0];
	unsigned int ms = k == S_BW ? job->bwavgtime_ms : job->iopsavgtime_ms;

	if (logged && job->logs.avg_msec)
		ms = job->logs.avg_msec;
	return ms ? ms : 500;
}

static void setup(struct ib_sampler *s, const struct ib_job *job)
{
	unsigned int k;

	for (k = 0; k < 2; k++) {
		s->ival_ns[k] = interval_ms(job, k) * 1000000ull;
		s->due_ns[k] = s->start_ns + s->ival_ns[k];
	}
	if (job->runtime_us)
		s->end_ns = s->start_ns + job->runtime_us * 1000ull;
}

static void take(struct ib_sampler *s, unsigned int k, struct ib_job_stats *st,
		 struct ib_logs *logs, uint64_t now_ns)
{
	uint64_t spent_ms = (now_ns - s->last_ns[k]) / 1000000, cur, delta, v;
	uint64_t t_ms = (now_ns - s->start_ns + 500000) / 1000000;
	unsigned int d;

	if (!spent_ms)
		return;
	for (d = 0; d < IB_DDIR_RWT; d++) {
		cur = k == S_BW ? st->dir[d].io_bytes : st->dir[d].total_ios;
		delta = cur - s->last_val[k][d];
		s->last_val[k][d] = cur;
		if (!delta)
			continue;
		v = delta * 1000 / spent_ms;
		if (k == S_BW)
			v /= 1024;
		ib_lat_stat_add(k == S_BW ? &st->dir[d].bw_samples : &st->dir[d].iops_samples, v);
		if (logs)
			ib_logs_sample(logs, k == S_BW ? IB_LOG_BW : IB_LOG_IOPS, t_ms, d, v);
	}
	s->last_ns[k] = now_ns;
}

void ib_sampler_sample(struct ib_sampler *s, struct ib_job_stats *st,
		       const struct ib_job *job, struct ib_logs *logs, uint64_t now_ns)
{
	unsigned int k;

	if (!s->ival_ns[0])
		setup(s, job);
	for (k = 0; k < 2; k++) {
		if (now_ns < s->due_ns[k])
			continue;
		if (now_ns < s->end_ns)
			take(s, k, st, logs, now_ns);
		/* next boundary after now, without drift */
		while (s->due_ns[k] <= now_ns)
			s->due_ns[k] += s->ival_ns[k];
	}
	s->next_ns = s->due_ns[0] < s->due_ns[1] ? s->due_ns[0] : s->due_ns[1];
	if (s->next_ns >= s->end_ns)
		s->next_ns = UINT64_MAX;
	if (s->iv) {
		if (now_ns >= s->iv->due_ns)
			ib_iv_pub_take(s->iv, st, now_ns);
		if (s->iv->due_ns < s->next_ns)
			s->next_ns = s->iv->due_ns;
	}
}

void ib_sampler_finish(struct ib_sampler *s, struct ib_job_stats *st,
		       const struct ib_job *job, struct ib_logs *logs, uint64_t now_ns)
{
	(void)st;
	(void)job;
	if (logs)
		ib_logs_flush_avg(logs, (now_ns - s->start_ns + 500000) / 1000000);
}
