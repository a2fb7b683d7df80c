// SPDX-License-Identifier: GPL-2.0-only
/*
 * exec_prerun= / exec_postrun= (exec.c): the command's output in
 * JOB.MODE.txt in the current directory, its exit status as the result,
 * and with to_stderr the output before the last command on stderr.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/exec.h"

static char dir[] = "/dev/shm/iobench-exec-XXXXXX";
static char old_cwd[4096];

static int group_setup(void **state)
{
	(void)state;
	assert_non_null(getcwd(old_cwd, sizeof(old_cwd)));
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	unlink("j.prerun.txt");
	unlink("j.postrun.txt");
	unlink("stderr.txt");
	assert_int_equal(chdir(old_cwd), 0);
	rmdir(dir);
	return 0;
}

static void file_is(const char *path, const char *want)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf, want);
}

static void output_in_file(void **state)
{
	(void)state;
	assert_true(ib_exec_job_cmd("j", "echo hi", "prerun", false));
	file_is("j.prerun.txt", "hi\n");
	/* the file is new each time, stderr in it too */
	assert_true(ib_exec_job_cmd("j", "echo a >&2", "prerun", false));
	file_is("j.prerun.txt", "a\n");
}

static void status_is_result(void **state)
{
	(void)state;
	assert_false(ib_exec_job_cmd("j", "echo out; exit 3", "postrun", false));
	/* the redirection is the last simple command's, as in fio */
	file_is("j.postrun.txt", "");
	assert_false(ib_exec_job_cmd("j", "false", "postrun", false));
	assert_true(ib_exec_job_cmd("j", "true", "postrun", false));
	file_is("j.postrun.txt", "");
}

/* to_stderr: what the redirection does not catch goes to stderr, not stdout */
static void to_stderr(void **state)
{
	int saved = dup(STDERR_FILENO), fd;

	(void)state;
	fd = open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	close(fd);
	assert_true(ib_exec_job_cmd("j", "echo x; echo y", "prerun", true));
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	file_is("j.prerun.txt", "y\n");
	file_is("stderr.txt", "x\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(output_in_file),
		cmocka_unit_test(status_is_result),
		cmocka_unit_test(to_stderr),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
