/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_EVIDENCE_H
#define IOBENCH_EVIDENCE_H

#include <stdbool.h>
#include <stdint.h>
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

#define IB_EV_SERIES 128	/* intervals of the rate series */

/* How the job's random seeds came about (rand.h). */
enum ib_seed_source {
	IB_SEED_REPEAT = 0,	/* randrepeat=1: fixed per job number */
	IB_SEED_GIVEN = 1,	/* randseed=N */
	IB_SEED_DRAWN = 2,	/* randrepeat=0: drawn by the runner, run as randseed=N */
};

struct ib_evidence {
	bool valid;			/* the runner filled this record */
	unsigned int batch;		/* stonewall batch (jobs that ran together) */
	unsigned int batch_jobs;	/* job processes/threads in that batch */
	unsigned int cpus;		/* CPUs the run may use (affinity); 0 unknown */
	char governor[IB_ENV_STR];	/* env.h; "" unknown */
	/* the job's settings the checks need beyond struct ib_res_job */
	bool sync_engine;		/* the engine has one I/O in flight */
	bool time_based;
	bool fsyncs;			/* fsync=, fdatasync=, end_fsync=, sync= */
	bool percentiles_given;		/* percentile_list= was given */
	unsigned int iodepth_batch;	/* iodepth_batch_submit as given; 0: not given */
	uint64_t runtime_us;
	uint64_t ramp_time_us;
	uint64_t ramp_size;		/* ramp_size= bytes (0: none) */
	bool paced;			/* rate, rate_iops, thinktime or a timed replay */
	bool verify_only;		/* verify_only=1: reads an earlier run's blocks */
	/*
	 * The job's completed I/Os per interval of series_ms, sampled by the
	 * parent from the live counters (stats.h) from its batch's start; when
	 * the series is full, pairs merge and the interval doubles. The last,
	 * partial interval is not kept.
	 */
	uint32_t series_ms;
	uint32_t series_n;
	uint64_t series[IB_EV_SERIES];
	uint64_t series_next_ns, series_last;	/* the sampler's state */
	/*
	 * The job process's scheduler time (/proc/PID/schedstat, read as it
	 * exited): on a CPU and runnable waiting for one, over its life. A
	 * process that wants a CPU all along is CPU-bound, however busy the
	 * machine is with others.
	 */
	bool sched_ok;
	uint64_t sched_run_ns, sched_wait_ns, sched_wall_ns;
	uint64_t vol_switches;		/* it blocked (I/O, a wait): /proc/PID/status */
	/* the job's first target (env.h) */
	int target_kind;		/* enum ib_env_kind */
	char disk[IB_ENV_STR];		/* "" on tmpfs and the like */
	char fstype[IB_ENV_STR];	/* files only */
	bool zram, loop;
	int write_cache;		/* 1 write back, 0 through, -1 unknown */
	/* device counters of `disk` over the job's batch (probe.h) */
	bool dev_ok;
	uint64_t dev_read_bytes, dev_write_bytes;
	/* the job's range before its batch started */
	bool resident_ok;
	uint64_t resident_pages, range_pages;
	bool alloc_ok;			/* file: SEEK_DATA; loop: backing; zram: mm_stat */
	uint64_t alloc_size, alloc_data;
	/* written data: compressed/original of a sample (probe.h); -1 none */
	double compress_ratio;
	/* seeds */
	int seed_source;		/* enum ib_seed_source */
	uint64_t seed;			/* randseed=N that replays the job (0x89 default) */
	uint32_t seed_offset, seed_ddir, seed_bs;	/* the streams' seeds */
	/* self-calibration (ib_calibrate_*, below; run/calibrate.c) */
	bool calibrated;
	double clock_ns;		/* one clock read */
	double tool_ns_per_io;		/* null engine, the job's settings */
};

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
