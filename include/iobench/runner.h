/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_RUNNER_H
#define IOBENCH_RUNNER_H

#include <stdbool.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/plan.h"
#include "iobench/stats.h"

/*
 * Exit status of a run stopped by SIGINT/SIGTERM (128 + SIGINT, as a shell
 * reports it): main's status and the runner's _exit after a second SIGINT.
 */
#define IB_EXIT_INTERRUPTED 130

struct ib_disk_util;
struct ib_disk_set;

/* What a finished (or interrupted) run leaves for the reports. */
struct ib_result {
	struct ib_job_stats *stats;	/* run->nr_jobs slots (shared mapping) */
	struct ib_disk_set *diskset;	/* owned */
	struct ib_disk_util *disks;	/* diskset's results */
	unsigned int nr_disks;
	unsigned int failed_jobs;
	bool interrupted;		/* SIGINT/SIGTERM stopped the run */
	int64_t end_ms;			/* epoch ms at the end */
	/*
	 * The validity checks' evidence, one record per job (checks.h), and
	 * the environment the run was measured in (env.h); owned, NULL until
	 * ib_runner_go gathered them.
	 */
	struct ib_evidence *evidence;
	struct ib_env *env;
};

struct ib_runner;

/*
 * Running is two steps, so the caller can print its header between them:
 * ib_runner_check resolves and checks every job's targets (paths, safety,
 * sizes, alignment). It writes no file. It decides the engine and the
 * O_DIRECT mode each job runs with (iomode.h, file.h) and records them in the
 * job's stats slot (ioengine, direct, *_fallback) for the header and the
 * reports. It prints only warnings, one line each, to `warn` (may be NULL):
 * a default it could not keep, or "iobench: warning: job 'x':
 * ioengine=psync is synchronous, iodepth=8 is effectively 1". It also installs the SIGINT/SIGTERM handlers,
 * so that an interrupt while the targets are checked (device probes can be
 * slow) or files are laid out still ends with a report and status
 * IB_EXIT_INTERRUPTED; a second SIGINT outside the wait loop exits at once.
 * On success *out is the runner.
 * ib_runner_go lays files out (a job whose layout fails is reported as
 * failed and the others run), then runs every job (groups in order,
 * stonewalls honoured, one process per job or one thread with thread=1),
 * printing the live status line to `tty` (may be NULL) and job messages
 * ("Laying out IO file") to `msg` (may be NULL). It frees the runner.
 * Both return 0 or -errno (d says why); after ib_runner_go returned 0 jobs
 * may still have failed: see res->failed_jobs. Either way the caller ends
 * with ib_result_free().
 */
int ib_runner_check(const struct ib_plan *run, FILE *warn,
		    struct ib_result *res, struct ib_runner **out,
		    struct ib_diag *d);
int ib_runner_go(struct ib_runner *r, FILE *msg, FILE *tty, struct ib_diag *d);
/*
 * Optional, between the two: lay the files out now (messages to msg, may
 * be NULL), so that ib_runner_go starts the jobs at once. iobench-mpi uses
 * it to lay out on every host before the start barrier. A job whose layout
 * fails is marked failed (res->failed_jobs), as in ib_runner_go.
 */
void ib_runner_layout(struct ib_runner *r, FILE *msg);

/*
 * Watching the run while it goes on (doc/live-statistics.md). The runner
 * calls a watcher from its wait loop (every ~10 ms), after each batch, and
 * once at the end (final: every job reaped), with a view of the jobs:
 * their live slots, their interval rings (interval.h; NULL unless
 * the plan asks for intervals, --interval-json), which have started and
 * which are reaped (a reaped job's slot is final). `status` asks for a
 * full report of the run so far: --status-interval elapsed or SIGUSR1
 * arrived (the status line, if any, was cleared first). The watcher may
 * print; it must not keep the view.
 */
struct ib_iv_ring;
struct ib_status_slot;

struct ib_run_view {
	const struct ib_plan *run;
	const struct ib_job_stats *stats;
	const struct ib_iv_ring *rings;
	const bool *started;
	const bool *reaped;
	uint64_t start_ns;	/* the run's start: the intervals' origin */
	uint64_t now_ns;
	bool status;
	bool final;
	/* with status: the jobs' copies (status.h), those answering status_no */
	const struct ib_status_slot *copies;
	uint32_t status_no;
};

struct ib_run_watch {
	void (*poll)(void *arg, const struct ib_run_view *v);
	void *arg;
	bool intervals;	/* make the jobs' interval rings (v->rings) */
};

/* Set the watcher (copied) between ib_runner_check and ib_runner_go. */
void ib_runner_watch(struct ib_runner *r, const struct ib_run_watch *w);

/*
 * The jobs' statistics as a report of the run so far would show them: a
 * running job's own copy made for this report (status.h), whole and
 * consistent, else (it did not answer in time: it is not changing them)
 * its slot; with a running job's runtime and elapsed time up to when its
 * numbers were taken. out holds v->run->nr_jobs slots.
 */
void ib_run_view_snapshot(const struct ib_run_view *v, struct ib_job_stats *out);

/*
 * Instead of ib_runner_go: free a checked runner without running it (the
 * caller's own step between the two failed). Nothing was written. The
 * caller still ends with ib_result_free().
 */
void ib_runner_abort(struct ib_runner *r);

/* Both steps at once; warnings go to msg. */
int ib_runner_run(const struct ib_plan *run, FILE *msg, FILE *tty,
		  struct ib_result *res, struct ib_diag *d);
void ib_result_free(const struct ib_plan *run, struct ib_result *res);

#endif
