// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-interval stream read back (results.h: ib_results_read_stream):
 * sums, runtime, latency, histogram and samples of a job, a
 * group_reporting group and a restart; telling a stream from a report;
 * one error per malformed line, naming the line; compare's over-time view.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/compare.h"
#include "iobench/results.h"

/* A job line: ios reads of 4 KiB over span ms, latencies as bins (lat, n). */
static int jline(char *buf, size_t len, const char *name, unsigned int job,
		 unsigned int gid, unsigned int t, double span, uint64_t ios,
		 uint64_t lat, bool restart)
{
	return snprintf(buf, len,
		"{\"type\":\"job\",\"time_ms\":%u,\"span_ms\":%.3f,\"jobname\":\"%s\","
		"\"job\":%u,\"groupid\":%u,\"restart\":%s,\"final\":false,\"read\":"
		"{\"ios\":%llu,\"bytes\":%llu,\"iops\":0,\"bw_bytes\":0,\"lat_ns\":"
		"{\"kind\":\"clat\",\"n\":%llu,\"min\":%llu,\"max\":%llu,\"mean\":%llu,"
		"\"percentile\":{},\"bins\":{\"%llu\":%llu}}},\"depth\":1,\"errors\":0}\n",
		t, span, name, job, gid, restart ? "true" : "false",
		(unsigned long long)ios, (unsigned long long)ios * 4096,
		(unsigned long long)ios, (unsigned long long)lat, (unsigned long long)lat,
		(unsigned long long)lat, (unsigned long long)lat, (unsigned long long)ios);
}

static void read_ok(struct ib_results *r, const char *text)
{
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_results_read_stream(r, text, strlen(text), "s", &d), 0);
}

static void sums(void **state)
{
	char text[4096];
	struct ib_results r;
	const struct ib_dir_stats *ds;
	size_t n = 0;

	(void)state;
	n += jline(text + n, sizeof(text) - n, "a", 1, 0, 1000, 1000.0, 2000, 100, false);
	n += jline(text + n, sizeof(text) - n, "a", 1, 0, 2000, 1000.0, 1000, 300, false);
	n += jline(text + n, sizeof(text) - n, "a", 1, 0, 2005, 5.0, 1, 300, false);
	read_ok(&r, text);
	assert_int_equal(r.nr_jobs, 1);
	assert_string_equal(r.jobs[0].name, "a");
	ds = &r.stats[0].dir[0];
	assert_int_equal(ds->total_ios, 3001);
	assert_int_equal(ds->io_bytes, 3001ull * 4096);
	assert_int_equal(ds->runtime_us, 2005000);
	assert_int_equal(ds->lat[IB_LAT_CLAT].n, 3001);
	assert_int_equal(ds->lat[IB_LAT_CLAT].min, 100);
	assert_int_equal(ds->lat[IB_LAT_CLAT].max, 300);
	assert_true(fabs(ds->lat[IB_LAT_CLAT].mean - (2000.0 * 100 + 1001.0 * 300) / 3001) < 1e-9);
	assert_int_equal(ds->hist[IB_LAT_CLAT].count[ib_hist_index(100)], 2000);
	assert_int_equal(ds->hist[IB_LAT_CLAT].count[ib_hist_index(300)], 1001);
	/* the 5 ms line: in the sums, not a sample nor an interval */
	assert_int_equal(ds->iops_samples.n, 2);
	assert_true(fabs(ds->iops_samples.mean - 1500.0) < 1e-9);
	assert_true(fabs(ds->bw_samples.mean - 6000.0) < 1e-9);
	assert_int_equal(r.series[0].nr, 2);
	assert_int_equal(r.series[0].iv[1].time_ms, 2000);
	assert_true(fabs(r.series[0].iv[0].iops[0] - 2000.0) < 1e-9);
	assert_true(fabs(r.series[0].iv[1].p99[0] - (double)ib_hist_value(ib_hist_index(300))) < 1e-9);
	assert_true(isnan(r.series[0].iv[0].iops[1]));
	ib_results_free(&r);
}

