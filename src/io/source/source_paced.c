// SPDX-License-Identifier: GPL-2.0-only
/*
 * The paced source: another source's I/Os on the rate schedule, open or
 * closed loop, with think time. Contract in source_paced.h.
 */
#include <errno.h>
#include <string.h>
#include "iobench/compiler.h"
#include "iobench/source_paced.h"

static uint64_t sum3(const uint64_t v[IB_DDIR_RWT])
{
	return v[0] + v[1] + v[2];
}

void ib_pace_cfg_from_job(struct ib_pace_cfg *c, const struct ib_job *job)
{
	ib_pace_cfg_defaults(c);
	memcpy(c->rate, job->rate.bps, sizeof(c->rate));
	memcpy(c->rate_iops, job->rate.iops, sizeof(c->rate_iops));
	memcpy(c->rate_min, job->rate.min_bps, sizeof(c->rate_min));
	memcpy(c->rate_iops_min, job->rate.min_iops, sizeof(c->rate_iops_min));
	c->process = job->rate.process ? IB_PACE_POISSON : IB_PACE_LINEAR;
	c->seed = (uint32_t)(job->randseed ^ (job->randseed >> 32)) +
		  job->number * 0x9e3779b9u;
	c->mode = job->rate.mode ? IB_PACE_CLOSED : IB_PACE_OPEN;
	c->rate_cycle_ms = job->rate.cycle_ms;
	c->thinktime_us = job->rate.thinktime_us;
	c->thinktime_spin_us = job->rate.thinktime_spin_us;
	c->thinkcycles = job->rate.thinkcycles;
	c->thinktime_blocks = job->rate.thinktime_blocks;
	c->thinktime_blocks_set = job->rate.thinktime_blocks_set;
	c->thinktime_blocks_type = job->rate.thinktime_blocks_type ? IB_THINK_ISSUE :
								IB_THINK_COMPLETE;
	c->thinktime_iotime_us = job->rate.thinktime_iotime_us;
	c->ignore_thinktime = job->rate.ignore_thinktime;
	c->late_us = job->rate.late_us;
}

bool ib_job_paced(const struct ib_job *job)
{
	return sum3(job->rate.bps) || sum3(job->rate.iops) || sum3(job->rate.min_bps) ||
	       sum3(job->rate.min_iops) || job->rate.thinktime_us ||
	       job->rate.thinkcycles;
}

bool ib_job_rated(const struct ib_job *job)
{
	return sum3(job->rate.bps) || sum3(job->rate.iops);
}

bool ib_job_has_rate_min(const struct ib_job *job)
{
	return sum3(job->rate.min_bps) || sum3(job->rate.min_iops);
}

int ib_job_pace_check(const struct ib_job *job, struct ib_diag *d)
{
	struct ib_pace_cfg c;

	ib_pace_cfg_from_job(&c, job);
	return ib_pace_cfg_check(&c, d);
}

void ib_paced_init(struct ib_paced *ps, const struct ib_pace_cfg *c,
		   struct ib_source *inner, const unsigned int *inflight,
		   const uint64_t *done_ios, uint64_t start_ns)
{
	memset(ps, 0, sizeof(*ps));
	ps->src.ops = &ib_paced_source_ops;
	ps->inner = inner;
	ps->inflight = inflight;
	ps->done_ios = done_ios;
	ib_pace_init(&ps->pace, c, start_ns);
}

void ib_paced_reset_late(struct ib_paced *ps)
{
	unsigned int i;

	for (i = 0; i < IB_DDIR_RWT; i++) {
		ps->pace.dir[i].late = 0;
		ps->pace.dir[i].late_sum_ns = 0;
		ps->pace.dir[i].late_max_ns = 0;
		ps->pace.dir[i].backlog_max = 0;
	}
}

/* thinkcycles: an application's processing after each I/O, n turns of a
 * busy loop of the CPU's spin-wait hint (fio's, so a count costs the same). */
static void spin_cycles(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ __volatile__("yield" ::: "memory");
#else
		__asm__ __volatile__("" ::: "memory");
#endif
	}
}

/* fio's choice: the drawn direction if due, else the other if due first. */
static enum ib_ddir pick_due(void *arg, enum ib_ddir drawn, bool can_switch)
{
	struct ib_paced *ps = arg;

	return ib_pace_pick(&ps->pace, drawn, can_switch, ps->pick_now);
}

uint64_t ib_paced_unstarted(const struct ib_paced *ps, enum ib_ddir ddir,
			    uint64_t now)
{
	uint64_t n = ib_pace_backlog(&ps->pace, ddir, now);

	if (ps->have_held && ps->held.ddir == ddir && ps->held.due_ns <= now)
		n++;
	return n;
}

