// SPDX-License-Identifier: GPL-2.0-only
/*
 * SNIA PTS steady state over rounds (pts_ss.h), on scripted series: met
 * at the first window, met late, never met; each limit exactly at, just
 * above and below it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "iobench/pts_ss.h"

/* Steady from the start: rounds 1-5 are the window, met at round 5. */
static void test_met_at_five(void **state)
{
	static const double v[] = { 100, 101, 99, 100, 100, 50, 50 };
	struct ib_pts_ss o;

	(void)state;
	assert_int_equal(ib_pts_ss_scan(v, 7, &o), 5);
	assert_true(o.met);
	assert_int_equal(o.first, 0);
	assert_true(o.avg == 100.0);
	assert_true(o.min == 99.0 && o.max == 101.0);
	assert_true(o.range_pct == 2.0);
}

/* Fewer than five rounds: never judged. */
static void test_too_few(void **state)
{
	static const double v[] = { 100, 100, 100, 100 };
	struct ib_pts_ss o;

	(void)state;
	assert_false(ib_pts_ss_judge(v, 4, &o));
	assert_int_equal(o.rounds, 4);
	assert_int_equal(ib_pts_ss_scan(v, 4, &o), 4);
	assert_false(o.met);
}

/* A falling fresh-out-of-box curve that settles: the first steady window
 * is rounds 9-13 (0-based first 8). */
static void test_met_late(void **state)
{
	static const double v[] = { 400, 300, 220, 170, 140, 125, 118,
		112, 106, 102, 100, 100, 100, 100 };
	struct ib_pts_ss o;

	(void)state;
	assert_int_equal(ib_pts_ss_scan(v, 14, &o), 13);
	assert_true(o.met);
	assert_int_equal(o.first, 8);
	assert_true(o.avg == 101.6);
	/* round 11's window (118..100): in range, but still falling */
	assert_false(ib_pts_ss_judge(v, 11, &o));
	assert_true(o.range_pct <= 20.0);
	assert_true(o.rise_pct > 10.0);
}

/* Alternating 80/120: the range is 40% of the average, never steady;
 * the scan stops at 25 rounds. */
static void test_never(void **state)
{
	double v[30];
	struct ib_pts_ss o;
	unsigned int i;

	(void)state;
	for (i = 0; i < 30; i++)
		v[i] = i % 2 ? 120 : 80;
	assert_int_equal(ib_pts_ss_scan(v, 30, &o), IB_PTS_MAX_ROUNDS);
	assert_false(o.met);
	assert_int_equal(o.rounds, IB_PTS_MAX_ROUNDS);
	assert_int_equal(o.first, IB_PTS_MAX_ROUNDS - IB_PTS_WINDOW);
}

/* The range limit: max - min exactly 20% of the average is steady, a
 * hair more is not. */
static void test_range_limit(void **state)
{
	static const double at[] = { 90, 110, 100, 100, 100 };
	static const double over[] = { 89.75, 110.25, 100, 100, 100 };
	struct ib_pts_ss o;

	(void)state;
	assert_true(ib_pts_ss_judge(at, 5, &o));
	assert_true(o.range_pct == 20.0);
	assert_true(o.slope == 1.0);
	assert_false(ib_pts_ss_judge(over, 5, &o));
	assert_true(o.range_pct == 20.5);
}

/* The rise limit: a line rising 2.5 a round over an average of 100 rises
 * exactly 10% across the window; 2.75 a round does not pass. */
static void test_rise_limit(void **state)
{
	static const double at[] = { 95, 97.5, 100, 102.5, 105 };
	static const double over[] = { 94.5, 97.25, 100, 102.75, 105.5 };
	static const double down[] = { 105, 102.5, 100, 97.5, 95 };
	struct ib_pts_ss o;

	(void)state;
	assert_true(ib_pts_ss_judge(at, 5, &o));
	assert_true(o.slope == 2.5);
	assert_true(o.rise_pct == 10.0);
	assert_false(ib_pts_ss_judge(over, 5, &o));
	assert_true(o.range_pct <= 20.0);
	assert_true(ib_pts_ss_judge(down, 5, &o));	/* |slope| */
	assert_true(o.slope == -2.5);
}

/* An average of 0 (nothing done) is never steady. */
static void test_zero(void **state)
{
	static const double v[] = { 0, 0, 0, 0, 0 };
	struct ib_pts_ss o;

	(void)state;
	assert_false(ib_pts_ss_judge(v, 5, &o));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_met_at_five),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_met_late),
		cmocka_unit_test(test_never),
		cmocka_unit_test(test_range_limit),
		cmocka_unit_test(test_rise_limit),
		cmocka_unit_test(test_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
