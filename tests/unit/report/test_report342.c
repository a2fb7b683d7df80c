// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobench's default report format against real fio 3.42 output: the same
 * jobs as test_report's fio 3.33 goldens, run by fio 3.42
 * (tests/data/golden/v342/, made by fio2fixture.py). From the numbers fio
 * measured, iobench must print the text and terse lines fio 3.42 printed,
 * byte for byte.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "config.h"
#include "report_fixture.h"

static const char *const runs[] = {
	"bits", "disk", "fsync", "grp", "gtod", "kb1000", "null", "pcts", "r4s", "rw2s",
	"sig", "tv2", "tv3", "tv4", "tv5", "uboth", "umixed",
};

/* v342/NAME through fn equals fio 3.42's NAME.ext */
static void check_v342(const char *name, const char *ext,
		       int (*fn)(FILE *, const struct ib_results *))
{
	char path[64];
	struct fixture fx;
	char *want, *got;
	int ret;

	snprintf(path, sizeof(path), "v342/%s", name);
	assert_int_equal(fixture_load(&fx, path), 0);
	assert_int_equal(fx.in.fio_version, IB_FIO_V342);
	want = fixture_read(path, ext);
	assert_non_null(want);
	got = fixture_capture(fn, &fx.in, &ret);
	assert_int_equal(ret, 0);
	if (strcmp(want, got))
		fprintf(stderr, "--- fio 3.42 (%s.%s)\n%s--- iobench\n%s", name, ext, want, got);
	assert_string_equal(got, want);
	free(want);
	free(got);
	fixture_free(&fx);
}

/* The normal report of every run, byte for byte */
static void test_normal(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		check_v342(runs[i], "txt", ib_report_normal);
}

/* The terse lines (versions 2 to 5, one with a disk), byte for byte */
static void test_terse(void **state)
{
	static const char *const terse[] = { "tv2", "tv3", "tv4", "tv5", "disk", "umixed" };

	(void)state;
	for (size_t i = 0; i < sizeof(terse) / sizeof(terse[0]); i++)
		check_v342(terse[i], "terse", ib_report_terse);
}

/*
 * unified_rw_reporting=both's terse line field by field: the mixed slot's
 * stddevs are derived from fio's six-decimal stddevs (the fixture's
 * precision), so a float field may differ by 1e-6; all else is equal.
 */
static void test_terse_both(void **state)
{
	(void)state;
	fixture_check_terse_derived("v342/uboth", 227);	/* v5: read, write, trim, mixed */
}

/*
 * latency_target= jobs, as fio 3.42 and 3.33 printed them (null engine,
 * latency_percentile=50): 3.42 scales each time with a unit (ns up to
 * 1999, then us, ms, s), 3.33 prints the target in ns and the window in us.
 */
static void test_latency_target(void **state)
{
	static const struct {
		uint64_t target_ns, window_us;
		const char *v342, *v333;
	} lt[] = {
		{ 1500000, 2000000, "target=1500.00us, window=2.00s,",
		  "target=1500000, window=2000000," },
		{ 2000000, 1999, "target=2.00ms, window=1999.00us,", "target=2000000, window=1999," },
		{ 3000, 500000, "target=3.00us, window=500.00ms,", "target=3000, window=500000," },
	};
	char want[160];
	struct fixture fx;
	char *got;
	int ret;

	(void)state;
	assert_int_equal(fixture_load(&fx, "v342/null"), 0);
	for (size_t i = 0; i < sizeof(lt) / sizeof(lt[0]); i++) {
		fx.stats[0].lat_target_ns = lt[i].target_ns;
		fx.stats[0].lat_window_us = lt[i].window_us;
		fx.stats[0].lat_percentile = 50.0;
		fx.stats[0].lat_depth = 1;
		for (int v = 0; v < 2; v++) {
			fx.in.fio_version = v ? IB_FIO_V333 : IB_FIO_V342;
			got = fixture_capture(ib_report_normal, &fx.in, &ret);
			assert_int_equal(ret, 0);
			snprintf(want, sizeof(want), "\n     latency   : %s percentile=50.00%%, depth=1\n",
				 v ? lt[i].v333 : lt[i].v342);
			if (!strstr(got, want))
				fprintf(stderr, "want %s in:\n%s", want, got);
			assert_non_null(strstr(got, want));
			free(got);
		}
	}
	fixture_free(&fx);
}

/* The 3.42-only lines are there, the 3.33-only ones are not */
static void test_differences(void **state)
{
	char *disk, *fsync, *rw, *both;

	(void)state;
	disk = fixture_read("v342/disk", "txt");
	fsync = fixture_read("v342/fsync", "txt");
	rw = fixture_read("v342/rw2s", "txt");
	both = fixture_read("v342/uboth", "txt");
	assert_non_null(strstr(disk, "\n  vda: ios=9464/3, sectors=75712/648, merge=0/0, "));
	assert_non_null(strstr(fsync, "\n  fsync/fdatasync/sync_file_range/syncfs:\n"));
	assert_non_null(strstr(rw, "latency   : target=0.00ns, window=0.00ns, percentile=100.00%, "
			       "depth=8\n"));
	assert_null(strstr(rw, "zone resets"));
	assert_non_null(strstr(both, "\n  mixed: IOPS=61.4k, BW=240Mi (251M)(64.0MiB/267msec)\n"));
	free(disk);
	free(fsync);
	free(rw);
	free(both);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_terse),
		cmocka_unit_test(test_terse_both),
		cmocka_unit_test(test_latency_target),
		cmocka_unit_test(test_differences),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
