// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON / json+: parsed back by python3's json module and compared, key by key
 * and type by type (and value by value), with fio 3.33's JSON for the same
 * numbers (tests/data/golden/NAME.json; see report_fixture.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/json.h"
#include "report_fixture.h"

static bool have_python(void)
{
	return system("python3 -c 'import json' >/dev/null 2>&1") == 0;
}

static int compare(const char *ours, const char *fio_name, const char *mode)
{
	char tmp[] = "/tmp/ib_json_XXXXXX", cmd[9000];
	int fd = mkstemp(tmp), ret;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, ours, strlen(ours)), (ssize_t)strlen(ours));
	close(fd);
	snprintf(cmd, sizeof(cmd), "python3 %s/json_compare.py %s %s %s/%s.json", fixture_dir(),
		 mode, tmp, fixture_dir(), fio_name);
	ret = system(cmd);
	unlink(tmp);
	return ret;
}

static void check(const char *name, bool plus, const char *mode)
{
	struct fixture fx;
	char *got;
	int ret;

	if (!have_python())
		skip();
	assert_int_equal(fixture_load(&fx, name), 0);
	got = fixture_capture(plus ? ib_report_json_plus : ib_report_json, &fx.in, &ret);
	assert_int_equal(ret, 0);
	ret = compare(got, name, mode);
	if (ret)
		fprintf(stderr, "%s", got);
	assert_int_equal(ret, 0);
	free(got);
	fixture_free(&fx);
}

/* json+ of a libaio randrw run: all values, percentiles and bins as fio's */
static void test_randrw_values(void **state)
{
	(void)state;
	check("rw2s", true, "--values");
}

static void test_group_values(void **state)
{
	(void)state;
	check("grp", true, "--values");
}

static void test_fsync_values(void **state)
{
	(void)state;
	check("fsync", true, "--values");
}

static void test_null_values(void **state)
{
	(void)state;
	check("null", true, "--values");
}

/* slat/lat percentiles and bins, custom list; kb_base; gtod_reduce zeros */
static void test_option_variants(void **state)
{
	(void)state;
	check("pcts", true, "--values");
	check("kb1000", true, "--values");
	check("bits", true, "--values");
	check("gtod", true, "--values");
	check("sig", true, "--values");
	check("disk", true, "--values");	/* disk_util */
}

/* unified_rw_reporting: "mixed" after sync (both), or alone (mixed) */
static void test_unified_values(void **state)
{
	(void)state;
	check("uboth", true, "--values");
	check("umixed", true, "--values");
}