/* Groups: the group's lines, named as its first job; other jobs alone. */
static void groups(void **state)
{
	char text[8192];
	struct ib_results r;
	size_t n = 0;

	(void)state;
	n += jline(text + n, sizeof(text) - n, "c", 3, 1, 1000, 1000.0, 10, 50, false);
	n += jline(text + n, sizeof(text) - n, "g", 2, 0, 1000, 1000.0, 20, 50, false);
	n += jline(text + n, sizeof(text) - n, "g", 1, 0, 1000, 1000.0, 30, 50, false);
	n += (size_t)snprintf(text + n, sizeof(text) - n,
		"{\"type\":\"group\",\"time_ms\":1000,\"span_ms\":1000,\"groupid\":0,\"jobs\":2,"
		"\"restart\":false,\"final\":false,\"read\":{\"ios\":50,\"bytes\":204800}}\n");
	read_ok(&r, text);
	assert_int_equal(r.nr_jobs, 2);
	assert_string_equal(r.jobs[0].name, "g");	/* its first job: 1 */
	assert_true(r.jobs[0].group_reporting);
	assert_int_equal(r.stats[0].dir[0].total_ios, 50);
	assert_string_equal(r.jobs[1].name, "c");
	assert_int_equal(r.jobs[1].groupid, 1);
	assert_int_equal(r.stats[1].dir[0].total_ios, 10);
	ib_results_free(&r);
}

/* A restart: the lines before it are dropped. */
static void restart(void **state)
{
	char text[4096];
	struct ib_results r;
	size_t n = 0;

	(void)state;
	n += jline(text + n, sizeof(text) - n, "a", 1, 0, 1000, 1000.0, 7, 50, false);
	n += jline(text + n, sizeof(text) - n, "a", 1, 0, 2000, 1000.0, 5, 60, true);
	n += jline(text + n, sizeof(text) - n, "a", 1, 0, 3000, 1000.0, 6, 70, false);
	read_ok(&r, text);
	assert_int_equal(r.stats[0].dir[0].total_ios, 11);
	assert_int_equal(r.stats[0].dir[0].lat[IB_LAT_CLAT].min, 60);
	assert_int_equal(r.stats[0].dir[0].runtime_us, 2000000);
	assert_int_equal(r.series[0].nr, 2);
	ib_results_free(&r);
}

