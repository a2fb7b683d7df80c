// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-calibration (evidence.h): what a clock read and iobench's own work
 * per I/O cost on this machine, measured in the parent before the jobs
 * start, on the null engine with the job's settings.
 */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iobench/job_setup.h"
#include "iobench/buf.h"
#include "iobench/compiler.h"
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

#define KEEP(m) { offsetof(struct ib_job, m), sizeof(((struct ib_job *)0)->m) }

/*
 * What the calibration copy takes from the job: the fields that shape the
 * tool's work per I/O (the I/O stream, its block sizes and random offsets,
 * the queue and its batching, the buffers' data, syncs, what is measured),
 * and what the stream's seeds and default file names are made of (name,
 * number, clone). Everything else is the default job's: no logs, files,
 * rate, think time, verify, placement, commands or early end. A new option
 * stays out of calibration unless it is added here.
 */
const struct ib_job_field ib_calib_keep[] = {
	KEEP(name), KEEP(clone), KEEP(numjobs), KEEP(number),
	/* the stream */
	KEEP(rw), KEEP(rwmixread), KEEP(bs), KEEP(bs_unaligned), KEEP(bssplit),
	KEEP(rw_seq_add), KEEP(rw_seq_nr), KEEP(rw_seq_identical),
	KEEP(size), KEEP(offset_increment), KEEP(offset_align),
	KEEP(rand_dist), KEEP(rand_param), KEEP(rand_center), KEEP(zones),
	KEEP(pct_random), KEEP(allrandrepeat), KEEP(randrepeat),
	KEEP(randseed_set), KEEP(randseed), KEEP(norandommap), KEEP(rand_gen),
	/* the buffers */
	KEEP(direct), KEEP(zero_buffers), KEEP(refill_buffers),
	KEEP(scramble_buffers), KEEP(scramble_given), KEEP(buffer_pattern),
	KEEP(compress_pct), KEEP(compress_chunk), KEEP(dedupe_pct),
	KEEP(dedupe_mode), KEEP(dedupe_ws_pct), KEEP(dedupe_global),
	/* the queue */
	KEEP(iodepth), KEEP(iodepth_batch_submit),
	KEEP(iodepth_batch_complete_min), KEEP(iodepth_batch_complete_max),
	KEEP(batch_submit_given), KEEP(batch_complete_max_given),
	KEEP(iodepth_low), KEEP(serialize_overlap),
	KEEP(fsync_every), KEEP(fdatasync_every), KEEP(thread),
	/* what each I/O records */
	KEEP(gtod_reduce), KEEP(disable_lat), KEEP(disable_clat),
	KEEP(disable_slat), KEEP(disable_bw), KEEP(clat_percentiles),
	KEEP(lat_percentiles), KEEP(slat_percentiles), KEEP(nr_percentiles),
	KEEP(percentiles), KEEP(bwavgtime_ms), KEEP(iopsavgtime_ms),
	KEEP(unified_rw_rep),
};
const unsigned int ib_calib_nr_keep = IB_ARRAY_SIZE(ib_calib_keep);

/*
 * The job as the null engine runs it for budget_us: the default job with
 * the fields above, on one virtual file (1 GiB unless sized).
 */
static void null_copy(struct ib_job *c, const struct ib_job *job, uint64_t budget_us)
{
	unsigned int i;

	ib_job_defaults(c);
	for (i = 0; i < ib_calib_nr_keep; i++)
		memcpy((char *)c + ib_calib_keep[i].off,
		       (const char *)job + ib_calib_keep[i].off, ib_calib_keep[i].size);
	c->strs = job->strs;
	c->ioengine = "null";
	c->time_based = true;
	c->runtime_us = budget_us;
	if (!c->size)
		c->size = 1ull << 30;
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

/*
 * One buffer over the cap: its allocation and fill alone outlast the
 * budget (bs=1g: 6.5 s a round, 33 s in all, before a job that then
 * failed for want of memory), and no I/O would end within a round. Such a
 * job goes uncalibrated.
 */
static int calib_fits(const struct ib_job *c, struct ib_diag *d)
{
	size_t unit = ib_bufs_unit_size(c);

	if (unit <= CALIB_BUF_BYTES)
		return 0;
	return ib_diag_set(d, EFBIG, "calibration: buffers of %zu bytes are "
			   "over its %u", unit, CALIB_BUF_BYTES);
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
	ret = calib_fits(c, d);
	if (ret) {
		free(c);
		free(a.st);
		return ret;
	}
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
