// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-calibration (evidence.h): what a clock read and iobench's own work
 * per I/O cost on this machine, measured in the parent before the jobs
 * start, on the null engine with the job's settings.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iobench/buf.h"
#include "iobench/evidence.h"
#include "iobench/file.h"
#include "iobench/stats.h"
#include "iobench/worker.h"

#define CLOCK_READS 4096
#define CLOCK_ROUNDS 5
/* the best of a few short rounds: another process's burst spoils one */
#define CALIB_ROUNDS 5

double ib_calib_clock_ns(const struct ib_clock *clock)
{
	volatile uint64_t sink = 0;
	double best = 0;
	unsigned int r, i;

	for (r = 0; r < CLOCK_ROUNDS; r++) {
		uint64_t t0 = ib_now_ns(), t1;
		double ns;

		for (i = 0; i < CLOCK_READS; i++)
			sink += ib_clock_ns(clock);
		t1 = ib_now_ns();
		ns = (double)(t1 - t0) / CLOCK_READS;
		if (!r || ns < best)
			best = ns;
	}
	(void)sink;
	return best;
}

/* The job as the null engine runs it for budget_us: no logs, no delays. */
static void null_copy(struct ib_job *c, const struct ib_job *job, uint64_t budget_us)
{
	*c = *job;
	c->ioengine = "null";
	c->time_based = true;
	c->runtime_us = budget_us;
	c->ramp_time_us = 0;
	c->startdelay_us = 0;
	c->lockmem = 0;
	c->loops = 1;
	c->write_iolog = c->write_bw_log = "";
	c->write_iops_log = c->write_lat_log = "";
	if (!c->size)
		c->size = 1ull << 30;
	c->filename = "";
	c->directory = "";
	c->nrfiles = 1;
	c->io_size = 0;
	c->offset = 0;
	c->offset_pct = 0;
	c->size_pct = 0;
	c->filesize_min = c->filesize_max = 0;
	/* the parent's own process must not take the job's placement/priority */
	c->cpus_set = false;
	c->numa_nodes = 0;
	c->nice = 0;
	c->ioprio_given = false;
	/* the generator's stream, not the job's trace (the parent has none) */
	c->read_iolog = "";
	c->create_only = false;
	c->exec_prerun = c->exec_postrun = "";	/* the job's, once */
	/* the tool's cost per I/O unpaced and unchecked: no rate, no think
	 * time, no latency limits, no verify (the null engine takes none) */
	memset(c->rate, 0, sizeof(c->rate));
	memset(c->rate_iops, 0, sizeof(c->rate_iops));
	memset(c->rate_min, 0, sizeof(c->rate_min));
	memset(c->rate_iops_min, 0, sizeof(c->rate_iops_min));
	memset(c->max_latency_us, 0, sizeof(c->max_latency_us));
	c->thinktime_us = 0;
	c->latency_target_us = 0;
	c->verify = 0;
	c->verify_only = false;
	c->verify_backlog = 0;
	c->verify_state_save = c->verify_state_load = false;
	/* nothing that ends it early, touches files or prints */
	c->ss_dur_us = 0;
	c->unlink_each_loop = false;
	c->openfiles = 0;
	c->error_dump = false;
	c->iomem = IB_IOMEM_MALLOC;	/* mmap:FILE would make the file */
	c->iomem_file = "";
	c->wait_for = "";
}

/*
 * Deeper queues cost about the same per I/O, but their buffers, allocated
 * and filled with data at each round's start, took seconds (iodepth=65536:
 * 256 MiB, five times): the copy's depth keeps them within CALIB_BUF_BYTES.
 */
#define CALIB_BUF_BYTES (16u << 20)

static void cap_depth(struct ib_job *c)
{
	uint64_t unit = ib_bufs_unit_size(c), cap = CALIB_BUF_BYTES / (unit ? unit : 4096);

	if (!cap)
		cap = 1;
	if (c->iodepth <= cap)
		return;
	c->iodepth = (unsigned int)cap;
	if (c->iodepth_low > c->iodepth)
		c->iodepth_low = c->iodepth;
	if (c->iodepth_batch_submit > c->iodepth)
		c->iodepth_batch_submit = c->iodepth;
	if (c->iodepth_batch_complete_min > c->iodepth)
		c->iodepth_batch_complete_min = c->iodepth;
	if (c->iodepth_batch_complete_max > c->iodepth)
		c->iodepth_batch_complete_max = c->iodepth;
}

/*
 * One round: the CPU time the job's thread spent per I/O over its measured
 * run (not its set-up, and not the wall time, which another busy program
 * on the machine would inflate).
 */
static int run_null(struct ib_worker_args *a, double *ns, struct ib_diag *d)
{
	struct ib_job_stats *st = a->st;
	uint64_t ios = 0;
	unsigned int k;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = ib_worker_run(a);
	if (ret)
		return ib_diag_set(d, -ret, "calibration: %s", st->error_where);
	for (k = 0; k < IB_DDIR_RWT; k++)
		ios += st->dir[k].total_ios;
	if (!ios || !st->cpu_ns)
		return ib_diag_set(d, EIO, "calibration: no I/O done");
	*ns = (double)st->cpu_ns / (double)ios;
	return 0;
}

void ib_calib_job(struct ib_job *c, const struct ib_job *job, uint64_t budget_us)
{
	null_copy(c, job, budget_us);
	cap_depth(c);
}

int ib_calib_tool(const struct ib_job *job, const struct ib_clock *clock,
		  uint64_t budget_us, double *ns, struct ib_diag *d)
{
	static const volatile sig_atomic_t never;
	struct ib_worker_args a;
	struct ib_job *c = malloc(sizeof(*c));
	unsigned int r;
	double one = 0;
	int ret;

	memset(&a, 0, sizeof(a));
	a.st = calloc(1, sizeof(*a.st));
	if (!c || !a.st) {
		free(c);
		free(a.st);
		return ib_diag_set(d, ENOMEM, "calibration: no memory");
	}
	ib_calib_job(c, job, budget_us / CALIB_ROUNDS);
	a.job = c;
	a.ops = ib_engine_find("null");
	a.clock = *clock;
	a.stop = &never;
	ret = ib_files_resolve(c, &a.files, d);
	if (!ret)
		ret = ib_files_virtual(c, &a.files, d);
	for (r = 0; !ret && r < CALIB_ROUNDS; r++) {
		ret = run_null(&a, &one, d);
		if (!ret && (!r || one < *ns))
			*ns = one;
	}
	ib_files_free(&a.files);
	free(a.st);
	free(c);
	return ret;
}
