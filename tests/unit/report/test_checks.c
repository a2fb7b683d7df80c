// SPDX-License-Identifier: GPL-2.0-only
/*
 * The validity checks (checks.h) on synthetic results: each check fires on
 * its cause with the evidence it measured, and stays quiet without it;
 * --warnings parsing; the checks, seeds and tool overhead in the reports
 * only when the document carries evidence.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/checks.h"
#include "iobench/env.h"
#include "iobench/env_out.h"
#include "iobench/evidence.h"
#include "iobench/hist.h"
#include "iobench/json.h"
#include "iobench/json_read.h"
#include "iobench/report.h"
#include "iobench/results.h"
#include "checks_fixture.h"

#define NJ 2
#define MAXH 16

struct fx {
	struct ib_results r;
	struct ib_evidence ev[NJ];
	struct ib_check_hit h[MAXH];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	checks_fixture(&f->r, f->ev, NJ);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ib_results_free(&f->r);
	free(f);
	return 0;
}

static unsigned int run(struct fx *f, unsigned int idx)
{
	return ib_checks_run(&f->r, idx, f->r.checks_mask, f->h, MAXH);
}

/* The one hit (there must be exactly one) and its id. */
static const struct ib_check_hit *one(struct fx *f, unsigned int idx, const char *id)
{
	unsigned int n = run(f, idx);

	if (n != 1 || strcmp(f->h[0].id, id))
		fprintf(stderr, "want one hit %s, got %u (%s)\n", id, n, n ? f->h[0].id : "-");
	assert_int_equal(n, 1);
	assert_string_equal(f->h[0].id, id);
	return &f->h[0];
}

static double ev(const struct ib_check_hit *h, const char *key)
{
	unsigned int i;

	for (i = 0; i < h->nr_ev; i++)
		if (!strcmp(h->ev[i].key, key))
			return h->ev[i].val;
	fail_msg("no evidence %s in %s", key, h->id);
	return 0;
}

static void test_clean(void **state)
{
	struct fx *f = *state;

	f->r.own_stats[0].dir[0].io_bytes = 1 << 20;
	f->r.own_stats[0].dir[1].io_bytes = 1 << 20;
	assert_int_equal(run(f, 0), 0);
	assert_int_equal(run(f, 1), 0);
}

static void test_no_evidence(void **state)
{
	struct fx *f = *state;

	f->r.jobs[0].iodepth = 8;
	f->ev[0].sync_engine = true;
	assert_int_equal(run(f, 0), 1);
	f->ev[0].valid = false;
	assert_int_equal(run(f, 0), 0);
	f->ev[0].valid = true;
	f->r.evidence = NULL;
	assert_int_equal(run(f, 0), 0);
}

static void test_page_cache(void **state)
{
	struct fx *f = *state;
	struct ib_job_stats *s = &f->r.own_stats[0];
	struct ib_evidence *e = &f->ev[0];
	const struct ib_check_hit *h;

	s->dir[0].io_bytes = 8 << 20;
	s->direct = false;
	snprintf(e->disk, sizeof(e->disk), "vda");
	snprintf(e->fstype, sizeof(e->fstype), "ext4");
	e->dev_ok = true;
	e->dev_read_bytes = 4096;
	h = one(f, 0, "page-cache");
	assert_int_equal(h->sev, IB_SEV_WARNING);
	assert_true(ev(h, "read_bytes") == 8 << 20);
	assert_true(ev(h, "device_read_bytes") == 4096);
	e->dev_read_bytes = 8 << 20;		/* the device did the reads */
	assert_int_equal(run(f, 0), 0);
	e->dev_ok = false;			/* no counters: residency decides */
	e->resident_ok = true;
	e->range_pages = 2048;
	e->resident_pages = 2048;
	h = one(f, 0, "page-cache");
	assert_true(ev(h, "resident_pages_before") == 2048);
	e->resident_pages = 10;
	assert_int_equal(run(f, 0), 0);
	e->resident_pages = 2048;
	snprintf(e->fstype, sizeof(e->fstype), "tmpfs");	/* memory is the target */
	assert_int_equal(run(f, 0), 0);
	snprintf(e->fstype, sizeof(e->fstype), "ext4");
	s->direct = true;
	assert_int_equal(run(f, 0), 0);
}

static void test_buffered_device(void **state)
{
	struct fx *f = *state;
	const struct ib_check_hit *h;

	f->r.own_stats[0].dir[1].io_bytes = 4096;
	f->r.own_stats[0].direct = false;
	f->ev[0].target_kind = IB_ENV_BLOCK;
	snprintf(f->ev[0].disk, sizeof(f->ev[0].disk), "loop3");
	h = one(f, 0, "buffered-device");
	assert_non_null(strstr(h->msg, "loop3"));
	f->ev[0].target_kind = IB_ENV_FILE;
	assert_int_equal(run(f, 0), 0);
}

