// SPDX-License-Identifier: GPL-2.0-only
/*
 * The evidence the validity checks judge by (evidence.h, checks.h): filled
 * by the parent before and after each batch of jobs, from the probes
 * (probe.h) and the environment (env.h).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "iobench/evidence.h"
#include "iobench/jobseed.h"
#include "iobench/options.h"
#include "probe.h"
#include "iobench/rand.h"

#define SAMPLE_LEN (2 * IB_PROBE_COMPRESS_BLOCK)
#define RESIDENT_MAX (1ull << 30)	/* mincore at most the first GiB */

/* voluntary_ctxt_switches of /proc/PID/status (0 if unreadable) */
static uint64_t vol_switches(int pid)
{
	unsigned long long v = 0;
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

void ib_evidence_sched(struct ib_evidence *ev, int pid, uint64_t fork_ns)
{
	unsigned long long run, wait;
	char path[64];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	if (n != 2)
		return;
	ev->sched_ok = true;
	ev->sched_run_ns = run;
	ev->sched_wait_ns = wait;
	ev->sched_wall_ns = ib_now_ns() - fork_ns;
	ev->vol_switches = vol_switches(pid);
}

#define SERIES_MS 1000u

void ib_evidence_series_start(struct ib_evidence *ev, uint64_t now_ns)
{
	ev->series_ms = SERIES_MS;
	ev->series_n = 0;
	ev->series_last = 0;
	ev->series_next_ns = now_ns + SERIES_MS * 1000000ull;
}

static void series_halve(struct ib_evidence *ev)
{
	uint32_t k;

	for (k = 0; k < ev->series_n / 2; k++)
		ev->series[k] = ev->series[2 * k] + ev->series[2 * k + 1];
	ev->series_n /= 2;
	ev->series_ms *= 2;
}

void ib_evidence_series_sample(struct ib_evidence *ev, uint64_t now_ns, uint64_t ios)
{
	if (!ev->series_ms)
		return;
	while (now_ns >= ev->series_next_ns) {
		ev->series[ev->series_n++] = ios - ev->series_last;
		ev->series_last = ios;
		if (ev->series_n == IB_EV_SERIES)
			series_halve(ev);
		ev->series_next_ns += (uint64_t)ev->series_ms * 1000000ull;
	}
}

uint64_t ib_evidence_draw_seed(void)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
		s = (uint64_t)(uintptr_t)&s ^ 0x9e3779b97f4a7c15ull;
	return s;
}

static void copy_str(char *dst, const char *src)
{
	snprintf(dst, IB_ENV_STR, "%s", src);
}

static void target_facts(struct ib_evidence *ev, const struct ib_env_target *t)
{
	ev->target_kind = (int)t->kind;
	copy_str(ev->disk, t->disk[0] ? t->disk : t->dev);
	copy_str(ev->fstype, t->fstype);
	ev->zram = t->zram == 1;
	ev->loop = t->loop == 1;
	ev->write_cache = ib_probe_write_cache_on(t);
}

static void target(struct ib_evidence *ev, const char *path, const struct ib_env *env)
{
	struct ib_env_target *t;
	unsigned int i;

	for (i = 0; env && i < env->nr_targets; i++)
		if (!strcmp(env->target[i].path, path)) {
			target_facts(ev, &env->target[i]);
			return;
		}
	t = calloc(1, sizeof(*t));
	if (!t)
		return;
	ib_env_target(t, path, NULL);
	target_facts(ev, t);
	free(t);
}

/* What the job's writes carry, compressed (buf.h's two cases). */
static double compress_sample(const struct ib_job *job)
{
	unsigned char buf[SAMPLE_LEN];
	struct ib_rand r;

	if (job->zero_buffers) {
		memset(buf, 0, sizeof(buf));
	} else {
		ib_rand_seed(&r, ib_rand_job_seed(job, IB_STREAM_DATA));
		ib_rand_fill(&r, buf, sizeof(buf));
	}
	return ib_probe_compress_ratio(buf, sizeof(buf));
}

static unsigned int cpus_allowed(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	return (unsigned int)CPU_COUNT(&set);
}

static void seeds(struct ib_evidence *ev, const struct ib_job *job)
{
	ev->seed_source = job->randseed_set ? IB_SEED_GIVEN : IB_SEED_REPEAT;
	ev->seed = job->randseed;
	ev->seed_offset = ib_rand_job_seed(job, IB_STREAM_OFFSET);
	ev->seed_ddir = ib_rand_job_seed(job, IB_STREAM_DDIR);
	ev->seed_bs = ib_rand_job_bs_seed(job, IB_DDIR_READ);	/* write, trim: 1, 2 */
}

