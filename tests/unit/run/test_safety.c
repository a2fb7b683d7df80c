// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data safety on a fake system: a sysfs tree (partitions, holders), a
 * mountinfo and a swaps file built in a /dev/shm directory, so every
 * relation (the device, its partition, a device stacked on it) is covered
 * even on a kernel without partitions or device-mapper. Signatures are
 * probed with the real libblkid on crafted image files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job.h"
#include "iobench/job_setup.h"
#include "iobench/plan.h"
#include "iobench/safety.h"

#define LOOP3 makedev(7, 3)

struct fake {
	char root[128];
	char mountinfo[192];
	char swaps[192];
	char sys[192];
	char image[192];	/* a blank 1 MiB regular file, the "device" */
	struct ib_safety_env env;
	struct ib_job job;
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirf(const char *fmt, const char *a, const char *b)
{
	char p[512];

	snprintf(p, sizeof(p), fmt, a, b);
	assert_int_equal(mkdir(p, 0755), 0);
}

/* A device directory "<parent>/<name>" with a dev file and a holders/ dir. */
static void fake_dev(const char *parent, const char *name, const char *devno,
		     bool partition)
{
	char p[512];

	mkdirf("%s/%s", parent, name);
	mkdirf("%s/%s/holders", parent, name);
	snprintf(p, sizeof(p), "%s/%s/dev", parent, name);
	write_file(p, devno);
	if (partition) {
		snprintf(p, sizeof(p), "%s/%s/partition", parent, name);
		write_file(p, "1\n");
	}
}

static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	int fd;

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/dev/shm/iobench-safety-%d", (int)getpid());
	assert_int_equal(mkdir(f->root, 0755), 0);
	snprintf(f->mountinfo, sizeof(f->mountinfo), "%s/mountinfo", f->root);
	snprintf(f->swaps, sizeof(f->swaps), "%s/swaps", f->root);
	snprintf(f->sys, sizeof(f->sys), "%s/sys", f->root);
	snprintf(f->image, sizeof(f->image), "%s/disk.img", f->root);
	assert_int_equal(mkdir(f->sys, 0755), 0);
	fake_dev(f->sys, "7:3", "7:3\n", false);
	write_file(f->mountinfo,
		   "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		   "23 22 0:21 / /proc rw - proc proc rw\n");
	write_file(f->swaps, "Filename\tType\tSize\tUsed\tPriority\n");
	fd = open(f->image, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	close(fd);
	f->env.mountinfo = f->mountinfo;
	f->env.swaps = f->swaps;
	f->env.sysfs_dev = f->sys;
	f->env.exclusive_open = false;
	ib_job_defaults(&f->job);
	f->job.name = "x";
	f->job.rw = IB_RW_WRITE;
	*state = f;
	return 0;
}

static void rm_tree(const char *path)
{
	char p[1024];
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (lstat(path, &st) || !S_ISDIR(st.st_mode) || !(d = opendir(path))) {
		unlink(path);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		rm_tree(p);
	}
	closedir(d);
	rmdir(path);
}

static int teardown(void **state)
{
	struct fake *f = *state;

	rm_tree(f->root);
	free(f);
	return 0;
}

static int check(struct fake *f, struct ib_diag *d)
{
	d->msg[0] = '\0';
	return ib_safety_check_bdev(&f->env, &f->job, f->image, LOOP3, d);
}

static void add_mount(struct fake *f, const char *devno, const char *mnt,
		      const char *type)
{
	FILE *fp = fopen(f->mountinfo, "a");

	assert_non_null(fp);
	fprintf(fp, "40 22 %s / %s rw,relatime shared:7 master:2 - %s /dev/x rw\n",
		devno, mnt, type);
	fclose(fp);
}

/* ---- parsing --------------------------------------------------------------- */

static void test_parse_mountinfo(void **state)
{
	struct ib_mount_entry m;

	(void)state;
	assert_int_equal(ib_safety_parse_mountinfo(
		"36 35 98:7 /a /mnt/my\\040disk rw,noatime shared:1 master:2 - xfs /dev/my\\040sdb rw\n",
		&m), 0);
	assert_int_equal(major(m.dev), 98);
	assert_int_equal(minor(m.dev), 7);
	assert_string_equal(m.mnt, "/mnt/my disk");
	assert_string_equal(m.fstype, "xfs");
	assert_string_equal(m.source, "/dev/my sdb");
	/* no optional fields at all */
	assert_int_equal(ib_safety_parse_mountinfo(
		"1 0 259:65536 / / rw - ext4 /dev/nvme0n1p1 rw", &m), 0);
	assert_int_equal(major(m.dev), 259);
	assert_int_equal(minor(m.dev), 65536);
	assert_string_equal(m.fstype, "ext4");
	assert_string_equal(m.source, "/dev/nvme0n1p1");
	/* malformed: no device number, no separator, nothing after it, empty */
	assert_int_equal(ib_safety_parse_mountinfo("1 0 x / / rw - ext4 a b", &m),
			 -EINVAL);
	assert_int_equal(ib_safety_parse_mountinfo("1 0 8:1 / / rw ext4 a b", &m),
			 -EINVAL);
	assert_int_equal(ib_safety_parse_mountinfo("1 0 8:1 / / rw - ext4", &m),
			 -EINVAL);
	assert_int_equal(ib_safety_parse_mountinfo("", &m), -EINVAL);
}

static void test_unescape(void **state)
{
	char out[16];

	(void)state;
	ib_safety_unescape(out, sizeof(out), "a\\040b\\011c\\134");
	assert_string_equal(out, "a b\tc\\");
	ib_safety_unescape(out, sizeof(out), "\\9xy\\04");
	assert_string_equal(out, "\\9xy\\04");	/* not octal: kept */
	ib_safety_unescape(out, 4, "abcdef");
	assert_string_equal(out, "abc");	/* truncated, terminated */
}

/* ---- the checks -------------------------------------------------------------- */

static void test_blank_device_goes(void **state)
{
	struct fake *f = *state;
	struct ib_diag d;

	assert_int_equal(check(f, &d), 0);
	assert_string_equal(d.msg, "");
}

static void test_mounted_itself(void **state)
{
	struct fake *f = *state;
	struct ib_diag d;
	char want[512];

	add_mount(f, "7:3", "/mnt/t", "ext4");
	assert_int_equal(check(f, &d), -EBUSY);
	snprintf(want, sizeof(want),
		 "job 'x': %s is mounted on /mnt/t (ext4); refusing to write. Use --allow_mounted_write=1 to override.",
		 f->image);
	assert_string_equal(d.msg, want);
	/* allow_data_loss does not override a mount: one flag per reason */
	f->job.allow_data_loss = true;
	assert_int_equal(check(f, &d), -EBUSY);
	f->job.allow_data_loss = false;
	f->job.allow_mounted_write = true;
	assert_int_equal(check(f, &d), 0);
}

static void test_mounted_partition(void **state)
{
	struct fake *f = *state;
	char dir[256];
	struct ib_diag d;

	snprintf(dir, sizeof(dir), "%s/7:3", f->sys);
	fake_dev(dir, "loop3p1", "259:0\n", true);
	fake_dev(dir, "loop3p2", "259:1\n", true);
	assert_int_equal(check(f, &d), 0);
	add_mount(f, "259:1", "/srv/data", "xfs");
	assert_int_equal(check(f, &d), -EBUSY);
	assert_non_null(strstr(d.msg, " has partition loop3p2 mounted on /srv/data (xfs); "));
	assert_non_null(strstr(d.msg, "Use --allow_mounted_write=1 to override."));
}

static void test_mounted_stacked(void **state)
{
	struct fake *f = *state;
	char dir[256];
	struct ib_diag d;

	/* md0 on loop3p1, dm-0 on md0, dm-0 mounted */
	snprintf(dir, sizeof(dir), "%s/7:3", f->sys);
	fake_dev(dir, "loop3p1", "259:0\n", true);
	snprintf(dir, sizeof(dir), "%s/7:3/loop3p1/holders", f->sys);
	fake_dev(dir, "md0", "9:0\n", false);
	snprintf(dir, sizeof(dir), "%s/7:3/loop3p1/holders/md0/holders", f->sys);
	fake_dev(dir, "dm-0", "253:0\n", false);
	add_mount(f, "253:0", "/home", "ext4");
	assert_int_equal(check(f, &d), -EBUSY);
	assert_non_null(strstr(d.msg, " has dm-0 stacked on it, mounted on /home (ext4); "));
	/* allowed mount: the holder is still reported, naming the other flag */
	f->job.allow_mounted_write = true;
	assert_int_equal(check(f, &d), -EBUSY);
	assert_non_null(strstr(d.msg, " has partition loop3p1 held by md0 "));
	assert_non_null(strstr(d.msg, "Use --allow_data_loss=1 to override."));
	f->job.allow_data_loss = true;
	assert_int_equal(check(f, &d), 0);
}

static void test_holders(void **state)
{
	struct fake *f = *state;
	char dir[256], want[512];
	struct ib_diag d;

	snprintf(dir, sizeof(dir), "%s/7:3/holders", f->sys);
	fake_dev(dir, "dm-4", "253:4\n", false);
	assert_int_equal(check(f, &d), -EBUSY);
	snprintf(want, sizeof(want),
		 "job 'x': %s is held by dm-4 (device-mapper, LVM, RAID or similar); refusing to write. Use --allow_data_loss=1 to override.",
		 f->image);
	assert_string_equal(d.msg, want);
	f->job.allow_mounted_write = true;
	assert_int_equal(check(f, &d), -EBUSY);
	f->job.allow_data_loss = true;
	assert_int_equal(check(f, &d), 0);
}

/* A holder loop (a broken sysfs) ends: every device is visited once. */
static void test_holder_cycle(void **state)
{
	struct fake *f = *state;
	char dir[256], link[256];
	struct ib_diag d;

	snprintf(dir, sizeof(dir), "%s/7:3/holders", f->sys);
	fake_dev(dir, "dm-1", "253:1\n", false);
	snprintf(dir, sizeof(dir), "%s/7:3", f->sys);
	snprintf(link, sizeof(link), "%s/7:3/holders/dm-1/holders/loop3", f->sys);
	assert_int_equal(symlink(dir, link), 0);
	assert_int_equal(check(f, &d), -EBUSY);
	assert_non_null(strstr(d.msg, " is held by dm-1 "));
}

/*
 * A block device node that stands for a disk nothing uses: made in the
 * fake root (root only), numbered 7:250, which no real device here needs
 * to have; else an existing disk of the machine. The machine's own disk
 * (vda, the root file system) would be found mounted before anything else
 * is checked, and a suite that made and removed loop devices may leave no
 * /dev/loop0: so the made node first.
 */
static bool find_block_device(const struct fake *f, char *path, size_t len,
			      dev_t *rdev)
{
	/* any loop device node: the integration tests delete some (test_dataopts:
	 * LOOP_CTL_REMOVE) while these tests may run; never 254:0, the fake
	 * mountinfo's root (setup) */
	static const char *const cand[] = { "/dev/loop0", "/dev/loop1",
		"/dev/loop2", "/dev/loop3", "/dev/loop4", "/dev/loop5", "/dev/loop6",
		"/dev/loop7", "/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/xvda",
		NULL };
	struct stat st;
	unsigned int i;

	snprintf(path, len, "%s/bdev", f->root);
	if (!mknod(path, S_IFBLK | 0600, makedev(7, 250)) || errno == EEXIST) {
		if (!stat(path, &st) && S_ISBLK(st.st_mode)) {
			*rdev = st.st_rdev;
			return true;
		}
	}
	for (i = 0; cand[i]; i++) {
		if (!stat(cand[i], &st) && S_ISBLK(st.st_mode) &&
		    st.st_rdev != makedev(254, 0)) {
			snprintf(path, len, "%s", cand[i]);
			*rdev = st.st_rdev;
			return true;
		}
	}
	return false;
}

static void test_swap(void **state)
{
	struct fake *f = *state;
	char bdev[160], line[512], devno[32], dir[256];
	struct ib_diag d;
	dev_t rdev;

	/* /proc/swaps names paths: a block device node stands in for it */
	if (!find_block_device(f, bdev, sizeof(bdev), &rdev))
		skip();
	snprintf(dir, sizeof(dir), "%s/7:3", f->sys);
	snprintf(devno, sizeof(devno), "%u:%u\n", major(rdev), minor(rdev));
	fake_dev(dir, "loop3p2", devno, true);
	snprintf(line, sizeof(line),
		 "Filename\tType\tSize\tUsed\tPriority\n%s  partition\t1024\t0\t-2\n",
		 bdev);
	write_file(f->swaps, line);
	assert_int_equal(check(f, &d), -EBUSY);
	snprintf(line, sizeof(line), " has partition loop3p2 active swap (%s); ", bdev);
	assert_non_null(strstr(d.msg, line));
	assert_non_null(strstr(d.msg, "Use --allow_data_loss=1 to override."));
	f->job.allow_data_loss = true;
	assert_int_equal(check(f, &d), 0);
}

/* btrfs reports an anonymous 0:N in mountinfo: the source names the disk */
static void test_mounted_anonymous_dev(void **state)
{
	struct fake *f = *state;
	char bdev[160], devno[32], path[512];
	struct ib_diag d;
	dev_t rdev;

	if (!find_block_device(f, bdev, sizeof(bdev), &rdev))
		skip();
	snprintf(path, sizeof(path), "%s/7:3/dev", f->sys);
	snprintf(devno, sizeof(devno), "%u:%u\n", major(rdev), minor(rdev));
	write_file(path, devno);
	add_mount(f, "0:45", "/srv/pool", "btrfs");	/* source /dev/x: no match */
	assert_int_equal(check(f, &d), 0);
	snprintf(path, sizeof(path),
		 "41 22 0:46 / /mnt/b rw,relatime shared:9 - btrfs %s rw\n", bdev);
	write_file(f->mountinfo, path);
	assert_int_equal(check(f, &d), -EBUSY);
	assert_non_null(strstr(d.msg, " is mounted on /mnt/b (btrfs); "));
}

/* ---- signatures ------------------------------------------------------------ */

static void put_bytes(const char *path, off_t off, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, buf, len, off), (ssize_t)len);
	close(fd);
}

