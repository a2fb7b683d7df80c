// SPDX-License-Identifier: GPL-2.0-only
/*
 * A job's time: the loop's tick at the ramp end and the runtime end, the
 * steady state's samples, and the measured period's restart.
 */
#include <string.h>
#include <time.h>
#include "worker_priv.h"

/*
 * The loop calls the tick hook at the ramp end, then at the runtime end,
 * and every second for the steady state.
 */
void worker_set_wake(struct worker *w)
{
	if (w->ramp_end_ns)
		w->loop.wake_ns = w->ramp_end_ns;
	else
		w->loop.wake_ns = w->end_ns ? w->end_ns : UINT64_MAX;
	if (w->ss_on && w->ss_next_ns < w->loop.wake_ns)
		w->loop.wake_ns = w->ss_next_ns;
}

void worker_ss_start(struct worker *w, uint64_t now)
{
	const struct ib_job *job = w->job;

	if (!job->ss_dur_us)
		return;
	ib_ss_init(&w->st->ss, job->ss_mode, job->ss_limit,
		   (uint32_t)(job->ss_dur_us / 1000000),
		   (uint32_t)(job->ss_interval_us / 1000000));
	w->ss_on = true;
	w->ss_prev_ns = now;
	w->ss_next_ns = now + job->ss_interval_us * 1000;
}

/*
 * The mean completion latency (ns) of the I/Os completed since the last
 * sample, all directions (fio: the clat means weighted by their counts);
 * 0 when none completed. The totals restart with the measured period.
 */
static uint64_t ss_lat(struct worker *w)
{
	double sum = 0.0, prev = w->ss_prev_lat_sum;
	uint64_t n = 0, prev_n = w->ss_prev_lat_n;
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		const struct ib_lat_stat *c = &w->st->dir[d].lat[IB_LAT_CLAT];

		sum += c->mean * (double)c->n;
		n += c->n;
	}
	w->ss_prev_lat_sum = sum;
	w->ss_prev_lat_n = n;
	if (n < prev_n) { /* the stats restarted (ramp_time's end) */
		prev = 0.0;
		prev_n = 0;
	}
	return n > prev_n ? (uint64_t)((sum - prev) / (double)(n - prev_n)) : 0;
}

/*
 * One interval's IOPS and bytes/s (all directions, as fio) and mean clat
 * into the window once the interval started after ss_ramp. True: the
 * criterion is met.
 */
static bool ss_tick(struct worker *w, uint64_t now)
{
	uint64_t ios = 0, bytes = 0, ns = now - w->ss_prev_ns, lat = ss_lat(w);
	bool counted = w->ss_prev_ns - w->job_start_ns >= w->job->ss_ramp_us * 1000;
	bool met = false;
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		ios += w->loop.cum_ios[d];
		bytes += w->loop.cum_bytes[d];
	}
	if (counted && ns)
		met = ib_ss_add(&w->st->ss,
				(uint64_t)((double)(ios - w->ss_prev_ios) * 1e9 / (double)ns),
				(uint64_t)((double)(bytes - w->ss_prev_bytes) * 1e9 / (double)ns),
				lat);
	w->ss_prev_ios = ios;
	w->ss_prev_bytes = bytes;
	w->ss_prev_ns = now;
	while (w->ss_next_ns <= now)
		w->ss_next_ns += w->job->ss_interval_us * 1000;
	if (met)
		w->ss_on = false;
	return met;
}

uint64_t worker_thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * What was measured so far is dropped: the measured run starts now. Before
 * any I/O there is nothing to drop (the stats come zeroed, worker.h), and
 * zeroing them anyway wrote every page of ~370 KiB of fresh shared memory
 * per job before its first I/O, histogram buckets it mostly never uses.
 */
void worker_restart_measure(struct worker *w, uint64_t now)
{
	if (w->measured)
		ib_stats_reset(w->st);
	getrusage(RUSAGE_THREAD, &w->ru0);
	w->cpu0_ns = worker_thread_cpu_ns();
	w->start_ns = now;
	w->loop.log_start_ns = now;
	ib_iv_pub_restart(&w->ivp, now);
	if (!w->ramp_end_ns) {
		ib_sampler_start(&w->smp, w->st, now);
		w->smp.iv = w->ivp.ring ? &w->ivp : NULL;
	}
}

void worker_end_ramp(struct worker *w, uint64_t now)
{
	w->ramp_end_ns = 0;
	worker_restart_measure(w, now);
	if (w->job->runtime_us)
		w->end_ns = now + w->job->runtime_us * 1000;
	w->loop.smp = &w->smp;
	if (w->paced_on) {
		ib_paced_reset_late(&w->paced);
		w->paced.end_ns = w->end_ns;
	}
	worker_set_wake(w);
	set_state(w, run_letter(w->job));
}

/*
 * ramp_size: at each second's look (from the job's start), is the ramp
 * over? Yes once the job did ramp_size bytes (every direction, as fio's
 * helper thread looks once a second: a job done within its first second
 * ends inside its ramp), or with group_reporting once the parent saw the
 * group do them (runner_wait.c). No: the next look a second later.
 */
static bool ramp_over(struct worker *w, uint64_t now)
{
	uint64_t bytes = 0;
	int d;

	if (!w->job->ramp_size)
		return true;
	for (d = 0; d < IB_DDIR_RWT; d++)
		bytes += w->loop.cum_bytes[d];
	if (w->job->group_reporting ?
	    __atomic_load_n(&w->st->live.group_ramp_over, __ATOMIC_RELAXED) :
	    bytes >= w->job->ramp_size)
		return true;
	while (w->ramp_end_ns <= now)
		w->ramp_end_ns += 1000000000ull;
	return false;
}

/*
 * The loop's tick hook: ramp and runtime ends, steady-state seconds (stop
 * is the loop's). A steady state attained ends the job (fio).
 */
void worker_tick_hook(void *arg, struct ib_loop *l, uint64_t now)
{
	struct worker *w = arg;

	if (w->ss_on && now >= w->ss_next_ns && ss_tick(w, now))
		ib_loop_stop(l);
	if (w->ramp_end_ns && now >= w->ramp_end_ns) {
		if (ramp_over(w, now))
			worker_end_ramp(w, now);
	} else if (w->end_ns && now >= w->end_ns)
		ib_loop_stop(l);
	worker_set_wake(w);
}
