// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobench suite's verdicts (suite_out.h): IOPS and bandwidth met at and
 * above the expectation, not below; latency (p99) met at and below it;
 * the margin's sign and size; conclusive only when steady and long enough.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/suite_out.h"

static struct ib_suite_report rep;

static void row(unsigned int i, const char *name, enum ib_suite_metric m,
		double iops, double bw, uint64_t p99)
{
	struct ib_suite_row *r = &rep.rows[i];

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->judge = m;
	r->iops = iops;
	r->bw = bw;
	r->p99 = p99;
	r->steady = IB_STEADY_YES;
	r->long_enough = true;
	rep.nr = i + 1;
}

static void setup_rows(double iops, double bw, uint64_t p99)
{
	memset(&rep, 0, sizeof(rep));
	rep.suite = ib_suite_find("cloud");
	row(0, "lat-4k", IB_SM_LAT, 5000, 20e6, p99);
	row(1, "randread-4k", IB_SM_IOPS, iops, 40e6, 900000);
	row(2, "seqread-1m", IB_SM_BW, 300, bw, 900000);
	rep.expect.iops = 10000;
	rep.expect.bw = 300e6;
	rep.expect.lat_ns = 2000000;
}

static void test_at_limits(void **state)
{
	(void)state;
	setup_rows(10000, 300e6, 2000000);
	ib_suite_judge(&rep);
	assert_int_equal(rep.nv, 3);
	assert_string_equal(rep.v[0].test, "lat-4k");
	assert_int_equal(rep.v[0].metric, IB_SM_LAT);
	assert_true(rep.v[0].met && rep.v[1].met && rep.v[2].met);
	assert_true(rep.v[0].margin_pct == 0 && rep.v[1].margin_pct == 0 &&
		    rep.v[2].margin_pct == 0);
	assert_true(rep.v[1].measured == 10000 && rep.v[1].limit == 10000);
	assert_true(ib_suite_all_met(&rep));
}

static void test_better(void **state)
{
	(void)state;
	setup_rows(12500, 330e6, 1500000);
	ib_suite_judge(&rep);
	assert_true(ib_suite_all_met(&rep));
	assert_true(rep.v[0].margin_pct == 25.0);	/* 1.5ms vs 2ms */
	assert_true(rep.v[1].margin_pct == 25.0);	/* 12.5k vs 10k */
	assert_true(rep.v[2].margin_pct == 10.0);
	assert_true(rep.v[1].conclusive);
}

static void test_worse(void **state)
{
	(void)state;
	setup_rows(9999, 150e6, 2000001);
	ib_suite_judge(&rep);
	assert_false(rep.v[0].met);
	assert_false(rep.v[1].met);
	assert_false(rep.v[2].met);
	assert_true(rep.v[2].margin_pct == -50.0);
	assert_true(rep.v[1].margin_pct < 0 && rep.v[0].margin_pct < 0);
	assert_false(ib_suite_all_met(&rep));
}

/* Only the expectations given are judged, and a row that is not steady,
 * too short to tell or cut short is met but not conclusive. */
static void test_partial_and_trust(void **state)
{
	(void)state;
	setup_rows(20000, 10e6, 100);
	rep.expect.bw = 0;
	rep.expect.lat_ns = 0;
	rep.rows[1].steady = IB_STEADY_UNKNOWN;
	ib_suite_judge(&rep);
	assert_int_equal(rep.nv, 1);
	assert_true(rep.v[0].met);
	assert_false(rep.v[0].conclusive);
	rep.rows[1].steady = IB_STEADY_YES;
	rep.rows[1].long_enough = false;
	ib_suite_judge(&rep);
	assert_false(rep.v[0].conclusive);
	rep.rows[1].long_enough = true;
	rep.rows[1].steady = IB_STEADY_NO;
	ib_suite_judge(&rep);
	assert_false(rep.v[0].conclusive);
}

/* The window average of two rounds of two rows. */
static void test_average(void **state)
{
	struct ib_suite_row rr[6];

	(void)state;
	memset(rr, 0, sizeof(rr));
	memset(&rep, 0, sizeof(rep));
	rep.nr = 2;
	rr[2].iops = 100; rr[3].iops = 10; rr[4].iops = 300; rr[5].iops = 30;
	rr[2].p99 = 1000; rr[4].p99 = 3000;
	rr[2].ios = 7; rr[4].ios = 8;
	snprintf(rr[2].name, sizeof(rr[2].name), "a");
	ib_suite_average(&rep, rr, 1, 2);
	assert_string_equal(rep.rows[0].name, "a");
	assert_true(rep.rows[0].iops == 200 && rep.rows[1].iops == 20);
	assert_int_equal(rep.rows[0].p99, 2000);
	assert_int_equal(rep.rows[0].ios, 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_at_limits),
		cmocka_unit_test(test_better),
		cmocka_unit_test(test_worse),
		cmocka_unit_test(test_partial_and_trust),
		cmocka_unit_test(test_average),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