/* An MBR with one Linux partition from sector 2048, 1024 sectors long. */
static void write_mbr(const char *path)
{
	unsigned char mbr[512] = { 0 };
	uint32_t start = 2048, count = 1024;

	mbr[440] = 0x12; mbr[441] = 0x34; /* disk id */
	mbr[446 + 4] = 0x83;
	memcpy(&mbr[446 + 8], &start, 4);
	memcpy(&mbr[446 + 12], &count, 4);
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	put_bytes(path, 0, mbr, sizeof(mbr));
}

static void test_signature_partition_table(void **state)
{
	struct fake *f = *state;
	struct ib_diag d;
	char what[128];

	assert_int_equal(ib_safety_probe_signature(f->image, what, sizeof(what)), 0);
	write_mbr(f->image);
	assert_int_equal(ib_safety_probe_signature(f->image, what, sizeof(what)), 1);
	assert_string_equal(what, "a partition table (dos)");
	assert_int_equal(check(f, &d), -EEXIST);
	assert_non_null(strstr(d.msg, " carries a partition table (dos); refusing to write. Use --allow_data_loss=1 to override."));
	/* allow_mounted_write is about mounts: it does not cover this */
	f->job.allow_mounted_write = true;
	assert_int_equal(check(f, &d), -EEXIST);
	f->job.allow_data_loss = true;
	assert_int_equal(check(f, &d), 0);
}

