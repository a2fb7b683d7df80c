// SPDX-License-Identifier: GPL-2.0-only
/*
 * One job clone from start to end: startdelay, lockmem, files, units and
 * buffers (buf.c), the engine, then the job loop (loop.c) over the offset
 * generator with the job's phases around it: ramp time, runtime, fsync=N,
 * end_fsync, and the final per-job numbers (runtime, rusage, samples).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include "iobench/buf.h"
#include "iobench/exec.h"
#include "procopts.h"
#include "iobench/clock.h"
#include "iobench/iogen.h"
#include "iobench/iolog.h"
#include "src/io/gen/latsearch.h"
#include "iobench/ioerr.h"
#include "iobench/log.h"
#include "iobench/loop.h"
#include "iobench/replay.h"
#include "iobench/sampler.h"
#include "src/io/source/source_files.h"
#include "iobench/source_paced.h"
#include "src/io/verify/vrun.h"
#include "iobench/worker.h"

struct worker {
	const struct ib_job *job;
	struct ib_job_stats *st;
	struct ib_files *fs;
	const struct ib_engine_ops *ops;
	struct ib_engine_ctx ctx;
	struct ib_iogen gen;
	struct ib_replay replay;	/* read_iolog= jobs: the source */
	struct ib_bufs bufs;
	struct ib_iolog iolog;
	struct ib_logs logs;
	struct ib_sampler smp;
	struct ib_loop loop;
	struct ib_paced paced;		/* a rate or think time (pace.h) */
	struct ib_files_src fsrc;	/* openfiles=N (source_files.h) */
	bool limited;
	bool paced_on;
	bool rate_min;			/* rate_min or rate_iops_min: checked */
	bool colat;			/* open loop with a rate: from due_ns */
	struct ib_latsearch ls;		/* latency_target */
	uint64_t ls_end_ns, ls_ios, ls_over;
	bool ls_on;
	bool limits;			/* done_hook checks rate_min/max_latency/target */
	struct ib_vrun vr;		/* verify= (vrun.h) */
	bool verify;
	uint64_t phase_ns[2];		/* verify: time in write, verify phases */
	const volatile sig_atomic_t *stop;
	struct ib_clock clock;
	bool lat_on;
	bool readonly;
	bool exec_to_stderr;	/* exec_*run: the commands' output to stderr */
	bool measured;		/* I/O ran: a restart zeroes the stats */

	void *lockmem;
	uint64_t start_ns;		/* measured period start (after ramp) */
	uint64_t job_start_ns;
	uint64_t ramp_end_ns;		/* 0: no ramp (or over) */
	uint64_t end_ns;		/* 0: no runtime limit */
	bool ss_on;			/* steady state: sampling (steadystate.h) */
	uint64_t ss_next_ns, ss_prev_ns, ss_prev_ios, ss_prev_bytes;
	struct rusage ru0;
	uint64_t cpu0_ns;	/* thread CPU time at the measure's start */
	struct ib_diag diag;
};

static void set_state(struct worker *w, uint32_t state)
{
	__atomic_store_n(&w->st->live.state, state, __ATOMIC_RELAXED);
}

static uint32_t run_letter(const struct ib_job *job)
{
	bool rnd = ib_job_random(job);

	if ((job->rw & IB_RW_READ) && (job->rw & IB_RW_WRITE) &&
	    job->rwmixread != 0 && job->rwmixread != 100)
		return rnd ? 'm' : 'M';
	if ((job->rw & IB_RW_READ) && job->rwmixread != 0)
		return rnd ? 'r' : 'R';
	return rnd ? 'w' : 'W';
}

