// SPDX-License-Identifier: GPL-2.0-only
/*
 * bssplit= parsing and drawing: fio's syntax, blank shares, sorting,
 * per-direction lists, and the cumulative pick.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/bssplit.h"

static void parse_ok(const char *v, struct ib_bssplit *s)
{
	struct ib_diag d = { { 0 } };

	if (ib_bssplit_parse(v, 1024, s, &d))
		fail_msg("%s: %s", v, d.msg);
}

static void test_howto_examples(void **state)
{
	struct ib_bssplit s[IB_DDIR_RWT];

	(void)state;
	/* fio's order: by share, ascending; equal shares as given */
	parse_ok("4k/10:64k/50:32k/40", s);
	assert_int_equal(s[0].nr, 3);
	assert_int_equal(s[0].bs[0], 4096);
	assert_int_equal(s[0].perc[0], 10000);
	assert_int_equal(s[0].bs[1], 32768);
	assert_int_equal(s[0].perc[1], 40000);
	assert_int_equal(s[0].bs[2], 65536);
	assert_int_equal(s[0].perc[2], 50000);
	assert_memory_equal(&s[1], &s[0], sizeof(s[0]));
	assert_memory_equal(&s[2], &s[0], sizeof(s[0]));
	parse_ok("4k/50:1k/:32k/", s);
	assert_int_equal(s[0].bs[0], 1024);
	assert_int_equal(s[0].perc[0], 25000);
	assert_int_equal(s[0].bs[1], 32768);
	assert_int_equal(s[0].perc[1], 25000);
	assert_int_equal(s[0].bs[2], 4096);
	assert_int_equal(s[0].perc[2], 50000);
	parse_ok("2k/50:4k/50,4k/90:8k/10", s);
	assert_int_equal(s[0].bs[0], 2048);
	assert_int_equal(s[0].bs[1], 4096);
	assert_int_equal(s[1].bs[0], 8192);
	assert_int_equal(s[1].perc[0], 10000);
	assert_int_equal(s[1].bs[1], 4096);
	assert_int_equal(s[1].perc[1], 90000);
	assert_memory_equal(&s[2], &s[1], sizeof(s[1]));
	assert_int_equal(ib_bssplit_min(&s[1]), 4096);
	assert_int_equal(ib_bssplit_max(&s[1]), 8192);
	parse_ok("4k/12.5:8k/87.5", s);
	assert_int_equal(s[0].perc[0], 12500);
	parse_ok("4k/20%:8k/80%", s); /* fio reads N% as N */
	assert_int_equal(s[0].perc[0], 20000);
	assert_int_equal(s[0].perc[1], 80000);
	parse_ok(",8k/100", s);
	assert_int_equal(s[0].nr, 0);
	assert_int_equal(s[1].bs[0], 8192);
}

static void test_errors(void **state)
{
	struct ib_bssplit s[IB_DDIR_RWT];
	struct ib_diag d = { { 0 } };

	(void)state;
	assert_int_equal(ib_bssplit_parse("4k/101", 1024, s, &d), -EINVAL);
	assert_string_equal(d.msg, "bssplit: bad percentage '101'");
	assert_int_equal(ib_bssplit_parse("4k/50%%", 1024, s, &d), -EINVAL);
	assert_int_equal(ib_bssplit_parse("4k/%", 1024, s, &d), -EINVAL);
	assert_int_equal(ib_bssplit_parse("0/50", 1024, s, &d), -EINVAL);
	assert_int_equal(ib_bssplit_parse("4k/5,4k/5,4k/5,4k/5", 1024, s, &d), -EINVAL);
	assert_int_equal(ib_bssplit_parse(",", 1024, s, &d), -EINVAL);
	assert_string_equal(d.msg, "bssplit: no block size in ','");
}

static void test_pick(void **state)
{
	struct ib_bssplit s[IB_DDIR_RWT];

	(void)state;
	parse_ok("4k/10:8k/20", s);	/* adds up to 30: the rest to 8k */
	assert_int_equal(ib_bssplit_pick(&s[0], 1), 4096);
	assert_int_equal(ib_bssplit_pick(&s[0], 10000), 4096);
	assert_int_equal(ib_bssplit_pick(&s[0], 10001), 8192);
	assert_int_equal(ib_bssplit_pick(&s[0], IB_BSSPLIT_SCALE), 8192);
	parse_ok("4k/60:8k/60", s);	/* over 100: 8k gets 40 */
	assert_int_equal(ib_bssplit_pick(&s[0], 60000), 4096);
	assert_int_equal(ib_bssplit_pick(&s[0], 60001), 8192);
	parse_ok("4k/0:8k/100", s);
	assert_int_equal(ib_bssplit_pick(&s[0], 1), 8192);
	assert_int_equal(ib_bssplit_min(&s[0]), 4096);
	assert_int_equal(ib_bssplit_max(&s[0]), 8192);
	/* fio 3.33: 4k/70:8k/30 gives 8k for a draw of 1..30 */
	parse_ok("4k/70:8k/30", s);
	assert_int_equal(ib_bssplit_pick(&s[0], 30000), 8192);
	assert_int_equal(ib_bssplit_pick(&s[0], 30001), 4096);
	/* sums below 100: past them all, the last in that order */
	parse_ok("4k/50:8k/20", s);
	assert_int_equal(ib_bssplit_pick(&s[0], 70001), 4096);
}

/* The walk with a limit: on to the next size that fits, else the last. */
static void test_pick_fit(void **state)
{
	struct ib_bssplit s[IB_DDIR_RWT];

	(void)state;
	parse_ok("4k/10:8k/20:16k/30:32k/40", s);
	assert_int_equal(ib_bssplit_pick_fit(&s[0], 5000, 4096), 4096);
	assert_int_equal(ib_bssplit_pick_fit(&s[0], 50000, 1 << 20), 16384);
	assert_int_equal(ib_bssplit_pick_fit(&s[0], 50000, 8192), 32768);
	parse_ok("16k/10:4k/90", s);
	assert_int_equal(ib_bssplit_pick_fit(&s[0], 5000, 8192), 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_howto_examples),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_pick_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
