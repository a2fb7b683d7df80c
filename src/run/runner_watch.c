// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runner's watcher (runner.h): the interval rings made before the
 * jobs start, the view handed to the watcher from the wait loop, when a
 * status report is due (--status-interval, SIGUSR1), the running jobs'
 * copies such a report asks for, and the slots it reads.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include "iobench/clock.h"
#include "iobench/interval.h"
#include "iobench/shm.h"
#include "iobench/status.h"
#include "runner_priv.h"

/*
 * How long a status report waits for the running jobs' copies. A job
 * answers after its current batch (one I/O's latency at most, and at
 * least once a millisecond); one waiting for a due time is read in place
 * at once, and one that has not answered by then is read in place.
 */
#define STATUS_WAIT_NS 200000000ull
#define STATUS_POLL_NS 100000
/* reading one that woke from its wait during the read: tries, a poll apart */
#define STATUS_READ_TRIES 20

void ib_runner_watch(struct ib_runner *r, const struct ib_run_watch *w)
{
	r->watch = *w;
}

/*
 * With a watcher, one status copy per job in shared memory (status.h);
 * when it wants intervals (the stream, the live view), one ring per job
 * too, every job on one grid from the run's start. 0 or -ENOMEM.
 */
int runner_watch_setup(struct ib_runner *r)
{
	const struct ib_plan *run = r->run;
	unsigned int i;

	r->last_status_ns = r->start_ns;
	r->view_flags = runner_parent_calloc(2 * (size_t)run->nr_jobs, sizeof(bool));
	if (!r->view_flags)
		return -ENOMEM;
	if (!r->watch.poll)
		return 0;
	/* SIGUSR1 may ask for a report in any run; untouched until one does */
	r->status = ib_shm_alloc(run->nr_jobs * sizeof(*r->status));
	if (!r->status)
		return -ENOMEM;
	for (i = 0; i < run->nr_jobs; i++)
		r->slots[i].args.status = &r->status[i];
	if (!r->watch.intervals)
		return 0;
	r->rings_len = run->nr_jobs * sizeof(struct ib_iv_ring);
	r->rings = ib_shm_alloc(r->rings_len);
	if (!r->rings)
		return -ENOMEM;
	for (i = 0; i < run->nr_jobs; i++) {
		r->slots[i].args.iv_ring = &r->rings[i];
		r->slots[i].args.iv_origin_ns = r->start_ns;
		r->slots[i].args.iv_ns = run->interval_ms * 1000000ull;
	}
	return 0;
}

void runner_watch_free(struct ib_runner *r)
{
	if (r->rings)
		ib_shm_free(r->rings, r->rings_len);
	ib_shm_free(r->status, r->run->nr_jobs * sizeof(*r->status));
	r->status = NULL;
	runner_parent_free(r->view_flags, 2 * (size_t)r->run->nr_jobs, sizeof(bool));
	r->rings = NULL;
	r->view_flags = NULL;
}

/* A report of the run so far: SIGUSR1 arrived, or the interval elapsed. */
static bool status_due(struct ib_runner *r, uint64_t now)
{
	uint64_t ival = r->run->status_interval_ms * 1000000ull;
	bool due = false;

	if (runner_usr1) {
		runner_usr1 = 0;
		due = true;
	}
	if (ival && now - r->last_status_ns >= ival) {
		/* the next one on the grid, not drifting by the poll's delay */
		r->last_status_ns += (now - r->last_status_ns) / ival * ival;
		due = true;
	}
	return due;
}

/* In its I/O loop, where it answers (not setting up, syncing, ending). */
static bool in_loop(const struct ib_job_stats *s)
{
	switch (__atomic_load_n(&s->live.state, __ATOMIC_RELAXED)) {
	case IB_ST_NOT_STARTED: case IB_ST_SETUP: case IB_ST_FSYNC:
	case IB_ST_FINISHING: case IB_ST_EXITED: case IB_ST_DONE:
	case IB_ST_ERROR: case IB_ST_KILLED:
		return false;
	default:
		return true;
	}
}

/*
 * Asked for this report (only the parent writes asked), still in its loop,
 * and neither answered nor waiting for a due time (read in place then).
 */
static bool pending(const struct ib_runner *r, unsigned int i)
{
	const struct ib_status_slot *c = &r->status[i];

	return c->asked == r->status_no && in_loop(&r->res->stats[i]) &&
	       !ib_status_answered(c, r->status_no) && !ib_status_is_idle(c);
}

