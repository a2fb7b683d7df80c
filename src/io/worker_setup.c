// SPDX-License-Identifier: GPL-2.0-only
/*
 * One job clone's setup and teardown: startdelay, lockmem, files, units
 * and buffers (buf.c), the source (generator, replay, verify), logs, the
 * engine and the loop; at the end, the job's numbers, then everything
 * closed and freed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "procopts.h"
#include "worker_priv.h"

static int lock_memory(struct worker *w, struct ib_diag *d)
{
	if (!w->job->lockmem)
		return 0;
	w->lockmem = mmap(NULL, w->job->lockmem, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->lockmem == MAP_FAILED) {
		w->lockmem = NULL;
		return ib_diag_set(d, errno, "lockmem: cannot map %llu bytes: %s",
				   (unsigned long long)w->job->lockmem, strerror(errno));
	}
	if (mlock(w->lockmem, w->job->lockmem) < 0)
		return ib_diag_set(d, errno,
				   "lockmem: mlock of %llu bytes failed: %s (see ulimit -l)",
				   (unsigned long long)w->job->lockmem, strerror(errno));
	return 0;
}

void worker_wait_startdelay(struct worker *w)
{
	uint64_t end = ib_clock_ns(&w->clock) + w->job->startdelay_us * 1000;

	while (!*w->stop && ib_clock_ns(&w->clock) < end)
		usleep(10000);
}

static int engine_init(struct worker *w, struct ib_diag *d)
{
	const char *why = w->ctx.errmsg;
	int ret;

	w->ctx.errmsg[0] = '\0';
	w->ctx.setup[0] = '\0';
	ret = w->ops->init(&w->ctx);
	if (!ret) {
		snprintf(w->st->engine_setup, sizeof(w->st->engine_setup), "%s",
			 w->ctx.setup);
		return 0;
	}
	if (!why[0])
		why = strerror(-ret);
	if (ib_engine_unavailable(ret))
		return ib_diag_set(d, ret, "ioengine=%s: not available on this system (%s)",
				   w->ops->name, why);
	if (ret == -ENOMEM && w->job->engine.fixedbufs)
		return ib_diag_set(d, ret,
				   "ioengine=%s: cannot register %u buffers of %zu bytes (fixedbufs): RLIMIT_MEMLOCK too low? (ulimit -l): %s",
				   w->ops->name, ib_ctx_nr_bufs(&w->ctx), w->ctx.buf_size, why);
	return ib_diag_set(d, ret, "ioengine=%s: init failed: %s", w->ops->name, why);
}

/* The logs the job's samples go to: none with stats=0, whose log files
 * stay empty as fio's. */
static struct ib_logs *worker_logs(struct worker *w)
{
	return w->job->stats ? &w->logs : NULL;
}

static int loop_init(struct worker *w, struct ib_diag *d)
{
	struct ib_loop_cfg cfg = {
		.job = w->job, .ops = w->ops, .ctx = &w->ctx,
		.src = w->job->replay.iolog[0] ? ib_replay_source(&w->replay) :
					       ib_iogen_source(&w->gen),
		.st = w->st, .bufs = &w->bufs,
		.iolog = &w->iolog, .logs = worker_logs(w), .stop = w->stop,
		.status = w->status,
		.clock = &w->clock, .lat_on = w->lat_on,
		.hooks = { .tick = worker_tick_hook, .sync = worker_sync_hook,
			   .file_sync = worker_file_sync_hook }, .arg = w,
		.serialize = w->job->serialize_overlap,
	};

	if (w->limited) {
		ib_files_src_init(&w->fsrc, &w->gen, w->fs, w->job, w->readonly,
				  &w->loop.inflight, &w->iolog);
		w->fsrc.live_open = &w->st->live.nr_files_open;
		cfg.src = ib_files_src_source(&w->fsrc);
	}
	if (w->paced_on) {
		cfg.src = ib_paced_source(&w->paced);
		cfg.colat_on = w->st->paced;
		cfg.spin_ns = w->job->rate.spin_us * 1000;
		w->rate_min = ib_job_has_rate_min(w->job);
		w->colat = w->st->paced && w->job->rate.mode == 0;
	}
	w->limits = w->rate_min || w->job->rate.max_latency_us[IB_DDIR_READ] ||
		    w->job->rate.max_latency_us[IB_DDIR_WRITE] ||
		    w->job->rate.max_latency_us[IB_DDIR_TRIM] || w->job->rate.latency_target_us;
	if (w->verify) { /* verify blocks instead of buffer data */
		cfg.src = ib_vrun_write_source(&w->vr);
		cfg.bufs = NULL;
		cfg.hooks.prep = worker_prep_hook;
		/* two overlapping writes in flight leave either one's data:
		 * a verify job never races its own blocks */
		cfg.serialize |= (w->job->rw & IB_RW_WRITE) && !w->job->verify.only;
	}
	if (!(w->ops->flags & IB_ENGINE_NOFILES)) { /* nothing to sync otherwise */
		cfg.sync_every = w->job->fsync_every ? w->job->fsync_every :
			w->job->fdatasync_every ? w->job->fdatasync_every : w->job->sfr_every;
		if (cfg.sync_every && worker_written_init(w))
			return ib_diag_set(d, ENOMEM, "no memory for %u files' written ranges",
					   w->fs->nr);
	}
	if (w->verify || w->limits || w->written)
		cfg.hooks.done = worker_done_hook;
	return ib_loop_init(&w->loop, &cfg, d);
}

