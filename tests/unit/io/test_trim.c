// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trims (trim.c) through the real job loop and engines (engine_rig.h) on
 * a /dev/shm file: every trim completes whole, its range reads back as
 * zeros and every other byte is unchanged; ib_trim_io's result; a regular
 * file passes ib_trim_check.
 */
#include "engine_rig.h"
#include "src/io/trim.h"

static void zero_model(struct rig *r, const uint64_t *offs, unsigned int n, uint32_t bs)
{
	for (unsigned int i = 0; i < n; i++)
		memset(r->model + offs[i], 0, bs);
}

/* A scrambled half of the blocks trimmed through the loop, then read back. */
static void trim_through_loop(void **state)
{
	struct rig *r = *state;
	const struct tcase *tc = r->tc;
	uint64_t offs[FILE_SIZE / 4096];
	unsigned int n = FILE_SIZE / tc->bs / 2;

	assert_int_equal(rig_start(r, tc->engine, tc->depth, tc->bs, O_RDWR), 0);
	offsets(offs, n, tc->bs);
	drive(r, IB_DDIR_TRIM, offs, n, tc->bs, tc->depth);
	zero_model(r, offs, n, tc->bs);
	check_file(r);
	/* the engine reads the zeros back too */
	drive(r, IB_DDIR_READ, offs, n, tc->bs, 1);
}

/* ib_trim_io itself: res is the length, the range zero, its neighbours not */
static void trim_io_direct(void **state)
{
	struct rig *r = *state;
	struct ib_io *io = &r->ios[0];
	uint64_t off = 3 * 4096;

	assert_int_equal(rig_start(r, "psync", 1, 8192, O_RDWR), 0);
	io->ddir = IB_DDIR_TRIM;
	io->offset = off;
	io->len = 8192;
	io->file_idx = 0;
	io->res = INT64_MIN;
	assert_int_equal(ib_trim_io(&r->ctx, io), IB_Q_DONE);
	assert_int_equal(io->res, 8192);
	memset(r->model + off, 0, 8192);
	check_file(r);
}

/* A closed fd: the error is the result, -EBADF */
static void trim_io_error(void **state)
{
	struct rig *r = *state;
	struct ib_io *io = &r->ios[0];
	int fd;

	assert_int_equal(rig_start(r, "psync", 1, 4096, O_RDWR), 0);
	fd = r->file.fd;
	r->file.fd = -1;
	*io = (struct ib_io){ .ddir = IB_DDIR_TRIM, .offset = 0, .len = 4096,
			      .buf = io->buf, .res = INT64_MIN };
	assert_int_equal(ib_trim_io(&r->ctx, io), IB_Q_DONE);
	assert_int_equal(io->res, -EBADF);
	r->file.fd = fd;
	check_file(r);	/* nothing trimmed */
}

static void trim_check_file(void **state)
{
	struct rig *r = *state;
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_trim_check(&r->file, &d), 0);
	assert_string_equal(d.msg, "");
}

static const struct tcase tc_psync = { "psync", false, 1, 4096, NULL };
static const struct tcase tc_sync = { "sync", false, 1, 8192, NULL };
static const struct tcase tc_uring = { "io_uring", false, 8, 4096, NULL };
#if HAVE_LIBAIO
static const struct tcase tc_aio = { "libaio", false, 8, 4096, NULL };
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate_setup_teardown(trim_through_loop, tc_setup,
							 rig_teardown, (void *)&tc_psync),
		cmocka_unit_test_prestate_setup_teardown(trim_through_loop, tc_setup,
							 rig_teardown, (void *)&tc_sync),
		cmocka_unit_test_prestate_setup_teardown(trim_through_loop, tc_setup,
							 rig_teardown, (void *)&tc_uring),
#if HAVE_LIBAIO
		cmocka_unit_test_prestate_setup_teardown(trim_through_loop, tc_setup,
							 rig_teardown, (void *)&tc_aio),
#endif
		cmocka_unit_test_setup_teardown(trim_io_direct, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(trim_io_error, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(trim_check_file, rig_setup, rig_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
