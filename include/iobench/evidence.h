/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_EVIDENCE_H
#define IOBENCH_EVIDENCE_H

#include <stdint.h>
#include "iobench/checks.h"
#include "iobench/clock.h"
#include "iobench/disk.h"
#include "iobench/engine.h"
#include "iobench/env.h"
#include "iobench/file.h"
#include "iobench/job.h"

/*
 * The runner's side of the validity checks (checks.h): filling a job's
 * evidence record. Called by the parent only, never in a job's I/O loop.
 * sysfs/procfs are the real ones ("/sys", "/proc").
 */

/*
 * The job's settings, its first target as env describes it (looked up by
 * path, else described afresh), its seeds, a compressibility sample of the
 * data it writes, and the CPUs the run may use. ops is the engine chosen.
 */
void ib_evidence_job(struct ib_evidence *ev, const struct ib_job *job,
		     const struct ib_files *fs, const struct ib_engine_ops *ops,
		     const struct ib_env *env);
/* Right before the job's batch starts: residency, allocation, device counters. */
void ib_evidence_before(struct ib_evidence *ev, const struct ib_files *fs,
			struct ib_disk_stat *dev_start);
/*
 * ib_evidence_before() of a job whose first file region is that of a job
 * just probed (clones of one job on one file): its results copied, so
 * numjobs=4096 on one file probes it once, not 4096 times (each a mincore
 * of up to 1 GiB).
 */
void ib_evidence_before_as(struct ib_evidence *ev, const struct ib_evidence *from);
/* Right after the batch ended: the device counters' delta. */
void ib_evidence_after(struct ib_evidence *ev, const struct ib_disk_stat *dev_start);
/*
 * A job process that has exited but is not reaped yet: its scheduler time
 * (/proc/PID/schedstat) and its life from fork (fork_ns, ib_now_ns()).
 */
void ib_evidence_sched(struct ib_evidence *ev, int pid, uint64_t fork_ns);
/*
 * The rate series (checks.h): start it at now (the batch starts), then
 * sample it as often as wanted; ios is the job's completed I/O count so far.
 */
void ib_evidence_series_start(struct ib_evidence *ev, uint64_t now_ns);
void ib_evidence_series_sample(struct ib_evidence *ev, uint64_t now_ns, uint64_t ios);
/* A 64-bit seed for a randrepeat=0 job without randseed= (getrandom). */
uint64_t ib_evidence_draw_seed(void);

/*
 * Self-calibration (calibrate.c). The cost of one read of `clock`, in ns
 * (best of a few rounds of reads). Then iobench's own cost per I/O with the
 * job's settings on the null engine: the job loop run in this process for
 * budget_us (time_based, no logs, no ramp) in a few rounds: the best
 * round's CPU time (this thread's) per I/O into *ns, in ns. 0 or -errno
 * (d says why).
 */
double ib_calib_clock_ns(const struct ib_clock *clock);
int ib_calib_tool(const struct ib_job *job, const struct ib_clock *clock,
		  uint64_t budget_us, double *ns, struct ib_diag *d);
/*
 * The job one calibration round runs: the null engine for budget_us, no
 * logs, files, rate or verify, and the depth cut so its buffers take at
 * most 16 MiB (deep queues cost about the same per I/O; their buffers,
 * allocated and filled each round, took seconds).
 */
void ib_calib_job(struct ib_job *c, const struct ib_job *job, uint64_t budget_us);

/* One field of struct ib_job: offsetof and sizeof. */
struct ib_job_field {
	size_t off, size;
};
/*
 * The fields ib_calib_job() copies from the job (a whitelist: every other
 * field of the copy is ib_job_defaults()', but ioengine, time_based,
 * runtime_us and strs, which it sets, and size, 1 GiB when 0).
 */
extern const struct ib_job_field ib_calib_keep[];
extern const unsigned int ib_calib_nr_keep;

#endif
