// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioscheduler= (iosched.c): the errors that name the option and the
 * target (no such file, not on a block device, a scheduler the device
 * does not list), and on a loop device its current scheduler set and
 * restored, which leaves the device as it was (the machine is shared: no
 * other scheduler is written).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>
#include "src/run/iosched.h"

static void no_such_target(void **state)
{
	struct ib_diag d = { { 0 } };

	(void)state;
	assert_int_equal(ib_iosched_check("/dev/null/iobench", "none", &d), -ENOTDIR);
	assert_string_equal(d.msg, "ioscheduler: /dev/null/iobench: Not a directory");
	/* a file not laid out yet: the file system of its nearest directory */
	d.msg[0] = '\0';
	assert_int_equal(ib_iosched_check("/dev/shm/iobench-none/x/y", "none", &d), -ENOTSUP);
	assert_string_equal(d.msg, "ioscheduler: /dev/shm/iobench-none/x/y is not on a block device with an I/O scheduler");
}

/* a tmpfs file has no block device under it */
static void not_block(void **state)
{
	char path[] = "/dev/shm/iobench-iosched-XXXXXX", want[256];
	struct ib_diag d = { { 0 } };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ib_iosched_check(path, "none", &d), -ENOTSUP);
	snprintf(want, sizeof(want),
		 "ioscheduler: %s is not on a block device with an I/O scheduler", path);
	assert_string_equal(d.msg, want);
	assert_int_equal(ib_iosched_set(path, "none", &d), -ENOTSUP);
	unlink(path);
}

/* A loop device with a scheduler file, and what it lists: or skip. */
static const char *loop_dev(char *list, size_t len, char *cur)
{
	static const char *const devs[] = { "/dev/loop0", "/dev/loop1", "/dev/loop3" };
	char path[128];
	struct stat st;

	for (unsigned int i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		FILE *f;
		char *b, *e;

		if (stat(devs[i], &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/scheduler",
			 major(st.st_rdev), minor(st.st_rdev));
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(list, (int)len, f))
			list[0] = '\0';
		fclose(f);
		list[strcspn(list, "\n")] = '\0';
		b = strchr(list, '[');
		e = b ? strchr(b, ']') : NULL;
		if (!e)
			continue;
		snprintf(cur, 32, "%.*s", (int)(e - b - 1), b + 1);
		return devs[i];
	}
	return NULL;
}

static void on_loop_device(void **state)
{
	char list[512], cur[32], after[512], want[700], aftercur[32];
	struct ib_diag d = { { 0 } };
	const char *dev = loop_dev(list, sizeof(list), cur);

	(void)state;
	if (!dev)
		skip();
	assert_int_equal(ib_iosched_check(dev, cur, &d), 0);
	assert_int_equal(ib_iosched_check(dev, "iobench-none", &d), -EINVAL);
	snprintf(want, sizeof(want), "ioscheduler=iobench-none: not available for %s (%s)",
		 dev, list);
	assert_string_equal(d.msg, want);
	if (geteuid() != 0)
		skip();
	assert_int_equal(ib_iosched_set(dev, cur, &d), 0);
	ib_iosched_restore();
	assert_ptr_equal(loop_dev(after, sizeof(after), aftercur), dev);
	assert_string_equal(aftercur, cur);
	assert_string_equal(after, list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_such_target),
		cmocka_unit_test(not_block),
		cmocka_unit_test(on_loop_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
