/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_WORKER_H
#define IOBENCH_WORKER_H

#include <signal.h>
#include <stdbool.h>
#include "iobench/clock.h"
#include "iobench/diag.h"
#include "iobench/file.h"
#include "iobench/job.h"
#include "iobench/stats.h"

struct ib_iv_ring;	/* interval.h */
struct ib_status_slot;	/* status.h */

/*
 * One job clone, run to completion in the calling process or thread:
 * startdelay, open the prepared files, buffers, engine, then the I/O loop
 * until the byte budget, the runtime or *stop; drain, end_fsync, close.
 * Everything measured goes to *st (its own shared slot), which comes with
 * its measured section zeroed: the worker clears it only at a restart of
 * the measurement (ramp end, latency_target steps). Returns 0, or
 * -errno when the job failed (st->error / st->error_where say why).
 */
struct ib_worker_args {
	const struct ib_job *job;
	const struct ib_engine_ops *ops;	/* the runner's choice (NULL: job's) */
	struct ib_job_stats *st;
	struct ib_files files;		/* prepared by the parent; worker's copy */
	bool readonly;
	const volatile sig_atomic_t *stop;
	struct ib_clock clock;		/* calibrated once, before fork */
	unsigned int nr_jobs;		/* in the run (dedupe_global) */
	bool exec_to_stderr;		/* exec_*run output on stderr (exec.h) */
	/*
	 * A thread job (the runner's start gate): called once when the job is
	 * set up (or failed to be), before its I/O; returns when every thread
	 * of the batch may start. A job with a startdelay calls it first.
	 */
	void (*ready)(void *arg);
	void *ready_arg;
	/*
	 * Interval snapshots (interval.h): the job's ring (NULL: off) and the
	 * run's grid, boundaries at iv_origin_ns + k * iv_ns.
	 */
	struct ib_iv_ring *iv_ring;
	uint64_t iv_origin_ns;
	uint64_t iv_ns;
	/* a status report's copy of st, made when the parent asks (status.h) */
	struct ib_status_slot *status;
};

int ib_worker_run(struct ib_worker_args *a);

#endif
