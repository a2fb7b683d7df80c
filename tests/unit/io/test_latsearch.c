// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency_target depth search against a brute-force sweep: synthetic
 * "latency grows with depth" models, every iodepth 1..64 and many targets;
 * the depth found must be the largest that meets the target.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>
#include "src/io/gen/latsearch.h"

#define WINDOW_IOS 1000

/* Latency models, ns at depth d: a queue (linear), a knee, a cliff. */
static uint64_t lat_linear(unsigned int d)
{
	return 50000 + 20000ull * d;
}

static uint64_t lat_knee(unsigned int d)
{
	return d <= 12 ? 80000 + 1000ull * d : 80000 + 4000ull * d * d;
}

static uint64_t lat_cliff(unsigned int d)
{
	return d < 23 ? 100000 : 900000;
}

typedef uint64_t (*lat_model)(unsigned int d);

/* The answer by sweeping every depth: 0 when even depth 1 misses. */
static unsigned int brute(lat_model m, unsigned int iodepth, uint64_t target)
{
	unsigned int d, best = 0;

	for (d = 1; d <= iodepth; d++)
		if (m(d) <= target)
			best = d;
	return best;
}

/*
 * Run the search to its end; returns the depth found (0 for FATAL). Checks
 * the protocol: FINAL comes right before DONE, at the same depth, and the
 * search takes a logarithmic number of windows.
 */
static unsigned int search(lat_model m, unsigned int iodepth, uint64_t target,
			   bool by_lat)
{
	struct ib_latsearch_cfg c = { .iodepth = iodepth, .percentile = 100.0 };
	struct ib_latsearch s;
	enum ib_latsearch_step st, prev = IB_LS_NEXT;
	unsigned int d, final_depth = 0;

	ib_latsearch_init(&s, &c);
	for (;;) {
		d = ib_latsearch_depth(&s);
		assert_true(d >= 1 && d <= iodepth);
		if (by_lat)
			st = ib_latsearch_window_lat(&s, m(d), target);
		else
			st = ib_latsearch_window(&s, WINDOW_IOS,
						 m(d) > target ? WINDOW_IOS : 0);
		assert_true(s.windows <= 40);
		if (st == IB_LS_FATAL) {
			assert_int_equal(d, 1);
			return 0;
		}
		if (st == IB_LS_FINAL)
			final_depth = ib_latsearch_depth(&s);
		if (st == IB_LS_DONE) {
			assert_int_equal(prev, IB_LS_FINAL);
			assert_int_equal(ib_latsearch_depth(&s), final_depth);
			return ib_latsearch_depth(&s);
		}
		prev = st;
	}
}

static void sweep(lat_model m, uint64_t tmin, uint64_t tmax, uint64_t tstep)
{
	unsigned int iodepth;
	uint64_t t;

	for (iodepth = 1; iodepth <= 64; iodepth++) {
		for (t = tmin; t <= tmax; t += tstep) {
			assert_int_equal(search(m, iodepth, t, false), brute(m, iodepth, t));
			assert_int_equal(search(m, iodepth, t, true), brute(m, iodepth, t));
		}
	}
}

static void test_linear_model(void **state)
{
	(void)state;
	/* below depth 1 (fatal), every depth in between, above all */
	sweep(lat_linear, 60000, 1400000, 7000);
}

static void test_knee_model(void **state)
{
	(void)state;
	sweep(lat_knee, 70000, 16500000, 45000);
}

static void test_cliff_model(void **state)
{
	(void)state;
	sweep(lat_cliff, 100000, 100000, 1);
	assert_int_equal(search(lat_cliff, 64, 100000, false), 22);
}

/*
 * iodepth=24, depths up to 23 pass: fio 3.33 doubles whenever high ==
 * iodepth, so it swings between 23 and 24 for the whole run. Found: 23.
 */
