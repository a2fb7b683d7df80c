// SPDX-License-Identifier: GPL-2.0-only
/* Value parsers: sizes, percentages, times, integers, booleans. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "iobench/parse.h"

static uint64_t size_ok(const char *s, unsigned int base)
{
	struct ib_diag d = { { 0 } };
	uint64_t v = 0;

	assert_int_equal(ib_parse_size(s, base, &v, &d), 0);
	return v;
}

static void size_bad(const char *s, int err, const char *msg)
{
	struct ib_diag d = { { 0 } };
	uint64_t v = 7;

	assert_int_equal(ib_parse_size(s, 1024, &v, &d), -err);
	assert_string_equal(d.msg, msg);
	assert_int_equal(v, 7);
}

static void test_size_plain(void **state)
{
	(void)state;
	assert_int_equal(size_ok("0", 1024), 0);
	assert_int_equal(size_ok("4096", 1024), 4096);
	assert_int_equal(size_ok("0x10", 1024), 16);
	assert_int_equal(size_ok("0X1f", 1024), 31);
	assert_int_equal(size_ok(" 12 ", 1024), 12);
	assert_int_equal(size_ok("512b", 1024), 512);
	assert_true(size_ok("18446744073709551615", 1024) == UINT64_MAX);
}

static void test_size_suffixes_1024(void **state)
{
	(void)state;
	assert_int_equal(size_ok("4k", 1024), 4096);
	assert_int_equal(size_ok("4K", 1024), 4096);
	assert_int_equal(size_ok("4kb", 1024), 4096);
	assert_int_equal(size_ok("4KB", 1024), 4096);
	assert_int_equal(size_ok("1m", 1024), 1048576);
	assert_int_equal(size_ok("1mi", 1024), 1048576);
	assert_int_equal(size_ok("1000ki", 1024), 1024000);
	assert_true(size_ok("1g", 1024) == 1073741824ull);
	assert_true(size_ok("2t", 1024) == 2ull << 40);
	assert_true(size_ok("1p", 1024) == 1ull << 50);
	/* the quirk: only the 3-letter forms take the other base */
	assert_int_equal(size_ok("1MiB", 1024), 1000000);
	assert_int_equal(size_ok("4kib", 1024), 4000);
	assert_true(size_ok("1GiB", 1024) == 1000000000ull);
}

static void test_size_suffixes_1000(void **state)
{
	(void)state;
	assert_int_equal(size_ok("4k", 1000), 4000);
	assert_int_equal(size_ok("1m", 1000), 1000000);
	assert_int_equal(size_ok("1MiB", 1000), 1048576);
	assert_int_equal(size_ok("4KiB", 1000), 4096);
}

static void test_size_decimal(void **state)
{
	(void)state;
	assert_int_equal(size_ok("1.5m", 1024), 1572864);
	assert_int_equal(size_ok("0.5k", 1024), 512);
	assert_int_equal(size_ok("1.9", 1024), 1); /* truncated */
}

static void test_size_arith(void **state)
{
	(void)state;
	assert_int_equal(size_ok("(4*1024)k", 1024), 4194304);
	assert_int_equal(size_ok("(1+1)k", 1024), 2048);
	assert_int_equal(size_ok("(2^10)", 1024), 1024);
	assert_int_equal(size_ok("(2^3^2)", 1024), 512);
	assert_int_equal(size_ok("((1+2)*(3+4))", 1024), 21);
	assert_int_equal(size_ok("(10%4)", 1024), 2);
	assert_int_equal(size_ok("(10/4)", 1024), 2);
	assert_int_equal(size_ok("(7-2-1)", 1024), 4);
	assert_int_equal(size_ok("(4k*2)", 1024), 8192);
	assert_int_equal(size_ok("( 1 + 2 ) k", 1024), 3072);
	assert_int_equal(size_ok("(-2+3)", 1024), 1);
	/* without parentheses too (fio's "size=8*$mb_memory") */
	assert_int_equal(size_ok("8*2048", 1024), 16384);
	assert_int_equal(size_ok("2*4k", 1024), 8192);
	assert_int_equal(size_ok("1m+4k", 1024), 1052672);
	assert_int_equal(size_ok("((1+1)k*2)", 1024), 4096);
}

static void test_size_errors(void **state)
{
	(void)state;
	size_bad("4q", EINVAL, "invalid size '4q'");
	size_bad("", EINVAL, "invalid size ''");
	size_bad("k", EINVAL, "invalid size 'k'");
	size_bad("0x", EINVAL, "invalid size '0x'");
	size_bad("-1", EINVAL, "invalid size '-1' (negative)");
	size_bad("(1+2", EINVAL, "invalid size '(1+2' (missing ')')");
	size_bad("(1/0)", EINVAL, "invalid size '(1/0)' (division by zero)");
	size_bad("4k4", EINVAL, "invalid size '4k4'");
	size_bad("4k-8k", EINVAL, "invalid size '4k-8k' (negative)");
	size_bad("4*", EINVAL, "invalid size '4*'");
	size_bad("10%", EINVAL, "invalid size '10%'");
	size_bad("18446744073709551616", ERANGE,
		 "size '18446744073709551616' is out of range (more than 64 bits)");
	size_bad("16777216p", ERANGE,
		 "size '16777216p' is out of range (more than 64 bits)");
	size_bad("(2^64)", ERANGE, "size '(2^64)' is out of range (more than 64 bits)");
}

