// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/log.h"
#include "iobench/sampler.h"

static char dir[] = "/tmp/ib_log_XXXXXX";
static char prefix[sizeof(dir) + 2];	/* DIR/x: the jobs' log prefix */

static char *slurp(const char *kind, unsigned int n)
{
	char p[PATH_MAX], *buf;
	long len;
	FILE *f;

	snprintf(p, sizeof(p), "%s/x_%s.%u.log", dir, kind, n);
	f = fopen(p, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

static void job_with_logs(struct ib_job *j, bool lat, bool bw, bool iops)
{
	ib_job_defaults(j);
	j->number = 3;
	snprintf(prefix, sizeof(prefix), "%s/x", dir);
	if (lat)
		j->logs.lat = prefix;
	if (bw)
		j->logs.bw = prefix;
	if (iops)
		j->logs.iops = prefix;
}

static void test_format(void **state)
{
	char b[128];
	size_t n;

	(void)state;
	n = ib_log_format(b, 143, 1277034, 1, 4096, false, 0);
	b[n] = '\0';
	assert_string_equal(b, "143, 1277034, 1, 4096, 0\n");
	n = ib_log_format(b, 0, 18446744073709551615ull, 2, 0, true, 8192);
	b[n] = '\0';
	assert_string_equal(b, "0, 18446744073709551615, 2, 0, 8192, 0\n");
}

/* No averaging: one line per I/O in fio's format; no slat for sync engines */
static void test_per_io(void **state)
{
	struct ib_job *j = malloc(sizeof(*j));
	struct ib_logs l;
	char *t;

	(void)state;
	job_with_logs(j, true, true, true);
	assert_int_equal(ib_logs_open(&l, j, NULL), 0);
	assert_true(l.per_io);
	ib_logs_lat(&l, 0 * 1000000ull, IB_DDIR_READ, 4096, 8192, UINT64_MAX, 11778, 12479);
	ib_logs_lat(&l, 1 * 1000000ull, IB_DDIR_WRITE, 4096, 0, UINT64_MAX, 5108, 5448);
	assert_int_equal(ib_logs_close(&l, NULL), 0);
	t = slurp("clat", 3);
	assert_string_equal(t, "0, 11778, 0, 4096, 0\n1, 5108, 1, 4096, 0\n");
	free(t);
	t = slurp("lat", 3);
	assert_string_equal(t, "0, 12479, 0, 4096, 0\n1, 5448, 1, 4096, 0\n");
	free(t);
	t = slurp("slat", 3);
	assert_string_equal(t, "");
	free(t);
	/* fio's per-I/O bw value: bytes * 10^6 / clat_ns */
	t = slurp("bw", 3);
	assert_string_equal(t, "0, 347767, 0, 4096, 0\n1, 801879, 1, 4096, 0\n");
	free(t);
	t = slurp("iops", 3);
	assert_string_equal(t, "0, 1, 0, 4096, 0\n1, 1, 1, 4096, 0\n");
	free(t);
	free(j);
}

/* fio 3.42's columns: log_prio's 0xNNNN, the realtime flag, the issue time */
static void test_line_cols(void **state)
{
	const struct ib_log_cols hex = { .offset = true, .prio_hex = true, .issue = true };
	const struct ib_log_cols flag = { .offset = false };
	char b[IB_LOG_LINE_MAX];
	size_t n;

	(void)state;
	/* fio 3.42 prioclass=2 prio=4 priohint=3: 0x401c */
	n = ib_log_line(b, &hex, 0, 37871, 1, 4096, 0, 2 << 13 | 3 << 3 | 4, 58860);
	b[n] = '\0';
	assert_string_equal(b, "0, 37871, 1, 4096, 0, 0x401c, 58860\n");
	n = ib_log_line(b, &flag, 3, 34094, 1, 4096, 0, 1 << 13, 99);
	b[n] = '\0';
	assert_string_equal(b, "3, 34094, 1, 4096, 1\n");	/* prioclass=1 */
	n = ib_log_line(b, &flag, 3, 34094, 1, 4096, 0, 2 << 13 | 7, 99);
	b[n] = '\0';
	assert_string_equal(b, "3, 34094, 1, 4096, 0\n");
	n = ib_log_line(b, &hex, UINT64_MAX, UINT64_MAX, 2, UINT64_MAX, UINT64_MAX,
			0xffff, UINT64_MAX);
	assert_true(n < sizeof(b));
}

/*
 * log_issue_time + log_prio per I/O: the issue time (completion less
 * clat) in the clat and slat logs, 0 in lat, bw and iops; the job's prio.
 */
static void test_issue_prio(void **state)
{
	struct ib_job *j = malloc(sizeof(*j));
	struct ib_logs l;
	char *t;

	(void)state;
	job_with_logs(j, true, true, true);
	j->logs.offset = j->logs.prio = j->logs.issue_time = true;
	j->proc.ioprio = 4;
	j->proc.ioprio_given = true;
	assert_int_equal(ib_logs_open(&l, j, NULL), 0);
	ib_logs_lat(&l, 2500000, IB_DDIR_WRITE, 4096, 8192, 300, 1000000, 1000300);
	ib_logs_lat(&l, 3000000, IB_DDIR_WRITE, 4096, 12288, UINT64_MAX, UINT64_MAX,
		    UINT64_MAX);
	assert_int_equal(ib_logs_close(&l, NULL), 0);
	t = slurp("clat", 3);
	assert_string_equal(t, "2, 1000000, 1, 4096, 8192, 0x4004, 1500000\n");
	free(t);
	t = slurp("slat", 3);
	assert_string_equal(t, "2, 300, 1, 4096, 8192, 0x4004, 1500000\n");
	free(t);
	t = slurp("lat", 3);
	assert_string_equal(t, "2, 1000300, 1, 4096, 8192, 0x4004, 0\n");
	free(t);
	t = slurp("bw", 3);
	assert_string_equal(t, "2, 4096, 1, 4096, 8192, 0x4004, 0\n");
	free(t);
	t = slurp("iops", 3);
	assert_string_equal(t, "2, 1, 1, 4096, 8192, 0x4004, 0\n"
			       "3, 1, 1, 4096, 12288, 0x4004, 0\n");
	free(t);
	/* averaged: prio and issue time 0 (fio 3.42) */
	j->logs.avg_msec = 100;
	assert_int_equal(ib_logs_open(&l, j, NULL), 0);
	ib_logs_lat(&l, 2500000, IB_DDIR_WRITE, 4096, 8192, 300, 1000000, 1000300);
	ib_logs_flush_avg(&l, 100);
	assert_int_equal(ib_logs_close(&l, NULL), 0);
	t = slurp("clat", 3);
	assert_string_equal(t, "100, 1000000, 1, 0, 0, 0x0000, 0\n");
	free(t);
	free(j);
}

/* log_avg_msec=100 with log_offset: window averages, final partial window */
static void test_averaged(void **state)
{
	struct ib_job *j = malloc(sizeof(*j));
	struct ib_logs l;
	char *t;

	(void)state;
	job_with_logs(j, true, false, false);
	j->logs.avg_msec = 100;
	j->logs.offset = true;
	assert_int_equal(ib_logs_open(&l, j, NULL), 0);
	ib_logs_lat(&l, 10 * 1000000ull, IB_DDIR_READ, 4096, 4096, UINT64_MAX, 1000, 1100);
	ib_logs_lat(&l, 50 * 1000000ull, IB_DDIR_READ, 4096, 0, UINT64_MAX, 2000, 2100);
	ib_logs_lat(&l, 60 * 1000000ull, IB_DDIR_WRITE, 4096, 0, UINT64_MAX, 500, 600);
	ib_logs_lat(&l, 250 * 1000000ull, IB_DDIR_READ, 4096, 0, UINT64_MAX, 7, 8);
	ib_logs_flush_avg(&l, 260);
	assert_int_equal(ib_logs_close(&l, NULL), 0);
	t = slurp("clat", 3);
	assert_string_equal(t, "100, 1500, 0, 0, 0, 0\n100, 500, 1, 0, 0, 0\n260, 7, 0, 0, 0, 0\n");
	free(t);
	free(j);
}

/* The sampler writes bw/iops lines at log_avg_msec and samples at that rate */
static void test_sampler_logs(void **state)
{
	struct ib_job *j = malloc(sizeof(*j));
	struct ib_job_stats *s = calloc(1, sizeof(*s));
	struct ib_sampler smp;
	struct ib_logs l;
	uint64_t t0 = 5000000000ull, t;
	char *txt;

	(void)state;
	job_with_logs(j, false, true, false);
	j->logs.avg_msec = 100;
	j->runtime_us = 300000;
	assert_int_equal(ib_logs_open(&l, j, NULL), 0);
	assert_false(l.per_io);
	ib_sampler_start(&smp, s, t0);
	for (t = t0 + 1000000ull; t <= t0 + 300000000ull; t += 1000000ull) {
		ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 1024, UINT64_MAX, 10, UINT64_MAX);
		ib_sampler_tick(&smp, s, j, &l, t + 1);
	}
	ib_sampler_finish(&smp, s, j, &l, t);
	assert_int_equal(ib_logs_close(&l, NULL), 0);
	/* 1 KiB per ms = 1000 KiB/s, at 100 and 200 ms (300 is the end) */
	txt = slurp("bw", 3);
	assert_string_equal(txt, "100, 1000, 0, 0, 0\n200, 1000, 0, 0, 0\n");
	free(txt);
	assert_int_equal(s->dir[0].bw_samples.n, 2);
	/* iops keeps its own 500 ms interval: no sample in 300 ms */
	assert_int_equal(s->dir[0].iops_samples.n, 0);
	free(s);
	free(j);
}

static void test_open_error(void **state)
{
	struct ib_job *j = malloc(sizeof(*j));
	struct ib_diag d = { "" };
	struct ib_logs l;

	(void)state;
	ib_job_defaults(j);
	j->number = 1;
	j->logs.bw = "/nonexistent-dir/x";
	assert_true(ib_logs_open(&l, j, &d) < 0);
	assert_non_null(strstr(d.msg, "/nonexistent-dir/x_bw.1.log"));
	free(j);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_per_io),
		cmocka_unit_test(test_line_cols),
		cmocka_unit_test(test_issue_prio),
		cmocka_unit_test(test_averaged),
		cmocka_unit_test(test_sampler_logs),
		cmocka_unit_test(test_open_error),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