static void test_unwritten(void **state)
{
	struct fx *f = *state;
	const struct ib_check_hit *h;

	f->r.own_stats[0].dir[0].io_bytes = 1 << 20;
	f->ev[0].alloc_ok = true;
	f->ev[0].alloc_size = 1 << 20;
	f->ev[0].alloc_data = 1 << 18;
	h = one(f, 0, "unwritten");
	assert_true(ev(h, "range_bytes") == 1 << 20);
	assert_true(ev(h, "data_bytes") == 1 << 18);
	assert_non_null(strstr(h->msg, "75%"));
	f->ev[0].alloc_data = 1 << 20;
	assert_int_equal(run(f, 0), 0);
	f->ev[0].alloc_data = 0;
	f->r.own_stats[0].dir[0].io_bytes = 0;	/* writes only */
	assert_int_equal(run(f, 0), 0);
}

static void test_compressible(void **state)
{
	struct fx *f = *state;
	const struct ib_check_hit *h;

	f->r.own_stats[0].dir[1].io_bytes = 1 << 20;
	f->ev[0].compress_ratio = 0.01;
	f->ev[0].zram = true;
	h = one(f, 0, "compressible");
	assert_int_equal(h->sev, IB_SEV_WARNING);
	assert_true(ev(h, "compress_ratio") == 0.01);
	assert_true(ev(h, "zram") == 1);
	f->ev[0].zram = false;
	h = one(f, 0, "compressible");
	assert_int_equal(h->sev, IB_SEV_INFO);
	f->ev[0].compress_ratio = 1.0;
	assert_int_equal(run(f, 0), 0);
}

static void test_cpu_bound(void **state)
{
	struct fx *f = *state;
	struct ib_evidence *e = &f->ev[0];
	const struct ib_check_hit *h;

	e->sched_ok = true;
	e->sched_wall_ns = 1000000000;
	e->sched_run_ns = 600000000;
	e->sched_wait_ns = 380000000;	/* runnable: it wanted the CPU */
	h = one(f, 0, "cpu-bound");
	assert_true(ev(h, "cpu_percent") == 98.0);
	assert_true(ev(h, "runqueue_wait_ns") == 380000000);
	e->vol_switches = 5000;		/* it slept on I/O: waited for a CPU after */
	assert_int_equal(run(f, 0), 0);
	e->vol_switches = 9;
	one(f, 0, "cpu-bound");
	e->sched_wait_ns = 0;
	assert_int_equal(run(f, 0), 0);
	e->sched_wall_ns = 100000000;	/* too short to tell */
	e->sched_run_ns = 100000000;
	assert_int_equal(run(f, 0), 0);
	e->sched_ok = false;		/* rusage over the measured run */
	f->r.own_stats[0].job_runtime_ms = 1000;
	f->r.own_stats[0].usr_us = 500000;
	f->r.own_stats[0].sys_us = 450000;
	h = one(f, 0, "cpu-bound");
	assert_true(ev(h, "cpu_percent") == 95.0);
}

static void test_cpu_oversubscribed(void **state)
{
	struct fx *f = *state;
	const struct ib_check_hit *h;
	unsigned int i;

	for (i = 0; i < NJ; i++) {
		f->ev[i].cpus = 1;
		f->ev[i].batch_jobs = 2;
		f->ev[i].sched_ok = true;
		f->ev[i].sched_wall_ns = 1000000000;
		f->ev[i].sched_run_ns = 500000000;
		f->ev[i].sched_wait_ns = 500000000;
	}
	f->r.checks_mask = 1ull << 5;	/* cpu-oversubscribed alone */
	assert_string_equal(ib_checks[5].id, "cpu-oversubscribed");
	h = one(f, 0, "cpu-oversubscribed");
	assert_true(ev(h, "jobs") == 2);
	assert_true(ev(h, "cpus") == 1);
	assert_true(ev(h, "cpu_bound_jobs") == 2);
	assert_int_equal(run(f, 1), 0);	/* said once, on the first job */
	f->ev[1].sched_run_ns = 100000000;	/* sleeps on I/O, waits for a CPU */
	f->ev[1].sched_wait_ns = 700000000;
	assert_int_equal(run(f, 0), 0);
	f->ev[1].sched_wait_ns = 900000000;
	f->ev[1].batch = 1;		/* not in the same batch */
	f->ev[0].batch_jobs = f->ev[1].batch_jobs = 1;
	assert_int_equal(run(f, 0), 0);
}

