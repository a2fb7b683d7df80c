// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's steady-state criteria. The windows are real fio 3.33 runs' data
 * (its JSON "steadystate" objects), the expected values what fio printed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "iobench/steadystate.h"

static struct ib_ss ss;	/* large: not on the stack */

static bool fill(uint32_t mode, double limit, const uint64_t *iops,
		 const uint64_t *bw, uint32_t n)
{
	bool met = false;
	uint32_t i;

	ib_ss_init(&ss, mode, limit, n, 1);
	for (i = 0; i < n; i++)
		met = ib_ss_add(&ss, iops[i], bw ? bw[i] : 0, 0);
	return met;
}

/* fio: ss=iops:5%, rate_iops=1000: "criterion" "1.301301%", dev 13 */
static void test_iops_deviation_pct(void **state)
{
	static const uint64_t iops[] = { 1007, 988, 996, 1012, 992 };

	(void)state;
	assert_true(fill(IB_SS_PCT, 5.0, iops, NULL, 5));
	assert_true(ss.attained);
	assert_true(ss.deviation == 13.0);
	assert_true(ss.criterion == 100.0 * 13.0 / 999.0);
	assert_true(ss.slope == 0.0);
	assert_int_equal(ib_ss_iops_mean(&ss), 999);
}

/* fio: ss=iops:30 (absolute): max_deviation 72964.5 from mean 1323563.5 */
static void test_iops_deviation_abs(void **state)
{
	static const uint64_t iops[] = { 1250599, 1396528 };

	(void)state;
	assert_false(fill(0, 30.0, iops, NULL, 2));
	assert_true(ss.deviation == 72964.5);
	assert_true(ss.criterion == 72964.5);
	assert_int_equal(ib_ss_iops_mean(&ss), 1323563);
}

/* fio: ss=bw:10%: criterion 2.439575%, max_deviation 137251782 */
static void test_bw_deviation_pct(void **state)
{
	static const uint64_t iops[] = { 1340039, 1407056 };
	static const uint64_t bw[] = { 5488801441ull, 5763305005ull };

	(void)state;
	assert_true(fill(IB_SS_BW | IB_SS_PCT, 10.0, iops, bw, 2));
	assert_true(ss.deviation == 137251782.0);
	assert_true(ss.criterion > 2.4395748 && ss.criterion < 2.4395750);
	assert_true(ib_ss_bw_mean(&ss) == 5626053223ull);
}

/* fio: ss=iops_slope:0.5%: slope -2, criterion -4% (not met: |-4| >= 0.5) */
static void test_iops_slope_pct(void **state)
{
	static const uint64_t iops[] = { 53, 48, 49 };

	(void)state;
	assert_false(fill(IB_SS_SLOPE | IB_SS_PCT, 0.5, iops, NULL, 3));
	assert_true(ss.slope == -2.0);
	assert_true(ss.criterion == -4.0);
	assert_true(ss.deviation == 0.0);
	/* |criterion| below the limit: met, a negative slope included */
	assert_true(fill(IB_SS_SLOPE | IB_SS_PCT, 4.5, iops, NULL, 3));
}

/* fio: ss=bw_slope:2M: slope 180814488 bytes/s per s */
static void test_bw_slope_abs(void **state)
{
	static const uint64_t iops[] = { 1422339, 1466483 };
	static const uint64_t bw[] = { 5825901860ull, 6006716348ull };

	(void)state;
	assert_false(fill(IB_SS_BW | IB_SS_SLOPE, 2097152.0, iops, bw, 2));
	assert_true(ss.slope == 180814488.0);
	assert_true(ss.criterion == 180814488.0);
}

/* The % of a slope divides by fio's integer mean: 7 / 3 = 2, not 2.33. */
static void test_slope_pct_integer_mean(void **state)
{
	static const uint64_t iops[] = { 1, 2, 4 };

	(void)state;
	fill(IB_SS_SLOPE | IB_SS_PCT, 100.0, iops, NULL, 3);
	assert_true(ss.slope == 1.5);
	assert_true(ss.criterion == 75.0);
}

/* Met only strictly below the limit. */
static void test_strictly_below(void **state)
{
	static const uint64_t iops[] = { 90, 110 };

	(void)state;
	assert_false(fill(0, 10.0, iops, NULL, 2));
	assert_true(ss.criterion == 10.0);
	assert_true(fill(0, 10.5, iops, NULL, 2));
}