/* A swap area: "SWAPSPACE2" at the end of the first 4 KiB page, version 1. */
static void test_signature_swap(void **state)
{
	struct fake *f = *state;
	uint32_t hdr[3] = { 1, 255, 0 }; /* version, last_page, nr_badpages */
	char what[128];

	put_bytes(f->image, 1024, hdr, sizeof(hdr));
	put_bytes(f->image, 4096 - 10, "SWAPSPACE2", 10);
	assert_int_equal(ib_safety_probe_signature(f->image, what, sizeof(what)), 1);
	assert_string_equal(what, "a signature (swap)");
}

static void test_signature_unreadable(void **state)
{
	struct fake *f = *state;
	struct ib_diag d;
	char what[128], missing[256];

	snprintf(missing, sizeof(missing), "%s/none", f->root);
	assert_int_equal(ib_safety_probe_signature(missing, what, sizeof(what)), -ENOENT);
	d.msg[0] = '\0';
	assert_int_equal(ib_safety_check_bdev(&f->env, &f->job, missing, LOOP3, &d),
			 -ENOENT);
	assert_non_null(strstr(d.msg, " cannot be probed for signatures (No such file or directory)"));
}

static void test_output_onto_device(void **state)
{
	struct fake *f = *state;
	char bdev[160], want[512];
	struct ib_diag d;
	dev_t rdev;

	d.msg[0] = '\0';
	assert_int_equal(ib_safety_check_output("--output", f->image, &d), 0);
	assert_int_equal(ib_safety_check_output("--output", "/nonexistent/x", &d), 0);
	assert_int_equal(ib_safety_check_output("--output", "", &d), 0);
	assert_string_equal(d.msg, "");
	if (!find_block_device(f, bdev, sizeof(bdev), &rdev))
		skip();
	assert_int_equal(ib_safety_check_output("--output", bdev, &d), -EPERM);
	snprintf(want, sizeof(want),
		 "--output: %s is a block device; refusing to write a report or log onto it",
		 bdev);
	assert_string_equal(d.msg, want);
}

