// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay source (include/iobench/replay.h) over iologs written here:
 * exact due times (recorded, replay_time_scale, v2 waits, replay_no_stall),
 * READY / NOT_YET / END, the record mapping (targets in order of their
 * first I/O, replay_redirect, replay_scale/align/skip, trims, syncs and
 * datasyncs) and the lateness counters; the parent's pass (the job it
 * makes of a trace, its refusals).
 */
#include <errno.h>
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
#include "iobench/replay.h"
#include "iobench/strtab.h"

static char dir[] = "/dev/shm/ib_srcrep_XXXXXX";
static char logpath[PATH_MAX];
static char path2[PATH_MAX];	/* a second path for a job's string */
static struct ib_strtab strs;	/* the jobs' strings (job.h) */

static void put_log(const char *text)
{
	FILE *f;

	snprintf(logpath, sizeof(logpath), "%s/t.log", dir);
	f = fopen(logpath, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void open_replay(struct ib_replay *r, const struct ib_job *job,
			unsigned int nr_files)
{
	struct ib_diag d = { "" };

	assert_int_equal(ib_replay_init(r, job, nr_files, &d), 0);
}

/* next() at now: its answer, and the I/O (or retry time) in *io. */
static int next_at(struct ib_replay *r, uint64_t now, struct ib_io_desc *io)
{
	memset(io, 0xff, sizeof(*io));
	return ib_source_next(ib_replay_source(r), now, io);
}

static void expect_io(struct ib_replay *r, uint64_t now, int ddir,
		      unsigned int file, uint64_t off, uint32_t len, uint64_t due)
{
	struct ib_io_desc io;

	assert_int_equal(next_at(r, now, &io), IB_SRC_READY);
	assert_int_equal(io.ddir, ddir);
	assert_int_equal(io.file_idx, file);
	assert_int_equal(io.offset, off);
	assert_int_equal(io.len, len);
	assert_int_equal(io.due_ns, due);
}

/* The next answer is a sync (datasync or not) of file at due; the
 * offset its line has (fio logs its syncs with one). */
static void expect_sync(struct ib_replay *r, uint64_t now, unsigned int file,
			bool datasync, uint64_t off, uint64_t due)
{
	struct ib_io_desc io;

	assert_int_equal(next_at(r, now, &io), IB_SRC_READY);
	assert_int_equal(io.ddir, IB_DDIR_SYNC);
	assert_int_equal(io.file_idx, file);
	assert_int_equal(io.offset, off);
	assert_int_equal(io.len, 0);
	assert_int_equal(io.datasync, datasync);
	assert_int_equal(io.due_ns, due);
}

static void expect_not_yet(struct ib_replay *r, uint64_t now, uint64_t due)
{
	struct ib_io_desc io;

	assert_int_equal(next_at(r, now, &io), IB_SRC_NOT_YET);
	assert_int_equal(io.due_ns, due);
}

static const char V3[] =
	"fio version 3 iolog\n"
	"0 /a add\n"
	"5 /a open\n"
	"1000 /a read 0 4096\n"
	"1500 /a write 8192 512\n"
	"1600 /a trim 0 4096\n"
	"1700 /a sync 8192 0\n"
	"1800 /a datasync 0 0\n"
	"3000 /a read 12288 4096\n"
	"3100 /a close\n";

static void job_init(struct ib_job *j)
{
	ib_job_defaults(j);
	j->strs = &strs;
	j->replay.iolog = logpath;
}

/* Recorded times from the first I/O, from the source's first call. */
static void test_times(void **state)
{
	struct ib_replay r;
	struct ib_job j;
	struct ib_io_desc io;

	(void)state;
	put_log(V3);
	job_init(&j);
	open_replay(&r, &j, 1);
	expect_io(&r, 100, IB_DDIR_READ, 0, 0, 4096, 100);
	expect_not_yet(&r, 100, 100 + 500000);
	expect_not_yet(&r, 500099, 100 + 500000);
	expect_io(&r, 600100, IB_DDIR_WRITE, 0, 8192, 512, 500100);
	/* the trim, the sync and the datasync at their times */
	expect_io(&r, 600100, IB_DDIR_TRIM, 0, 0, 4096, 600100);
	expect_not_yet(&r, 600100, 100 + 700000);
	expect_sync(&r, 700100, 0, false, 8192, 700100);
	expect_sync(&r, 800100, 0, true, 0, 800100);
	expect_not_yet(&r, 800100, 100 + 2000000);
	expect_io(&r, 5000000, IB_DDIR_READ, 0, 12288, 4096, 2000100);
	assert_true(ib_source_more(ib_replay_source(&r)));
	assert_int_equal(next_at(&r, 5000000, &io), IB_SRC_END);
	assert_false(ib_source_more(ib_replay_source(&r)));
	assert_int_equal(r.error, 0);
	/* lateness: 0, 100000 ns, 0, 0, 0, 2999900 ns (late, > 1 ms) */
	assert_true(r.st.on);
	assert_int_equal(r.st.ios, 6);
	assert_int_equal(r.st.late_ios, 1);
	assert_int_equal(r.st.late_max_ns, 2999900);
	assert_int_equal(r.st.late_total_ns, 100000 + 2999900);
	ib_replay_free(&r);
}

/* replay_time_scale: 200 = twice the rate (half the time), 50 = half. */
static void test_time_scale(void **state)
{
	struct ib_replay r;
	struct ib_job j;

	(void)state;
	put_log(V3);
	job_init(&j);
	j.replay.time_scale = 200;
	open_replay(&r, &j, 1);
	expect_io(&r, 0, IB_DDIR_READ, 0, 0, 4096, 0);
	expect_not_yet(&r, 0, 250000);
	expect_io(&r, 250000, IB_DDIR_WRITE, 0, 8192, 512, 250000);
	expect_not_yet(&r, 250000, 300000);	/* the trim */
	ib_replay_free(&r);
	j.replay.time_scale = 50;
	open_replay(&r, &j, 1);
	expect_io(&r, 7, IB_DDIR_READ, 0, 0, 4096, 7);
	expect_not_yet(&r, 7, 7 + 1000000);
	expect_io(&r, 1000007, IB_DDIR_WRITE, 0, 8192, 512, 1000007);
	expect_not_yet(&r, 1000007, 7 + 1200000);	/* the trim */
	assert_int_equal(r.st.late_ios, 0);
	assert_int_equal(r.st.late_total_ns, 0);
	ib_replay_free(&r);
}

/* replay_no_stall: always READY, due now, never late. */
static void test_no_stall(void **state)
{
	struct ib_replay r;
	struct ib_job j;
	struct ib_io_desc io;

	(void)state;
	put_log(V3);
	job_init(&j);
	j.replay.no_stall = true;
	open_replay(&r, &j, 1);
	expect_io(&r, 10, IB_DDIR_READ, 0, 0, 4096, 10);
	expect_io(&r, 11, IB_DDIR_WRITE, 0, 8192, 512, 11);
	expect_io(&r, 11, IB_DDIR_TRIM, 0, 0, 4096, 11);
	expect_sync(&r, 11, 0, false, 8192, 11);
	expect_sync(&r, 11, 0, true, 0, 11);
	expect_io(&r, 12, IB_DDIR_READ, 0, 12288, 4096, 12);
	assert_int_equal(next_at(&r, 13, &io), IB_SRC_END);
	assert_int_equal(r.st.ios, 6);
	assert_int_equal(r.st.late_max_ns, 0);
	ib_replay_free(&r);
}

static const char TWO[] =
	"fio version 2 iolog\n"
	"/x add\n"
	"/y add\n"
	"/y open\n"
	"/x open\n"
	"/y write 10000 4096\n"
	"/x read 4096 4096\n"
	"/x wait 2000 0\n"
	"/y read 20480 8192\n"
	"/x write 3 512\n";

/* Targets by first I/O; v2 waits push what follows; scale, align. */
static void test_map(void **state)
{
	struct ib_replay r;
	struct ib_job j;

	(void)state;
	put_log(TWO);
	job_init(&j);
	open_replay(&r, &j, 2);
	expect_io(&r, 50, IB_DDIR_WRITE, 0, 10000, 4096, 50);
	expect_io(&r, 50, IB_DDIR_READ, 1, 4096, 4096, 50);
	expect_not_yet(&r, 60, 50 + 2000000);
	expect_io(&r, 2000050, IB_DDIR_READ, 0, 20480, 8192, 2000050);
	expect_io(&r, 2000051, IB_DDIR_WRITE, 1, 3, 512, 2000050);
	ib_replay_free(&r);
	j.replay.scale = 2;
	j.replay.align = 4096;
	j.replay.no_stall = true;
	j.replay.redirect = "/dev/null";
	open_replay(&r, &j, 1);
	expect_io(&r, 1, IB_DDIR_WRITE, 0, 4096, 4096, 1);	/* 5000 */
	expect_io(&r, 1, IB_DDIR_READ, 0, 0, 4096, 1);		/* 2048 */
	expect_io(&r, 1, IB_DDIR_READ, 0, 8192, 8192, 1);	/* 10240 */
	expect_io(&r, 1, IB_DDIR_WRITE, 0, 0, 512, 1);		/* 1 */
	ib_replay_free(&r);
}

/* replay_skip leaves whole directions out. */
static void test_skip(void **state)
{
	struct ib_replay r;
	struct ib_job j;
	struct ib_io_desc io;

	(void)state;
	put_log(TWO);
	job_init(&j);
	j.replay.skip = 1u << IB_DDIR_WRITE;
	j.replay.no_stall = true;
	open_replay(&r, &j, 2);
	expect_io(&r, 1, IB_DDIR_READ, 0, 4096, 4096, 1);	/* /x first now */
	expect_io(&r, 1, IB_DDIR_READ, 1, 20480, 8192, 1);
	assert_int_equal(next_at(&r, 1, &io), IB_SRC_END);
	ib_replay_free(&r);
}

/* replay_skip=trim,sync leaves trims, syncs and datasyncs out. */
static void test_skip_trim_sync(void **state)
{
	struct ib_replay r;
	struct ib_job j;
	struct ib_io_desc io;

	(void)state;
	put_log(V3);
	job_init(&j);
	j.replay.skip = 1u << IB_DDIR_TRIM | 1u << IB_DDIR_SYNC;
	j.replay.no_stall = true;
	open_replay(&r, &j, 1);
	expect_io(&r, 1, IB_DDIR_READ, 0, 0, 4096, 1);
	expect_io(&r, 1, IB_DDIR_WRITE, 0, 8192, 512, 1);
	expect_io(&r, 1, IB_DDIR_READ, 0, 12288, 4096, 1);
	assert_int_equal(next_at(&r, 1, &io), IB_SRC_END);
	ib_replay_free(&r);
	j.replay.skip = 1u << IB_DDIR_TRIM; /* syncs stay */
	open_replay(&r, &j, 1);
	expect_io(&r, 1, IB_DDIR_READ, 0, 0, 4096, 1);
	expect_io(&r, 1, IB_DDIR_WRITE, 0, 8192, 512, 1);
	expect_sync(&r, 1, 0, false, 8192, 1);
	expect_sync(&r, 1, 0, true, 0, 1);
	expect_io(&r, 1, IB_DDIR_READ, 0, 12288, 4096, 1);
	assert_int_equal(next_at(&r, 1, &io), IB_SRC_END);
	ib_replay_free(&r);
}

static const char LOOPED[] =
	"fio version 3 iolog\n"
	"0 /a add\n"
	"1000 /a read 0 4096\n"
	"3000 /a write 4096 4096\n";

/* loops=3: three passes, each due from the previous pass's last I/O. */
static void test_loops(void **state)
{
	struct ib_replay r;
	struct ib_job j;
	struct ib_io_desc io;
	uint64_t pass;

	(void)state;
	put_log(LOOPED);
	job_init(&j);
	j.loops = 3;
	open_replay(&r, &j, 1);
	for (pass = 0; pass < 3; pass++) {
		expect_io(&r, 10 + pass * 2000000, IB_DDIR_READ, 0, 0, 4096,
			  10 + pass * 2000000);
		expect_not_yet(&r, 10 + pass * 2000000, 10 + pass * 2000000 + 2000000);
		expect_io(&r, 10 + (pass + 1) * 2000000, IB_DDIR_WRITE, 0, 4096,
			  4096, 10 + (pass + 1) * 2000000);
	}
	assert_int_equal(next_at(&r, 7000000, &io), IB_SRC_END);
	assert_int_equal(r.error, 0);
	assert_int_equal(r.st.ios, 6);
	ib_replay_free(&r);
	/* v2: the waits add up across passes */
	put_log("fio version 2 iolog\n/a add\n/a wait 1000 0\n/a read 0 512\n");
	j.loops = 2;
	open_replay(&r, &j, 1);
	expect_not_yet(&r, 5, 5 + 1000000);
	expect_io(&r, 1000005, IB_DDIR_READ, 0, 0, 512, 1000005);
	expect_not_yet(&r, 1000005, 5 + 2000000);
	expect_io(&r, 2000005, IB_DDIR_READ, 0, 0, 512, 2000005);
	assert_int_equal(next_at(&r, 3000000, &io), IB_SRC_END);
	ib_replay_free(&r);
}

/* time_based: the trace again and again (the runtime ends the job). */
static void test_time_based(void **state)
{
	struct ib_replay r;
	struct ib_job j;
	unsigned int i;

	(void)state;
	put_log(LOOPED);
	job_init(&j);
	j.time_based = true;
	j.loops = 1;
	j.replay.no_stall = true;
	open_replay(&r, &j, 1);
	for (i = 0; i < 1000; i++) {
		expect_io(&r, i, IB_DDIR_READ, 0, 0, 4096, i);
		expect_io(&r, i, IB_DDIR_WRITE, 0, 4096, 4096, i);
	}
	assert_true(ib_source_more(ib_replay_source(&r)));
	assert_int_equal(r.st.ios, 2000);
	ib_replay_free(&r);
	/* a trace whose I/Os are all skipped ends instead of spinning */
	j.replay.skip = 1u << IB_DDIR_READ | 1u << IB_DDIR_WRITE;
	open_replay(&r, &j, 1);
	{
		struct ib_io_desc io;

		assert_int_equal(next_at(&r, 1, &io), IB_SRC_END);
	}
	ib_replay_free(&r);
}

/* A trace naming more targets than the plan saw fails, with a line. */
static void test_stale(void **state)
{
	struct ib_replay r;
	struct ib_job j;
	struct ib_io_desc io;
	char want[PATH_MAX + 64];

	(void)state;
	put_log(TWO);
	job_init(&j);
	open_replay(&r, &j, 1);
	expect_io(&r, 1, IB_DDIR_WRITE, 0, 10000, 4096, 1);
	assert_int_equal(next_at(&r, 1, &io), IB_SRC_END);
	assert_int_equal(r.error, ESTALE);
	snprintf(want, sizeof(want),
		 "%s: changed since the run was planned (more targets)", logpath);
	assert_string_equal(r.diag.msg, want);
	ib_replay_free(&r);
}

/* The parent's pass: the job made to describe the trace. */
static void test_plan(void **state)
{
	struct ib_diag d = { "" };
	struct ib_job j;
	char text[512], want[PATH_MAX * 2];

	(void)state;
	snprintf(text, sizeof(text),
		 "fio version 3 iolog\n0 %s/p:q add\n0 %s/r add\n"
		 "1 %s/r write 8192 512\n2 %s/p:q read 0 4096\n"
		 "3 %s/r trim 0 1048576\n4 %s/p:q read 65536 1024\n",
		 dir, dir, dir, dir, dir, dir);
	put_log(text);
	job_init(&j);
	assert_int_equal(ib_replay_plan(&j, false, &d), 0);
	snprintf(want, sizeof(want), "%s/r:%s/p\\:q", dir, dir);
	assert_string_equal(j.filename, want);
	assert_int_equal(j.rw, IB_RW_READ | IB_RW_WRITE | IB_RW_TRIM);
	assert_string_equal(ib_rw_name(j.rw), "rw"); /* named by reads/writes */
	assert_string_equal(ib_rw_name(IB_RW_READ | IB_RW_TRIM), "read");
	assert_int_equal(j.bs.min[IB_DDIR_READ], 1024);
	assert_int_equal(j.bs.max[IB_DDIR_READ], 4096);
	assert_int_equal(j.bs.min[IB_DDIR_WRITE], 512);
	assert_int_equal(j.bs.max[IB_DDIR_WRITE], 512);
	assert_int_equal(j.bs.align[IB_DDIR_READ], 65536);	/* 0 | 65536 */
	assert_int_equal(j.bs.align[IB_DDIR_WRITE], 8192);
	assert_int_equal(j.bs.min[IB_DDIR_TRIM], 1048576);
	assert_int_equal(j.bs.max[IB_DDIR_TRIM], 1048576);
	assert_int_equal(j.size, 2 * 1048576); /* the trim's end is the largest */
	/* --readonly, replay_skip=write: the trim is refused */
	job_init(&j);
	j.replay.skip = 1u << IB_DDIR_WRITE;
	assert_int_equal(ib_replay_plan(&j, true, &d), -EPERM);
	snprintf(want, sizeof(want),
		 "%s: line 6: a trim, refused by --readonly (replay_skip=trim leaves trims out)",
		 logpath);
	assert_string_equal(d.msg, want);
	/* replay_redirect and replay_skip=write,trim: one target, reads only */
	job_init(&j);
	snprintf(path2, sizeof(path2), "%s/t", dir);
	j.replay.redirect = path2;
	j.replay.skip = 1u << IB_DDIR_WRITE | 1u << IB_DDIR_TRIM;
	assert_int_equal(ib_replay_plan(&j, true, &d), 0);
	snprintf(want, sizeof(want), "%s/t", dir);
	assert_string_equal(j.filename, want);
	assert_int_equal(j.rw, IB_RW_READ);
	/* --readonly with a write */
	job_init(&j);
	assert_int_equal(ib_replay_plan(&j, true, &d), -EPERM);
	snprintf(want, sizeof(want),
		 "%s: line 4: a write, refused by --readonly (replay_skip=write leaves writes out)",
		 logpath);
	assert_string_equal(d.msg, want);
	assert_string_equal(j.filename, "");
}

static void test_plan_refusals(void **state)
{
	struct ib_diag d = { "" };
	struct ib_job j;
	char want[PATH_MAX + 160];

	(void)state;
	put_log("fio version 2 iolog\n/x add\n/x sync 0 0\n/x datasync 0 0\n");
	job_init(&j);
	assert_int_equal(ib_replay_plan(&j, false, &d), -EINVAL);
	snprintf(want, sizeof(want), "%s: no read, write or trim to replay", logpath);
	assert_string_equal(d.msg, want);
	job_init(&j);
	j.replay.align = 3000;
	assert_int_equal(ib_replay_plan(&j, false, &d), -EINVAL);
	assert_string_equal(d.msg, "replay_align: 3000 is not a power of 2");
	put_log("fio version 2 iolog\n/x add\n/x read 0 4096\n");
	job_init(&j);
	j.filename = "/dev/null";	/* fio would replay to /x */
	assert_int_equal(ib_replay_plan(&j, false, &d), -EINVAL);
	snprintf(want, sizeof(want),
		 "filename=/dev/null: not a file of the trace read_iolog=%s (fio would ignore filename= and replay to /x)",
		 logpath);
	assert_string_equal(d.msg, want);
	job_init(&j);
	j.filename = "/x";		/* the trace's own file: accepted */
	assert_int_equal(ib_replay_plan(&j, false, &d), 0);
	assert_string_equal(j.filename, "/x");
	job_init(&j);
	j.logs.iolog = logpath;
	assert_int_equal(ib_replay_plan(&j, false, &d), -EINVAL);
	snprintf(want, sizeof(want), "write_iolog=%s: is the trace read_iolog= replays",
		 logpath);
	assert_string_equal(d.msg, want);
	job_init(&j);
	j.replay.merge_nr_iters = 1;
	assert_int_equal(ib_replay_plan(&j, false, &d), -EINVAL);
	assert_string_equal(d.msg, "merge_blktrace_scalars/iters: only with merge_blktrace_file=");
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unlink(logpath);
	ib_strtab_free(&strs);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_time_scale),
		cmocka_unit_test(test_no_stall),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_skip_trim_sync),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_time_based),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_plan_refusals),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