/* read_iolog=: the trace the parent checked (stdin: its copy, from 0). */
static int replay_init(struct worker *w, struct ib_diag *d)
{
	if (ib_replay_names_stdin(w->job->replay.iolog))
		lseek(STDIN_FILENO, 0, SEEK_SET);
	return ib_replay_init(&w->replay, w->job, w->fs->nr, d);
}

/* A replay's timing into the stats; a trace that failed fails the job. */
void worker_replay_finish(struct worker *w)
{
	if (!w->job->replay.iolog[0])
		return;
	w->st->replay = w->replay.st;
	if (w->replay.error)
		ib_loop_fail(&w->loop, w->replay.error, w->replay.diag.msg);
}

/* verify= wraps the job's source: the generator's passes are its budget
 * per loop; a trace replay, its loops= passes included, is one. With a
 * rate, the paced generator: the writes keep the rate, the verify reads
 * do not (fio's). */
static int verify_init(struct worker *w, struct ib_diag *d)
{
	char path[4200];
	int ret;

	if (w->job->replay.iolog[0])
		ret = ib_vrun_init(&w->vr, w->job, &w->ctx,
				   ib_replay_source(&w->replay), UINT64_MAX, d);
	else
		ret = ib_vrun_init(&w->vr, w->job, &w->ctx,
				   w->paced_on ? ib_paced_source(&w->paced) :
						 ib_iogen_source(&w->gen),
				   w->gen.bytes_left == UINT64_MAX ? UINT64_MAX :
				   w->gen.bytes_left / w->job->loops, d);
	if (ret)
		return ret;
	ib_vstate_name(w->job, path, sizeof(path));
	if (w->vr.keep_all && access(".", W_OK) < 0) /* before any I/O */
		return ib_diag_set(d, errno, "verify_state_save: cannot write %s in the working directory: %s (verify_state_save=0 turns it off)",
				   path, strerror(errno));
	if (!w->job->verify.state_load)
		return 0;
	return ib_vstate_load(&w->vr, path, d);
}

/* verify_state_save: what the job wrote, at its end (drained). A file
 * that cannot be written fails the job, as a log that cannot. */
void worker_save_vstate(struct worker *w)
{
	char path[4200];
	int ret;

	if (!w->verify || !w->vr.keep_all)
		return;
	ib_vstate_name(w->job, path, sizeof(path));
	ret = ib_vstate_save(&w->vr, path, &w->diag);
	if (ret < 0 && !w->st->error) {
		w->st->error = -ret;
		fmt_into(w->st->error_where, sizeof(w->st->error_where), "%s",
			 w->diag.msg);
	}
}

/* The offset generator, and what it will do for the status line. */
static int gen_init(struct worker *w, struct ib_diag *d)
{
	int ret = ib_iogen_init(&w->gen, w->job, w->fs->f, w->fs->nr, d);
	uint64_t plan, room;

	if (ret)
		return ret;
	if (w->gen.maps_dropped) /* the job goes on: a warning, as fio's */
		fprintf(stderr, "iobench: job '%s': no memory for the random map of %u of its files: their offsets are drawn with replacement (softrandommap)\n",
			w->job->name, w->gen.maps_dropped);
	plan = ib_iogen_plan(&w->gen);
	/* fill_device: the regions are larger than the room the writes find */
	room = w->job->fill_device && ib_job_writes(w->job) ? ib_fill_plan(w->fs) : 0;
	if (room && plan && room < plan)
		plan = room;
	__atomic_store_n(&w->st->live.plan_bytes, plan, __ATOMIC_RELAXED);
	return 0;
}

