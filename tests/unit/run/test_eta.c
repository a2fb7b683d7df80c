// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "src/run/eta.h"

#define SEC 1000000000ull

struct env {
	struct ib_plan run;
	struct ib_job jobs[4];
	struct ib_job_stats *st;
};

static struct env *env_new(unsigned int n)
{
	struct env *e = calloc(1, sizeof(*e));
	unsigned int i;

	ib_plan_init(&e->run);
	e->st = calloc(n, sizeof(*e->st));
	for (i = 0; i < n; i++) {
		ib_job_defaults(&e->jobs[i]);
		e->jobs[i].runtime_us = 8 * 1000000ull;
		e->jobs[i].time_based = true;
	}
	e->run.jobs = e->jobs;
	e->run.nr_jobs = n;
	return e;
}

static void env_free(struct env *e)
{
	free(e->st);
	free(e);
}

static void test_eta_str(void **state)
{
	char b[32];

	(void)state;
	ib_eta_str(b, sizeof(b), 7);
	assert_string_equal(b, "00m:07s");
	ib_eta_str(b, sizeof(b), 3599);
	assert_string_equal(b, "59m:59s");
	ib_eta_str(b, sizeof(b), 3600 + 61);
	assert_string_equal(b, "01h:01m:01s");
	ib_eta_str(b, sizeof(b), 2 * 86400 + 5);
	assert_string_equal(b, "02d:00h:00m:05s");
}

static void test_runstr(void **state)
{
	struct env *e = env_new(4);
	char b[64];

	(void)state;
	e->st[0].live.state = '_';
	e->st[1].live.state = 'M';
	e->st[2].live.state = 'M';
	e->st[3].live.state = 0;	/* not started */
	ib_eta_runstr(b, sizeof(b), &e->run, e->st);
	assert_string_equal(b, "_(1),M(2),P(1)");
	env_free(e);
}

/*
 * Before any job started: no line at all ("Jobs: 0 (f=0)" said nothing).
 * The first second: no bracketed part; from then on the progress and the
 * eta, the rates once a second of them was measured (a 3 s job showed
 * none: the brackets waited for 3 s).
 */
