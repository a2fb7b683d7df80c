// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole runs through the runner and worker, with jobs built in code (the
 * command line has its own tests): every engine on a real /dev/shm file,
 * exact issued counts, layout that keeps existing data, fsync counts,
 * several clones in their own processes, threads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/engine.h"
#include "iobench/plan.h"
#include "iobench/runner.h"
#include "iobench/shm.h"

#define TESTDIR "/dev/shm"

static char path[256];

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), TESTDIR "/iobench-runner-%d", (int)getpid());
	unlink(path);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static struct ib_job *one_job(struct ib_plan *run, unsigned int n)
{
	unsigned int i;

	ib_plan_init(run);
	run->eta = IB_ETA_NEVER;
	run->nr_jobs = n;
	/* as ib_plan_add_job makes it: ib_plan_free unmaps it */
	run->jobs = ib_shm_alloc(n * sizeof(*run->jobs));
	run->jobs_cap = n;
	for (i = 0; i < n; i++) {
		ib_job_defaults(&run->jobs[i]);
		run->jobs[i].name = "t";
		run->jobs[i].strs = &run->strs;
		run->jobs[i].filename = path;
		run->jobs[i].number = i + 1;
		run->jobs[i].size = 1 << 20;
		run->jobs[i].iodepth_low = 1;
	}
	return run->jobs;
}

static void run_ok(struct ib_plan *run, struct ib_result *res)
{
	struct ib_diag d = { { 0 } };
	int ret = ib_runner_run(run, NULL, NULL, res, &d);

	if (ret)
		print_error("runner: %s\n", d.msg);
	assert_int_equal(ret, 0);
	if (res->failed_jobs)
		print_error("job error: %s\n", res->stats[0].error_where);
	assert_int_equal(res->failed_jobs, 0);
}

static void one_engine(const char *engine, unsigned int rw, unsigned int depth,
		       bool direct)
{
	struct ib_plan run;
	struct ib_result res;
	struct ib_job *job = one_job(&run, 1);
	const struct ib_job_stats *st;

	job->ioengine = engine;
	job->rw = rw;
	job->iodepth = depth;
	job->iodepth_low = depth;
	job->direct = direct;
	/*
	 * The self-calibration (50 ms of the parent's CPU per run) is the
	 * other tests' and test_runner_parts'; 170 runs of it here took 9 of
	 * this test's 15 s, and most of its minute under memcheck.
	 */
	run.no_calibrate = true;
	run_ok(&run, &res);
	st = &res.stats[0];
	print_message("%s rw=%s depth=%u direct=%d: r=%llu w=%llu\n", engine,
		      ib_rw_name(rw), depth, direct,
		      (unsigned long long)st->dir[0].issued,
		      (unsigned long long)st->dir[1].issued);
	if (rw & IB_RW_READ && !(rw & IB_RW_WRITE)) {
		assert_int_equal(st->dir[IB_DDIR_READ].issued, 256);
		assert_int_equal(st->dir[IB_DDIR_READ].total_ios, 256);
		assert_int_equal(st->dir[IB_DDIR_READ].io_bytes, 1 << 20);
	} else if (rw & IB_RW_WRITE && !(rw & IB_RW_READ)) {
		assert_int_equal(st->dir[IB_DDIR_WRITE].issued, 256);
		assert_int_equal(st->dir[IB_DDIR_WRITE].io_bytes, 1 << 20);
	} else {
		assert_int_equal(st->dir[0].issued + st->dir[1].issued, 256);
		assert_int_equal(st->dir[0].io_bytes + st->dir[1].io_bytes, 1 << 20);
	}
	assert_int_equal(st->error, 0);
	ib_result_free(&run, &res);
	ib_plan_free(&run);
}

/*
 * The I/O mode the runner records for the reports: iobench's defaults on a
 * tmpfs file are io_uring and O_DIRECT; a default direct=1 the block size
 * cannot do runs buffered and says why; a given one is refused.
 */
static void test_effective_mode(void **state)
{
	char why[512];
	struct ib_diag d = { { 0 } };
	struct ib_plan run;
	struct ib_result res;
	struct ib_job *job = one_job(&run, 1);
	const struct ib_job_stats *st;

	(void)state;
	run_ok(&run, &res);
	st = &res.stats[0];
	assert_string_equal(st->ioengine, "io_uring");
	assert_true(st->direct_requested);
	assert_true(st->direct);
	assert_string_equal(st->ioengine_fallback, "");
	assert_string_equal(st->direct_fallback, "");
	ib_result_free(&run, &res);
	job->bs.min[IB_DDIR_READ] = job->bs.max[IB_DDIR_READ] = 1000;
	job->bs.align[IB_DDIR_READ] = 1000;
	run_ok(&run, &res);
	st = &res.stats[0];
	assert_true(st->direct_requested);
	assert_false(st->direct);
	snprintf(why, sizeof(why), "bs (read)=1000 is not a multiple of 512, "
		 "the direct I/O alignment of %s", path);
	assert_string_equal(st->direct_fallback, why);
	assert_int_equal(st->dir[IB_DDIR_READ].io_bytes, 1000 * 1048);
	ib_result_free(&run, &res);
	job->direct_given = true;
	assert_int_equal(ib_runner_run(&run, NULL, NULL, &res, &d), -EINVAL);
	snprintf(why, sizeof(why), "job 't': bs (read)=1000 is not a multiple of "
		 "512, the direct I/O alignment of %s (direct=1)", path);
	assert_string_equal(d.msg, why);
	ib_result_free(&run, &res);
	ib_plan_free(&run);
}