static void test_depth_low(void **state)
{
	struct fx *f = *state;
	struct ib_job_stats *s = &f->r.own_stats[0];
	const struct ib_check_hit *h;

	f->r.jobs[0].iodepth = 64;
	s->dir[0].issued = 1000;
	s->depth[5] = 990;	/* 32..63 */
	s->depth[6] = 10;	/* >= 64 */
	h = one(f, 0, "depth-low");
	assert_true(ev(h, "iodepth") == 64);
	assert_true(ev(h, "percent_at_depth") == 1.0);
	s->depth[5] = 100;
	s->depth[6] = 900;
	assert_int_equal(run(f, 0), 0);
	s->depth[5] = 990;
	s->depth[6] = 10;
	s->dir[0].issued = 500;	/* fewer than 8 x iodepth: still ramping */
	assert_int_equal(run(f, 0), 0);
	s->dir[0].issued = 1000;
	assert_int_equal(run(f, 0), 1);
	/* paced (rate_iops, think time, a timed replay): few in flight is
	 * what was asked */
	f->ev[0].paced = true;
	assert_int_equal(run(f, 0), 0);
	f->ev[0].paced = false;
	/* verify_only counts the writes it lists as issued */
	f->ev[0].verify_only = true;
	assert_int_equal(run(f, 0), 0);
}

static void test_sync_depth(void **state)
{
	struct fx *f = *state;
	const struct ib_check_hit *h;

	f->r.jobs[0].iodepth = 8;
	f->ev[0].sync_engine = true;
	snprintf(f->r.own_stats[0].ioengine, sizeof(f->r.own_stats[0].ioengine), "psync");
	h = one(f, 0, "sync-depth");
	assert_string_equal(h->msg, "ioengine=psync is synchronous: iodepth=8 is effectively 1");
	f->r.jobs[0].iodepth = 1;
	assert_int_equal(run(f, 0), 0);
}

static void test_batch(void **state)
{
	struct fx *f = *state;
	struct ib_job_stats *s = &f->r.own_stats[0];
	const struct ib_check_hit *h;

	f->ev[0].iodepth_batch = 16;
	s->total_submit_calls = 100;
	s->submit[1] = 100;
	h = one(f, 0, "batch-unfilled");
	assert_int_equal(h->sev, IB_SEV_INFO);
	assert_true(ev(h, "max_per_submit") == 4);
	s->submit[3] = 1;
	assert_int_equal(run(f, 0), 0);
}

static void test_hist_range(void **state)
{
	struct fx *f = *state;
	struct ib_lat_stat *l = &f->r.own_stats[0].dir[1].lat[IB_LAT_CLAT];
	uint64_t limit = ib_hist_value(IB_HIST_NR - 1);
	const struct ib_check_hit *h;

	l->n = 1;
	l->max = limit;
	assert_int_equal(run(f, 0), 0);
	l->max = limit + 1;
	h = one(f, 0, "hist-range");
	assert_true(ev(h, "max_ns") == (double)(limit + 1));
}

static void test_short_run(void **state)
{
	struct fx *f = *state;
	struct ib_res_job *j = &f->r.jobs[0];
	const struct ib_check_hit *h;

	j->nr_percentiles = 2;
	j->percentiles[0] = 99.99;
	j->percentiles[1] = 100.0;	/* the maximum: never short */
	f->r.own_stats[0].dir[0].lat[IB_LAT_CLAT].n = 1048;
	assert_int_equal(run(f, 0), 0);	/* the default list: not asked for */
	f->ev[0].percentiles_given = true;
	h = one(f, 0, "short-run");
	assert_true(ev(h, "samples") == 1048);
	assert_true(ev(h, "samples_needed") == 10000);
	assert_true(ev(h, "percentile") == 99.99);
	f->r.own_stats[0].dir[0].lat[IB_LAT_CLAT].n = 10000;
	assert_int_equal(run(f, 0), 0);
	j->percentiles[0] = 99.0;
	f->r.own_stats[0].dir[0].lat[IB_LAT_CLAT].n = 99;
	h = one(f, 0, "short-run");
	assert_true(ev(h, "samples_needed") == 100);
}

