// SPDX-License-Identifier: GPL-2.0-only
/*
 * One job clone from start to end: startdelay, lockmem, files, units and
 * buffers (buf.c), the engine, then the job loop (loop.c) over the offset
 * generator with the job's phases around it: ramp time, runtime, fsync=N,
 * end_fsync, and the final per-job numbers (runtime, rusage, samples).
 */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "iobench/exec.h"
#include "iobench/ioerr.h"
#include "worker_priv.h"

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
		worker_set_wake(w);
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
		if (ret < 0 || w->loop.failed || *w->stop || timed_out || w->loop.full)
			break;	/* fill_device: full, the writes are over */
	} while (!w->job->time_based && ib_vrun_next_pass(&w->vr));
	return ret;
}

/* New files for the next loop, and the engine told (registered files). */
static int renew_files(struct worker *w)
{
	int ret = ib_files_renew(w->job, w->fs, w->readonly, &w->diag);

	if (ret < 0 || !w->ops->files_renewed)
		return ret;
	ret = w->ops->files_renewed(&w->ctx);
	if (ret < 0)
		ib_diag_set(&w->diag, -ret, "ioengine=%s: registering the renewed files: %s",
			    w->ops->name, strerror(-ret));
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
	for (k = 0; k < job->loops && ret >= 0 && !w->loop.failed && !*w->stop &&
		    !w->loop.full; k++) {
		ret = k ? renew_files(w) : 0;
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

	worker_start_clock(w);
	ret = w->verify ? run_verify(w) : run_loops(w);
	if (ret < 0 && !w->loop.failed) {
		char where[256], what[128];

		fmt_into(where, sizeof(where), "ioengine=%s: %s", w->ops->name,
			 ib_strerror_named(-ret, what, sizeof(what)));
		ib_loop_fail(&w->loop, -ret, where);
	}
	worker_replay_finish(w);
	if (w->limited && w->fsrc.error && !w->loop.failed)
		ib_loop_fail(&w->loop, w->fsrc.error, w->fsrc.diag.msg);
	if (!w->loop.failed && w->job->end_fsync && ib_job_writes(w->job) &&
	    !(w->ops->flags & IB_ENGINE_NOIO))
		worker_do_sync(w, true);
	if (!w->loop.failed && w->job->end_syncfs && ib_job_writes(w->job))
		worker_do_syncfs(w);
	set_state(w, IB_ST_FINISHING);
	worker_finish_stats(w);
	worker_save_vstate(w);		/* not in the job's times */
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
	w.status = a->status;
	w.readonly = a->readonly;
	w.exec_to_stderr = a->exec_to_stderr;
	w.clock = a->clock;
	if (a->iv_ring) {
		w.ivp.ring = a->iv_ring;
		w.ivp.origin_ns = a->iv_origin_ns;
		w.ivp.ival_ns = a->iv_ns;
		w.ivp.due_ns = UINT64_MAX;
		w.ivp.kind = ib_iv_kind(a->job);
		w.ivp.inflight = &w.loop.inflight;
	}
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
	worker_wait_startdelay(&w);
	ret = worker_setup(&w, a, &w.diag);
	signal_ready(a);
	if (ret) {
		w.st->error = -ret;
		fmt_into(w.st->error_where, sizeof(w.st->error_where), "%s",
			 w.diag.msg);
	} else if (!a->job->create_only) { /* create_only: the layout was all */
		ret = run_with_exec(&w);
	}
	worker_teardown(&w);
	ib_iv_pub_final(&w.ivp, w.st, ib_clock_ns(&w.clock));
	w.st->finished = true;
	set_state(&w, ret ? IB_ST_ERROR : IB_ST_DONE);
	return ret;
}