/* Bounded formatting into a fixed field; truncation is fine there. */
static void ib_printf_fmt(3, 4) fmt_into(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

/* --- sync -------------------------------------------------------------- */

/*
 * A failed fsync/fdatasync (fsync=, fdatasync=) is a write error (fio's
 * rule), completed inline. end_fsync's always fails the job uncounted, as
 * in fio. Returns true when the job goes on.
 */
static bool sync_error(struct worker *w, const struct ib_file *f, int err,
		       bool at_end)
{
	bool count = false, go_on = false;
	char where[256] = "", what[128];

	if (!at_end)
		go_on = ib_err_decide(w->job, IB_DDIR_SYNC, err, true, &count);
	if (ib_loop_error_text_needed(&w->loop, count, go_on))
		fmt_into(where, sizeof(where), "%s file=%s: %s",
			 at_end ? "end_fsync" : "sync", f->path,
			 ib_strerror_named(err, what, sizeof(what)));
	if (go_on)
		ib_loop_dump_error(&w->loop, IB_DDIR_SYNC, err, 0, 0, f->path);
	ib_loop_error(&w->loop, err, count, go_on, where);
	return go_on;
}

/*
 * One fsync or fdatasync of f, logged (write_iolog action: act, at off)
 * and timed; at_end: end_fsync, which the statistics leave out. The null
 * engine syncs nothing, as it does no I/O. Returns whether the job goes on.
 */
static bool sync_one(struct worker *w, const struct ib_file *f, bool datasync,
		     unsigned int act, uint64_t off, bool at_end)
{
	uint64_t t0 = ib_clock_ns(&w->clock), t1;
	int ret = 0;

	ib_iolog_io(&w->iolog, f, act, off, 0, t0);
	if (!(w->ops->flags & IB_ENGINE_NOIO) &&
	    (datasync ? fdatasync(f->fd) : fsync(f->fd)) < 0)
		ret = -errno;
	t1 = ib_clock_ns(&w->clock);
	w->loop.last_ns = t1;
	if (!at_end)
		ib_stats_add_sync(w->st, ret ? UINT64_MAX : t1 - t0);
	return !ret || sync_error(w, f, -ret, at_end);
}

/*
 * fsync/fdatasync (fdatasync= alone) every open file; the loop is drained.
 * at_end: end_fsync.
 */
static void do_sync(struct worker *w, bool at_end)
{
	bool datasync = w->job->fdatasync_every && !w->job->fsync_every;
	unsigned int i;

	set_state(w, IB_ST_FSYNC);
	for (i = 0; i < w->fs->nr; i++) {
		if (w->fs->f[i].fd < 0) /* openfiles=N: closed */
			continue;
		if (!sync_one(w, &w->fs->f[i], datasync, IB_DDIR_SYNC, 0, at_end))
			return;
	}
	set_state(w, w->ramp_end_ns ? IB_ST_RAMP : run_letter(w->job));
}

/* The loop's sync hook: fsync=/fdatasync= N writes are done. */
static void sync_hook(void *arg, struct ib_loop *l)
{
	(void)l;
	do_sync(arg, false);
}

/*
 * The loop's file_sync hook: a trace's sync or datasync of one file (the
 * loop drained), timed and logged as fsync=N's are.
 */
static void file_sync_hook(void *arg, struct ib_loop *l,
			   const struct ib_io_desc *d)
{
	struct worker *w = arg;

	(void)l;
	if (d->file_idx >= w->fs->nr)
		return; /* a no-files engine: no file to sync */
	sync_one(w, &w->fs->f[d->file_idx], d->datasync,
		 d->datasync ? IB_IOLOG_DATASYNC : IB_DDIR_SYNC, d->offset, false);
}

/* --- time -------------------------------------------------------------- */

/*
 * The loop calls the tick hook at the ramp end, then at the runtime end,
 * and every second for the steady state.
 */
static void set_wake(struct worker *w)
{
	if (w->ramp_end_ns)
		w->loop.wake_ns = w->ramp_end_ns;
	else
		w->loop.wake_ns = w->end_ns ? w->end_ns : UINT64_MAX;
	if (w->ss_on && w->ss_next_ns < w->loop.wake_ns)
		w->loop.wake_ns = w->ss_next_ns;
}

static void ss_start(struct worker *w, uint64_t now)
{
	const struct ib_job *job = w->job;

	if (!job->ss_dur_us)
		return;
	ib_ss_init(&w->st->ss, job->ss_mode, job->ss_limit,
		   (uint32_t)(job->ss_dur_us / 1000000));
	w->ss_on = true;
	w->ss_prev_ns = now;
	w->ss_next_ns = now + 1000000000ull;
}

/*
 * One second's IOPS and bytes/s (all directions, as fio) into the window
 * once the second started after ss_ramp. True: the criterion is met.
 */
static bool ss_tick(struct worker *w, uint64_t now)
{
	uint64_t ios = 0, bytes = 0, ns = now - w->ss_prev_ns;
	bool counted = w->ss_prev_ns - w->job_start_ns >= w->job->ss_ramp_us * 1000;
	bool met = false;
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		ios += w->loop.cum_ios[d];
		bytes += w->loop.cum_bytes[d];
	}
	if (counted && ns)
		met = ib_ss_add(&w->st->ss,
				(uint64_t)((double)(ios - w->ss_prev_ios) * 1e9 / (double)ns),
				(uint64_t)((double)(bytes - w->ss_prev_bytes) * 1e9 / (double)ns));
	w->ss_prev_ios = ios;
	w->ss_prev_bytes = bytes;
	w->ss_prev_ns = now;
	while (w->ss_next_ns <= now)
		w->ss_next_ns += 1000000000ull;
	if (met)
		w->ss_on = false;
	return met;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * What was measured so far is dropped: the measured run starts now. Before
 * any I/O there is nothing to drop (the stats come zeroed, worker.h), and
 * zeroing them anyway wrote every page of ~370 KiB of fresh shared memory
 * per job before its first I/O, histogram buckets it mostly never uses.
 */
static void restart_measure(struct worker *w, uint64_t now)
{
	if (w->measured)
		ib_stats_reset(w->st);
	getrusage(RUSAGE_THREAD, &w->ru0);
	w->cpu0_ns = thread_cpu_ns();
	w->start_ns = now;
	w->loop.log_start_ns = now;
	if (!w->ramp_end_ns)
		ib_sampler_start(&w->smp, w->st, now);
}

static void end_ramp(struct worker *w, uint64_t now)
{
	w->ramp_end_ns = 0;
	restart_measure(w, now);
	if (w->job->runtime_us)
		w->end_ns = now + w->job->runtime_us * 1000;
	w->loop.smp = &w->smp;
	if (w->paced_on) {
		ib_paced_reset_late(&w->paced);
		w->paced.end_ns = w->end_ns;
	}
	set_wake(w);
	set_state(w, run_letter(w->job));
}

/*
 * The loop's tick hook: ramp and runtime ends, steady-state seconds (stop
 * is the loop's). A steady state attained ends the job (fio).
 */
static void tick_hook(void *arg, struct ib_loop *l, uint64_t now)
{
	struct worker *w = arg;

	if (w->ss_on && now >= w->ss_next_ns && ss_tick(w, now))
		ib_loop_stop(l);
	if (w->ramp_end_ns && now >= w->ramp_end_ns)
		end_ramp(w, now);
	else if (w->end_ns && now >= w->end_ns)
		ib_loop_stop(l);
	set_wake(w);
}

/* --- setup and teardown ------------------------------------------------- */

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

static void wait_startdelay(struct worker *w)
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
	ret = w->ops->init(&w->ctx);
	if (!ret)
		return 0;
	if (!why[0])
		why = strerror(-ret);
	if (ib_engine_unavailable(ret))
		return ib_diag_set(d, ret, "ioengine=%s: not available on this system (%s)",
				   w->ops->name, why);
	if (ret == -ENOMEM && w->job->engine.fixedbufs)
		return ib_diag_set(d, ret,
				   "ioengine=%s: cannot register %u buffers of %zu bytes (fixedbufs): RLIMIT_MEMLOCK too low? (ulimit -l): %s",
				   w->ops->name, w->ctx.nr_ios, w->ctx.buf_size, why);
	return ib_diag_set(d, ret, "ioengine=%s: init failed: %s", w->ops->name, why);
}