/*
 * fio 3.42: ss=lat:0.001% ss_dur=2, rate_iops=1000: lat_ns [379, 386],
 * max_deviation 3.5, criterion "0.915033%", lat_mean 382, not attained.
 */
static void test_lat_deviation_pct(void **state)
{
	(void)state;
	ib_ss_init(&ss, IB_SS_LAT | IB_SS_PCT, 0.001, 2, 1);
	assert_false(ib_ss_add(&ss, 995, 4075536, 379));
	assert_false(ib_ss_add(&ss, 1015, 4157669, 386));
	assert_true(ss.full);
	assert_true(ss.deviation == 3.5);
	assert_true(ss.criterion > 0.9150325 && ss.criterion < 0.9150335);
	assert_int_equal(ib_ss_lat_mean(&ss), 382);
	assert_int_equal(ib_ss_iops_mean(&ss), 1005);
	/* the same window in absolute ns (ss=lat:4): met */
	ib_ss_init(&ss, IB_SS_LAT, 4.0, 2, 1);
	ib_ss_add(&ss, 995, 4075536, 379);
	assert_true(ib_ss_add(&ss, 1015, 4157669, 386));
}

/*
 * fio 3.42: ss=lat_slope:50us ss_dur=4 ss_interval=2: two samples, lat_ns
 * [476, 350], slope -126 (per sample, not per second), not met.
 */
static void test_lat_slope_interval(void **state)
{
	(void)state;
	ib_ss_init(&ss, IB_SS_LAT | IB_SS_SLOPE, 50.0, 4, 2);
	assert_int_equal(ss.len, 2);
	assert_int_equal(ss.dur, 4);
	assert_false(ib_ss_add(&ss, 901, 3690805, 476));
	assert_false(ss.full);
	assert_false(ib_ss_add(&ss, 1013, 4151480, 350));
	assert_true(ss.full);
	assert_true(ss.slope == -126.0);
	assert_true(ss.criterion == -126.0);
	assert_int_equal(ib_ss_lat_mean(&ss), 413);
	assert_int_equal(ib_ss_bw_mean(&ss), 3921142);
	assert_int_equal(ib_ss_iops_mean(&ss), 957);
	/* |-126| < 130: met */
	ib_ss_init(&ss, IB_SS_LAT | IB_SS_SLOPE, 130.0, 4, 2);
	ib_ss_add(&ss, 901, 3690805, 476);
	assert_true(ib_ss_add(&ss, 1013, 4151480, 350));
}

/* Nothing is judged before the window is full; the ring keeps the last. */
static void test_window_ring(void **state)
{
	static const uint64_t first[] = { 100, 10, 500, 7, 3 };
	unsigned int i;

	(void)state;
	ib_ss_init(&ss, 0, 1000.0, 3, 1);
	assert_false(ib_ss_add(&ss, 100, 1, 0));
	assert_false(ib_ss_add(&ss, 10, 2, 0));
	assert_int_equal(ss.n, 2);
	assert_false(ss.full);
	assert_int_equal(ib_ss_iops_mean(&ss), 36);	/* 110 / 3, padded */
	ib_ss_init(&ss, 0, 100.0, 3, 1);
	for (i = 0; i < 5; i++)
		assert_false(ib_ss_add(&ss, first[i], i, 0));
	ib_ss_finish(&ss);
	assert_int_equal(ss.iops[0], 500);
	assert_int_equal(ss.iops[1], 7);
	assert_int_equal(ss.iops[2], 3);
	assert_int_equal(ss.bw[0], 2);
	assert_int_equal(ss.bw[2], 4);
	/* once attained, later samples change nothing */
	ib_ss_init(&ss, 0, 5.0, 2, 1);
	ib_ss_add(&ss, 10, 0, 0);
	assert_true(ib_ss_add(&ss, 12, 0, 0));
	assert_true(ib_ss_add(&ss, 1000, 0, 0));
	assert_int_equal(ss.iops[0], 10);
	assert_int_equal(ss.iops[1], 12);
}

static void parse_ok(const char *v, uint32_t mode, double limit)
{
	struct ib_diag d;
	uint32_t m = 99;
	double l = -1.0;

	assert_int_equal(ib_ss_parse(v, 1024, &m, &l, &d), 0);
	assert_int_equal(m, mode);
	assert_true(l == limit);
}

