// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "iobench/hist.h"

static void test_small_values_exact(void **state)
{
	unsigned int v;

	(void)state;
	for (v = 0; v < 128; v++) {
		assert_int_equal(ib_hist_index(v), v);
		assert_int_equal(ib_hist_value(v), v);
	}
}

static void test_documented_examples(void **state)
{
	(void)state;
	assert_int_equal(ib_hist_value(128), 129);
	assert_int_equal(ib_hist_index(128), 128);
	assert_int_equal(ib_hist_index(129), 128);
	assert_int_equal(ib_hist_index(130), 129);
	/* json+ key 462 = 256 + 51.5 * 4 */
	assert_int_equal(ib_hist_value(3 * 64 + 51), 462);
	assert_int_equal(ib_hist_index(462), 3 * 64 + 51);
	/* percentile value 61184 = 32768 + 55.5 * 512 */
	assert_int_equal(ib_hist_value(10 * 64 + 55), 61184);
	assert_int_equal(ib_hist_index(61184), 10 * 64 + 55);
	/* fio's last bucket (1855) is a regular bucket for us */
	assert_int_equal(ib_hist_index((1ull << 34) - 1), 1855);
	assert_int_equal(ib_hist_index(1ull << 34), 1856);
}

/* Every bucket's representative maps back to it, and the error is < 1/128 */
static void test_round_trip_and_error(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < IB_HIST_NR; i++) {
		uint64_t v = ib_hist_value(i);

		assert_int_equal(ib_hist_index(v), i);
	}
	for (uint64_t v = 128; v < (1ull << 42); v = v * 3 + 7) {
		uint64_t r = ib_hist_value(ib_hist_index(v));
		double err = (double)(r > v ? r - v : v - r) / (double)v;

		assert_true(err <= 1.0 / 128.0);
	}
}

/*
 * Bucket edges as the essay in hist.h defines them: group g >= 2 starts at
 * 2^(g+5) with buckets of 2^(g-1); each bucket's first and last value map
 * to it, the value past its last to the next one (to the clamp at the end).
 */
static void test_bucket_edges(void **state)
{
	unsigned int g, b, want;

	(void)state;
	for (g = 2; g < 64 - IB_HIST_BITS + 1; g++) {
		for (b = 0; b < IB_HIST_VAL; b++) {
			uint64_t w = 1ull << (g - 1);
			uint64_t first = (1ull << (g + 5)) + b * w, last = first + w - 1;

			want = g * IB_HIST_VAL + b;
			if (want > IB_HIST_NR - 1)
				want = IB_HIST_NR - 1;
			assert_int_equal(ib_hist_index(first), want);
			assert_int_equal(ib_hist_index(last), want);
			if (last != UINT64_MAX)
				assert_int_equal(ib_hist_index(last + 1),
						 want < IB_HIST_NR - 1 ? want + 1 : want);
		}
	}
}

static void test_one_hour_true_bucket(void **state)
{
	uint64_t hour = 3600ull * 1000000000ull;
	unsigned int idx = ib_hist_index(hour);
	uint64_t r = ib_hist_value(idx);

	(void)state;
	assert_true(idx < IB_HIST_NR - 1);
	assert_true(r > hour - hour / 128 && r < hour + hour / 128);
	/* beyond the range: clamped into the last bucket */
	assert_int_equal(ib_hist_index(UINT64_MAX), IB_HIST_NR - 1);
}

static void test_percentiles_known(void **state)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	const double pct[] = { 1, 50, 90, 99, 100 };
	uint64_t out[5];
	unsigned int v;

	(void)state;
	/* 100 samples 1..100 ns: exact buckets */
	for (v = 1; v <= 100; v++)
		ib_hist_add(h, v);
	assert_int_equal(ib_hist_percentiles(h, 100, pct, 5, out), 0);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 50);
	assert_int_equal(out[2], 90);
	assert_int_equal(out[3], 99);
	assert_int_equal(out[4], 100);
	assert_int_equal(ib_hist_percentiles(h, 0, pct, 5, out), -ENODATA);
	free(h);
}

static void test_percentiles_shared_bucket(void **state)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	const double pct[] = { 10, 50, 99.99 };
	uint64_t out[3];
	unsigned int i;

	(void)state;
	for (i = 0; i < 999; i++)
		ib_hist_add(h, 17024);		/* bucket value 17024 */
	ib_hist_add(h, 2474000);
	assert_int_equal(ib_hist_percentiles(h, 1000, pct, 3, out), 0);
	assert_int_equal(out[0], 17024);
	assert_int_equal(out[1], 17024);
	assert_int_equal(out[2], ib_hist_value(ib_hist_index(2474000)));
	free(h);
}

static void test_merge(void **state)
{
	struct ib_hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));

	(void)state;
	ib_hist_add(a, 5);
	ib_hist_add(a, 1000000);
	ib_hist_add(b, 5);
	ib_hist_merge(a, b);
	assert_int_equal(a->count[5], 2);
	assert_int_equal(a->count[ib_hist_index(1000000)], 1);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_documented_examples),
		cmocka_unit_test(test_round_trip_and_error),
		cmocka_unit_test(test_bucket_edges),
		cmocka_unit_test(test_one_hour_true_bucket),
		cmocka_unit_test(test_percentiles_known),
		cmocka_unit_test(test_percentiles_shared_bucket),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