/* --- latency_target ------------------------------------------------------ */

static uint64_t lat_window_ns(const struct ib_job *job)
{
	return (job->rate.latency_window_us ? job->rate.latency_window_us : 1000000) * 1000;
}

static void lat_setup(struct worker *w, unsigned int depth)
{
	struct ib_latsearch_cfg c = {
		.iodepth = depth, .percentile = w->job->rate.latency_percentile,
		.run = w->job->rate.latency_run,
	};

	ib_latsearch_init(&w->ls, &c);
	w->ls_on = true;
	w->loop.depth_cap = ib_latsearch_depth(&w->ls);
	w->st->lat_target_ns = w->job->rate.latency_target_us * 1000;
	w->st->lat_window_us = lat_window_ns(w->job) / 1000;
	w->st->lat_percentile = w->job->rate.latency_percentile;
	w->st->lat_depth = w->loop.depth_cap;
}

/* Do what the search says at the end of a window (or an I/O over target). */
static void lat_step(struct worker *w, enum ib_latsearch_step step, uint64_t now)
{
	char why[128];

	if (step == IB_LS_FATAL) {
		fmt_into(why, sizeof(why), "latency_target=%lluus missed at iodepth 1",
			 (unsigned long long)w->job->rate.latency_target_us);
		ib_loop_fail(&w->loop, ETIMEDOUT, why);
		return;
	}
	if (step == IB_LS_FINAL)
		restart_measure(w, now);
	else if (step == IB_LS_DONE)
		ib_loop_stop(&w->loop);
	w->loop.depth_cap = ib_latsearch_depth(&w->ls);
	w->st->lat_depth = w->loop.depth_cap;
	w->ls_ios = w->ls_over = 0;
	w->ls_end_ns = now + lat_window_ns(w->job);
}

