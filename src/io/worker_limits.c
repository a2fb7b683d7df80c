// SPDX-License-Identifier: GPL-2.0-only
/*
 * A job's per-completion checks: latency_target's depth search, rate_min
 * and max_latency (fio's), and the verify prep and done hooks.
 */
#include <errno.h>
#include "iobench/ioerr.h"
#include "worker_priv.h"

static uint64_t lat_window_ns(const struct ib_job *job)
{
	return (job->rate.latency_window_us ? job->rate.latency_window_us : 1000000) * 1000;
}

void worker_lat_setup(struct worker *w, unsigned int depth)
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
		worker_restart_measure(w, now);
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

void worker_prep_hook(void *arg, struct ib_io *io)
{
	ib_vrun_prep(&((struct worker *)arg)->vr, io);
}

void worker_done_hook(void *arg, const struct ib_io *io)
{
	struct worker *w = arg;

	if (w->verify)
		ib_vrun_done(&w->vr, io);
	if (w->limits)
		limits_done(w, io);
	if (w->written)
		worker_written(w, io);
}