static void test_early_line(void **state)
{
	struct env *e = env_new(1);
	struct ib_eta_state st = { 0 };
	char b[256];

	(void)state;
	e->st[0].live.state = 'I';	/* set up, not started */
	assert_int_equal(ib_eta_format(b, sizeof(b), &e->run, e->st, 10 * SEC + SEC / 4,
				       10 * SEC, &st), 0);
	assert_string_equal(b, "");
	e->st[0].live.state = 'r';
	e->st[0].live.nr_files_open = 1;
	e->st[0].live.start_ns = 10 * SEC;
	ib_eta_format(b, sizeof(b), &e->run, e->st, 10 * SEC + SEC / 2, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 1 (f=1)");
	e->st[0].live.io_bytes[0] = 100ull << 20;
	e->st[0].live.ios[0] = 25600;
	ib_eta_format(b, sizeof(b), &e->run, e->st, 11 * SEC + SEC / 2, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 1 (f=1): [r(1)][18.8%][r=100MiB/s][r=25.6k IOPS][eta 00m:07s]");
	env_free(e);
}

/*
 * The last second: the eta is rounded up, and the percentage is of the
 * exact time (at 6.1 s of 7 s it said 100% and eta 0, a second early).
 */
static void test_end_rounding(void **state)
{
	struct env *e = env_new(1);
	struct ib_eta_state st = { 0 };
	char b[256];

	(void)state;
	e->jobs[0].runtime_us = 7 * 1000000ull;
	e->st[0].live.state = 'R';
	e->st[0].live.nr_files_open = 1;
	e->st[0].live.start_ns = 10 * SEC;
	ib_eta_format(b, sizeof(b), &e->run, e->st, 16 * SEC + SEC / 10, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 1 (f=1): [R(1)][87.1%][eta 00m:01s]");
	env_free(e);
}

/*
 * Lines every 250 ms: the rates are the means over a second, not each
 * quarter's burst (a paced job, or an open loop catching up, showed twice
 * its rate= limit).
 */
static void test_rate_window(void **state)
{
	struct env *e = env_new(1);
	struct ib_eta_state st = { 0 };
	unsigned int q;
	char b[256];

	(void)state;
	e->st[0].live.state = 'R';
	e->st[0].live.nr_files_open = 1;
	e->st[0].live.start_ns = 10 * SEC;
	ib_eta_format(b, sizeof(b), &e->run, e->st, 12 * SEC, 10 * SEC, &st);
	/* 300 MiB in the second: all of it in its first quarter */
	e->st[0].live.io_bytes[0] += 300ull << 20;
	e->st[0].live.ios[0] += 4800;
	for (q = 1; q <= 3; q++) {
		ib_eta_format(b, sizeof(b), &e->run, e->st, 12 * SEC + q * SEC / 4,
			      10 * SEC, &st);
		assert_null(strstr(b, "MiB/s"));
	}
	ib_eta_format(b, sizeof(b), &e->run, e->st, 13 * SEC, 10 * SEC, &st);
	assert_non_null(strstr(b, "[r=300MiB/s][r=4800 IOPS]"));
	env_free(e);
}

/* fio's rate limits after the job count: IOPS, or bytes/s with rate_min */
static void test_rate_limits(void **state)
{
	struct env *e = env_new(3);
	struct ib_eta_state st = { 0 };
	unsigned int i;
	char b[256];

	(void)state;
	for (i = 0; i < 3; i++) {
		e->st[i].live.state = 'm';
		e->st[i].live.nr_files_open = 1;
		e->st[i].live.start_ns = 10 * SEC;
		e->jobs[i].rw = IB_RW_READ | IB_RW_WRITE | IB_RW_RAND;
		e->jobs[i].rate.iops[0] = e->jobs[i].rate.iops[1] = 300;
	}
	e->st[2].live.state = '/';	/* in its ramp: not counted */
	ib_eta_format(b, sizeof(b), &e->run, e->st, 10 * SEC + SEC / 2, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 3 (f=3), 0-1200 IOPS");
	for (i = 0; i < 3; i++) {
		memset(e->jobs[i].rate.iops, 0, sizeof(e->jobs[i].rate.iops));
		e->jobs[i].rw = IB_RW_READ;
		e->jobs[i].rate.bps[0] = 768 << 10;
		e->jobs[i].rate.min_bps[0] = 100 << 10;
	}
	ib_eta_format(b, sizeof(b), &e->run, e->st, 10 * SEC + SEC / 2, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 3 (f=3), 200KiB/s-1536KiB/s");
	env_free(e);
}

/* Mixed job at 6 s of 8: progress, rates from the deltas, eta */
static void test_running_line(void **state)
{
	struct env *e = env_new(2);
	struct ib_eta_state st = { 0 };
	unsigned int i;
	char b[256];

	(void)state;
	for (i = 0; i < 2; i++) {
		e->st[i].live.state = 'm';
		e->st[i].live.nr_files_open = 1;
		e->st[i].live.start_ns = 10 * SEC;
	}
	ib_eta_format(b, sizeof(b), &e->run, e->st, 15 * SEC, 10 * SEC, &st);
	/* one second later: 980 MiB read, 250k write IOs of 4 KiB */
	for (i = 0; i < 2; i++) {
		e->st[i].live.io_bytes[0] += 490ull << 20;
		e->st[i].live.ios[0] += 125440;
		e->st[i].live.io_bytes[1] += 125000ull * 4096;
		e->st[i].live.ios[1] += 125000;
	}
	ib_eta_format(b, sizeof(b), &e->run, e->st, 16 * SEC, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 2 (f=2): [m(2)][75.0%][r=980MiB/s,w=977MiB/s]"
			    "[r=251k,w=250k IOPS][eta 00m:02s]");
	env_free(e);
}

/* Ramp: -.-%; a shorter line is padded to erase the previous one */
static void test_ramp_and_padding(void **state)
{
	struct env *e = env_new(1);
	struct ib_eta_state st = { 0 };
	char b[256];
	size_t n1, n2;

	(void)state;
	e->st[0].live.state = '/';
	e->st[0].live.start_ns = 10 * SEC;
	e->st[0].live.nr_files_open = 1;
	n1 = ib_eta_format(b, sizeof(b), &e->run, e->st, 14 * SEC, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 1 (f=1): [/(1)][-.-%][eta 00m:04s]");
	e->st[0].live.state = '_';
	n2 = ib_eta_format(b, sizeof(b), &e->run, e->st, 15 * SEC, 20 * SEC, &st);
	assert_int_equal(n2, n1);
	assert_memory_equal(b, "Jobs: 0 (f=0)          ", 23);
	env_free(e);
}

/*
 * size-based job: eta from the bytes done, of size= times loops=, or of
 * what the job published as it started when it did (a job sized by its
 * file, no size=; holes that end its passes early): the build before
 * showed 100% and no eta for the first.
 */
static void test_size_eta(void **state)
{
	struct env *e = env_new(1);
	struct ib_eta_state st = { 0 };
	char b[256];

	(void)state;
	e->jobs[0].runtime_us = 0;
	e->jobs[0].time_based = false;
	e->jobs[0].size = 400ull << 20;
	e->st[0].live.state = 'R';
	e->st[0].live.start_ns = 10 * SEC;
	e->st[0].live.nr_files_open = 1;
	e->st[0].live.io_bytes[0] = 100ull << 20;	/* 1/4 in 4 s: 12 s to go */
	ib_eta_format(b, sizeof(b), &e->run, e->st, 14 * SEC, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 1 (f=1): [R(1)][25.0%][eta 00m:12s]");
	e->jobs[0].size = 0;		/* sized by its file */
	e->st[0].live.plan_bytes = 400ull << 20;
	ib_eta_format(b, sizeof(b), &e->run, e->st, 14 * SEC, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 1 (f=1): [R(1)][25.0%][eta 00m:12s]");
	e->jobs[0].size = 1200ull << 20;	/* the plan wins: holes */
	ib_eta_format(b, sizeof(b), &e->run, e->st, 14 * SEC, 10 * SEC, &st);
	assert_string_equal(b, "Jobs: 1 (f=1): [R(1)][25.0%][eta 00m:12s]");
	env_free(e);
}

/* Stonewalled groups run one after the other: their runtimes add up */
static void test_pending_groups(void **state)
{
	struct env *e = env_new(4);
	struct ib_eta_state st = { 0 };
	char b[256];

	(void)state;
	e->jobs[1].groupid = 1;		/* 8 s */
	e->jobs[2].groupid = 2;		/* 8 s, and job 3 with 10 s */
	e->jobs[3].groupid = 2;
	e->jobs[3].runtime_us = 10 * 1000000ull;
	e->st[0].live.state = 'R';
	e->st[0].live.start_ns = 10 * SEC;
	e->st[0].live.nr_files_open = 1;
	ib_eta_format(b, sizeof(b), &e->run, e->st, 14 * SEC, 10 * SEC, &st);
	/* 4 s left in group 0, then 8 s, then 10 s */
	assert_string_equal(b, "Jobs: 1 (f=1): [R(1),P(3)][15.4%][eta 00m:22s]");
	env_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eta_str),
		cmocka_unit_test(test_runstr),
		cmocka_unit_test(test_early_line),
		cmocka_unit_test(test_end_rounding),
		cmocka_unit_test(test_rate_window),
		cmocka_unit_test(test_rate_limits),
		cmocka_unit_test(test_running_line),
		cmocka_unit_test(test_ramp_and_padding),
		cmocka_unit_test(test_size_eta),
		cmocka_unit_test(test_pending_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