static void test_runtime(void **state)
{
	struct fx *f = *state;
	const struct ib_check_hit *h;

	f->ev[0].time_based = true;
	f->ev[0].runtime_us = 3000000;
	f->r.own_stats[0].job_runtime_ms = 1000;
	h = one(f, 0, "runtime-off");
	assert_true(ev(h, "runtime_ms") == 1000);
	assert_true(ev(h, "runtime_asked_ms") == 3000);
	f->r.own_stats[0].job_runtime_ms = 3001;
	assert_int_equal(run(f, 0), 0);
	f->r.own_stats[0].job_runtime_ms = 5000;	/* overran */
	one(f, 0, "runtime-off");
	/* a steady state attained ends the job early on purpose (fio) */
	f->r.own_stats[0].job_runtime_ms = 1000;
	f->r.own_stats[0].ss.dur = 3;
	one(f, 0, "runtime-off");
	f->r.own_stats[0].ss.attained = true;
	assert_int_equal(run(f, 0), 0);
	f->r.own_stats[0].ss.attained = false;
	f->ev[0].time_based = false;
	assert_int_equal(run(f, 0), 0);
}

static void test_write_cache(void **state)
{
	struct fx *f = *state;
	struct ib_evidence *e = &f->ev[0];

	f->r.own_stats[0].dir[1].io_bytes = 4096;
	e->write_cache = 1;
	snprintf(e->disk, sizeof(e->disk), "vda");
	snprintf(e->fstype, sizeof(e->fstype), "ext4");
	one(f, 0, "write-cache");
	e->fsyncs = true;
	assert_int_equal(run(f, 0), 0);
	e->fsyncs = false;
	e->loop = true;		/* its "write back" is the backing file's cache */
	assert_int_equal(run(f, 0), 0);
	e->loop = false;
	e->write_cache = 0;
	assert_int_equal(run(f, 0), 0);
}

static void test_governor(void **state)
{
	struct fx *f = *state;

	snprintf(f->ev[0].governor, sizeof(f->ev[0].governor), "powersave");
	one(f, 0, "governor");
	f->r.jobs[0].iodepth = 32;	/* not a latency run */
	assert_int_equal(run(f, 0), 0);
	f->r.jobs[0].iodepth = 1;
	snprintf(f->ev[0].governor, sizeof(f->ev[0].governor), "performance");
	assert_int_equal(run(f, 0), 0);
	snprintf(f->ev[0].governor, sizeof(f->ev[0].governor), "none");
	assert_int_equal(run(f, 0), 0);
}

static void test_clock_tool(void **state)
{
	struct fx *f = *state;
	struct ib_job_stats *s = &f->r.own_stats[0];
	const struct ib_check_hit *h;

	f->ev[0].calibrated = f->ev[1].calibrated = true;
	f->ev[0].tool_ns_per_io = f->ev[1].tool_ns_per_io = 100;	/* 10M IOPS */
	f->ev[0].clock_ns = f->ev[1].clock_ns = 20;
	assert_int_equal(run(f, 0), 0);
	s->dir[0].issued = 6000000;
	s->dir[0].runtime_us = 1000000;
	h = one(f, 0, "tool-bound");
	assert_true(ev(h, "ceiling_iops") == 1e7);
	assert_true(ev(h, "iops") == 6e6);
	s->dir[0].issued = 4000000;
	assert_int_equal(run(f, 0), 0);
	/* a job that had a quarter of a CPU: judged by its CPU time */
	f->ev[0].sched_ok = true;
	f->ev[0].sched_wall_ns = 1000000000;
	f->ev[0].sched_run_ns = 250000000;
	f->ev[0].sched_wait_ns = 0;
	s->dir[0].issued = 2000000;	/* 2M x 100 ns = 200 ms of its 250 */
	h = one(f, 0, "tool-bound");
	assert_true(ev(h, "tool_cpu_share") == 0.8);
	s->dir[0].issued = 1000000;
	assert_int_equal(run(f, 0), 0);
	f->ev[0].sched_ok = false;
	f->ev[0].clock_ns = f->ev[1].clock_ns = 500;
	h = one(f, 0, "clock-cost");
	assert_true(ev(h, "clock_ns") == 500);
	assert_int_equal(run(f, 1), 0);	/* said once */
}

static void test_parse(void **state)
{
	struct ib_diag d = { { 0 } };
	uint64_t m = 0;

	(void)state;
	assert_int_equal(ib_checks_parse("all", &m, &d), 0);
	assert_true(m == IB_CHECKS_ALL);
	assert_int_equal(ib_checks_parse("none", &m, &d), 0);
	assert_true(m == 0);
	assert_int_equal(ib_checks_parse("page-cache,cpu-bound", &m, &d), 0);
	assert_true(m == ((1ull << 0) | (1ull << 4)));
	assert_int_equal(ib_checks_parse("page-cache,bogus", &m, &d), -EINVAL);
	assert_non_null(strstr(d.msg, "unknown check 'bogus'"));
	assert_int_equal(ib_checks_parse("", &m, &d), -EINVAL);
	assert_true(ib_nr_checks <= 64);
}

