// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "iobench/num2str.h"

static const char *n2s(uint64_t v, unsigned int maxlen, unsigned int base, bool pow2,
		       const char *unit)
{
	static char buf[64];

	return ib_num2str(v, maxlen, base, pow2, unit, buf, sizeof(buf));
}

/* Every verified example of doc/fio-compat.md §1.3 */
static void test_verified_examples(void **state)
{
	(void)state;
	assert_string_equal(n2s(9142, 4, 1, false, ""), "9142");
	assert_string_equal(n2s(10000, 4, 1, false, ""), "10.0k");
	assert_string_equal(n2s(395094, 4, 1, false, ""), "395k");
	assert_string_equal(n2s(1061234, 4, 1, false, ""), "1061k");
	assert_string_equal(n2s(16384, 4, 1, true, "B"), "16.0KiB");
	assert_string_equal(n2s(131072, 4, 1, true, "B"), "128KiB");
	assert_string_equal(n2s(4096, 4, 1, true, "B"), "4096B");
	assert_string_equal(n2s(1048576, 4, 1, true, "B"), "1024KiB");
	assert_string_equal(n2s(92900000, 4, 1, true, "B/s"), "88.6MiB/s");
	assert_string_equal(n2s(92900000, 4, 1, false, "B/s"), "92.9MB/s");
}

/* Lines of real fio 3.33 output on this machine */
static void test_real_fio_lines(void **state)
{
	(void)state;
	/* BW=1543MiB/s (1618MB/s)(3088MiB/2001msec) */
	assert_string_equal(n2s(3238002688ull * 1000 / 2001, 4, 1, true, "B/s"), "1543MiB/s");
	assert_string_equal(n2s(3238002688ull * 1000 / 2001, 4, 1, false, "B/s"), "1618MB/s");
	assert_string_equal(n2s(3238002688ull, 4, 1, true, "B"), "3088MiB");
	/* IOPS=17.3k */
	assert_string_equal(n2s(17338, 4, 1, false, ""), "17.3k");
	/* (16.0MiB/3msec), io=16.0MiB (16.8MB) */
	assert_string_equal(n2s(16777216, 4, 1, true, "B"), "16.0MiB");
	assert_string_equal(n2s(16777216, 4, 1, false, "B"), "16.8MB");
	/* io=12.0GiB (12.9GB) */
	assert_string_equal(n2s(12859203584ull, 4, 1, true, "B"), "12.0GiB");
	assert_string_equal(n2s(12859203584ull, 4, 1, false, "B"), "12.9GB");
	/* latency min/max use 6 digits: max=8850.9k, max=3557.3k */
	assert_string_equal(n2s(8850912, 6, 1, false, ""), "8850.9k");
	assert_string_equal(n2s(3557337, 6, 1, false, ""), "3557.3k");
	assert_string_equal(n2s(263951, 6, 1, false, ""), "263951");
	/* IOPS=1569k (M only past 9999k) */
	assert_string_equal(n2s(1568942, 4, 1, false, ""), "1569k");
}

static void test_bits_and_base(void **state)
{
	(void)state;
	/* unit "bit/s" multiplies by 8 first */
	assert_string_equal(n2s(1000, 4, 1, false, "bit/s"), "8000bit/s");
	assert_string_equal(n2s(3800000000ull, 4, 1, true, "bit/s"), "28.3Gibit/s");
	/* status line: KiB/s input with base 1024 */
	assert_string_equal(n2s(17920, 4, 1024, true, "B/s"), "17.5MiB/s");
	assert_string_equal(n2s(512, 4, 1024, true, "B/s"), "512KiB/s");
	assert_string_equal(n2s(0, 4, 1, false, ""), "0");
}

static void test_rounding(void **state)
{
	(void)state;
	/* carry when no fraction is printed: 1061.5k -> 1062k */
	assert_string_equal(n2s(1061500, 4, 1, false, ""), "1062k");
	assert_string_equal(n2s(1061499, 4, 1, false, ""), "1061k");
	/* fraction rounding up to the next integer: 10.999k -> 11.0k */
	assert_string_equal(n2s(10999, 4, 1, false, ""), "11.0k");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verified_examples),
		cmocka_unit_test(test_real_fio_lines),
		cmocka_unit_test(test_bits_and_base),
		cmocka_unit_test(test_rounding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