int worker_setup(struct worker *w, struct ib_worker_args *a, struct ib_diag *d)
{
	const struct ib_job *job = a->job;
	unsigned int depth;
	int ret;

	w->ops = a->ops ? a->ops : ib_engine_find(job->ioengine);
	if (!w->ops)
		return ib_diag_set(d, EINVAL, "ioengine=%s: unknown engine",
				   job->ioengine);
	depth = (w->ops->flags & IB_ENGINE_SYNC) ? 1 : job->iodepth;
	ret = ib_proc_setup(job, d);
	if (!ret)
		ret = lock_memory(w, d);
	w->limited = !(w->ops->flags & IB_ENGINE_NOFILES) &&
		     ib_files_limited(job, w->fs);
	if (!ret && w->limited)
		ret = ib_files_open_limited(job, w->fs, a->readonly, d);
	else if (!ret && !(w->ops->flags & IB_ENGINE_NOFILES))
		ret = ib_files_open(job, w->fs, a->readonly, d);
	if (!ret && !w->limited && !(w->ops->flags & IB_ENGINE_NOFILES) &&
	    !job->create_only)
		ret = ib_files_cache_setup(job, w->fs, d);
	if (ret)
		return ret;
	__atomic_store_n(&w->st->live.nr_files_open, w->limited ? 0 : w->fs->nr,
			 __ATOMIC_RELAXED);
	w->st->noatime_files = ib_files_noatime(w->fs);
	w->ctx.job = job;
	w->ctx.files = w->fs->f;
	w->ctx.nr_files = w->fs->nr;
	ret = ib_bufs_alloc(&w->bufs, &w->ctx, job, depth, d);
	w->st->read_buffers_apart = w->ctx.buf_areas > 1;
	if (!ret && job->dedupe_global)
		ib_bufs_dedupe_global(&w->bufs, job, a->nr_jobs);
	if (!ret && job->replay.iolog[0])
		ret = replay_init(w, d);
	else if (!ret)
		ret = gen_init(w, d);
	w->verify = !ret && ib_vrun_wanted(job, w->ops);
	if (w->verify)
		ret = verify_init(w, d);
	if (!ret)
		ret = ib_iolog_open(&w->iolog, job, w->fs, d);
	if (!ret)
		ret = ib_logs_open(&w->logs, job, d);
	if (!ret)
		ret = engine_init(w, d);
	if (!ret)
		ret = loop_init(w, d);
	w->vr.loop = &w->loop;
	if (!ret && job->rate.latency_target_us)
		worker_lat_setup(w, depth);
	return ret;
}