/*
 * Ask every job in its I/O loop for a copy of its numbers, and wait for
 * their answers: at most STATUS_WAIT_NS, and not for one that left its
 * loop meanwhile (it is no longer changing them).
 */
static void ask_copies(struct ib_runner *r, const bool *started, const bool *reaped)
{
	uint64_t until = ib_now_ns() + STATUS_WAIT_NS;
	struct timespec ts = { 0, STATUS_POLL_NS };
	unsigned int i, waiting;

	r->status_no++;
	for (i = 0; i < r->run->nr_jobs; i++)
		if (started[i] && !reaped[i] && in_loop(&r->res->stats[i]))
			ib_status_ask(&r->status[i], r->status_no);
	do {
		for (i = waiting = 0; i < r->run->nr_jobs; i++)
			waiting += pending(r, i);
		if (waiting)
			nanosleep(&ts, NULL);
	} while (waiting && ib_now_ns() < until);
}

void runner_watch_poll(struct ib_runner *r, bool final)
{
	const struct ib_plan *run = r->run;
	struct ib_run_view v;
	bool *started, *reaped;
	unsigned int i;

	if (!r->watch.poll || !r->view_flags)
		return;
	started = r->view_flags;
	reaped = r->view_flags + run->nr_jobs;
	for (i = 0; i < run->nr_jobs; i++) {
		started[i] = r->slots[i].started;
		reaped[i] = r->slots[i].reaped || r->slots[i].failed_setup;
	}
	memset(&v, 0, sizeof(v));
	v.run = run;
	v.stats = r->res->stats;
	v.rings = r->rings;
	v.started = started;
	v.reaped = reaped;
	v.start_ns = r->start_ns;
	v.now_ns = ib_now_ns();
	v.final = final;
	if (!final && status_due(r, v.now_ns)) {
		runner_clear_eta_line(r);
		r->last_eta_ns = 0;	/* the line comes back at the next tick */
		v.status = true;
		ask_copies(r, started, reaped);
		v.copies = r->status;
		v.status_no = r->status_no;
	}
	r->watch.poll(r->watch.arg, &v);
}

/* When a running job's measured run started: after its ramp. */
static uint64_t measure_start(const struct ib_job *j, const struct ib_job_stats *s)
{
	uint64_t start = __atomic_load_n(&s->live.start_ns, __ATOMIC_RELAXED);
	uint32_t state = __atomic_load_n(&s->live.state, __ATOMIC_RELAXED);

	if (state == IB_ST_RAMP)
		return start;
	return start + j->ramp_time_us * 1000;
}

/* Its runtime and elapsed time up to now, when its numbers were taken. */
static void fix_running(const struct ib_job *j, struct ib_job_stats *o, uint64_t now)
{
	uint64_t start = o->live.start_ns, m = measure_start(j, o);
	uint64_t el_ns = now > m ? now - m : 0;
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		if (o->dir[d].total_ios)
			o->dir[d].runtime_us = el_ns / 1000 ? el_ns / 1000 : 1;
	o->job_runtime_ms = el_ns / 1000000;
	o->elapsed_s = now > start ? (now - start + 999999999ull) / 1000000000ull : 0;
}

/*
 * A running job's numbers of one moment: its copy, or read in place while
 * it waits. Only a job that woke during the read is tried again (it
 * answers within a millisecond); one that was not waiting either (blocked,
 * or outside its loop: not changing its numbers) is taken as read.
 */
static void read_running(const struct ib_run_view *v, unsigned int i,
			 struct ib_job_stats *out, uint64_t *now)
{
	const struct ib_status_slot *c = &v->copies[i];
	struct timespec ts = { 0, STATUS_POLL_NS };
	bool waited;

	for (unsigned int k = 0; k < STATUS_READ_TRIES; k++) {
		waited = ib_status_is_idle(c);
		if (ib_status_read(c, v->status_no, &v->stats[i], out, now) || !waited)
			return;
		nanosleep(&ts, NULL);
	}
}

void ib_run_view_snapshot(const struct ib_run_view *v, struct ib_job_stats *out)
{
	unsigned int i;
	uint64_t now;

	for (i = 0; i < v->run->nr_jobs; i++) {
		now = v->now_ns;
		if (v->copies && v->started[i] && !v->reaped[i])
			read_running(v, i, &out[i], &now);
		else
			memcpy(&out[i], (const void *)&v->stats[i], sizeof(out[i]));
		if (v->started[i] && !v->reaped[i] && out[i].live.start_ns)
			fix_running(&v->run->jobs[i], &out[i], now);
	}
}