static char *capture_writer(void (*fn)(struct ib_json *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ib_json j;

	ib_json_begin(&j, f);
	fn(&j);
	ib_json_end(&j);
	fclose(f);
	return buf;
}

static void write_sample(struct ib_json *j)
{
	ib_json_str(j, "s", "a\"b\\c\nd\x01");
	ib_json_str(j, "empty", "");
	ib_json_int(j, "i", -3);
	ib_json_float(j, "f", 1.5);
	ib_json_float(j, "nan", 0.0 / 0.0);
	ib_json_arr_open(j, "a");
	ib_json_obj_open(j, NULL);
	ib_json_uint(j, "u", 18446744073709551615ull);
	ib_json_obj_close(j);
	ib_json_arr_close(j);
	ib_json_obj_open(j, "o");
	ib_json_obj_close(j);
}

/* iobench's own per-job object: the engine and O_DIRECT mode used, and why */
static void test_effective_options(void **state)
{
	struct fixture fx;
	char *got;
	int ret;

	(void)state;
	assert_int_equal(fixture_load(&fx, "null"), 0);
	strcpy(fx.stats[0].ioengine, "libaio");
	fx.stats[0].direct = false;
	strcpy(fx.stats[0].ioengine_fallback, "io_uring: Operation not permitted");
	strcpy(fx.stats[0].direct_fallback, "the filesystem of /x does not support O_DIRECT");
	got = fixture_capture(ib_report_json, &fx.in, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(got, "      },\n"
		"      \"effective options\" : {\n"
		"        \"ioengine\" : \"libaio\",\n"
		"        \"direct\" : 0,\n"
		"        \"direct_requested\" : 1,\n"
		"        \"ioengine_fallback\" : \"io_uring: Operation not permitted\",\n"
		"        \"direct_fallback\" : \"the filesystem of /x does not support O_DIRECT\"\n"
		"      },\n"
		"      \"read\" : {\n"));
	free(got);
	/* no fallback: no reason keys */
	fx.stats[0].ioengine_fallback[0] = fx.stats[0].direct_fallback[0] = '\0';
	fx.stats[0].direct = true;
	got = fixture_capture(ib_report_json, &fx.in, &ret);
	assert_non_null(strstr(got, "        \"direct_requested\" : 1\n      },\n"));
	free(got);
	fixture_free(&fx);
}

/* fio 3.33's run: rate_iops=1000, ss=iops:5%, ss_dur=5 (its data and text) */
static void fio_ss_window(struct ib_ss *ss)
{
	static const uint64_t iops[] = { 1007, 988, 996, 1012, 992 };
	static const uint64_t bw[] = { 4128637, 4050898, 4083699, 4145152, 4067299 };
	unsigned int i;

	ib_ss_init(ss, IB_SS_PCT, 5.0, 5, 1);
	for (i = 0; i < 5; i++)
		ib_ss_add(ss, iops[i], bw[i], 0);
	ib_ss_finish(ss);
}

/* fio's "steadystate" object, byte for byte, after the job's last field */
static void test_steadystate_object(void **state)
{
	struct fixture fx;
	char *got;
	int ret;

	(void)state;
	assert_int_equal(fixture_load(&fx, "null"), 0);
	got = fixture_capture(ib_report_json, &fx.in, &ret);
	assert_null(strstr(got, "steadystate"));	/* no ss_dur: no object */
	free(got);
	fio_ss_window(&fx.stats[0].ss);
	got = fixture_capture(ib_report_json, &fx.in, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(got, "      \"latency_window\" : 0,\n"
		"      \"steadystate\" : {\n"
		"        \"ss\" : \"iops:5.000000%\",\n"
		"        \"duration\" : 5,\n"
		"        \"attained\" : 1,\n"
		"        \"criterion\" : \"1.301301%\",\n"
		"        \"max_deviation\" : 13.000000,\n"
		"        \"slope\" : 0.000000,\n"
		"        \"data\" : {\n"
		"          \"bw_mean\" : 4095137,\n"
		"          \"iops_mean\" : 999,\n"
		"          \"iops\" : [\n"
		"            1007,\n            988,\n            996,\n"
		"            1012,\n            992\n"
		"          ],\n"
		"          \"bw\" : [\n"
		"            4128637,\n            4050898,\n            4083699,\n"
		"            4145152,\n            4067299\n"
		"          ]\n"
		"        }\n"
		"      }\n"
		"    }\n"
		"  ]"));
	free(got);
	fixture_free(&fx);
}

/* fio's print style; full escaping; empty strings dropped; NaN -> 0 */
static void test_writer_style(void **state)
{
	char *out = capture_writer(write_sample);

	(void)state;
	assert_string_equal(out, "{\n"
		"  \"s\" : \"a\\\"b\\\\c\\nd\\u0001\",\n"
		"  \"i\" : -3,\n"
		"  \"f\" : 1.500000,\n"
		"  \"nan\" : 0.000000,\n"
		"  \"a\" : [\n"
		"    {\n"
		"      \"u\" : 18446744073709551615\n"
		"    }\n"
		"  ],\n"
		"  \"o\" : {\n"
		"  }\n"
		"}\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_randrw_values),
		cmocka_unit_test(test_group_values),
		cmocka_unit_test(test_fsync_values),
		cmocka_unit_test(test_null_values),
		cmocka_unit_test(test_option_variants),
		cmocka_unit_test(test_unified_values),
		cmocka_unit_test(test_effective_options),
		cmocka_unit_test(test_steadystate_object),
		cmocka_unit_test(test_writer_style),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