static void test_answer_just_below_iodepth(void **state)
{
	unsigned int i, seen24 = 0;
	struct ib_latsearch_cfg c = { .iodepth = 24, .percentile = 100.0 };
	struct ib_latsearch s;
	enum ib_latsearch_step st = IB_LS_NEXT;
	static const unsigned int path[] = { 1, 2, 4, 8, 16, 24, 20, 22, 23, 23 };

	(void)state;
	ib_latsearch_init(&s, &c);
	for (i = 0; i < sizeof(path) / sizeof(path[0]); i++) {
		assert_int_equal(ib_latsearch_depth(&s), path[i]);
		st = ib_latsearch_window(&s, 10, ib_latsearch_depth(&s) > 23 ? 1 : 0);
		seen24 += ib_latsearch_depth(&s) == 24;
	}
	assert_int_equal(st, IB_LS_DONE);
	assert_int_equal(ib_latsearch_depth(&s), 23);
	assert_int_equal(seen24, 1);
	/* a finished search stays finished */
	assert_int_equal(ib_latsearch_window(&s, 10, 10), IB_LS_DONE);
	assert_int_equal(ib_latsearch_over(&s), IB_LS_DONE);
	assert_int_equal(ib_latsearch_depth(&s), 23);
}

/*
 * latency_percentile=90: at depth d, d% of the I/Os exceed the target, so
 * depths up to 10 pass. Below 100 a miss at depth 1 is not fatal.
 */
static void test_percentile(void **state)
{
	struct ib_latsearch_cfg c = { .iodepth = 64, .percentile = 90.0 };
	struct ib_latsearch s;
	enum ib_latsearch_step st;
	unsigned int d;

	(void)state;
	ib_latsearch_init(&s, &c);
	do {
		d = ib_latsearch_depth(&s);
		st = ib_latsearch_window(&s, 1000, 10 * d);
		assert_true(st != IB_LS_FATAL);
	} while (st != IB_LS_DONE);
	assert_int_equal(ib_latsearch_depth(&s), 10);
	/* exactly at the percentile passes (fio: success >= percentile) */
	ib_latsearch_init(&s, &c);
	assert_int_equal(ib_latsearch_window(&s, 1000, 100), IB_LS_NEXT);
	assert_int_equal(ib_latsearch_depth(&s), 2);
	/* depth 1 missing: stays at 1, no error */
	ib_latsearch_init(&s, &c);
	assert_int_equal(ib_latsearch_window(&s, 1000, 101), IB_LS_NEXT);
	assert_int_equal(ib_latsearch_depth(&s), 1);
	/* over() is for percentile 100 only */
	assert_int_equal(ib_latsearch_over(&s), IB_LS_NEXT);
	assert_int_equal(s.windows, 1);
	/* a window without any I/O fails */
	c.percentile = 100.0;
	ib_latsearch_init(&s, &c);
	assert_int_equal(ib_latsearch_window(&s, 1, 0), IB_LS_NEXT);
	assert_int_equal(ib_latsearch_window(&s, 0, 0), IB_LS_DOWN);
	assert_int_equal(ib_latsearch_depth(&s), 1);
	assert_int_equal(ib_latsearch_window(&s, 0, 0), IB_LS_FATAL);
}

/* Percentile 100: the first I/O over the target ramps down at once. */
static void test_over(void **state)
{
	struct ib_latsearch_cfg c = { .iodepth = 32, .percentile = 100.0 };
	struct ib_latsearch s;

	(void)state;
	ib_latsearch_init(&s, &c);
	assert_int_equal(ib_latsearch_over(&s), IB_LS_FATAL);
	ib_latsearch_window(&s, 5, 0);		/* 1 -> 2 */
	ib_latsearch_window(&s, 5, 0);		/* 2 -> 4 */
	ib_latsearch_window(&s, 5, 0);		/* 4 -> 8 */
	assert_int_equal(ib_latsearch_depth(&s), 8);
	assert_int_equal(ib_latsearch_over(&s), IB_LS_DOWN);
	assert_int_equal(ib_latsearch_depth(&s), 6);	/* (8 + 4) / 2 */
	assert_int_equal(s.high, 8);
	assert_int_equal(s.low, 4);
}