/* I/Os issued on a schedule: a low achieved depth is what was asked. */
static bool paced(const struct ib_job *job)
{
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		if (job->rate.iops[d] || job->rate.bps[d])
			return true;
	return job->rate.thinktime_us || (job->replay.iolog && job->replay.iolog[0] && !job->replay.no_stall);
}

void ib_evidence_job(struct ib_evidence *ev, const struct ib_job *job,
		     const struct ib_files *fs, const struct ib_engine_ops *ops,
		     const struct ib_env *env)
{
	bool noio = ops && (ops->flags & (IB_ENGINE_NOIO | IB_ENGINE_NOFILES));

	memset(ev, 0, sizeof(*ev));
	ev->valid = true;
	ev->write_cache = -1;
	ev->compress_ratio = -1.0;
	ev->cpus = cpus_allowed();
	if (env)
		copy_str(ev->governor, env->governor);
	ev->sync_engine = ops && (ops->flags & IB_ENGINE_SYNC);
	ev->time_based = job->time_based;
	ev->runtime_us = job->runtime_us;
	ev->ramp_time_us = job->ramp_time_us;
	ev->ramp_size = job->ramp_size;
	ev->paced = paced(job);
	ev->verify_only = job->verify.only;
	ev->fsyncs = job->fsync_every || job->fdatasync_every || job->end_fsync ||
		     job->sync_io != IB_SYNC_IO_NONE;
	ev->percentiles_given = ib_opts_text_get(job->opts_text, job->opts_len,
						"percentile_list") != NULL;
	/* iobench's own batching is no claim to check (chk_batch) */
	ev->iodepth_batch = job->batch_submit_given ? job->iodepth_batch_submit : 0;
	seeds(ev, job);
	if (ib_job_writes(job))
		ev->compress_ratio = compress_sample(job);
	if (!noio && fs->nr)
		target(ev, fs->f[0].path, env);
}

static void alloc_before(struct ib_evidence *ev, const struct ib_file *f)
{
	struct ib_probe_alloc a;
	struct ib_probe_zram z;
	struct ib_diag d;
	int ret;

	if (ev->zram) {
		if (ib_probe_zram(NULL, ev->disk, &z) < 0 || !z.disksize)
			return;
		ev->alloc_size = z.disksize;
		ev->alloc_data = z.orig_data_size < z.disksize ? z.orig_data_size : z.disksize;
		ev->alloc_ok = true;
		return;
	}
	if (ev->loop)
		ret = ib_probe_loop_allocated(NULL, ev->disk, f->io_offset, f->io_size, &a, &d);
	else if (ev->target_kind == IB_ENV_FILE)
		ret = ib_probe_allocated(f->path, f->io_offset, f->io_size, &a, &d);
	else
		return;
	if (ret < 0 || !a.size)
		return;
	ev->alloc_size = a.size;
	ev->alloc_data = a.data;
	ev->alloc_ok = true;
}

void ib_evidence_before(struct ib_evidence *ev, const struct ib_files *fs,
			struct ib_disk_stat *dev_start)
{
	struct ib_probe_resident r;
	const struct ib_file *f;
	struct ib_diag d;
	uint64_t len;

	if (!ev->valid || !fs->nr || ev->target_kind == IB_ENV_MISSING)
		return;
	f = &fs->f[0];
	len = f->io_size < RESIDENT_MAX ? f->io_size : RESIDENT_MAX;
	if (len && ib_probe_resident(f->path, f->io_offset, len, &r, &d) == 0) {
		ev->resident_ok = true;
		ev->resident_pages = r.resident;
		ev->range_pages = r.pages;
	}
	alloc_before(ev, f);
	ev->dev_ok = ev->disk[0] && ib_probe_disk_stat(NULL, ev->disk, dev_start) == 0;
}

void ib_evidence_before_as(struct ib_evidence *ev, const struct ib_evidence *from)
{
	if (!ev->valid)
		return;
	ev->resident_ok = from->resident_ok;
	ev->resident_pages = from->resident_pages;
	ev->range_pages = from->range_pages;
	ev->alloc_ok = from->alloc_ok;
	ev->alloc_size = from->alloc_size;
	ev->alloc_data = from->alloc_data;
	ev->dev_ok = from->dev_ok;
}

void ib_evidence_after(struct ib_evidence *ev, const struct ib_disk_stat *dev_start)
{
	struct ib_disk_stat now, delta;

	if (!ev->dev_ok)
		return;
	if (ib_probe_disk_stat(NULL, ev->disk, &now) < 0) {
		ev->dev_ok = false;
		return;
	}
	ib_probe_disk_delta(dev_start, &now, &delta);
	ev->dev_read_bytes = delta.sectors[0] * 512;
	ev->dev_write_bytes = delta.sectors[1] * 512;
}
