// SPDX-License-Identifier: GPL-2.0-only
/*
 * The worker's setup and teardown (worker_setup.c) and one whole job
 * (ib_worker_run) on a real /dev/shm file: what setup opens and sizes
 * (files, units, the loop's free list), what teardown closes, the errors
 * setup names, and the exact counts of a size-based job; the loop's hooks
 * in worker_sync.c (a sync per open file, counted; end_fsync uncounted),
 * worker_time.c (the next wake-up, the runtime's stop, the ramp's end) and
 * worker_limits.c (max_latency's failure and its text).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/plan.h"
#include "src/io/worker_priv.h"

#define SIZE (1u << 20)

struct fix {
	struct ib_plan run;
	struct ib_job job;
	struct ib_job_stats *st;
	struct ib_worker_args a;
	char path[256];
};

static const volatile sig_atomic_t no_stop;

static int fix_setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	struct ib_diag d = { { 0 } };

	assert_non_null(f);
	snprintf(f->path, sizeof(f->path), "/dev/shm/iobench-worker-%d", (int)getpid());
	unlink(f->path);
	ib_plan_init(&f->run);
	ib_job_defaults(&f->job);
	f->job.name = "w";
	f->job.ioengine = "psync";
	f->job.strs = &f->run.strs;
	f->job.filename = f->path;
	f->job.number = 1;
	f->job.size = SIZE;
	f->job.direct = false;
	f->st = calloc(1, sizeof(*f->st));
	assert_non_null(f->st);
	f->a = (struct ib_worker_args){ .job = &f->job, .st = f->st, .stop = &no_stop,
					.nr_jobs = 1 };
	ib_clock_init(&f->a.clock, false);
	assert_int_equal(ib_files_resolve(&f->job, &f->a.files, &d), 0);
	assert_int_equal(ib_files_prepare(&f->job, &f->a.files, &d), 0);
	assert_int_equal(ib_files_layout(&f->job, &f->a.files, false, NULL, &no_stop, &d), 0);
	*state = f;
	return 0;
}

static int fix_teardown(void **state)
{
	struct fix *f = *state;

	ib_files_free(&f->a.files);
	unlink(f->path);
	free(f->st);
	free(f);
	return 0;
}

static void start_worker(struct fix *f, struct worker *w)
{
	memset(w, 0, sizeof(*w));
	w->job = f->a.job;
	w->st = f->st;
	w->fs = &f->a.files;
	w->stop = &no_stop;
	w->clock = f->a.clock;
	w->lat_on = true;
}

/* setup opens the file, makes iodepth units and a loop with all of them free */
static void setup_opens_and_sizes(void **state)
{
	struct fix *f = *state;
	struct worker w;
	struct ib_diag d = { { 0 } };

	f->job.iodepth = 4;
	start_worker(f, &w);
	assert_int_equal(worker_setup(&w, &f->a, &d), 0);
	assert_string_equal(w.ops->name, "psync");
	assert_int_equal(f->a.files.nr, 1);
	assert_true(f->a.files.f[0].fd >= 0);
	assert_int_equal(f->st->live.nr_files_open, 1);
	assert_int_equal(w.ctx.nr_files, 1);
	assert_ptr_equal(w.ctx.files, f->a.files.f);
	/* psync is synchronous: one unit whatever iodepth says */
	assert_int_equal(w.ctx.nr_ios, 1);
	assert_int_equal(w.loop.nr_free, 1);
	assert_int_equal(w.ctx.buf_size, 4096);
	assert_false(w.verify);
	assert_false(w.limited);
	worker_teardown(&w);
	assert_int_equal(f->a.files.f[0].fd, -1);
	assert_int_equal(f->st->live.nr_files_open, 0);
}

/* an asynchronous engine gets its iodepth of units */
static void setup_async_depth(void **state)
{
	struct fix *f = *state;
	struct worker w;
	struct ib_diag d = { { 0 } };

	f->job.ioengine = "null";
	f->job.iodepth = 8;
	start_worker(f, &w);
	assert_int_equal(worker_setup(&w, &f->a, &d), 0);
	assert_int_equal(w.ctx.nr_ios, 8);
	assert_int_equal(w.loop.nr_free, 8);
	worker_teardown(&w);
}

static void setup_unknown_engine(void **state)
{
	struct fix *f = *state;
	struct worker w;
	struct ib_diag d = { { 0 } };

	f->job.ioengine = "nope";
	start_worker(f, &w);
	assert_int_equal(worker_setup(&w, &f->a, &d), -EINVAL);
	assert_string_equal(d.msg, "ioengine=nope: unknown engine");
	worker_teardown(&w);
}

