/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SOURCE_PACED_H
#define IOBENCH_SOURCE_PACED_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/hist.h"
#include "iobench/job.h"
#include "iobench/pace.h"
#include "iobench/source.h"

/*
 * The paced source: wraps another source (the offset generator) and hands
 * its I/Os out on the rate schedule of pace.h. Pure over explicit state
 * (never reads a clock, never blocks), unit-tested with a fake clock.
 *
 * - It takes the inner source's next I/O and asks ib_pace_next_due() for its due time once; until
 *   then it answers NOT_YET (due_ns) and keeps the I/O. At or after the
 *   due time it is READY with out->due_ns = that due time, which may be in
 *   the past: a late I/O keeps its own intended start, so the loop's
 *   CO-free latency (done - due) includes the wait. Nothing is dropped.
 * - Directions: when the inner source offers next_pick (the generator),
 *   the direction rwmix drew goes through ib_pace_pick() (fio's rule: the
 *   drawn one if due, else the other if it is due or due first), so each
 *   direction gets its own rate and the mix yields to the rates, as in fio.
 * - Open loop (rate_mode=open) never looks at what is in flight: whenever
 *   the loop has a free unit and an I/O is due, it is issued.
 * - Closed loop (rate_mode=closed, fio's) drains first: with I/O in flight
 *   and the next one not due, NOT_YET with due_ns UINT64_MAX (the loop
 *   waits for completions); with none in flight, NOT_YET until the due time.
 * - Lateness: when an I/O is handed out at now > due, ib_pace_started()
 *   counts it (late beyond rate_late) and ib_pace_backlog() at that moment
 *   (the I/Os of that direction due and not started) is noted.
 * - Think time: after each I/O handed out, ib_pace_think(); when a stall is
 *   due the source drains the I/O in flight (NOT_YET, UINT64_MAX), then
 *   spins (NOT_YET with due_ns = now, so the loop polls) and sleeps (NOT_YET
 *   until the end), then calls ib_pace_think_done().
 * - rate_min: ib_pace_check_min() (pace.h) with the loop's completed totals.
 *
 * inflight and done_ios point at the loop's counters (read only): the I/Os
 * committed and not reaped, and the completed I/Os per direction.
 */
struct ib_paced {
	struct ib_source src;		/* ops = &ib_paced_source_ops */
	struct ib_source *inner;
	struct ib_pace pace;
	const unsigned int *inflight;
	const uint64_t *done_ios;	/* [IB_DDIR_RWT] */
	uint64_t end_ns;		/* runtime end, caps a stall; 0: none */
	struct ib_io_desc held;		/* the inner source's I/O, waiting */
	bool have_held;
	bool inner_end;
	uint64_t pick_now;		/* the time pick_due() judges at */
	/* think time */
	uint64_t issued;		/* I/Os handed out */
	bool think_pending;		/* a stall is due: draining */
	uint64_t spin_until, sleep_until, think_start;
	bool thinking;
	bool cycles_due;		/* thinkcycles: spin before the next */
	/* where each handed-out I/O's lateness goes (now - due, 0 when on
	 * time), per direction; NULL (ib_paced_init's): nowhere */
	struct ib_hist *late_hist[IB_DDIR_RWT];
};

/* The job's rate/thinktime options as a pace configuration. */
void ib_pace_cfg_from_job(struct ib_pace_cfg *c, const struct ib_job *job);
/* Does the job pace at all (a rate, a minimum or think time)? */
bool ib_job_paced(const struct ib_job *job);
/* Does it set a rate (rate or rate_iops)? Then colat is measured. */
bool ib_job_rated(const struct ib_job *job);
/* Does it set rate_min or rate_iops_min? */
bool ib_job_has_rate_min(const struct ib_job *job);
/* The job's rate options checked with fio's messages: 0 or -EINVAL. */
int ib_job_pace_check(const struct ib_job *job, struct ib_diag *d);

/* Start pacing inner at start_ns (the job's start). */
void ib_paced_init(struct ib_paced *ps, const struct ib_pace_cfg *c,
		   struct ib_source *inner, const unsigned int *inflight,
		   const uint64_t *done_ios, uint64_t start_ns);

extern const struct ib_source_ops ib_paced_source_ops;

static inline struct ib_source *ib_paced_source(struct ib_paced *ps)
{
	return &ps->src;
}

/* The lateness counters start again (the ramp ended). */
void ib_paced_reset_late(struct ib_paced *ps);
/*
 * The I/Os of ddir due by now that were never handed out: the one held
 * (if due) and the schedule's backlog behind it (ib_pace_backlog()).
 */
uint64_t ib_paced_unstarted(const struct ib_paced *ps, enum ib_ddir ddir,
			    uint64_t now);

#endif