/* One completion into the current window. */
static void lat_account(struct worker *w, const struct ib_io *io)
{
	enum ib_latsearch_step step;

	if (!w->ls_end_ns) /* the first window starts with the first I/O */
		w->ls_end_ns = io->done_ns + lat_window_ns(w->job);
	w->ls_ios++;
	if (io->done_ns - io->start_ns > w->job->rate.latency_target_us * 1000) {
		w->ls_over++;
		step = ib_latsearch_over(&w->ls);
		if (step != IB_LS_NEXT) {
			lat_step(w, step, io->done_ns);
			return;
		}
	}
	if (io->done_ns >= w->ls_end_ns)
		lat_step(w, ib_latsearch_window(&w->ls, w->ls_ios, w->ls_over),
			 io->done_ns);
}

/*
 * The loop's done hook, set with rate_min / rate_iops_min or max_latency:
 * fio's checks, after each completed I/O. max_latency judges the latency
 * from the I/O's start, or in open loop with a rate from its due time.
 */
/* rate_min, max_latency and latency_target: their checks per completion */
static void limits_done(struct worker *w, const struct ib_io *io)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };
	uint64_t from = w->colat ? io->due_ns : io->start_ns;
	struct ib_diag d;

	if (w->ls_on && !w->loop.issuing_done)
		lat_account(w, io);
	if (w->job->rate.max_latency_us[io->ddir] &&
	    ib_lat_max_check(io->done_ns - from, w->job->rate.max_latency_us[io->ddir] * 1000,
			     w->ctx.files[io->file_idx].path, names[io->ddir],
			     io->offset - io->xfer_done, io->xfer_total, &d) < 0)
		ib_loop_fail(&w->loop, ETIMEDOUT, d.msg);
	else if (w->rate_min &&
		 ib_pace_check_min(&w->paced.pace, io->done_ns, w->loop.cum_bytes,
				   w->loop.cum_ios, w->job->name, &d) < 0)
		ib_loop_fail(&w->loop, EIO, d.msg);
}

static void prep_hook(void *arg, struct ib_io *io)
{
	ib_vrun_prep(&((struct worker *)arg)->vr, io);
}

static void done_hook(void *arg, const struct ib_io *io)
{
	struct worker *w = arg;

	if (w->verify)
		ib_vrun_done(&w->vr, io);
	if (w->limits)
		limits_done(w, io);
}

static int loop_init(struct worker *w, struct ib_diag *d)
{
	struct ib_loop_cfg cfg = {
		.job = w->job, .ops = w->ops, .ctx = &w->ctx,
		.src = w->job->replay.iolog[0] ? ib_replay_source(&w->replay) :
					       ib_iogen_source(&w->gen),
		.st = w->st, .bufs = &w->bufs,
		.iolog = &w->iolog, .logs = &w->logs, .stop = w->stop,
		.clock = &w->clock, .lat_on = w->lat_on,
		.hooks = { .tick = tick_hook, .sync = sync_hook,
			   .file_sync = file_sync_hook }, .arg = w,
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
		cfg.hooks.prep = prep_hook;
		/* two overlapping writes in flight leave either one's data:
		 * a verify job never races its own blocks */
		cfg.serialize |= (w->job->rw & IB_RW_WRITE) && !w->job->verify.only;
	}
	if (w->verify || w->limits)
		cfg.hooks.done = done_hook;
	if (!(w->ops->flags & IB_ENGINE_NOFILES)) /* nothing to sync otherwise */
		cfg.sync_every = w->job->fsync_every ? w->job->fsync_every :
						       w->job->fdatasync_every;
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
static void replay_finish(struct worker *w)
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
static void save_vstate(struct worker *w)
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

static int setup(struct worker *w, struct ib_worker_args *a, struct ib_diag *d)
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
	w->ctx.job = job;
	w->ctx.files = w->fs->f;
	w->ctx.nr_files = w->fs->nr;
	ret = ib_bufs_alloc(&w->bufs, &w->ctx, job, depth, d);
	if (!ret && job->dedupe_global)
		ib_bufs_dedupe_global(&w->bufs, job, a->nr_jobs);
	if (!ret && job->replay.iolog[0])
		ret = replay_init(w, d);
	else if (!ret)
		ret = ib_iogen_init(&w->gen, job, w->fs->f, w->fs->nr, d);
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
		lat_setup(w, depth);
	return ret;
}