/* Take the inner source's next I/O and give it its due time. */
static int fetch(struct ib_paced *ps, uint64_t now)
{
	int ret;

	if (ps->inner_end)
		return IB_SRC_END;
	ps->pick_now = now;
	if (ps->inner->ops->next_pick)
		ret = ps->inner->ops->next_pick(ps->inner, now, pick_due, ps,
						&ps->held);
	else
		ret = ib_source_next(ps->inner, now, &ps->held);
	if (ret == IB_SRC_END)
		ps->inner_end = true;
	if (ret != IB_SRC_READY)
		return ret;
	ps->held.due_ns = ib_pace_next_due(&ps->pace, ps->held.ddir,
					   ps->held.len, now);
	ps->have_held = true;
	return IB_SRC_READY;
}

static int not_yet(struct ib_io_desc *out, uint64_t due)
{
	out->due_ns = due;
	return IB_SRC_NOT_YET;
}

/* A think-time stall in progress: drain, spin, sleep. true: still stalled. */
static bool stalled(struct ib_paced *ps, uint64_t now, struct ib_io_desc *out)
{
	struct ib_think_plan plan = { 0, 0 };
	uint64_t left;

	if (ps->think_pending) {
		if (*ps->inflight) {
			not_yet(out, UINT64_MAX);
			return true;
		}
		ps->think_pending = false;
		ps->thinking = true;
		ps->think_start = now;
		left = ps->end_ns ? (ps->end_ns > now ? ps->end_ns - now : 0) : UINT64_MAX;
		ib_pace_think(&ps->pace, ps->issued, sum3(ps->done_ios), now, left,
			      &plan);
		ps->spin_until = now + plan.spin_ns;
		ps->sleep_until = ps->spin_until + plan.sleep_ns;
	}
	if (!ps->thinking)
		return false;
	if (now < ps->spin_until) {
		not_yet(out, now); /* spin: the loop asks again at once */
		return true;
	}
	if (now < ps->sleep_until) {
		not_yet(out, ps->sleep_until);
		return true;
	}
	ps->thinking = false;
	ib_pace_think_done(&ps->pace, now - ps->think_start, now);
	return false;
}

/* After an I/O is handed out: is a stall due? (decided, planned later) */
static void after_issue(struct ib_paced *ps, uint64_t now)
{
	struct ib_think_plan plan;
	struct ib_pace probe;

	ps->issued++;
	ps->cycles_due = ps->pace.cfg.thinkcycles != 0;
	if (!ps->pace.cfg.thinktime_us)
		return;
	probe = ps->pace; /* the plan is made when the stall starts */
	if (ib_pace_think(&probe, ps->issued, sum3(ps->done_ios), now,
			  UINT64_MAX, &plan))
		ps->think_pending = true;
}

static void count_late(struct ib_paced *ps, uint64_t now)
{
	enum ib_ddir d = ps->held.ddir;

	if (d < IB_DDIR_RWT && ps->late_hist[d])
		ib_hist_add(ps->late_hist[d],
			    now > ps->held.due_ns ? now - ps->held.due_ns : 0);
	if (now <= ps->held.due_ns)
		return;
	ib_pace_started(&ps->pace, d, ps->held.due_ns, now);
	ib_pace_note_backlog(&ps->pace, d, ib_pace_backlog(&ps->pace, d, now) + 1);
}

static int paced_next(struct ib_source *src, uint64_t now, struct ib_io_desc *out)
{
	struct ib_paced *ps = ib_container_of(src, struct ib_paced, src);
	int ret;

	if (ps->cycles_due) {	/* then the loop looks at the clock again */
		ps->cycles_due = false;
		spin_cycles(ps->pace.cfg.thinkcycles);
		return not_yet(out, 1);
	}
	if (ps->think_pending || ps->thinking) {
		if (stalled(ps, now, out))
			return IB_SRC_NOT_YET;
	}
	if (!ps->have_held) {
		ret = fetch(ps, now);
		if (ret != IB_SRC_READY) {
			if (ret == IB_SRC_NOT_YET)
				*out = ps->held;
			return ret;
		}
	}
	if (ps->held.due_ns > now) {
		if (ps->pace.cfg.mode == IB_PACE_CLOSED && *ps->inflight)
			return not_yet(out, UINT64_MAX);
		return not_yet(out, ps->held.due_ns);
	}
	count_late(ps, now);
	*out = ps->held;
	ps->have_held = false;
	after_issue(ps, now);
	return IB_SRC_READY;
}

static bool paced_more(const struct ib_source *src)
{
	const struct ib_paced *ps = ib_container_of(src, const struct ib_paced, src);

	return ps->have_held || (!ps->inner_end && ib_source_more(ps->inner));
}

const struct ib_source_ops ib_paced_source_ops = {
	.name = "paced",
	.next = paced_next,
	.more = paced_more,
};
