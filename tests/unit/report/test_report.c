// SPDX-License-Identifier: GPL-2.0-only
/*
 * The normal report against real fio 3.33 output: each fixture holds the
 * numbers fio measured in one run (from its json+ output) and the block fio
 * printed for them; iobench must print the same text from the same numbers.
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
#include "iobench/disk.h"
#include "src/report/report_common.h"

static void check_golden(const char *name)
{
	struct fixture fx;
	char *want, *got;
	int ret;

	assert_int_equal(fixture_load(&fx, name), 0);
	want = fixture_read(name, "txt");
	assert_non_null(want);
	got = fixture_capture(ib_report_normal, &fx.in, &ret);
	assert_int_equal(ret, 0);
	if (strcmp(want, got))
		fprintf(stderr, "--- fio (%s)\n%s--- iobench\n%s", name, want, got);
	assert_string_equal(got, want);
	free(want);
	free(got);
	fixture_free(&fx);
}

/* libaio randrw QD8: slat/clat/lat, usec units, bw KiB/s, write zone resets */
static void test_golden_randrw(void **state)
{
	(void)state;
	check_golden("rw2s");
}

/* group_reporting of 2 jobs: jobs=2, summed bw samples, MiB/s bw line */
static void test_golden_group(void **state)
{
	(void)state;
	check_golden("grp");
}

/* psync write with fsync=4: no slat, sync block, IO depths > 100% */
static void test_golden_fsync(void **state)
{
	(void)state;
	check_golden("fsync");
}

/* 4 s psync randread: bw in MiB, samples=7 */
static void test_golden_r4s(void **state)
{
	(void)state;
	check_golden("r4s");
}

/* null engine: nsec everywhere, no bw samples */
static void test_golden_null(void **state)
{
	(void)state;
	check_golden("null");
}

/* fio 3.33's steadystate lines (its runs' windows, its text) */
static void test_steadystate_line(void **state)
{
	static const uint64_t iops[] = { 1007, 988, 996, 1012, 992 };
	static const uint64_t bw[] = { 4128637, 4050898, 4083699, 4145152, 4067299 };
	struct fixture fx;
	struct ib_ss *ss;
	unsigned int i;
	char *got;
	int ret;

	(void)state;
	assert_int_equal(fixture_load(&fx, "null"), 0);
	ss = &fx.stats[0].ss;
	ib_ss_init(ss, IB_SS_PCT, 5.0, 5, 1);	/* iops:5% */
	for (i = 0; i < 5; i++)
		ib_ss_add(ss, iops[i], bw[i], 0);
	got = fixture_capture(ib_report_normal, &fx.in, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(got, "percentile=100.00%, depth=1\n"
		"  steadystate  : attained=yes, bw=3999KiB/s (3999kB/s), iops=999, iops mean dev=1.301%\n"
		"\nRun status group 0"));
	free(got);
	ib_ss_init(ss, IB_SS_BW | IB_SS_SLOPE, 2097152.0, 2, 1);	/* bw_slope:2M */
	ib_ss_add(ss, 1422339, 5825901860ull, 0);
	ib_ss_add(ss, 1466483, 6006716348ull, 0);
	got = fixture_capture(ib_report_normal, &fx.in, &ret);
	assert_non_null(strstr(got, "\n  steadystate  : attained=no, bw=5642MiB/s (5778MB/s), iops=1444k, bw slope=180814488.000\n"));
	free(got);
	/* fio 3.42: ss=lat_slope:50us ss_dur=4 ss_interval=2 */
	ib_ss_init(ss, IB_SS_LAT | IB_SS_SLOPE, 50.0, 4, 2);
	ib_ss_add(ss, 901, 3690805, 476);
	ib_ss_add(ss, 1013, 4151480, 350);
	got = fixture_capture(ib_report_normal, &fx.in, &ret);
	assert_non_null(strstr(got, "\n  steadystate  : attained=no, bw=3829KiB/s (3829kB/s), iops=957, lat=413nsec, lat slope=-126.000\n"));
	free(got);
	fixture_free(&fx);
}

