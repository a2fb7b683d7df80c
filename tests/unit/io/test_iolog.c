// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iolog writer (iolog.c, write_iolog=): the exact lines of a version 2
 * log, version 3's times (from the open, in microseconds, the readings
 * given), the clone's file name, openfiles=N's open and close lines, more
 * lines than the buffer holds, and the errors named.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/iolog.h"

static char dir[] = "/dev/shm/iobench-iolog-XXXXXX";
static char logpath[300];

static int group_setup(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(logpath, sizeof(logpath), "%s/log", dir);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	rmdir(dir);
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	buf = calloc(1, *len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static void two_files(struct ib_files *fs, struct ib_file *f)
{
	memset(f, 0, 2 * sizeof(*f));
	f[0].path = "/t/a";
	f[1].path = "/t/b";
	f[0].fd = 3;
	f[1].fd = -1;
	*fs = (struct ib_files){ .f = f, .nr = 2 };
}

static void job_for(struct ib_job *job, unsigned int version)
{
	memset(job, 0, sizeof(*job));
	job->logs.iolog = logpath;
	job->logs.iolog_version = version;
}

static void v2_exact(void **state)
{
	struct ib_iolog l;
	struct ib_files fs;
	struct ib_file f[2];
	struct ib_job job;
	struct ib_diag d = { { 0 } };
	size_t len;
	char *text;

	(void)state;
	two_files(&fs, f);
	job_for(&job, 2);
	assert_int_equal(ib_iolog_open(&l, &job, &fs, &d), 0);
	ib_iolog_io(&l, &f[0], IB_DDIR_READ, 4096, 512, 0);
	ib_iolog_io(&l, &f[1], IB_DDIR_WRITE, 0, 65536, 0);
	ib_iolog_io(&l, &f[0], IB_DDIR_TRIM, 1ull << 40, 4096, 0);
	ib_iolog_io(&l, &f[1], IB_DDIR_SYNC, 0, 0, 0);
	ib_iolog_io(&l, &f[0], IB_IOLOG_DATASYNC, 0, 0, 0);
	assert_int_equal(ib_iolog_close(&l, &fs, &d), 0);
	text = slurp(logpath, &len);
	assert_string_equal(text,
			    "fio version 2 iolog\n"
			    "/t/a add\n/t/b add\n/t/a open\n/t/b open\n"
			    "/t/a read 4096 512\n"
			    "/t/b write 0 65536\n"
			    "/t/a trim 1099511627776 4096\n"
			    "/t/b sync 0 0\n"
			    "/t/a datasync 0 0\n"
			    "/t/a close\n/t/b close\n");
	free(text);
	unlink(logpath);
}

/* v3: each line starts with the microseconds since the open */
static void v3_times(void **state)
{
	struct ib_iolog l;
	struct ib_files fs;
	struct ib_file f[2];
	struct ib_job job;
	struct ib_diag d = { { 0 } };
	char *text, want[256];
	size_t len;

	(void)state;
	two_files(&fs, f);
	fs.nr = 1;
	job_for(&job, 3);
	assert_int_equal(ib_iolog_open(&l, &job, &fs, &d), 0);
	ib_iolog_io(&l, &f[0], IB_DDIR_READ, 8192, 4096, l.start_ns + 1999);
	ib_iolog_io(&l, &f[0], IB_DDIR_WRITE, 0, 4096, l.start_ns + 2500000);
	ib_iolog_file(&l, &f[0], "close", l.start_ns + 3000000);
	ib_iolog_io(&l, &f[0], IB_DDIR_READ, 0, 4096, l.start_ns - 5); /* before: 0 */
	l.start_ns = 0; /* the close line's time is then now: not checked */
	assert_int_equal(ib_iolog_close(&l, &fs, &d), 0);
	text = slurp(logpath, &len);
	snprintf(want, sizeof(want), "fio version 3 iolog\n0 /t/a add\n0 /t/a open\n"
		 "1 /t/a read 8192 4096\n2500 /t/a write 0 4096\n"
		 "3000 /t/a close\n0 /t/a read 0 4096\n");
	assert_true(len > strlen(want));
	assert_memory_equal(text, want, strlen(want));
	snprintf(want, sizeof(want), " /t/a close\n");
	assert_int_equal(memcmp(text + len - strlen(want), want, strlen(want)), 0);
	free(text);
	unlink(logpath);
}

/* openfiles=1 of 2: open and close lines only for the file open then */
static void limited_lines(void **state)
{
	struct ib_iolog l;
	struct ib_files fs;
	struct ib_file f[2];
	struct ib_job job;
	struct ib_diag d = { { 0 } };
	size_t len;
	char *text;

	(void)state;
	two_files(&fs, f);
	job_for(&job, 2);
	job.openfiles = 1;
	assert_int_equal(ib_iolog_open(&l, &job, &fs, &d), 0);
	assert_true(l.limited);
	ib_iolog_file(&l, &f[0], "close", 0);
	ib_iolog_file(&l, &f[1], "open", 0);
	f[0].fd = -1;
	f[1].fd = 4;
	assert_int_equal(ib_iolog_close(&l, &fs, &d), 0);
	text = slurp(logpath, &len);
	assert_string_equal(text, "fio version 2 iolog\n/t/a add\n/t/b add\n/t/a open\n"
			    "/t/a close\n/t/b open\n/t/b close\n");
	free(text);
	unlink(logpath);
}

/* 40000 lines (more than the 1 MiB buffer): every one, in order */
static void many_lines(void **state)
{
	struct ib_iolog l;
	struct ib_files fs;
	struct ib_file f[2];
	struct ib_job job;
	struct ib_diag d = { { 0 } };
	unsigned int i, n = 0;
	size_t len;
	char *text, *p, line[256], longpath[256];

	(void)state;
	two_files(&fs, f);
	fs.nr = 1;
	snprintf(longpath, sizeof(longpath), "/t/%0200d", 7);
	f[0].path = longpath;
	job_for(&job, 2);
	assert_int_equal(ib_iolog_open(&l, &job, &fs, &d), 0);
	for (i = 0; i < 40000; i++)
		ib_iolog_io(&l, &f[0], IB_DDIR_READ, (uint64_t)i * 4096, 4096, 0);
	assert_int_equal(ib_iolog_close(&l, &fs, &d), 0);
	text = slurp(logpath, &len);
	assert_true(len > (1u << 20));
	p = strstr(text, " open\n");
	assert_non_null(p);
	for (p += 6; n < 40000; n++) {
		snprintf(line, sizeof(line), " read %" PRIu64 " 4096\n", (uint64_t)n * 4096);
		p = strchr(p, ' ');
		assert_non_null(p);
		assert_memory_equal(p, line, strlen(line));
		p += strlen(line);
	}
	snprintf(line, sizeof(line), "/t/%0200d close\n", 7);
	assert_string_equal(p, line);
	free(text);
	unlink(logpath);
}

static void clone_name(void **state)
{
	struct ib_job job;
	char buf[16];

	(void)state;
	memset(&job, 0, sizeof(job));
	job.logs.iolog = "/x/log";
	assert_true(ib_iolog_path(&job, buf, sizeof(buf)));
	assert_string_equal(buf, "/x/log");
	job.numjobs = 4;
	job.clone = 3;
	assert_true(ib_iolog_path(&job, buf, sizeof(buf)));
	assert_string_equal(buf, "/x/log.3");
	assert_false(ib_iolog_path(&job, buf, 8)); /* "/x/log.3" needs 9 */
}

static void errors_named(void **state)
{
	struct ib_iolog l;
	struct ib_files fs;
	struct ib_file f[2];
	struct ib_job job;
	struct ib_diag d = { { 0 } };
	char bad[300];

	(void)state;
	two_files(&fs, f);
	job_for(&job, 3);
	snprintf(bad, sizeof(bad), "%s/no/such/dir/log", dir);
	job.logs.iolog = bad;
	assert_int_equal(ib_iolog_open(&l, &job, &fs, &d), -ENOENT);
	assert_non_null(strstr(d.msg, "write_iolog: cannot create "));
	assert_non_null(strstr(d.msg, "/no/such/dir/log: No such file or directory"));
	assert_null(l.buf);
	/* no write_iolog: no log, nothing written, close is 0 */
	job.logs.iolog = "";
	assert_int_equal(ib_iolog_open(&l, &job, &fs, &d), 0);
	assert_null(l.buf);
	ib_iolog_io(&l, &f[0], IB_DDIR_READ, 0, 4096, 0);
	assert_int_equal(ib_iolog_close(&l, &fs, &d), 0);
	/* a write error is kept and reported at close */
	job.logs.iolog = "/dev/full";
	job.logs.iolog_version = 2;
	assert_int_equal(ib_iolog_open(&l, &job, &fs, &d), 0);
	assert_int_equal(ib_iolog_close(&l, &fs, &d), -ENOSPC);
	assert_string_equal(d.msg, "write_iolog: /dev/full: No space left on device");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v2_exact),
		cmocka_unit_test(v3_times),
		cmocka_unit_test(limited_lines),
		cmocka_unit_test(many_lines),
		cmocka_unit_test(clone_name),
		cmocka_unit_test(errors_named),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