/* a job of 1 MiB in 4 KiB reads: 256 I/Os, every byte, the state DONE */
static void whole_job_counts(void **state)
{
	struct fix *f = *state;

	f->job.rw = IB_RW_READ;
	assert_int_equal(ib_worker_run(&f->a), 0);
	assert_int_equal(f->st->error, 0);
	assert_int_equal(f->st->dir[IB_DDIR_READ].total_ios, SIZE / 4096);
	assert_int_equal(f->st->dir[IB_DDIR_READ].io_bytes, SIZE);
	assert_int_equal(f->st->dir[IB_DDIR_WRITE].total_ios, 0);
	assert_true(f->st->finished);
	assert_int_equal(f->st->live.state, IB_ST_DONE);
	assert_int_equal(f->st->pid, (int)getpid());
}

/* setup's error lands in the stats, the job ends in the error state */
static void whole_job_setup_error(void **state)
{
	struct fix *f = *state;

	f->job.ioengine = "nope";
	assert_int_equal(ib_worker_run(&f->a), -EINVAL);
	assert_int_equal(f->st->error, EINVAL);
	assert_string_equal(f->st->error_where, "ioengine=nope: unknown engine");
	assert_int_equal(f->st->live.state, IB_ST_ERROR);
	assert_int_equal(f->st->dir[IB_DDIR_READ].total_ios, 0);
}

/* fsync=N's hook: one timed sync per open file; end_fsync not counted */
static void sync_counts(void **state)
{
	struct fix *f = *state;
	struct worker w;
	struct ib_diag d = { { 0 } };

	f->job.rw = IB_RW_WRITE;
	start_worker(f, &w);
	assert_int_equal(worker_setup(&w, &f->a, &d), 0);
	worker_sync_hook(&w, &w.loop);
	assert_int_equal(f->st->sync_ios, 1);
	assert_int_equal(f->st->sync_lat.n, 1);
	assert_int_equal(f->st->live.state, 'W');	/* back to the run's letter */
	worker_do_sync(&w, true);
	assert_int_equal(f->st->sync_ios, 1);
	assert_int_equal(f->st->total_err, 0);
	worker_teardown(&w);
}

/* the wake-up: the ramp's end first, then the runtime's, then none */
static void wake_and_stop(void **state)
{
	struct fix *f = *state;
	struct worker w;
	struct ib_diag d = { { 0 } };

	start_worker(f, &w);
	assert_int_equal(worker_setup(&w, &f->a, &d), 0);
	w.ramp_end_ns = 1000;
	w.end_ns = 5000;
	worker_set_wake(&w);
	assert_int_equal(w.loop.wake_ns, 1000);
	worker_end_ramp(&w, 1000);
	assert_int_equal(w.ramp_end_ns, 0);
	assert_int_equal(w.start_ns, 1000);
	assert_int_equal(w.loop.wake_ns, 5000);
	worker_tick_hook(&w, &w.loop, 4999);
	assert_false(w.loop.issuing_done);
	worker_tick_hook(&w, &w.loop, 5000);
	assert_true(w.loop.issuing_done);
	w.end_ns = 0;
	worker_set_wake(&w);
	assert_int_equal(w.loop.wake_ns, UINT64_MAX);
	worker_teardown(&w);
}

/* max_latency: a read over it fails the job, the text names the I/O */
static void max_latency_fails(void **state)
{
	struct fix *f = *state;
	struct worker w;
	struct ib_diag d = { { 0 } };
	struct ib_io io;
	char want[512];

	f->job.rate.max_latency_us[IB_DDIR_READ] = 100;
	start_worker(f, &w);
	assert_int_equal(worker_setup(&w, &f->a, &d), 0);
	assert_true(w.limits);
	memset(&io, 0, sizeof(io));
	io.ddir = IB_DDIR_READ;
	io.offset = 8192;
	io.xfer_total = 4096;
	io.start_ns = 1000;
	io.done_ns = 1000 + 100000;	/* exactly the limit: fine */
	worker_done_hook(&w, &io);
	assert_false(w.loop.failed);
	io.done_ns++;
	worker_done_hook(&w, &io);
	assert_true(w.loop.failed);
	assert_int_equal(f->st->error, ETIMEDOUT);
	snprintf(want, sizeof(want), "latency of 100001 nsec exceeds specified max "
		 "(100000 nsec): %s read 8192 4096", f->path);
	assert_string_equal(f->st->error_where, want);
	worker_teardown(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(setup_opens_and_sizes, fix_setup, fix_teardown),
		cmocka_unit_test_setup_teardown(setup_async_depth, fix_setup, fix_teardown),
		cmocka_unit_test_setup_teardown(setup_unknown_engine, fix_setup, fix_teardown),
		cmocka_unit_test_setup_teardown(whole_job_counts, fix_setup, fix_teardown),
		cmocka_unit_test_setup_teardown(whole_job_setup_error, fix_setup, fix_teardown),
		cmocka_unit_test_setup_teardown(sync_counts, fix_setup, fix_teardown),
		cmocka_unit_test_setup_teardown(wake_and_stop, fix_setup, fix_teardown),
		cmocka_unit_test_setup_teardown(max_latency_fails, fix_setup, fix_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
