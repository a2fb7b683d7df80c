// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "iobench/disk.h"

static void test_parse_stat(void **state)
{
	struct ib_disk_stat st;

	(void)state;
	assert_int_equal(ib_disk_parse_stat(
		"  102032 0 816256 5858 34014 44 272112 1910 0 7000 7769 0 0 0 0 0 0\n", &st), 0);
	assert_int_equal(st.ios[0], 102032);
	assert_int_equal(st.ios[1], 34014);
	assert_int_equal(st.merges[1], 44);
	assert_int_equal(st.sectors[0], 816256);
	assert_int_equal(st.ticks[0], 5858);
	assert_int_equal(st.ticks[1], 1910);
	assert_int_equal(st.io_ticks, 7000);
	assert_int_equal(st.time_in_queue, 7769);
	assert_int_equal(ib_disk_parse_stat("1 2 3\n", &st), -EINVAL);
}

static void test_tmpfs_has_no_disk(void **state)
{
	char name[64];
	struct stat st;

	(void)state;
	if (stat("/dev/shm", &st) || major(st.st_dev) != 0)
		skip();
	assert_int_equal(ib_disk_resolve(NULL, "/dev/shm/none-such-file", name, sizeof(name)),
			 -ENODEV);
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char p[PATH_MAX + 128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A fake sysfs: the test file's device is partition sdx1 of disk sdx */
static void test_fake_sysfs_partition(void **state)
{
	char root[] = "/tmp/ib_sysfs_XXXXXX", p[PATH_MAX + 256], name[64], file[PATH_MAX + 64];
	const char *paths[2];
	struct ib_disk_set *set = calloc(1, sizeof(*set));
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(file, sizeof(file), "%s/target", root);
	write_file(root, "target", "x");
	assert_int_equal(stat(file, &st), 0);
	snprintf(p, sizeof(p), "mkdir -p %s/dev/block %s/devices/pci/block/sdx/sdx1 "
		 "%s/block/sdx/slaves && ln -s ../../devices/pci/block/sdx/sdx1 %s/dev/block/%u:%u",
		 root, root, root, root, major(st.st_dev), minor(st.st_dev));
	assert_int_equal(system(p), 0);
	write_file(root, "devices/pci/block/sdx/sdx1/partition", "1\n");
	write_file(root, "block/sdx/stat", "10 1 80 5 20 2 160 7 0 100 12 0 0 0 0\n");
	assert_int_equal(ib_disk_resolve(root, file, name, sizeof(name)), 0);
	assert_string_equal(name, "sdx");

	set->sysfs = root;
	paths[0] = file;
	paths[1] = file;	/* duplicates collapse */
	assert_int_equal(ib_disk_setup(set, paths, 2, NULL), 0);
	assert_int_equal(set->nr, 1);
	ib_disk_start(set);
	usleep(20000);
	write_file(root, "block/sdx/stat", "15 1 120 9 30 4 240 10 0 99999999 20 0 0 0 0\n");
	ib_disk_stop(set);
	assert_string_equal(set->util[0].name, "sdx");
	assert_int_equal(set->util[0].ios[0], 5);
	assert_int_equal(set->util[0].ios[1], 10);
	assert_int_equal(set->util[0].merges[1], 2);
	assert_int_equal(set->util[0].ticks[0], 4);
	assert_int_equal(set->util[0].ticks[1], 3);
	assert_int_equal(set->util[0].in_queue, 8);
	assert_float_equal(set->util[0].util, 100.0, 0.0);	/* capped */
	snprintf(p, sizeof(p), "rm -rf %s", root);
	assert_int_equal(system(p), 0);
	free(set);
}

/* md0 over sda and sdb: averages of the slaves and the max slave util */
static void test_fake_sysfs_slaves(void **state)
{
	char root[] = "/tmp/ib_sysfs_XXXXXX", p[PATH_MAX + 512], file[PATH_MAX + 64];
	struct ib_disk_set *set = calloc(1, sizeof(*set));
	const char *paths[1];
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(file, sizeof(file), "%s/target", root);
	write_file(root, "target", "x");
	assert_int_equal(stat(file, &st), 0);
	snprintf(p, sizeof(p), "mkdir -p %s/dev/block %s/devices/virtual/block/md0 "
		 "%s/block/md0/slaves/sda %s/block/md0/slaves/sdb %s/block/sda %s/block/sdb && "
		 "ln -s ../../devices/virtual/block/md0 %s/dev/block/%u:%u", root, root, root,
		 root, root, root, root, major(st.st_dev), minor(st.st_dev));
	assert_int_equal(system(p), 0);
	write_file(root, "block/md0/stat", "0 0 0 0 0 0 0 0 0 0 0\n");
	write_file(root, "block/sda/stat", "0 0 0 0 0 0 0 0 0 0 0\n");
	write_file(root, "block/sdb/stat", "0 0 0 0 0 0 0 0 0 0 0\n");
	set->sysfs = root;
	paths[0] = file;
	assert_int_equal(ib_disk_setup(set, paths, 1, NULL), 0);
	assert_int_equal(set->nr, 1);
	assert_int_equal(set->one[0].nr_slaves, 2);
	ib_disk_start(set);
	usleep(20000);
	write_file(root, "block/md0/stat", "20 0 0 4 10 0 0 2 0 5 6\n");
	write_file(root, "block/sda/stat", "10 2 0 4 4 0 0 2 0 1 6\n");
	write_file(root, "block/sdb/stat", "12 0 0 6 6 0 0 2 0 999999 8\n");
	ib_disk_stop(set);
	assert_string_equal(set->util[0].name, "md0");
	assert_int_equal(set->util[0].ios[0], 20);
	assert_int_equal(set->util[0].nr_slaves, 2);
	assert_int_equal(set->util[0].aggr_ios[0], 11);
	assert_int_equal(set->util[0].aggr_ios[1], 5);
	assert_int_equal(set->util[0].aggr_merges[0], 1);
	assert_int_equal(set->util[0].aggr_ticks[0], 5);
	assert_int_equal(set->util[0].aggr_in_queue, 7);
	assert_float_equal(set->util[0].aggr_util, 100.0, 0.0);
	assert_string_equal(set->util[0].slave[1].name, "sdb");
	assert_int_equal(set->util[0].slave[1].ios[0], 12);
	assert_int_equal(set->util[0].slave[0].ios[0], 10);
	snprintf(p, sizeof(p), "rm -rf %s", root);
	assert_int_equal(system(p), 0);
	free(set);
}

/* A real loop device maps to itself and shows up in the disk set */
static void test_loop_device(void **state)
{
	char img[] = "/tmp/ib_loop_XXXXXX", cmd[256], dev[64] = "", name[64];
	const char *paths[1];
	struct ib_disk_set *set;
	FILE *p;
	int fd;

	(void)state;
	if (geteuid() != 0 || system("command -v losetup >/dev/null 2>&1"))
		skip();
	fd = mkstemp(img);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 8 << 20), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>/dev/null", img);
	p = popen(cmd, "r");
	if (!p || !fgets(dev, sizeof(dev), p) || dev[0] != '/') {
		if (p)
			pclose(p);
		unlink(img);
		skip();
	}
	pclose(p);
	dev[strcspn(dev, "\n")] = '\0';
	assert_int_equal(ib_disk_resolve(NULL, dev, name, sizeof(name)), 0);
	assert_string_equal(name, strrchr(dev, '/') + 1);
	set = calloc(1, sizeof(*set));
	paths[0] = dev;
	assert_int_equal(ib_disk_setup(set, paths, 1, NULL), 0);
	assert_int_equal(set->nr, 1);
	ib_disk_start(set);
	fd = open(dev, O_RDONLY | O_DIRECT);
	if (fd >= 0) {
		void *buf = NULL;

		assert_int_equal(posix_memalign(&buf, 4096, 4096), 0);
		assert_int_equal(pread(fd, buf, 4096, 0), 4096);
		free(buf);
		close(fd);
	}
	ib_disk_stop(set);
	assert_true(set->util[0].ios[0] >= 1);
	snprintf(cmd, sizeof(cmd), "losetup -d %s", dev);
	assert_int_equal(system(cmd), 0);
	unlink(img);
	free(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_tmpfs_has_no_disk),
		cmocka_unit_test(test_fake_sysfs_partition),
		cmocka_unit_test(test_fake_sysfs_slaves),
		cmocka_unit_test(test_loop_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