static void parse_bad(const char *v)
{
	struct ib_diag d;
	uint32_t m;
	double l;

	assert_int_equal(ib_ss_parse(v, 1024, &m, &l, &d), -EINVAL);
}

static void test_parse(void **state)
{
	(void)state;
	parse_ok("iops:5%", IB_SS_PCT, 5.0);
	parse_ok("iops_slope:0.01%", IB_SS_SLOPE | IB_SS_PCT, 0.01);
	parse_ok("bw:10%", IB_SS_BW | IB_SS_PCT, 10.0);
	parse_ok("iops:2%%", IB_SS_PCT, 2.0);	/* fio-plot writes "%%" */
	parse_ok("iops_slope:0.1%%%", IB_SS_SLOPE | IB_SS_PCT, 0.1);
	parse_ok("bw_slope:2M", IB_SS_BW | IB_SS_SLOPE, 2097152.0);
	parse_ok("bw:1000", IB_SS_BW, 1000.0);
	parse_ok("bw:4k", IB_SS_BW, 4096.0);
	parse_ok("iops:30", 0, 30.0);
	parse_ok("iops_slope:2.5", IB_SS_SLOPE, 2.5);
	parse_bad("iops");		/* fio: a threshold must be given */
	parse_bad("iops:");
	parse_ok("lat:5%", IB_SS_LAT | IB_SS_PCT, 5.0);
	/* fio 3.42: a time read in us, the number kept ("lat:2ms" 2000) */
	parse_ok("lat:50", IB_SS_LAT, 50.0);
	parse_ok("lat:50us", IB_SS_LAT, 50.0);
	parse_ok("lat:2ms", IB_SS_LAT, 2000.0);
	parse_ok("lat:1s", IB_SS_LAT, 1000000.0);
	parse_ok("lat_slope:50.000000", IB_SS_LAT | IB_SS_SLOPE, 50.0);
	parse_bad("lat:abc");		/* fio: latency threshold parsing failed */
	parse_bad("lat:-5");
	parse_bad("lat_slop:5");
	parse_bad("iops:1k");		/* fio reads 1 here; iobench refuses */
	parse_bad("iops:-1");
	parse_bad("bw:x%");
}

static void test_format(void **state)
{
	char buf[96];

	(void)state;
	ib_ss_init(&ss, IB_SS_PCT, 5.0, 5, 1);
	ib_ss_format(&ss, buf, sizeof(buf));
	assert_string_equal(buf, "iops:5.000000%");
	ib_ss_init(&ss, IB_SS_BW | IB_SS_SLOPE, 2097152.0, 5, 1);
	ib_ss_format(&ss, buf, sizeof(buf));
	assert_string_equal(buf, "bw_slope:2097152.000000");
	assert_string_equal(ib_ss_mode_name(IB_SS_SLOPE | IB_SS_PCT), "iops_slope");
	assert_string_equal(ib_ss_mode_name(IB_SS_BW), "bw");
	assert_string_equal(ib_ss_mode_name(IB_SS_LAT | IB_SS_PCT), "lat");
	assert_string_equal(ib_ss_mode_name(IB_SS_LAT | IB_SS_SLOPE), "lat_slope");
	ib_ss_init(&ss, IB_SS_LAT | IB_SS_SLOPE, 50.0, 4, 2);
	ib_ss_format(&ss, buf, sizeof(buf));
	assert_string_equal(buf, "lat_slope:50.000000");
	assert_int_equal(ib_ss_mode_from("bw_slope", 8), IB_SS_BW | IB_SS_SLOPE);
	assert_int_equal(ib_ss_mode_from("bw_s", 4), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iops_deviation_pct),
		cmocka_unit_test(test_iops_deviation_abs),
		cmocka_unit_test(test_bw_deviation_pct),
		cmocka_unit_test(test_iops_slope_pct),
		cmocka_unit_test(test_bw_slope_abs),
		cmocka_unit_test(test_slope_pct_integer_mean),
		cmocka_unit_test(test_strictly_below),
		cmocka_unit_test(test_lat_deviation_pct),
		cmocka_unit_test(test_lat_slope_interval),
		cmocka_unit_test(test_window_ring),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