/* kb_base=1000: SI first, "kB/s" bw label */
static void test_golden_kb1000(void **state)
{
	(void)state;
	check_golden("kb1000");
}

/* unit_base=1: bandwidth in bits */
static void test_golden_bits(void **state)
{
	(void)state;
	check_golden("bits");
}

/* slat/clat/lat percentiles with percentile_list=1:50:99.5:99.999 */
static void test_golden_percentiles(void **state)
{
	(void)state;
	check_golden("pcts");
}

/* gtod_reduce=1: only the bw and iops lines remain */
static void test_golden_gtod(void **state)
{
	(void)state;
	check_golden("gtod");
}

/* significant_figures=6 and a description */
static void test_golden_sigfig(void **state)
{
	(void)state;
	check_golden("sig");
}

/* psync O_DIRECT on ext4: Disk stats for vda */
static void test_golden_disk(void **state)
{
	(void)state;
	check_golden("disk");
}

/*
 * unified_rw_reporting=both (libaio randrw): read and write, then fio 3.33's
 * "mixed" section (its numbers shown as 0, latencies and bw summed) and a
 * MIXED run status line; the numbers are the read and write ones.
 */
static void test_golden_unified_both(void **state)
{
	(void)state;
	check_golden("uboth");
}

/* unified_rw_reporting=mixed: one "mixed" section, a MIXED group line */
static void test_golden_unified_mixed(void **state)
{
	(void)state;
	check_golden("umixed");
}

static char *capture_pct(const struct ib_job *j, const struct ib_hist *h, uint64_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ib_res_job *rj = malloc(sizeof(*rj));

	ib_res_job_from(rj, j);
	ib_report_pct_block(f, "clat", rj, h, n);
	free(rj);
	fclose(f);
	return buf;
}

/* precision from the list, width from the largest value, entries per row */
static void test_percentile_layout(void **state)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	struct ib_job j;
	char *out;

	(void)state;
	ib_job_defaults(&j);
	h->count[ib_hist_index(1234567)] = 10;	/* usec needs min > 2000 and max > 99999 */
	j.nr_percentiles = 3;
	j.percentiles[0] = 10;
	j.percentiles[1] = 50.5;
	j.percentiles[2] = 99.125;
	j.percentile_precision = 3;
	out = capture_pct(&j, h, 10);
	/* 1234567 is in bucket 1236992 (rounded up to 1237 us); 73/(3+10+5) = 4 per row */
	assert_string_equal(out, "    clat percentiles (usec):\n"
			    "     | 10.000th=[ 1237], 50.500th=[ 1237], 99.125th=[ 1237]\n");
	free(out);
	j.percentile_precision = 2;
	j.nr_percentiles = 5;
	j.percentiles[0] = 1;
	j.percentiles[1] = 2;
	j.percentiles[2] = 3;
	j.percentiles[3] = 4;
	j.percentiles[4] = 5;
	memset(h, 0, sizeof(*h));
	h->count[100] = 1;
	out = capture_pct(&j, h, 1);
	assert_string_equal(out, "    clat percentiles (nsec):\n"
			    "     |  1.00th=[  100],  2.00th=[  100],  3.00th=[  100],  4.00th=[  100],\n"
			    "     |  5.00th=[  100]\n");
	free(out);
	free(h);
}