static void test_mask(void **state)
{
	struct fx *f = *state;

	f->r.jobs[0].iodepth = 8;
	f->ev[0].sync_engine = true;
	f->r.checks_mask = 0;
	assert_int_equal(run(f, 0), 0);
	f->r.checks_mask = 1ull << 7;
	assert_string_equal(ib_checks[7].id, "sync-depth");
	one(f, 0, "sync-depth");
}

static char *report(const struct ib_results *r, int (*fn)(FILE *, const struct ib_results *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, r), 0);
	fclose(f);
	return buf;
}

static void test_reports(void **state)
{
	struct fx *f = *state;
	char *txt, *js;

	f->r.jobs[0].iodepth = 8;
	f->ev[0].sync_engine = true;
	f->ev[0].calibrated = true;
	f->ev[0].tool_ns_per_io = 250;
	f->ev[0].seed_source = IB_SEED_DRAWN;
	f->ev[0].seed = 12345;
	snprintf(f->r.own_stats[0].ioengine, sizeof(f->r.own_stats[0].ioengine), "psync");
	txt = report(&f->r, ib_report_normal);
	assert_non_null(strstr(txt, "  tool overhead: 250 ns per I/O, ceiling 4000000 IOPS per job\n"
				    "  warning [sync-depth]: ioengine=psync is synchronous: iodepth=8 is effectively 1\n"));
	assert_null(strstr(txt, "Random seeds"));	/* only with --env */
	free(txt);
	f->r.show_env = true;
	txt = report(&f->r, ib_report_normal);
	assert_non_null(strstr(txt, "  j0 (job 1): randseed=12345 (drawn for this run)\n"));
	free(txt);
	js = report(&f->r, ib_report_json);
	assert_non_null(strstr(js, "\"iobench checks\""));
	assert_non_null(strstr(js, "\"sync-depth\""));
	assert_non_null(strstr(js, "\"replay\" : \"randseed=12345\""));
	assert_non_null(strstr(js, "\"ns_per_io\" : 250"));
	free(js);
	f->r.evidence = NULL;	/* a fio document: none of it */
	txt = report(&f->r, ib_report_normal);
	js = report(&f->r, ib_report_json);
	assert_null(strstr(txt, "warning ["));
	assert_null(strstr(txt, "tool overhead"));
	assert_null(strstr(js, "iobench checks"));
	assert_null(strstr(js, "random seed"));
	assert_null(strstr(js, "environment"));
	free(txt);
	free(js);
}

static void series(struct ib_evidence *e, const uint64_t *v, unsigned int n)
{
	e->series_ms = 1000;
	e->series_n = n;
	memcpy(e->series, v, n * sizeof(*v));
}

static void test_warmup(void **state)
{
	struct fx *f = *state;
	/* the last interval is never judged (the job may have ended in it) */
	static const uint64_t slow[] = { 2000, 9000, 10000, 10000, 9800, 10100, 7 };
	static const uint64_t flat[] = { 2600, 9000, 10000, 10000, 9800, 10100, 7 };
	const struct ib_check_hit *h;

	series(&f->ev[0], slow, 7);
	h = one(f, 0, "warm-up");
	assert_true(ev(h, "first_iops") == 2000);
	assert_true(ev(h, "steady_iops") == 10000);	/* median of the last half */
	f->ev[0].ramp_time_us = 1000000;
	assert_int_equal(run(f, 0), 0);
	f->ev[0].ramp_time_us = 0;
	series(&f->ev[0], flat, 7);
	assert_int_equal(run(f, 0), 0);
	series(&f->ev[0], slow, 4);	/* 3 intervals judged: too few */
	assert_int_equal(run(f, 0), 0);
}

static void test_step(void **state)
{
	struct fx *f = *state;
	static const uint64_t drop[] = { 10000, 10200, 9800, 1500, 1600, 1400, 1500, 1 };
	static const uint64_t dip[] = { 10000, 10200, 9800, 1500, 9900, 10000, 10100, 1 };
	static const uint64_t late[] = { 10000, 10200, 9800, 10000, 10000, 10100, 1500, 1 };
	const struct ib_check_hit *h;

	series(&f->ev[0], drop, 8);
	h = one(f, 0, "step");
	assert_true(ev(h, "at_s") == 3.0);
	assert_true(ev(h, "before_iops") == 10000);
	assert_true(ev(h, "after_iops") == 1500);
	series(&f->ev[0], dip, 8);		/* a dip that does not stay */
	assert_int_equal(run(f, 0), 0);
	series(&f->ev[0], late, 8);		/* one low interval at the end */
	assert_int_equal(run(f, 0), 0);
}

