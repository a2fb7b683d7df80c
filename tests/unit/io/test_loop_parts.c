// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job loop's cold parts, on the engine rig's /dev/shm file and psync:
 * loop_setup.c (every unit on the free list, the live counters published,
 * the queues freed) and loop_error.c (a fatal I/O error's text, a counted
 * one with continue_on_error, the error dump's lines and its overflow).
 */
#include "engine_rig.h"
#include "src/io/loop_priv.h"

static const volatile sig_atomic_t no_stop;

struct lfix {
	struct ib_loop loop;
	struct ib_job_stats *st;
	struct ib_clock clock;
};

static void loop_on(struct rig *r, struct lfix *f, unsigned int depth)
{
	struct ib_diag d = { { 0 } };
	struct ib_loop_cfg cfg = {
		.job = &r->job, .ctx = &r->ctx, .stop = &no_stop, .clock = &f->clock,
	};

	assert_int_equal(rig_start(r, "psync", depth, 4096, O_RDWR), 0);
	cfg.ops = r->e;
	f->st = calloc(1, sizeof(*f->st));
	assert_non_null(f->st);
	cfg.st = f->st;
	ib_clock_init(&f->clock, false);
	assert_int_equal(ib_loop_init(&f->loop, &cfg, &d), 0);
}

static void loop_off(struct lfix *f)
{
	ib_loop_free(&f->loop);
	assert_null(f->loop.free_ios);
	assert_null(f->loop.recs);
	free(f->st);
}

static void init_publish_free(void **state)
{
	struct rig *r = *state;
	struct lfix f;

	loop_on(r, &f, 4);
	assert_int_equal(f.loop.nr_free, 4);
	for (unsigned int i = 0; i < 4; i++)
		assert_ptr_equal(f.loop.free_ios[i], &r->ios[i]);
	assert_int_equal(f.loop.inflight, 0);
	assert_int_equal(f.loop.wake_ns, UINT64_MAX);
	f.loop.cum_bytes[IB_DDIR_WRITE] = 12288;
	f.loop.cum_ios[IB_DDIR_WRITE] = 3;
	f.loop.cum_ios[IB_DDIR_TRIM] = 1;
	ib_loop_publish(&f.loop);
	assert_int_equal(f.st->live.io_bytes[IB_DDIR_WRITE], 12288);
	assert_int_equal(f.st->live.ios[IB_DDIR_WRITE], 3);
	assert_int_equal(f.st->live.ios[IB_DDIR_TRIM], 1);
	assert_int_equal(f.st->live.ios[IB_DDIR_READ], 0);
	loop_off(&f);
}

static struct ib_io *failed_write(struct rig *r, uint64_t off, uint64_t done)
{
	struct ib_io *io = &r->ios[0];

	io->ddir = IB_DDIR_WRITE;
	io->offset = off + done;	/* as a short write moves it on */
	io->xfer_done = (uint32_t)done;
	io->xfer_total = 8192;
	io->file_idx = 0;
	return io;
}

/* no continue_on_error: the job fails, the text names the I/O */
static void fatal_error_text(void **state)
{
	struct rig *r = *state;
	struct lfix f;
	char want[512];

	loop_on(r, &f, 1);
	r->file.path = "/t/file";
	loop_io_error(&f.loop, failed_write(r, 65536, 4096), ENOSPC);
	assert_true(f.loop.failed);
	assert_true(f.loop.issuing_done);
	assert_int_equal(f.st->error, ENOSPC);
	snprintf(want, sizeof(want), "write offset=65536, buflen=8192, file=/t/file: "
		 "No space left on device (ENOSPC)");
	assert_string_equal(f.st->error_where, want);
	assert_int_equal(f.st->total_err, 0);
	/* the first error stays */
	ib_loop_fail(&f.loop, EIO, "later");
	assert_int_equal(f.st->error, ENOSPC);
	loop_off(&f);
}

/* continue_on_error=io: EIO counted, the job goes on, the engine note cleared */
static void counted_error_and_dump(void **state)
{
	struct rig *r = *state;
	struct lfix f;

	loop_on(r, &f, 1);
	r->file.path = "/t/file";
	r->job.continue_on_error = IB_COE_ALL;
	r->job.ignore_error = ib_job_no_ignore_error;
	r->job.error_dump = true;
	snprintf(r->ctx.errmsg, sizeof(r->ctx.errmsg), "engine note");
	loop_io_error(&f.loop, failed_write(r, 0, 0), EIO);
	assert_false(f.loop.failed);
	assert_int_equal(f.st->error, 0);
	assert_int_equal(f.st->total_err, 1);
	assert_int_equal(f.st->first_error, EIO);
	assert_string_equal(f.st->first_error_where,
			    "write offset=0, buflen=8192, file=/t/file: "
			    "Input/output error (EIO); engine note");
	assert_string_equal(r->ctx.errmsg, "");
	assert_string_equal(f.st->error_dump,
			    "io_u error on file /t/file: Input/output error: write offset=0, buflen=8192\n");
	/* a second one: counted, its text not kept, its dump line appended */
	loop_io_error(&f.loop, failed_write(r, 4096, 0), EIO);
	assert_int_equal(f.st->total_err, 2);
	assert_non_null(strstr(f.st->first_error_where, "offset=0,"));
	assert_non_null(strstr(f.st->error_dump, "\nio_u error on file /t/file: Input/output error: write offset=4096, buflen=8192\n"));
	/* the dump full: lines counted as lost */
	for (unsigned int i = 0; i < 1000; i++)
		ib_loop_dump_error(&f.loop, IB_DDIR_READ, EIO, i, 512, "/t/file");
	assert_true(f.st->error_dump_lost > 0);
	assert_true(strlen(f.st->error_dump) < sizeof(f.st->error_dump));
	loop_off(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(init_publish_free, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(fatal_error_text, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(counted_error_and_dump, rig_setup, rig_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