static void test_every_engine_every_mode(void **state)
{
	static const unsigned int modes[] = {
		IB_RW_READ, IB_RW_WRITE, IB_RW_READ | IB_RW_WRITE,
		IB_RW_READ | IB_RW_RAND, IB_RW_WRITE | IB_RW_RAND,
		IB_RW_READ | IB_RW_WRITE | IB_RW_RAND,
	};
	const struct ib_engine_ops *const *e;
	unsigned int m;

	(void)state;
	for (e = ib_engine_list(); *e; e++) {
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			/* ftruncate does writes only (validation refuses reads) */
			if (!strcmp((*e)->name, "ftruncate") && (modes[m] & IB_RW_READ))
				continue;
			one_engine((*e)->name, modes[m], 1, false);
			one_engine((*e)->name, modes[m], 16, true);
		}
	}
}

static void test_layout_keeps_data(void **state)
{
	struct ib_plan run;
	struct ib_result res;
	struct ib_job *job = one_job(&run, 1);
	char buf[4096], got[4096];
	struct stat st;
	int fd;

	(void)state;
	/* 2 MiB of known data; the job reads 1 MiB at offset 1 MiB of a 3 MiB need */
	memset(buf, 0x5a, sizeof(buf));
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	for (int i = 0; i < 512; i++)
		assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	close(fd);
	job->offset = 2 << 20;
	run_ok(&run, &res);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 3 << 20);
	fd = open(path, O_RDONLY);
	for (int i = 0; i < 512; i++) {
		assert_int_equal(read(fd, got, sizeof(got)), sizeof(got));
		assert_memory_equal(got, buf, sizeof(buf));
	}
	close(fd);
	ib_result_free(&run, &res);
	ib_plan_free(&run);
}

static void test_fsync_counts(void **state)
{
	struct ib_plan run;
	struct ib_result res;
	struct ib_job *job = one_job(&run, 1);

	(void)state;
	job->rw = IB_RW_WRITE;
	job->size = 64 << 10;
	job->fsync_every = 4;
	job->end_fsync = true;
	run_ok(&run, &res);
	/* 16 writes: a sync before writes 5, 9 and 13; end_fsync not counted */
	assert_int_equal(res.stats[0].dir[IB_DDIR_WRITE].issued, 16);
	assert_int_equal(res.stats[0].sync_ios, 3);
	ib_result_free(&run, &res);
	ib_plan_free(&run);
}

static void test_clones_processes_and_threads(void **state)
{
	struct ib_plan run;
	struct ib_result res;
	struct ib_job *jobs = one_job(&run, 4);
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 4; i++) {
		jobs[i].rw = IB_RW_READ | IB_RW_RAND;
		jobs[i].clone = i;
		jobs[i].numjobs = 4;
		jobs[i].thread = i >= 2;
	}
	run_ok(&run, &res);
	for (i = 0; i < 4; i++) {
		assert_int_equal(res.stats[i].dir[IB_DDIR_READ].issued, 256);
		for (j = 0; j < i; j++)
			if (i < 2 || j < 2)
				assert_int_not_equal(res.stats[i].pid, res.stats[j].pid);
	}
	/* the two thread jobs run inside this process */
	assert_int_equal(res.stats[2].pid, getpid());
	assert_int_equal(res.stats[3].pid, getpid());
	ib_result_free(&run, &res);
	ib_plan_free(&run);
}

static void test_missing_size_refused(void **state)
{
	struct ib_plan run;
	struct ib_result res;
	struct ib_diag d = { { 0 } };
	struct ib_job *job = one_job(&run, 1);
	struct stat st;

	(void)state;
	job->size = 0;
	assert_int_not_equal(ib_runner_run(&run, NULL, NULL, &res, &d), 0);
	assert_non_null(strstr(d.msg, "you need to specify size="));
	assert_int_equal(stat(path, &st), -1); /* nothing created */
	ib_result_free(&run, &res);
	ib_plan_free(&run);
}

/*
 * What a job runs with other than asked (here: time_based without a
 * runtime): one warning per job section (clone 0 only), written to the
 * stream ib_runner_check is given, before any job runs; NULL silences it.
 * A synchronous engine at iodepth > 1 is no such line: the sync-depth
 * check reports it, as --warnings selects.
 */
static void test_check_warns_on_stream(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_job *jobs;
	struct ib_runner *r;
	struct ib_result res;
	struct ib_plan run;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *want =
		"iobench: warning: job 't': time_based without a runtime, the job is size-based (as in fio)\n"
		"iobench: warning: job 'u': time_based without a runtime, the job is size-based (as in fio)\n";

	(void)state;
	assert_non_null(f);
	jobs = one_job(&run, 3);
	jobs[0].ioengine = "psync";
	jobs[1].ioengine = "psync";
	jobs[0].iodepth = 8;
	jobs[1].iodepth = 8;
	jobs[0].time_based_dropped = true;
	jobs[1].time_based_dropped = true;
	jobs[1].clone = 1;	/* a second clone of job 1: no second line */
	jobs[2].ioengine = "pvsync";
	jobs[2].iodepth = 2;
	jobs[2].name = "u";
	jobs[2].time_based_dropped = true;
	assert_int_equal(ib_runner_check(&run, f, &res, &r, &d), 0);
	fflush(f);
	assert_string_equal(buf, want);
	assert_int_equal(ib_runner_go(r, NULL, NULL, &d), 0);
	assert_int_equal(res.failed_jobs, 0);
	ib_result_free(&run, &res);
	assert_int_equal(ib_runner_check(&run, NULL, &res, &r, &d), 0);
	assert_int_equal(ib_runner_go(r, NULL, NULL, &d), 0);
	ib_result_free(&run, &res);
	fclose(f);
	assert_int_equal(len, strlen(want)); /* nothing more with NULL */
	free(buf);
	ib_plan_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_engine_every_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_effective_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_keeps_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fsync_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clones_processes_and_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_size_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_warns_on_stream, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