static void detect(void **state)
{
	static const char *const yes[] = {
		"{\"type\":\"job\",\"time_ms\":1}\n{\n",
		"\n  {\"type\":\"group\",\"time_ms\":1}",
		"{\"type\":\"job\",\"time_ms\":1,\"span_",	/* truncated */
	};
	static const char *const no[] = {
		"{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : []\n}\n",
		"{\"jobs\":[]}\n", "{ \"type\":\"job\"}\n", "", "  \n", "[1]\n",
		"{ \"type\":\"job\",\"time_ms\":1\n}",
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(ib_results_is_stream(yes[i], strlen(yes[i])));
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(ib_results_is_stream(no[i], strlen(no[i])));
}

static void expect_err(const char *bad_line, const char *msg)
{
	char text[4096];
	struct ib_diag d = { { 0 } };
	struct ib_results r;
	size_t n;

	n = (size_t)jline(text, sizeof(text), "a", 1, 0, 1000, 1000.0, 7, 50, false);
	snprintf(text + n, sizeof(text) - n, "\n%s\n", bad_line);
	assert_int_equal(ib_results_read_stream(&r, text, strlen(text), "s.ndjson", &d), -EINVAL);
	if (!strstr(d.msg, msg))
		fail_msg("'%s' has no '%s'", d.msg, msg);
	assert_ptr_equal(r.jobs, NULL);
}

static void errors(void **state)
{
	(void)state;
	expect_err("{\"type\":\"job\",\"time_ms\":2", "s.ndjson:3: ");
	expect_err("[]", "s.ndjson:3: not a JSON object");
	expect_err("{\"type\":\"x\",\"time_ms\":2,\"span_ms\":1}",
		   "s.ndjson:3: 'type' is not");
	expect_err("{\"type\":\"job\",\"jobname\":\"a\",\"job\":1,\"groupid\":0,\"span_ms\":1}",
		   "s.ndjson:3: 'time_ms' missing");
	expect_err("{\"type\":\"job\",\"jobname\":\"a\",\"job\":1,\"groupid\":0,\"time_ms\":2,"
		   "\"span_ms\":1,\"read\":{\"bytes\":1}}", "s.ndjson:3: 'ios' missing");
	expect_err("{\"type\":\"job\",\"jobname\":\"a\",\"job\":1,\"groupid\":0,\"time_ms\":2,"
		   "\"span_ms\":-1}", "s.ndjson:3: 'span_ms' missing or not a duration");
	expect_err("{\"type\":\"job\",\"jobname\":\"a\",\"job\":1,\"groupid\":0,\"time_ms\":2,"
		   "\"span_ms\":1,\"read\":{\"ios\":1,\"bytes\":1,\"lat_ns\":{\"kind\":\"clat\","
		   "\"n\":2,\"min\":1,\"max\":1,\"mean\":1,\"bins\":{\"1\":1}}}}",
		   "s.ndjson:3: 'bins' counts do not sum to 'n'");
	expect_err("{\"type\":\"job\",\"jobname\":\"a\",\"job\":1,\"groupid\":0,\"time_ms\":2,"
		   "\"span_ms\":1,\"read\":{\"ios\":1,\"bytes\":1,\"lat_ns\":{\"kind\":\"clat\","
		   "\"n\":1,\"min\":1,\"max\":1,\"mean\":1,\"bins\":{\"x\":1}}}}",
		   "s.ndjson:3: 'bins': a key not a latency");
}

/* compare's over-time view: new's intervals outside base's range. */
static void over_time(void **state)
{
	char tb[4096], tn[4096];
	struct ib_results b, n;
	const struct ib_results *pb[] = { &b }, *pn[] = { &n };
	struct ib_diag d = { { 0 } };
	struct ib_cmp c;
	size_t k = 0;

	(void)state;
	k += jline(tb + k, sizeof(tb) - k, "a", 1, 0, 1000, 1000.0, 1000, 100, false);
	k += jline(tb + k, sizeof(tb) - k, "a", 1, 0, 2000, 1000.0, 1100, 200, false);
	k += jline(tb + k, sizeof(tb) - k, "a", 1, 0, 3000, 1000.0, 1200, 300, false);
	read_ok(&b, tb);
	k = 0;
	k += jline(tn + k, sizeof(tn) - k, "a", 1, 0, 1000, 1000.0, 1100, 100, false);
	k += jline(tn + k, sizeof(tn) - k, "a", 1, 0, 2000, 1000.0, 900, 200, false);
	k += jline(tn + k, sizeof(tn) - k, "a", 1, 0, 3000, 1000.0, 1000, 900, false);
	read_ok(&n, tn);
	assert_int_equal(ib_cmp_build(&c, pb, 1, pn, 1, NULL, &d), 0);
	assert_int_equal(c.nr_rows, 1);
	assert_true(c.rows[0].iv.any);
	assert_int_equal(c.rows[0].iv.base.nr, 3);
	assert_true(fabs(c.rows[0].iv.base.iops_med - 1100.0) < 1e-9);
	assert_true(fabs(c.rows[0].iv.new_.iops_lo - 900.0) < 1e-9);
	assert_int_equal(c.rows[0].iv.out_iops, 1);
	assert_int_equal(c.rows[0].iv.out_p99, 1);
	assert_int_equal(c.rows[0].iv.nr_at, 2);
	assert_int_equal(c.rows[0].iv.at_ms[0], 2000);
	assert_int_equal(c.rows[0].iv.at_ms[1], 3000);
	assert_int_equal(c.rows[0].m[IB_CMP_IOPS].valid, true);
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].base - 1100.0) < 1e-9);
	ib_cmp_free(&c);
	ib_results_free(&b);
	ib_results_free(&n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sums),
		cmocka_unit_test(groups),
		cmocka_unit_test(restart),
		cmocka_unit_test(detect),
		cmocka_unit_test(errors),
		cmocka_unit_test(over_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