/* Each rated direction's lateness into its stats' histogram. */
static void late_hists(struct worker *w)
{
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		if (ib_pace_rated(&w->paced.pace, (enum ib_ddir)d))
			w->paced.late_hist[d] = &w->st->dir[d].late_hist;
}

static void start_clock(struct worker *w)
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
	__atomic_store_n(&w->st->live.start_ns, now, __ATOMIC_RELAXED);
	ss_start(w, now);
	if (w->job->ramp_time_us) {
		w->ramp_end_ns = now + w->job->ramp_time_us * 1000;
		set_wake(w);
		set_state(w, IB_ST_RAMP);
	} else {
		end_ramp(w, now);
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
		if (w->st->paced && !w->paced.inner_end)
			w->st->dir[d].unstarted =
				ib_paced_unstarted(&w->paced, (enum ib_ddir)d, end);
		pd = &w->paced.pace.dir[d];
		w->st->dir[d].late_ios = pd->late;
		w->st->dir[d].late_sum_ns = pd->late_sum_ns;
		w->st->dir[d].late_max_ns = pd->late_max_ns;
		w->st->dir[d].backlog_max = pd->backlog_max;
	}
}

static void finish_stats(struct worker *w)
{
	struct ib_job_stats *st = w->st;
	uint64_t end = ib_clock_ns(&w->clock), us = (end - w->start_ns) / 1000;
	struct rusage ru;
	int d;

	if (w->ramp_end_ns) /* never left the ramp: nothing was measured */
		us = 0;
	getrusage(RUSAGE_THREAD, &ru);
	st->usr_us = tv_us(&ru.ru_utime) - tv_us(&w->ru0.ru_utime);
	st->sys_us = tv_us(&ru.ru_stime) - tv_us(&w->ru0.ru_stime);
	st->cpu_ns = thread_cpu_ns() - w->cpu0_ns;
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
		ib_sampler_finish(&w->smp, st, w->job, &w->logs, end);
	ib_ss_finish(&st->ss);
	ib_loop_publish(&w->loop);
}

static void teardown(struct worker *w)
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
	ib_files_close(w->job, w->fs);
	__atomic_store_n(&w->st->live.nr_files_open, 0, __ATOMIC_RELAXED);
	ib_loop_free(&w->loop);
	ib_bufs_free(&w->ctx);
	if (w->lockmem)
		munmap(w->lockmem, w->job->lockmem);
}

/* --- verify phases (vrun.h) --------------------------------------------- */

static int timed_run(struct worker *w, struct ib_source *src, enum ib_ddir d)
{
	uint64_t t0 = ib_clock_ns(&w->clock);
	int ret;

	w->loop.c.src = src;
	ret = ib_loop_run(&w->loop);
	w->phase_ns[d] += ib_clock_ns(&w->clock) - t0;
	return ret;
}

/* Read back and check the pass's writes; a runtime of its own (fio). */
static int verify_phase(struct worker *w)
{
	int ret;

	set_state(w, IB_ST_VERIFY);
	if (w->end_ns) {
		w->end_ns = ib_clock_ns(&w->clock) + w->job->runtime_us * 1000;
		set_wake(w);
	}
	ret = timed_run(w, ib_vrun_verify_source(&w->vr), IB_DDIR_READ);
	set_state(w, run_letter(w->job));
	return ret;
}

/* Write (or verify_only: list) a pass, verify it, until the passes end;
 * with a loaded state, verify its blocks once. */
static int run_verify(struct worker *w)
{
	int ret = 0;

	if (w->vr.loaded) {
		if (w->job->verify.only) /* as dry runs count theirs (fio) */
			w->st->dir[IB_DDIR_WRITE].issued += w->vr.nr;
		return verify_phase(w);
	}

	do {
		bool timed_out;

		if (w->job->verify.only)
			ib_vrun_dry_pass(&w->vr);
		else
			ret = timed_run(w, ib_vrun_write_source(&w->vr), IB_DDIR_WRITE);
		if (ret < 0 || w->loop.failed || *w->stop)
			break;
		/* the runtime ended the writes: verify them, no next pass */
		timed_out = w->end_ns && ib_clock_ns(&w->clock) >= w->end_ns;
		if (ib_vrun_verify_due(&w->vr))
			ret = verify_phase(w);
		if (ret < 0 || w->loop.failed || *w->stop || timed_out)
			break;
	} while (!w->job->time_based && ib_vrun_next_pass(&w->vr));
	return ret;
}