static void test_trend(void **state)
{
	struct fx *f = *state;
	static const uint64_t rising[] = { 5000, 5200, 5100, 5000, 5500, 6500, 7500, 8500, 1 };
	static const uint64_t noisy[] = { 5000, 5200, 5100, 5000, 7000, 5000, 7000, 5000, 1 };
	const struct ib_check_hit *h;

	series(&f->ev[0], rising, 9);
	h = one(f, 0, "trend");
	assert_true(fabs(ev(h, "change") - 3000.0 / 7000.0) < 1e-9);
	assert_true(fabs(ev(h, "r2") - 1.0) < 1e-9);
	assert_true(ev(h, "span_s") == 4.0);
	assert_non_null(strstr(h->msg, "rose by"));
	series(&f->ev[0], noisy, 9);
	assert_int_equal(run(f, 0), 0);
}

/* The sampler: intervals of 1 s, pairs merged when the series is full. */
static void test_series_sampler(void **state)
{
	struct ib_evidence *e = calloc(1, sizeof(*e));
	uint64_t t = 1000000000ull, s;
	unsigned int i;

	(void)state;
	assert_non_null(e);
	ib_evidence_series_start(e, t);
	ib_evidence_series_sample(e, t + 500000000ull, 50);	/* inside interval 0 */
	assert_int_equal(e->series_n, 0);
	ib_evidence_series_sample(e, t + 1000000000ull, 100);
	assert_int_equal(e->series_n, 1);
	assert_true(e->series[0] == 100);
	for (i = 2; i <= IB_EV_SERIES; i++)
		ib_evidence_series_sample(e, t + i * 1000000000ull, 100ull * i);
	assert_int_equal(e->series_n, IB_EV_SERIES / 2);	/* merged */
	assert_int_equal(e->series_ms, 2000);
	assert_true(e->series[0] == 200);
	for (i = 0, s = 0; i < e->series_n; i++)
		s += e->series[i];
	assert_true(s == 100ull * IB_EV_SERIES);
	ib_evidence_series_sample(e, t + (IB_EV_SERIES + 1) * 1000000000ull, 0);
	assert_int_equal(e->series_n, IB_EV_SERIES / 2);	/* 2 s intervals now */
	free(e);
}

/* A clone on the same region takes the probed job's before-run results. */
static void test_before_as(void **state)
{
	struct ib_evidence *from = calloc(1, sizeof(*from));
	struct ib_evidence *ev = calloc(1, sizeof(*ev));

	(void)state;
	assert_non_null(from);
	assert_non_null(ev);
	from->resident_ok = from->alloc_ok = from->dev_ok = true;
	from->resident_pages = 7;
	from->range_pages = 16;
	from->alloc_size = 65536;
	from->alloc_data = 4096;
	from->batch = 3;
	ib_evidence_before_as(ev, from);	/* not valid: left alone */
	assert_false(ev->resident_ok);
	assert_int_equal(ev->range_pages, 0);
	ev->valid = true;
	ev->batch = 1;
	ib_evidence_before_as(ev, from);
	assert_true(ev->resident_ok && ev->alloc_ok && ev->dev_ok);
	assert_int_equal(ev->resident_pages, 7);
	assert_int_equal(ev->range_pages, 16);
	assert_int_equal(ev->alloc_size, 65536);
	assert_int_equal(ev->alloc_data, 4096);
	assert_int_equal(ev->batch, 1);		/* its own, not copied */
	free(from);
	free(ev);
}

/* JSON text of one object written by fn, and that text parsed. */
static char *json_of(void (*fn)(struct ib_json *, const void *), const void *arg,
		     struct ib_jdoc *doc)
{
	struct ib_diag d = { { 0 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ib_json j;

