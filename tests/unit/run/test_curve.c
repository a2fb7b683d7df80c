// SPDX-License-Identifier: GPL-2.0-only
/*
 * The curve's pure parts: step targets, the rate split over directions and
 * clones, a point measured from job stats (IOPS and co-free percentiles over
 * every job and direction), the SLO answer, and the exact output lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/curve.h"
#include "iobench/curve_out.h"

static void test_targets(void **state)
{
	(void)state;
	assert_int_equal(ib_curve_target(41234, 1, 10), 4123);
	assert_int_equal(ib_curve_target(41234, 10, 10), 41234);
	assert_int_equal(ib_curve_target(41234, 3, 4), 30925);
	assert_int_equal(ib_curve_target(5, 1, 10), 1);	/* never 0 */
}

static void test_set_rate(void **state)
{
	struct ib_job j;

	(void)state;
	ib_job_defaults(&j);
	j.rw = IB_RW_READ | IB_RW_WRITE | IB_RW_RAND;
	j.rwmixread = 70;
	j.rate.bps[IB_DDIR_READ] = 99;
	j.rate.mode = 1;
	ib_curve_set_rate(&j, 10000, 2);
	assert_int_equal(j.rate.iops[IB_DDIR_READ], 3500);
	assert_int_equal(j.rate.iops[IB_DDIR_WRITE], 1500);
	assert_int_equal(j.rate.iops[IB_DDIR_TRIM], 0);
	assert_int_equal(j.rate.bps[IB_DDIR_READ], 0);
	assert_int_equal(j.rate.mode, 0);
	j.rw = IB_RW_WRITE;
	ib_curve_set_rate(&j, 777, 1);
	assert_int_equal(j.rate.iops[IB_DDIR_READ], 0);
	assert_int_equal(j.rate.iops[IB_DDIR_WRITE], 777);
}

static void test_measure(void **state)
{
	struct ib_job_stats *st = calloc(2, sizeof(*st));
	struct ib_curve_point p;
	unsigned int i;

	(void)state;
	assert_non_null(st);
	/* job 0: 1000 reads in 1 s at 10 us; job 1: 500 writes in 0.5 s at 1 ms */
	st[0].dir[IB_DDIR_READ].total_ios = 1000;
	st[0].dir[IB_DDIR_READ].runtime_us = 1000000;
	st[0].dir[IB_DDIR_READ].late_ios = 3;
	for (i = 0; i < 1000; i++)
		ib_stats_add_colat(&st[0], IB_DDIR_READ, 10000);
	st[1].dir[IB_DDIR_WRITE].total_ios = 500;
	st[1].dir[IB_DDIR_WRITE].runtime_us = 500000;
	for (i = 0; i < 500; i++)
		ib_stats_add_colat(&st[1], IB_DDIR_WRITE, 1000000);
	assert_int_equal(ib_curve_measure(st, 2, &p), 0);
	assert_true(p.achieved > 1999.999 && p.achieved < 2000.001);
	assert_int_equal(p.ios, 1500);
	assert_int_equal(p.late, 3);
	/* 2/3 of the I/Os at 10 us: p50 there, p99 and p99.9 at 1 ms */
	assert_int_equal(p.p50, ib_hist_value(ib_hist_index(10000)));
	assert_int_equal(p.p99, ib_hist_value(ib_hist_index(1000000)));
	assert_int_equal(p.p999, p.p99);
	free(st);
}

static struct ib_curve *curve3(void)
{
	struct ib_curve *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	strcpy(c->job, "vol");
	c->steps = 3;
	c->slo_ns = 1000000;
	c->max = (struct ib_curve_point){ 0, 0, 41234.0, 5000, 2000000, 3000000, 0, 41234, 0, 0, 0.0, 0.0 };
	c->pt[0] = (struct ib_curve_point){ 33, 13744, 13744.0, 80000, 300000, 600000, 0, 13744, 0, 0, 0.0, 0.0 };
	c->pt[1] = (struct ib_curve_point){ 66, 27489, 27400.5, 90000, 900000, 2500000, 12, 27400, 0, 0, 0.0, 0.0 };
	c->pt[2] = (struct ib_curve_point){ 100, 41234, 30000.0, 5000000, 90000000, 99000000, 9000, 30000, 0, 0, 0.0, 0.0 };
	c->nr = 3;
	return c;
}

static void test_answer(void **state)
{
	struct ib_curve *c = curve3();

	(void)state;
	assert_true(ib_curve_meets(c, &c->pt[0]));
	assert_true(ib_curve_meets(c, &c->pt[1]));
	assert_false(ib_curve_meets(c, &c->pt[2]));	/* p99 and 73% */
	assert_false(ib_curve_meets(c, &c->max));	/* unpaced */
	assert_ptr_equal(ib_curve_answer(c), &c->pt[1]);
	c->slo_ns = 200000;
	assert_null(ib_curve_answer(c));
	c->slo_ns = 100000000;				/* 73% is not sustained */
	assert_ptr_equal(ib_curve_answer(c), &c->pt[1]);
	free(c);
}

static char *capture(void (*fn)(FILE *, const struct ib_curve *),
		     const struct ib_curve *c)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	fn(f, c);
	fclose(f);
	return buf;
}

static void step_lines(FILE *f, const struct ib_curve *c)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		ib_curve_print_step(f, &c->pt[i]);
}

static void test_output(void **state)
{
	struct ib_curve *c = curve3();

	(void)state;
	assert_string_equal(capture(ib_curve_print_head, c),
		"vol: max 41.2k IOPS (unpaced, 41234 IOPS)\n"
		" step  target IOPS  achieved IOPS        p50        p99      p99.9     late  (co-free latency)\n");
	assert_string_equal(capture(step_lines, c),
		"  33%        13744        13744.0     80.0us    300.0us    600.0us        0\n"
		"  66%        27489        27400.5     90.0us    900.0us      2.5ms       12\n"
		" 100%        41234        30000.0      5.0ms     90.0ms     99.0ms     9000\n");
	assert_string_equal(capture(ib_curve_print_answer, c),
			    "max IOPS at p99 < 1ms: 27.4k\n");
	c->slo_ns = 500000;
	assert_string_equal(capture(ib_curve_print_answer, c),
			    "max IOPS at p99 < 500us: 13.7k\n");
	c->slo_ns = 1000;
	assert_string_equal(capture(ib_curve_print_answer, c),
			    "max IOPS at p99 < 1us: none (no step met it)\n");
	c->slo_ns = 1000000;
	assert_non_null(strstr(capture(ib_curve_print_json, c),
			       "\"max_iops_at_slo\" : 27400.500000"));
	assert_non_null(strstr(capture(ib_curve_print_json, c),
			       "\"p99.9\" : 2500000"));
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_set_rate),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