/*
 * unlink_each_loop: one loop run per loops= pass, with new files between
 * them (file.h ib_files_renew). time_based jobs make one pass, as in fio.
 */
static int run_loops(struct worker *w)
{
	const struct ib_job *job = w->job;
	uint64_t per;
	unsigned int k;
	int ret = 0;

	if (!job->unlink_each_loop || job->loops < 2 || job->replay.iolog[0] ||
	    w->gen.bytes_left == UINT64_MAX)
		return ib_loop_run(&w->loop);
	per = w->gen.bytes_left / job->loops;
	for (k = 0; k < job->loops && ret >= 0 && !w->loop.failed && !*w->stop; k++) {
		ret = k ? ib_files_renew(job, w->fs, w->readonly, &w->diag) : 0;
		if (ret < 0) {
			ib_loop_fail(&w->loop, -ret, w->diag.msg);
			return 0;
		}
		w->gen.bytes_left = per;
		w->paced.inner_end = false;
		ret = ib_loop_run(&w->loop);
	}
	return ret;
}

static int run_io(struct worker *w)
{
	int ret;

	start_clock(w);
	ret = w->verify ? run_verify(w) : run_loops(w);
	if (ret < 0 && !w->loop.failed) {
		char where[256], what[128];

		fmt_into(where, sizeof(where), "ioengine=%s: %s", w->ops->name,
			 ib_strerror_named(-ret, what, sizeof(what)));
		ib_loop_fail(&w->loop, -ret, where);
	}
	replay_finish(w);
	if (w->limited && w->fsrc.error && !w->loop.failed)
		ib_loop_fail(&w->loop, w->fsrc.error, w->fsrc.diag.msg);
	if (!w->loop.failed && w->job->end_fsync && ib_job_writes(w->job) &&
	    !(w->ops->flags & IB_ENGINE_NOIO))
		do_sync(w, true);
	set_state(w, IB_ST_FINISHING);
	finish_stats(w);
	save_vstate(w);		/* not in the job's times */
	return w->loop.failed ? -w->st->error : 0;
}

/* A failed exec_prerun skips the I/O and the postrun, no error (fio). */
static int run_with_exec(struct worker *w)
{
	const struct ib_job *job = w->job;
	int ret;

	if (job->proc.exec_prerun[0] &&
	    !ib_exec_job_cmd(job->name, job->proc.exec_prerun, "prerun", w->exec_to_stderr))
		return 0;
	ret = run_io(w);
	if (job->proc.exec_postrun[0]) {
		ib_exec_job_cmd(job->name, job->proc.exec_postrun, "postrun", w->exec_to_stderr);
		w->st->postrun_ran = true;
	}
	return ret;
}

static void signal_ready(struct ib_worker_args *a)
{
	if (a->ready)
		a->ready(a->ready_arg);
	a->ready = NULL;
}

int ib_worker_run(struct ib_worker_args *a)
{
	struct worker w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.job = a->job;
	w.st = a->st;
	w.fs = &a->files;
	w.stop = a->stop;
	w.readonly = a->readonly;
	w.exec_to_stderr = a->exec_to_stderr;
	w.clock = a->clock;
	w.lat_on = !(a->job->gtod_reduce ||
		     (a->job->disable_lat && a->job->disable_clat &&
		      a->job->disable_slat));
	w.st->pid = (int)getpid();
	w.paced_on = ib_job_paced(a->job);
	if (w.paced_on) /* wake at the due time, not up to 50 us after it */
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	w.st->paced = ib_job_rated(a->job);
	w.st->start_time = (int64_t)time(NULL); /* again when I/O starts */
	set_state(&w, IB_ST_SETUP);
	if (a->job->startdelay_us)
		signal_ready(a);
	wait_startdelay(&w);
	ret = setup(&w, a, &w.diag);
	signal_ready(a);
	if (ret) {
		w.st->error = -ret;
		fmt_into(w.st->error_where, sizeof(w.st->error_where), "%s",
			 w.diag.msg);
	} else if (!a->job->create_only) { /* create_only: the layout was all */
		ret = run_with_exec(&w);
	}
	teardown(&w);
	w.st->finished = true;
	set_state(&w, ret ? IB_ST_ERROR : IB_ST_DONE);
	return ret;
}