	assert_non_null(f);
	ib_json_begin(&j, f);
	fn(&j, arg);
	ib_json_end(&j);
	fclose(f);
	assert_int_equal(ib_json_parse(doc, buf, len, &d), 0);
	return buf;
}

static void put_ev(struct ib_json *j, const void *ev)
{
	ib_evidence_json(j, ev);
}

static void put_env(struct ib_json *j, const void *e)
{
	ib_env_json(j, e);
}

/* Every field of the evidence out to JSON and back, exactly. */
static void test_evidence_json(void **state)
{
	struct ib_evidence a, b;
	struct ib_jdoc doc;
	char *text;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.valid = a.sched_ok = a.zram = a.dev_ok = a.calibrated = true;
	a.batch = 3;
	a.cpus = 2;
	a.write_cache = -1;
	a.target_kind = IB_ENV_BLOCK;
	snprintf(a.disk, sizeof(a.disk), "zram1");
	snprintf(a.governor, sizeof(a.governor), "schedutil");
	a.runtime_us = 5000000;
	a.sched_run_ns = 123456789012ull;
	a.dev_read_bytes = 1ull << 40;
	a.compress_ratio = 0.015625;
	a.seed_source = IB_SEED_DRAWN;
	a.seed = 15152358566871725617ull;
	a.seed_offset = 4000000000u;
	a.tool_ns_per_io = 87.5;
	a.clock_ns = 12.25;
	a.series_ms = 2000;
	a.series_n = 3;
	a.series[0] = 5;
	a.series[2] = 1ull << 50;
	text = json_of(put_ev, &a, &doc);
	assert_true(ib_evidence_from_json(&b, ib_jv_get(doc.root, "iobench evidence")));
	assert_memory_equal(&a, &b, sizeof(a));
	assert_false(ib_evidence_from_json(&b, NULL));
	ib_jdoc_free(&doc);
	free(text);
}

/* The environment out to JSON, read back and out again: the same text. */
static void test_env_json(void **state)
{
	struct ib_env *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct ib_jdoc d1, d2;
	char *t1, *t2;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	snprintf(a->hostname, sizeof(a->hostname), "h");
	a->cpus_online = 2;
	a->hypervisor_flag = 1;
	snprintf(a->governor, sizeof(a->governor), "none");
	a->nr_targets = a->targets_total = 2;
	snprintf(a->target[0].path, sizeof(a->target[0].path), "/dev/loop3");
	a->target[0].kind = IB_ENV_BLOCK;
	a->target[0].loop = 1;
	a->target[0].loop_dio = 1;
	a->target[0].rotational = 0;
	a->target[0].logical_block_size = 512;
	snprintf(a->target[0].loop_backing, sizeof(a->target[0].loop_backing), "/dev/shm/x");
	snprintf(a->target[1].path, sizeof(a->target[1].path), "/dev/shm/f");
	a->target[1].kind = IB_ENV_FILE;
	a->target[1].rotational = -1;
	a->target[1].loop_dio = -1;
	snprintf(a->target[1].fstype, sizeof(a->target[1].fstype), "tmpfs");
	a->target[1].nr_slaves = 1;
	snprintf(a->target[1].slave[0].name, sizeof(a->target[1].slave[0].name), "sda");
	a->target[1].slave[0].rotational = 1;
	t1 = json_of(put_env, a, &d1);
	ib_env_from_json(b, ib_jv_get(d1.root, "environment"));
	t2 = json_of(put_env, b, &d2);
	assert_string_equal(t1, t2);
	assert_int_equal(b->target[0].kind, IB_ENV_BLOCK);
	assert_int_equal(b->target[1].rotational, -1);
	ib_jdoc_free(&d1);
	ib_jdoc_free(&d2);
	free(t1);
	free(t2);
	free(a);
	free(b);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

/* The calibration's copy: the null engine, and a depth whose buffers fit
 * 16 MiB, its batch sizes no deeper than it. */
static void test_calib_job(void **state)
{
	struct ib_job *j = malloc(sizeof(*j)), *c = malloc(sizeof(*c));
	struct ib_diag d = { { 0 } };
	struct ib_clock clk;
	double ns = -1;

	(void)state;
	assert_non_null(j);
	assert_non_null(c);
	ib_job_defaults(j);
	j->iodepth = 32;
	ib_calib_job(c, j, 10000);
	assert_string_equal(c->ioengine, "null");
	assert_int_equal(c->iodepth, 32);
	assert_true(c->time_based);
	assert_int_equal(c->runtime_us, 10000);
	j->iodepth = j->iodepth_low = j->iodepth_batch_submit = 65536;
	j->iodepth_batch_complete_min = j->iodepth_batch_complete_max = 65536;
	ib_calib_job(c, j, 10000);
	assert_int_equal(c->iodepth, 4096);	/* 4 KiB blocks */
	assert_int_equal(c->iodepth_low, 4096);
	assert_int_equal(c->iodepth_batch_submit, 4096);
	assert_int_equal(c->iodepth_batch_complete_min, 4096);
	assert_int_equal(c->iodepth_batch_complete_max, 4096);
	j->bs.max[IB_DDIR_WRITE] = 1 << 20;
	ib_calib_job(c, j, 10000);
	assert_int_equal(c->iodepth, 16);
	j->bs.max[IB_DDIR_WRITE] = 64 << 20;
	ib_calib_job(c, j, 10000);
	assert_int_equal(c->iodepth, 1);
	/* one 64 MiB buffer is over the cap: no calibration (no 1 GiB fills) */
	ib_clock_init(&clk, false);
	assert_int_equal(ib_calib_tool(j, &clk, 10000, &ns, &d), -EFBIG);
	assert_string_equal(d.msg, "calibration: buffers of 67108864 bytes are "
			    "over its 16777216");
	assert_true(ns == -1);
	free(j);
	free(c);
}

/* Is byte k of struct ib_job in a field the calibration copy takes or sets? */
static bool calib_field(size_t k)
{
	static const struct ib_job_field set[] = {
		{ offsetof(struct ib_job, ioengine), sizeof(const char *) },
		{ offsetof(struct ib_job, time_based), sizeof(bool) },
		{ offsetof(struct ib_job, runtime_us), sizeof(uint64_t) },
		{ offsetof(struct ib_job, strs), sizeof(void *) },
	};
	unsigned int i;

	for (i = 0; i < ib_calib_nr_keep; i++)
		if (k >= ib_calib_keep[i].off && k < ib_calib_keep[i].off + ib_calib_keep[i].size)
			return true;
	for (i = 0; i < IB_ARRAY_SIZE(set); i++)
		if (k >= set[i].off && k < set[i].off + set[i].size)
			return true;
	return false;
}

/*
 * The calibration copy is a whitelist: from a job whose every byte differs
 * from the default (its strings and tables other ones), every field the
 * copy does not take is the default's, so a new option with a side effect
 * (a log, a command, a rate) cannot reach calibration unless it is taken.
 */
static void test_calib_whitelist(void **state)
{
	static const struct ib_err_list errs[IB_ERR_TYPE_NR] = { { 1, { 5 } } };
	static const struct ib_bssplit split[IB_DDIR_RWT] = { { 1, { 4096 }, { 100000 } } };
	static const struct ib_zones zones[IB_DDIR_RWT] = { { 1, { 100 }, { 100 } } };
	struct ib_job *j = malloc(sizeof(*j)), *c = malloc(sizeof(*c)),
		*def = malloc(sizeof(*def));
	const unsigned char *cb = (const void *)c, *db = (const void *)def;
	unsigned int i, kept = 0;
	size_t k;

	(void)state;
	assert_non_null(j);
	assert_non_null(c);
	assert_non_null(def);
	ib_job_defaults(def);
	memset(j, 0x5a, sizeof(*j));
	for (i = 0; i < IB_JOB_NR_STRS; i++)
		*ib_job_str_at(j, i) = "side effect";
	j->zones = zones;
	j->bssplit = split;
	j->ignore_error = errs;
	j->opts_text = "";
	ib_calib_job(c, j, 10000);
	for (k = 0; k < sizeof(*c); k++)
		if (!calib_field(k) && cb[k] != db[k])
			fail_msg("calibration copy: byte %zu is not the default's", k);
	assert_string_equal(c->ioengine, "null");
	assert_string_equal(c->name, "side effect");	/* taken: default file names */
	assert_string_equal(c->proc.exec_prerun, "");
	assert_string_equal(c->logs.hist, "");
	assert_string_equal(c->filename, "");
	assert_ptr_equal(c->ignore_error, ib_job_no_ignore_error);
	assert_ptr_equal(c->bssplit, split);
	assert_int_equal(c->rate.bps[IB_DDIR_READ], 0);
	assert_int_equal(c->number_ios, 0);
	assert_false(c->proc.cpus_set);
	for (k = 0; k < sizeof(*c); k++)
		kept += calib_field(k) && cb[k] == ((const unsigned char *)j)[k];
	assert_true(kept > 0);
	free(j);
	free(c);
	free(def);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_clean), T(test_no_evidence), T(test_page_cache),
		T(test_buffered_device), T(test_unwritten), T(test_compressible),
		T(test_cpu_bound), T(test_cpu_oversubscribed), T(test_depth_low),
		T(test_sync_depth), T(test_batch), T(test_hist_range),
		T(test_short_run), T(test_runtime), T(test_write_cache),
		T(test_governor), T(test_clock_tool), T(test_mask), T(test_reports),
		cmocka_unit_test(test_parse), cmocka_unit_test(test_evidence_json),
		cmocka_unit_test(test_env_json), T(test_warmup), T(test_step),
		T(test_trend), cmocka_unit_test(test_series_sampler),
		cmocka_unit_test(test_before_as), cmocka_unit_test(test_calib_job),
		cmocka_unit_test(test_calib_whitelist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