static void test_lat_line_units(void **state)
{
	struct ib_lat_stat s = { .n = 3, .min = 2001, .max = 100000, .mean = 5000.0,
				 .m2 = 2.0 * 1001.0 * 1001.0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	ib_report_lat_line(f, "clat", &s);		/* all three above: usec */
	s.min = 2000;					/* min not > 2000: nsec */
	ib_report_lat_line(f, "clat", &s);
	s.min = 2000001;
	s.max = 100000000;
	s.m2 = 2.0 * 1000001.0 * 1000001.0;
	ib_report_lat_line(f, " lat", &s);		/* msec */
	fclose(f);
	assert_string_equal(buf,
		"    clat (usec): min=2, max=100, avg= 5.00, stdev= 1.00\n"
		"    clat (nsec): min=2000, max=100000, avg=5000.00, stdev=1001.00\n"
		"     lat (msec): min=2, max=100, avg= 0.01, stdev= 1.00\n");
	free(buf);
}

static void test_group_line(void **state)
{
	struct ib_rep_group g = { 0 };
	struct ib_res_job *rj = malloc(sizeof(*rj));
	struct ib_job j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	ib_job_defaults(&j);
	ib_res_job_from(rj, &j);
	g.job = rj;
	g.io_bytes[0] = 13314398208ull;
	g.agg_bw[0] = 13301097110ull;
	g.min_bw[0] = 3974000000ull;
	g.max_bw[0] = 9380000000ull;
	g.min_run[0] = g.max_run[0] = 1001;
	ib_report_group(f, &g);
	fclose(f);
	assert_string_equal(buf, "\nRun status group 0 (all jobs):\n"
		"   READ: bw=12.4GiB/s (13.3GB/s), 3790MiB/s-8945MiB/s (3974MB/s-9380MB/s), "
		"io=12.4GiB (13.3GB), run=1001-1001msec\n");
	free(buf);
	free(rj);
}

static void test_header(void **state)
{
	struct ib_job jobs[3];
	struct ib_results res;
	struct ib_plan run;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	unsigned int i;

	(void)state;
	ib_plan_init(&run);
	for (i = 0; i < 3; i++) {
		ib_job_defaults(&jobs[i]);
		jobs[i].name = "j";
		jobs[i].clone = i;
		jobs[i].rw = IB_RW_READ | IB_RW_WRITE | IB_RW_RAND;
		jobs[i].bs.min[1] = jobs[i].bs.max[1] = 16384;
		jobs[i].bs.min[2] = 512;
		jobs[i].bs.max[2] = 65536;
		jobs[i].ioengine = "io_uring";
		jobs[i].iodepth = 32;
	}
	run.jobs = jobs;
	run.nr_jobs = 3;
	assert_int_equal(ib_results_from_run(&res, &run, NULL, 0), 0);
	assert_int_equal(res.nr_hosts, 1);
	assert_int_equal(res.nr_jobs, 3);
	assert_int_equal(res.nr_disks, 0);
	assert_int_equal(ib_report_header(f, &res), 0);
	ib_results_free(&res);
	fclose(f);
	assert_string_equal(buf, "j: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 16.0KiB-16.0KiB, "
			    "(T) 512B-64.0KiB, ioengine=io_uring, iodepth=32\n...\n"
			    "iobench-" IOBENCH_VERSION "\nStarting 3 processes\n");
	free(buf);
	/* the engine the runner chose, when it fell back */
	{
		struct ib_job_stats *st = calloc(3, sizeof(*st));
		struct ib_result live = { .stats = st };

		assert_non_null(st);
		strcpy(st[0].ioengine, "libaio");
		f = open_memstream(&buf, &len);
		assert_int_equal(ib_results_from_run(&res, &run, &live, 0), 0);
		assert_int_equal(ib_report_header(f, &res), 0);
		ib_results_free(&res);
		fclose(f);
		assert_string_equal(buf, "j: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 16.0KiB-16.0KiB, "
				    "(T) 512B-64.0KiB, ioengine=libaio, iodepth=32\n...\n"
				    "iobench-" IOBENCH_VERSION "\nStarting 3 processes\n");
		free(buf);
		free(st);
	}
}

static void check_terse(const char *name, unsigned int fields)
{
	struct fixture fx;
	char *want, *got = fixture_terse(&fx, name, &want), *p;
	unsigned int n = 1;

	for (p = got; *p; p++)
		n += *p == ';';
	if (strcmp(got, want))
		fprintf(stderr, "--- fio (%s)\n%s--- iobench\n%s", name, want, got);
	assert_int_equal(n, fields);
	assert_string_equal(got, want);
	free(want);
	free(got);
	fixture_free(&fx);
}

/* Terse lines equal fio's for the same numbers, with fio's field counts */
static void test_terse_versions(void **state)
{
	(void)state;
	check_terse("tv2", 161);
	fixture_check_terse_derived("uboth", 227);	/* v5: read, write, trim, mixed */
	check_terse("umixed", 86);	/* v5: the mixed slot only */
	check_terse("tv3", 121);
	check_terse("tv4", 162);
	check_terse("tv5", 180);
	check_terse("disk", 130);	/* v3 + one disk */
}

/* Each disk adds 9 fields from v3 on */
static void test_terse_disk(void **state)
{
	struct ib_disk_util du = { .name = "vda", .ios = { 16137, 0 }, .ticks = { 750, 0 },
				   .in_queue = 751, .util = 68.199234 };
	struct fixture fx;
	char *got;
	int ret;

	(void)state;
	assert_int_equal(fixture_load(&fx, "tv3"), 0);
	fx.in.disks[0].util = du;	/* tv3 has no disk: the one allocated is free */
	fx.in.nr_disks = 1;
	got = fixture_capture(ib_report_terse, &fx.in, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(got, ";vda;16137;0;0;0;750;0;751;68.20%\n"));
	free(got);
	fixture_free(&fx);
}

/* Synthetic block: lat tables (>0 only, 5 per line, 0.01 floor), depths
 * (0.1 floor), cpu, issued, errors line with continue_on_error */
static void test_synthetic_tail(void **state)
{
	struct ib_job_stats *st = calloc(1, sizeof(*st));
	struct ib_results in;
	struct ib_plan run;
	struct ib_job j;
	char *out, *p;
	int ret;

	(void)state;
	ib_plan_init(&run);
	ib_job_defaults(&j);
	j.name = "s";
	j.iodepth = 16;
	j.continue_on_error = IB_COE_ALL;
	run.jobs = &j;
	run.nr_jobs = 1;
	st->dir[0].issued = 1000000;
	st->dir[0].total_ios = 1000000;
	st->lat_n[0] = 1;		/* 0.0001% -> 0.01 */
	st->lat_n[9] = 250000;
	st->lat_u[0] = 250000;
	st->lat_u[1] = 100000;
	st->lat_u[2] = 100000;
	st->lat_u[3] = 100000;
	st->lat_u[4] = 100000;
	st->lat_u[5] = 99999;
	st->lat_m[11] = 100;
	st->depth[0] = 10;
	st->depth[4] = 999990;
	st->total_submit_calls = 4;
	st->submit[1] = 4;
	st->usr_us = 250000;
	st->sys_us = 500000;
	st->job_runtime_ms = 1000;
	st->ctx = 7;
	st->minf = 3;
	st->total_err = 2;
	st->first_error = 5;
	assert_int_equal(fixture_results(&in, &run, st, NULL, 0, 0, IB_FIO_V333), 0);
	out = fixture_capture(ib_report_normal, &in, &ret);
	assert_int_equal(ret, 0);
	p = strstr(out, "  lat (nsec)");
	assert_non_null(p);
	assert_string_equal(p,
		"  lat (nsec)   : 2=0.01%, 1000=25.00%\n"
		"  lat (usec)   : 2=25.00%, 4=10.00%, 10=10.00%, 20=10.00%, 50=10.00%\n"
		"  lat (usec)   : 100=10.00%\n"
		"  lat (msec)   : >=2000=0.01%\n"
		"  cpu          : usr=25.00%, sys=50.00%, ctx=7, majf=0, minf=3\n"
		"  IO depths    : 1=0.1%, 2=0.0%, 4=0.0%, 8=0.0%, 16=100.0%, 32=0.0%, >=64=0.0%\n"
		"     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     complete  : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     issued rwts: total=1000000,0,0,0 short=0,0,0,0 dropped=0,0,0,0\n"
		"     errors    : total=2, first_error=5/<Input/output error>\n"
		"     latency   : target=0, window=0, percentile=100.00%, depth=16\n"
		"\nRun status group 0 (all jobs):\n");
	free(out);
	ib_results_free(&in);
	free(st);
}

/* err= in the normal header, JSON "error" and terse's 5th field. */
static void check_shown_error(const struct ib_results *in, int err,
			      const char *text)
{
	char want[256], *out;
	int ret;

	out = fixture_capture(ib_report_normal, in, &ret);
	assert_int_equal(ret, 0);
	if (text)
		snprintf(want, sizeof(want), "e: (groupid=0, jobs=1): err=%2d (%s): pid=", err, text);
	else
		snprintf(want, sizeof(want), "e: (groupid=0, jobs=1): err=%2d: pid=", err);
	assert_non_null(strstr(out, want));
	free(out);
	out = fixture_capture(ib_report_json, in, &ret);
	snprintf(want, sizeof(want), "\"error\" : %d,", err);
	assert_non_null(strstr(out, want));
	free(out);
	out = fixture_capture(ib_report_terse, in, &ret);
	snprintf(want, sizeof(want), "3;fio-3.33;e;0;%d;", err);
	assert_true(!strncmp(out, want, strlen(want)));
	free(out);
}

/*
 * Which error a report shows (fio's rule): the one that stopped the job;
 * else, with continue_on_error, the first counted; nothing otherwise.
 */
static void test_shown_error(void **state)
{
	struct ib_job_stats *st = calloc(1, sizeof(*st));
	struct ib_results in;
	struct ib_plan run;
	struct ib_job j;

	(void)state;
	ib_plan_init(&run);
	ib_job_defaults(&j);
	j.name = "e";
	run.jobs = &j;
	run.nr_jobs = 1;
	st->dir[0].issued = 64;
	st->dir[0].total_ios = 32;
	st->dir[0].io_bytes = 32 * 4096;
	st->dir[0].runtime_us = 1000;
	st->job_runtime_ms = 1;
	assert_int_equal(fixture_results(&in, &run, st, NULL, 0, 0, IB_FIO_V333), 0);
	check_shown_error(&in, 0, NULL);
	/* went on after 32 non-fatal errors */
	in.jobs[0].continue_on_error = IB_COE_READ;
	st->total_err = 32;
	st->first_error = EIO;
	strcpy(st->first_error_where, "read offset=4096, buflen=4096, file=/x: Input/output error (EIO)");
	check_shown_error(&in, EIO, st->first_error_where);
	/* then stopped by a fatal one: that one is shown */
	st->error = ENOSPC;
	strcpy(st->error_where, "write offset=0, buflen=4096, file=/x: No space left on device (ENOSPC)");
	check_shown_error(&in, ENOSPC, st->error_where);
	/* no text recorded: strerror and the name */
	st->error_where[0] = '\0';
	check_shown_error(&in, ENOSPC, "No space left on device (ENOSPC)");
	/* without continue_on_error first_error is not shown */
	st->error = 0;
	in.jobs[0].continue_on_error = 0;
	check_shown_error(&in, 0, NULL);
	ib_results_free(&in);
	free(st);
}

/* Real fio lines: vda, and md0 over three slaves (aggr = slave averages and
 * the highest slave util; the md line has 2 more spaces) */
static void test_disk_lines(void **state)
{
	struct ib_disk_util *du = calloc(2, sizeof(*du));
	struct ib_res_disk rd[2] = { { 0 } };
	static const struct ib_disk_slave_util sl[3] = {
		{ .name = "sdb", .ios = { 801, 0 }, .sectors = { 6408, 0 }, .ticks = { 13105, 0 }, .in_queue = 13105,
		  .util = 47.28 },
		{ .name = "sdc", .ios = { 801, 0 }, .sectors = { 6408, 0 }, .ticks = { 12854, 0 }, .in_queue = 12853,
		  .util = 46.68 },
		{ .name = "sda", .ios = { 802, 0 }, .sectors = { 6416, 0 }, .ticks = { 4521, 0 }, .in_queue = 4521,
		  .util = 18.39 },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	strcpy(du[0].name, "vda");
	du[0].ios[0] = 16137;
	du[0].ticks[0] = 750;
	du[0].in_queue = 751;
	du[0].util = 68.199234;
	strcpy(du[1].name, "md0");
	du[1].ios[0] = 2394;
	du[1].sectors[0] = 19152;
	du[1].ticks[0] = 30076;
	du[1].in_queue = 30076;
	du[1].util = 99.81;
	du[1].nr_slaves = 3;
	du[1].aggr_ios[0] = 801;
	du[1].aggr_ticks[0] = 10160;
	du[1].aggr_in_queue = 10159;
	du[1].aggr_util = 47.28;
	memcpy(du[1].slave, sl, sizeof(sl));
	rd[0].util = du[0];
	rd[1].util = du[1];
	ib_report_disks(f, rd, 0, IB_FIO_V333);
	ib_report_disks(f, rd, 2, IB_FIO_V333);
	fclose(f);
	assert_string_equal(buf, "\nDisk stats (read/write):\n"
		"  vda: ios=16137/0, merge=0/0, ticks=750/0, in_queue=751, util=68.20%\n"
		"    md0: ios=2394/0, merge=0/0, ticks=30076/0, in_queue=30076, util=99.81%, "
		"aggrios=801/0, aggrmerge=0/0, aggrticks=10160/0, aggrin_queue=10159, "
		"aggrutil=47.28%\n"
		"  sdb: ios=801/0, merge=0/0, ticks=13105/0, in_queue=13105, util=47.28%\n"
		"  sdc: ios=801/0, merge=0/0, ticks=12854/0, in_queue=12853, util=46.68%\n"
		"  sda: ios=802/0, merge=0/0, ticks=4521/0, in_queue=4521, util=18.39%\n");
	free(buf);
	/* fio 3.42: sectors= after ios=, the slaves' mean as "aggsectors=" */
	buf = NULL;
	f = open_memstream(&buf, &len);
	ib_report_disks(f, rd, 2, IB_FIO_V342);
	fclose(f);
	assert_string_equal(buf, "\nDisk stats (read/write):\n"
		"  vda: ios=16137/0, sectors=0/0, merge=0/0, ticks=750/0, in_queue=751, "
		"util=68.20%\n"
		"    md0: ios=2394/0, sectors=19152/0, merge=0/0, ticks=30076/0, in_queue=30076, "
		"util=99.81%, aggrios=801/0, aggsectors=6410/0, aggrmerge=0/0, aggrticks=10160/0, "
		"aggrin_queue=10159, aggrutil=47.28%\n"
		"  sdb: ios=801/0, sectors=6408/0, merge=0/0, ticks=13105/0, in_queue=13105, "
		"util=47.28%\n"
		"  sdc: ios=801/0, sectors=6408/0, merge=0/0, ticks=12854/0, in_queue=12853, "
		"util=46.68%\n"
		"  sda: ios=802/0, sectors=6416/0, merge=0/0, ticks=4521/0, in_queue=4521, "
		"util=18.39%\n");
	free(buf);
	free(du);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_randrw),
		cmocka_unit_test(test_golden_unified_both),
		cmocka_unit_test(test_golden_unified_mixed),
		cmocka_unit_test(test_golden_group),
		cmocka_unit_test(test_golden_fsync),
		cmocka_unit_test(test_golden_r4s),
		cmocka_unit_test(test_golden_null),
		cmocka_unit_test(test_steadystate_line),
		cmocka_unit_test(test_golden_kb1000),
		cmocka_unit_test(test_golden_bits),
		cmocka_unit_test(test_golden_percentiles),
		cmocka_unit_test(test_golden_gtod),
		cmocka_unit_test(test_golden_sigfig),
		cmocka_unit_test(test_golden_disk),
		cmocka_unit_test(test_percentile_layout),
		cmocka_unit_test(test_lat_line_units),
		cmocka_unit_test(test_group_line),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_terse_versions),
		cmocka_unit_test(test_terse_disk),
		cmocka_unit_test(test_disk_lines),
		cmocka_unit_test(test_synthetic_tail),
		cmocka_unit_test(test_shown_error),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