static void test_size_pct(void **state)
{
	struct ib_diag d = { { 0 } };
	uint64_t v = 5;
	uint8_t pct = 9;

	(void)state;
	assert_int_equal(ib_parse_size_pct("50%", 1024, &v, &pct, &d), 0);
	assert_int_equal(pct, 50);
	assert_int_equal(v, 5);
	assert_int_equal(ib_parse_size_pct("100%", 1024, &v, &pct, &d), 0);
	assert_int_equal(pct, 100);
	/* "%%" as in a printf format: fio reads it as one '%' */
	assert_int_equal(ib_parse_size_pct("40%%", 1024, &v, &pct, &d), 0);
	assert_int_equal(pct, 40);
	assert_int_equal(ib_parse_size_pct("8k", 1024, &v, &pct, &d), 0);
	assert_int_equal(pct, 0);
	assert_int_equal(v, 8192);
	assert_int_equal(ib_parse_size_pct("101%", 1024, &v, &pct, &d), -ERANGE);
	assert_string_equal(d.msg, "percentage '101%' is out of range (0..100%)");
	assert_int_equal(ib_parse_size_pct("x%", 1024, &v, &pct, &d), -EINVAL);
	assert_string_equal(d.msg, "invalid percentage 'x%'");
}

static uint64_t time_ok(const char *s, uint64_t unit)
{
	struct ib_diag d = { { 0 } };
	uint64_t v = 0;

	assert_int_equal(ib_parse_time_us(s, unit, &v, &d), 0);
	return v;
}

static void test_time(void **state)
{
	struct ib_diag d = { { 0 } };
	uint64_t v;

	(void)state;
	assert_int_equal(time_ok("10", 1000000), 10000000);
	assert_int_equal(time_ok("10", 1000), 10000);
	assert_int_equal(time_ok("250ms", 1000000), 250000);
	assert_int_equal(time_ok("250msec", 1000000), 250000);
	assert_int_equal(time_ok("7us", 1000000), 7);
	assert_int_equal(time_ok("7usec", 1000000), 7);
	assert_int_equal(time_ok("3s", 1000), 3000000);
	assert_int_equal(time_ok("2m", 1000000), 120000000);
	assert_true(time_ok("1h", 1000000) == 3600000000ull);
	assert_true(time_ok("1d", 1000000) == 86400000000ull);
	assert_int_equal(time_ok("1.5s", 1000000), 1500000);
	assert_int_equal(time_ok("(1+1)m", 1000000), 120000000);
	assert_int_equal(time_ok("10S", 1000000), 10000000);
	assert_int_equal(ib_parse_time_us("10x", 1000000, &v, &d), -EINVAL);
	assert_string_equal(d.msg, "invalid time '10x'");
	assert_int_equal(ib_parse_time_us("ms", 1000000, &v, &d), -EINVAL);
	assert_int_equal(ib_parse_time_us("99999999999999999d", 1000000, &v, &d), -ERANGE);
}

static void test_uint(void **state)
{
	struct ib_diag d = { { 0 } };
	uint64_t v = 0;

	(void)state;
	assert_int_equal(ib_parse_uint("32", &v, &d), 0);
	assert_int_equal(v, 32);
	assert_int_equal(ib_parse_uint("(4*8)", &v, &d), 0);
	assert_int_equal(v, 32);
	assert_int_equal(ib_parse_uint("0x20", &v, &d), 0);
	assert_int_equal(v, 32);
	assert_int_equal(ib_parse_uint("4*8", &v, &d), 0);
	assert_int_equal(v, 32);
	assert_int_equal(ib_parse_uint("32k", &v, &d), -EINVAL);
	assert_string_equal(d.msg, "invalid number '32k'");
	assert_int_equal(ib_parse_uint("abc", &v, &d), -EINVAL);
	assert_string_equal(d.msg, "invalid number 'abc'");
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "", "1", "true", "YES", "on" };
	static const char *const no[] = { "0", "false", "No", "off" };
	struct ib_diag d = { { 0 } };
	bool b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_int_equal(ib_parse_bool(yes[i], &b, &d), 0);
		assert_true(b);
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		assert_int_equal(ib_parse_bool(no[i], &b, &d), 0);
		assert_false(b);
	}
	/* integers as fio reads them, 0 and 1 only (fio: "max value out of
	 * range" above 1; a negative one is refused here too) */
	b = false;
	assert_int_equal(ib_parse_bool("0x1", &b, &d), 0);
	assert_true(b);
	b = true;
	assert_int_equal(ib_parse_bool("00", &b, &d), 0);
	assert_false(b);
	b = false;
	assert_int_equal(ib_parse_bool("2", &b, &d), -EINVAL);
	assert_false(b);
	assert_string_equal(d.msg,
			    "invalid boolean '2' (use 1/0, true/false, yes/no, on/off)");
	assert_int_equal(ib_parse_bool("-1", &b, &d), -EINVAL);
	assert_int_equal(ib_parse_bool("0x10", &b, &d), -EINVAL);
	assert_int_equal(ib_parse_bool("2x", &b, &d), -EINVAL);
	assert_string_equal(d.msg,
			    "invalid boolean '2x' (use 1/0, true/false, yes/no, on/off)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_plain),
		cmocka_unit_test(test_size_suffixes_1024),
		cmocka_unit_test(test_size_suffixes_1000),
		cmocka_unit_test(test_size_decimal),
		cmocka_unit_test(test_size_arith),
		cmocka_unit_test(test_size_errors),
		cmocka_unit_test(test_size_pct),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_bool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