/* ---- the runner's entry point ---------------------------------------------- */

static void test_entry_skips_files_and_readers(void **state)
{
	struct fake *f = *state;
	char path[PATH_MAX];
	struct ib_file file = { .path = path, .fd = -1 };
	struct ib_files fs = { .f = &file, .nr = 1 };
	struct ib_plan run;
	struct ib_diag d;

	/* a regular file carrying a partition table is still just a file */
	write_mbr(f->image);
	ib_plan_init(&run);
	snprintf(path, sizeof(path), "%s", f->image);
	assert_int_equal(ib_safety_check(&run, &f->job, &fs, NULL, &d), 0);
	/* a path that does not exist yet will be created: nothing to refuse */
	snprintf(path, sizeof(path), "%s/new", f->root);
	assert_int_equal(ib_safety_check(&run, &f->job, &fs, NULL, &d), 0);
	f->job.rw = IB_RW_READ | IB_RW_RAND;
	snprintf(path, sizeof(path), "/dev/null");
	assert_int_equal(ib_safety_check(&run, &f->job, &fs, NULL, &d), 0);
	ib_plan_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_mountinfo),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test_setup_teardown(test_blank_device_goes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mounted_itself, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mounted_partition, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mounted_stacked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_holders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_holder_cycle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mounted_anonymous_dev, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signature_partition_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signature_swap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signature_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_onto_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_entry_skips_files_and_readers, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
