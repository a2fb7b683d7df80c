// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping`'s I/O source: ioping's pacing (interval, burst, late
 * requests pulled up to now), -c and -w ends, offsets and directions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "iobench/ping_source.h"

static struct ib_ping_source_cfg base(void)
{
	return (struct ib_ping_source_cfg){ .offset = 8192, .work_size = 16384,
		.size = 4096, .interval_ns = 10, .seed = 7 };
}

static int next(struct ib_ping_source *s, uint64_t now, struct ib_io_desc *d)
{
	return ib_source_next(ib_ping_source(s), now, d);
}

static void test_pacing(void **state)
{
	struct ib_ping_source_cfg c = base();
	struct ib_ping_source s;
	struct ib_io_desc d;

	(void)state;
	c.count = 3;
	c.linear = true;
	ib_ping_source_init(&s, &c);
	assert_int_equal(next(&s, 100, &d), IB_SRC_READY);
	assert_int_equal(d.due_ns, 100);
	assert_int_equal(d.offset, 8192);
	assert_int_equal(d.len, 4096);
	assert_int_equal(d.ddir, IB_DDIR_READ);
	/* one request at a time */
	assert_int_equal(next(&s, 100, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, 101);
	assert_false(ib_ping_source_complete(&s, 105));
	assert_int_equal(s.time_next, 110);
	assert_int_equal(next(&s, 105, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, 110);
	assert_int_equal(next(&s, 110, &d), IB_SRC_READY);
	assert_int_equal(d.offset, 12288);
	/* late: the next one is due at once */
	assert_false(ib_ping_source_complete(&s, 200));
	assert_int_equal(s.time_next, 200);
	assert_int_equal(next(&s, 200, &d), IB_SRC_READY);
	assert_int_equal(d.offset, 16384);
	assert_int_equal(s.issued, 3);
	assert_true(ib_source_more(ib_ping_source(&s)));
	assert_true(ib_ping_source_complete(&s, 201));	/* -c 3 */
	assert_false(ib_source_more(ib_ping_source(&s)));
	assert_int_equal(next(&s, 300, &d), IB_SRC_END);
}

static void test_linear_wraps(void **state)
{
	struct ib_ping_source_cfg c = base();
	static const uint64_t want[] = { 8192, 12288, 16384, 20480, 8192, 12288 };
	struct ib_ping_source s;
	struct ib_io_desc d;
	unsigned int i;

	(void)state;
	c.linear = true;
	c.interval_ns = 0;
	ib_ping_source_init(&s, &c);
	for (i = 0; i < 6; i++) {
		assert_int_equal(next(&s, i, &d), IB_SRC_READY);
		assert_int_equal(d.offset, want[i]);
		ib_ping_source_complete(&s, i);
	}
}

static void test_random_offsets(void **state)
{
	struct ib_ping_source_cfg c = base();
	struct ib_ping_source a, b;
	struct ib_io_desc da, db;
	unsigned int i, seen = 0;

	(void)state;
	c.interval_ns = 0;
	ib_ping_source_init(&a, &c);
	ib_ping_source_init(&b, &c);
	for (i = 0; i < 200; i++) {
		assert_int_equal(next(&a, i, &da), IB_SRC_READY);
		assert_int_equal(next(&b, i, &db), IB_SRC_READY);
		assert_int_equal(da.offset, db.offset);	/* same seed, same offsets */
		assert_true(da.offset >= 8192 && da.offset + 4096 <= 8192 + 16384);
		assert_int_equal(da.offset % 4096, 0);
		seen |= 1u << ((da.offset - 8192) / 4096);
		ib_ping_source_complete(&a, i);
		ib_ping_source_complete(&b, i);
	}
	assert_int_equal(seen, 0xf);	/* every request slot of the set */
}

static void test_burst_and_deadline(void **state)
{
	struct ib_ping_source_cfg c = base();
	struct ib_ping_source s;
	struct ib_io_desc d;

	(void)state;
	c.interval_ns = 100;
	c.burst = 2;
	c.deadline_ns = 250;
	ib_ping_source_init(&s, &c);
	assert_int_equal(next(&s, 0, &d), IB_SRC_READY);
	assert_false(ib_ping_source_complete(&s, 1));	/* burst: no wait */
	assert_int_equal(next(&s, 1, &d), IB_SRC_READY);
	assert_false(ib_ping_source_complete(&s, 2));	/* burst over */
	assert_int_equal(s.time_next, 101);	/* pulled up to 1 in the burst */
	assert_int_equal(next(&s, 2, &d), IB_SRC_NOT_YET);
	assert_int_equal(d.due_ns, 101);
	assert_int_equal(next(&s, 101, &d), IB_SRC_READY);
	assert_false(ib_ping_source_complete(&s, 102));
	assert_int_equal(next(&s, 102, &d), IB_SRC_READY);
	assert_false(ib_ping_source_complete(&s, 103));	/* 202 < 250 */
	assert_int_equal(next(&s, 202, &d), IB_SRC_READY);
	assert_false(ib_ping_source_complete(&s, 203));
	assert_int_equal(next(&s, 203, &d), IB_SRC_READY);
	assert_true(ib_ping_source_complete(&s, 204));	/* 304 >= 0 + 250 */
	assert_int_equal(next(&s, 304, &d), IB_SRC_END);
	assert_int_equal(s.completed, 6);
}

static void test_directions(void **state)
{
	struct ib_ping_source_cfg c = base();
	struct ib_ping_source s;
	struct ib_io_desc d;
	unsigned int i;

	(void)state;
	c.interval_ns = 0;
	c.read_write = true;
	ib_ping_source_init(&s, &c);
	for (i = 1; i <= 4; i++) {
		assert_int_equal(next(&s, i, &d), IB_SRC_READY);
		assert_int_equal(d.ddir, (i & 1) ? IB_DDIR_WRITE : IB_DDIR_READ);
		ib_ping_source_complete(&s, i);
	}
	c.read_write = false;
	c.write = true;
	ib_ping_source_init(&s, &c);
	assert_int_equal(next(&s, 0, &d), IB_SRC_READY);
	assert_int_equal(d.ddir, IB_DDIR_WRITE);
	/* an end asked for (SIGINT) */
	ib_ping_source_complete(&s, 0);
	ib_ping_source_end(&s);
	assert_int_equal(next(&s, 1, &d), IB_SRC_END);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pacing),
		cmocka_unit_test(test_linear_wraps),
		cmocka_unit_test(test_random_offsets),
		cmocka_unit_test(test_burst_and_deadline),
		cmocka_unit_test(test_directions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
