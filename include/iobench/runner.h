/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_RUNNER_H
#define IOBENCH_RUNNER_H

#include <stdbool.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/run.h"
#include "iobench/stats.h"

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
};

/*
 * Run every job of run (groups in order, stonewalls honoured, one process per
 * job or one thread with thread=1). Prints the live status line to `tty`
 * (may be NULL) and job messages ("Laying out IO file") to `msg`.
 * Returns 0 when the run happened (jobs may still have failed: see
 * res->failed_jobs), or -errno when it could not start (d says why).
 */
int ib_runner_run(const struct ib_run *run, FILE *msg, FILE *tty,
		  struct ib_result *res, struct ib_diag *d);
void ib_result_free(const struct ib_run *run, struct ib_result *res);

#endif