/* Each rated direction's lateness into its stats' histogram. */
/* ms on clock `id` now, as fio 3.42's JSON "job_start" (validated id). */
static int64_t job_start_ms(unsigned int id)
{
	struct timespec ts = { 0, 0 };

	clock_gettime((clockid_t)id, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void late_hists(struct worker *w)
{
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		if (ib_pace_rated(&w->paced.pace, (enum ib_ddir)d))
			w->paced.late_hist[d] = &w->st->dir[d].late_hist;
}

void worker_start_clock(struct worker *w)
{
	uint64_t now = ib_clock_ns(&w->clock);

	w->job_start_ns = now;
	w->loop.last_ns = now;
	if (w->paced_on) {
		struct ib_pace_cfg pc;

		ib_pace_cfg_from_job(&pc, w->job);
		ib_paced_init(&w->paced, &pc, ib_iogen_source(&w->gen),
			      &w->loop.inflight, w->loop.cum_ios, now);
		late_hists(w);
	}
	w->st->start_time = (int64_t)time(NULL);
	w->st->job_start_ms = job_start_ms(w->job->job_start_clock_id);
	__atomic_store_n(&w->st->live.start_ns, now, __ATOMIC_RELAXED);
	worker_ss_start(w, now);
	if (w->job->ramp_time_us || w->job->ramp_size) {
		/* ramp_size: its bytes are looked at once a second (fio) */
		w->ramp_end_ns = now + (w->job->ramp_size ? 1000000000ull :
					w->job->ramp_time_us * 1000);
		w->start_ns = now;	/* the runtime of a job that ends in it */
		worker_set_wake(w);
		set_state(w, IB_ST_RAMP);
	} else {
		worker_end_ramp(w, now);
	}
	w->measured = true;	/* the I/O starts */
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

/*
 * The lateness counters into the stats; the I/Os never started are the
 * ones due by the run's end (its runtime's end, not when the worker got
 * round to finishing: a job held off the CPU at its end finishes later).
 */
static void copy_lateness(struct worker *w, uint64_t end)
{
	const struct ib_pace_dir *pd;
	int d;

	if (w->end_ns && w->end_ns < end)
		end = w->end_ns;
	for (d = 0; d < IB_DDIR_RWT; d++) {
		/*
		 * Only a direction the job does: rate_iops=N rates reads and
		 * writes alike, and a read job's write side, never drawn, is
		 * "due" since its start (2 s at 2000/s: 4001), which the
		 * report hides per job but group_reporting and the
		 * "All clients" sums added in.
		 */
		if (w->st->paced && !w->paced.inner_end && ib_job_dir_active(w->job, d))
			w->st->dir[d].unstarted =
				ib_paced_unstarted(&w->paced, (enum ib_ddir)d, end);
		pd = &w->paced.pace.dir[d];
		w->st->dir[d].late_ios = pd->late;
		w->st->dir[d].late_sum_ns = pd->late_sum_ns;
		w->st->dir[d].late_max_ns = pd->late_max_ns;
		w->st->dir[d].backlog_max = pd->backlog_max;
	}
}

void worker_finish_stats(struct worker *w)
{
	struct ib_job_stats *st = w->st;
	uint64_t end = ib_clock_ns(&w->clock), us = (end - w->start_ns) / 1000;
	struct rusage ru;
	int d;

	/*
	 * A job that ends inside its ramp reports its I/O over the time it
	 * ran and none of its latencies, as fio (ramp_time=2 with a 50 ms
	 * job: runtime 50 ms, not 0).
	 */
	if (w->ramp_end_ns)
		ib_stats_drop_lat(st);
	getrusage(RUSAGE_THREAD, &ru);
	st->usr_us = tv_us(&ru.ru_utime) - tv_us(&w->ru0.ru_utime);
	st->sys_us = tv_us(&ru.ru_stime) - tv_us(&w->ru0.ru_stime);
	st->cpu_ns = worker_thread_cpu_ns() - w->cpu0_ns;
	st->ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw - w->ru0.ru_nvcsw -
			     w->ru0.ru_nivcsw);
	st->majf = (uint64_t)(ru.ru_majflt - w->ru0.ru_majflt);
	st->minf = (uint64_t)(ru.ru_minflt - w->ru0.ru_minflt);
	for (d = 0; d < IB_DDIR_RWT; d++)
		if (st->dir[d].total_ios)
			st->dir[d].runtime_us = us ? us : 1;
	if (w->verify && ib_job_writes(w->job))
		for (d = 0; d < 2; d++) /* each phase its own runtime (fio) */
			if (st->dir[d].total_ios)
				st->dir[d].runtime_us = w->phase_ns[d] / 1000 ?
							w->phase_ns[d] / 1000 : 1;
	st->job_runtime_ms = us / 1000;
	if (w->paced_on)
		copy_lateness(w, end);
	st->elapsed_s = (end - w->job_start_ns + 999999999ull) / 1000000000ull;
	if (!w->ramp_end_ns)
		ib_sampler_finish(&w->smp, st, w->job, worker_logs(w), end);
	ib_ss_finish(&st->ss);
}

void worker_teardown(struct worker *w)
{
	if (w->ops && w->ops->cleanup && w->ctx.ios)
		w->ops->cleanup(&w->ctx);
	if (ib_logs_close(&w->logs, &w->diag) < 0 && !w->st->error) {
		w->st->error = EIO;
		fmt_into(w->st->error_where, sizeof(w->st->error_where), "%s",
			 w->diag.msg);
	}
	if (ib_iolog_close(&w->iolog, w->fs, &w->diag) < 0 && !w->st->error) {
		w->st->error = EIO;
		fmt_into(w->st->error_where, sizeof(w->st->error_where), "%s",
			 w->diag.msg);
	}
	ib_iogen_free(&w->gen);
	ib_replay_free(&w->replay);
	ib_vrun_free(&w->vr);
	free(w->written);
	w->written = NULL;
	ib_files_close(w->job, w->fs);
	__atomic_store_n(&w->st->live.nr_files_open, 0, __ATOMIC_RELAXED);
	ib_loop_free(&w->loop);
	ib_bufs_free(&w->ctx);
	if (w->lockmem)
		munmap(w->lockmem, w->job->lockmem);
}