/* A miss during the final window: the search resumes and ends at the new depth. */
static void test_final_window_miss(void **state)
{
	struct ib_latsearch_cfg c = { .iodepth = 8, .percentile = 100.0 };
	struct ib_latsearch s;

	(void)state;
	ib_latsearch_init(&s, &c);
	assert_int_equal(ib_latsearch_window(&s, 9, 0), IB_LS_NEXT);	/* 2 */
	assert_int_equal(ib_latsearch_window(&s, 9, 0), IB_LS_NEXT);	/* 4 */
	assert_int_equal(ib_latsearch_window(&s, 9, 0), IB_LS_NEXT);	/* 8 */
	assert_int_equal(ib_latsearch_window(&s, 9, 0), IB_LS_FINAL);	/* 8 */
	assert_int_equal(ib_latsearch_depth(&s), 8);
	assert_int_equal(ib_latsearch_window(&s, 9, 1), IB_LS_DOWN);	/* noise */
	assert_int_equal(ib_latsearch_depth(&s), 7);	/* low 8 -> 7 */
	assert_false(s.final);
	assert_int_equal(ib_latsearch_window(&s, 9, 0), IB_LS_FINAL);
	assert_int_equal(ib_latsearch_depth(&s), 7);
	assert_int_equal(ib_latsearch_window(&s, 9, 0), IB_LS_DONE);
	assert_int_equal(ib_latsearch_depth(&s), 7);
}

/*
 * latency_run: never done; it settles on the answer and, after three passes
 * there, probes one deeper (fio's heuristic), then comes back.
 */
static void test_latency_run(void **state)
{
	struct ib_latsearch_cfg c = { .iodepth = 64, .percentile = 100.0, .run = true };
	struct ib_latsearch s;
	enum ib_latsearch_step st;
	unsigned int i, d, at[2] = { 0, 0 };

	(void)state;
	ib_latsearch_init(&s, &c);
	for (i = 0; i < 400; i++) {
		d = ib_latsearch_depth(&s);
		st = ib_latsearch_window(&s, 100, lat_linear(d) > 500000 ? 1 : 0);
		assert_true(st == IB_LS_NEXT || st == IB_LS_DOWN);
		if (i >= 100) {
			assert_true(d == 22 || d == 23);
			at[d - 22]++;
		}
	}
	/* 3 windows at 22 for each probe of 23 */
	assert_int_equal(at[0], 225);
	assert_int_equal(at[1], 75);
	assert_int_equal(brute(lat_linear, 64, 500000), 22);
}

static void test_init_bounds(void **state)
{
	struct ib_latsearch_cfg c = { .iodepth = 0, .percentile = 0.0 };
	struct ib_latsearch s;

	(void)state;
	ib_latsearch_init(&s, &c);
	assert_int_equal(s.cfg.iodepth, 1);
	assert_true(s.cfg.percentile == 100.0);
	assert_int_equal(ib_latsearch_window(&s, 3, 0), IB_LS_FINAL);
	assert_int_equal(ib_latsearch_window(&s, 3, 0), IB_LS_DONE);
	assert_int_equal(ib_latsearch_depth(&s), 1);
}

/* max_latency: fio 3.33's message and errno (measured with max_latency=1). */
static void test_max_latency(void **state)
{
	struct ib_diag d;

	(void)state;
	d.msg[0] = 0;
	assert_int_equal(ib_lat_max_check(1000, 1000, "f", "read", 0, 4096, &d), 0);
	assert_int_equal(ib_lat_max_check(99999, 0, "f", "read", 0, 4096, &d), 0);
	assert_string_equal(d.msg, "");
	assert_int_equal(ib_lat_max_check(7452, 1000, "pl.0.0", "read", 0, 4096, &d),
			 -ETIMEDOUT);
	assert_string_equal(d.msg, "latency of 7452 nsec exceeds specified max "
			    "(1000 nsec): pl.0.0 read 0 4096");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear_model),
		cmocka_unit_test(test_knee_model),
		cmocka_unit_test(test_cliff_model),
		cmocka_unit_test(test_answer_just_below_iodepth),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_over),
		cmocka_unit_test(test_final_window_miss),
		cmocka_unit_test(test_latency_run),
		cmocka_unit_test(test_init_bounds),
		cmocka_unit_test(test_max_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
