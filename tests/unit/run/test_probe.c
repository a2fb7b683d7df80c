// SPDX-License-Identifier: GPL-2.0-only
/* The evidence probes (probe.h) on fake sysfs/procfs trees, buffers and
 * temp files. */
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
#include <sys/vfs.h>
#include <unistd.h>
#include <cmocka.h>
#include "src/run/probe.h"

#define TMPFS_MAGIC 0x01021994

static char root[] = "/tmp/ib_probe_XXXXXX";

static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	sh("mkdir -p \"$(dirname '%s')\"", p);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf %s", root);
	return 0;
}

static void test_disk_stat(void **state)
{
	struct ib_disk_stat a, b, d;

	(void)state;
	put("block/sdq/stat", "100 5 800 40 200 6 1600 70 0 90 110 0 0 0 0 3 1\n");
	assert_int_equal(ib_probe_disk_stat(root, "sdq", &a), 0);
	put("block/sdq/stat", "164 5 1312 50 201 9 1608 75 1 95 120 0 0 0 0 3 1\n");
	assert_int_equal(ib_probe_disk_stat(root, "sdq", &b), 0);
	ib_probe_disk_delta(&a, &b, &d);
	assert_int_equal(d.ios[0], 64);
	assert_int_equal(d.sectors[0], 512);
	assert_int_equal(d.ios[1], 1);
	assert_int_equal(d.merges[1], 3);
	assert_int_equal(d.sectors[1], 8);
	assert_int_equal(d.ticks[0], 10);
	assert_int_equal(d.io_ticks, 5);
	assert_int_equal(d.time_in_queue, 10);
	assert_int_equal(ib_probe_disk_stat(root, "nodisk", &a), -ENOENT);
	put("block/bad/stat", "1 2 3\n");
	assert_int_equal(ib_probe_disk_stat(root, "bad", &a), -EINVAL);
}

static void test_zram(void **state)
{
	struct ib_probe_zram z;

	(void)state;
	put("block/zram5/mm_stat", "    65536     1200    12288        0    12288       16        0"
	    "        2        2\n");
	put("block/zram5/disksize", "1048576\n");
	assert_int_equal(ib_probe_zram(root, "zram5", &z), 0);
	assert_int_equal(z.disksize, 1048576);
	assert_int_equal(z.orig_data_size, 65536);
	assert_int_equal(z.compr_data_size, 1200);
	assert_int_equal(z.mem_used_total, 12288);
	assert_int_equal(z.same_pages, 16);
	assert_int_equal(z.huge_pages, 2);
	/* a 4.7 kernel's six fields; too few */
	assert_int_equal(ib_probe_parse_mm_stat("4096 10 8192 0 8192 1\n", &z), 0);
	assert_int_equal(z.same_pages, 1);
	assert_int_equal(z.huge_pages, 0);
	assert_int_equal(ib_probe_parse_mm_stat("1 2 3\n", &z), -EINVAL);
	assert_int_equal(ib_probe_zram(root, "zram6", &z), -ENOENT);
}

static void test_proc_stat(void **state)
{
	struct ib_probe_cpu a, b;

	(void)state;
	/* a command name with blanks and ')' in it */
	assert_int_equal(ib_probe_parse_proc_stat(
		"4242 (io bench) x) R 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 3 0 "
		"1000 0 0\n", 100, &a), 0);
	assert_int_equal(a.state, 'R');
	assert_int_equal(a.user_ns, 2500000000ULL);
	assert_int_equal(a.sys_ns, 500000000ULL);
	assert_int_equal(a.threads, 3);
	assert_int_equal(ib_probe_parse_proc_stat("4242 (x R 1", 100, &a), -EINVAL);
	assert_int_equal(ib_probe_parse_proc_stat("4242 (x) R 1 2\n", 100, &a), -EINVAL);

	put("proc/77/stat", "77 (iobench) S 1 77 77 0 -1 0 0 0 0 0 10 0 0 0 20 0 1 0 5 0 0\n");
	{
		char proc[PATH_MAX];

		snprintf(proc, sizeof(proc), "%s/proc", root);
		assert_int_equal(ib_probe_proc_cpu(proc, 77, &a), 0);
		assert_int_equal(a.state, 'S');
		assert_int_equal(a.user_ns, 10 * (1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK)));
		put("proc/77/stat", "77 (iobench) R 1 77 77 0 -1 0 0 0 0 0 90 20 0 0 20 0 1 0 5 0 0\n");
		assert_int_equal(ib_probe_proc_cpu(proc, 77, &b), 0);
		assert_int_equal(ib_probe_proc_cpu(proc, 78, &b), -ENOENT);
	}
	/* 100 ticks = 1 s of CPU over 1 s of wall time: one CPU busy */
	a.user_ns = 1000000000ULL;
	a.sys_ns = 0;
	b.user_ns = 1500000000ULL;
	b.sys_ns = 500000000ULL;
	assert_float_equal(ib_probe_cpu_percent(&a, &b, 1000000000ULL), 100.0, 1e-9);
	assert_float_equal(ib_probe_cpu_percent(&a, &b, 4000000000ULL), 25.0, 1e-9);
	assert_float_equal(ib_probe_cpu_percent(&a, &b, 0), 0.0, 0.0);
	assert_float_equal(ib_probe_cpu_percent(&b, &a, 1000000000ULL), 0.0, 0.0);
	/* the real process: a live probe of ourselves */
	assert_int_equal(ib_probe_proc_cpu(NULL, getpid(), &a), 0);
	assert_int_equal(a.state, 'R');
	assert_int_equal(a.threads, 1);
}

static void test_compress(void **state)
{
	unsigned char *buf = calloc(4, 4096);
	unsigned int seed = 7, i;

	(void)state;
	assert_float_equal(ib_probe_compress_ratio(buf, 0), 1.0, 0.0);
	memset(buf, 0, 4 * 4096);
	assert_true(ib_probe_compress_ratio(buf, 4 * 4096) < 0.02);
	for (i = 0; i < 4 * 4096; i++)
		buf[i] = (unsigned char)(rand_r(&seed) >> 7);
	/* random data does not compress: stored as it is */
	assert_float_equal(ib_probe_compress_ratio(buf, 4 * 4096), 1.0, 0.0);
	assert_float_equal(ib_probe_compress_ratio(buf, 100), 1.0, 0.0);
	/* the 256 byte values in turn: 8 bits/byte of entropy, yet nothing to store */
	for (i = 0; i < 4 * 4096; i++)
		buf[i] = (unsigned char)i;
	assert_true(ib_probe_compress_ratio(buf, 4 * 4096) < 0.1);
	/* buffer_compress_percentage=50: half of each block zeroes */
	for (i = 0; i < 4 * 4096; i++)
		buf[i] = (i % 4096) < 2048 ? (unsigned char)(rand_r(&seed) >> 7) : 0;
	assert_true(ib_probe_compress_ratio(buf, 4 * 4096) > 0.49);
	assert_true(ib_probe_compress_ratio(buf, 4 * 4096) < 0.52);
	free(buf);
}

static int on_tmpfs(const char *path)
{
	struct statfs s;

	return statfs(path, &s) == 0 && s.f_type == TMPFS_MAGIC;
}

/* Under valgrind every file mmap makes it read the file's head (its
 * debuginfo reader looks for an ELF header), and readahead brings pages
 * in: the probe's own mapping then finds them resident. */
static int under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "vgpreload");
}

static void test_resident(void **state)
{
	struct ib_probe_resident r;
	struct ib_diag d = { "" };
	char file[PATH_MAX], buf[4096];
	int fd, i;

	(void)state;
	snprintf(file, sizeof(file), "%s/cached", root);
	fd = open(file, O_CREAT | O_RDWR | O_TRUNC, 0600);
	assert_true(fd >= 0);
	memset(buf, 'a', sizeof(buf));
	for (i = 0; i < 5; i++)
		assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(write(fd, buf, 100), 100);
	assert_int_equal(ib_probe_resident(file, 0, 0, &r, &d), 0);
	assert_int_equal(r.page_size, (uint64_t)sysconf(_SC_PAGESIZE));
	assert_int_equal(r.pages, 6);
	assert_int_equal(r.resident, 6);
	/* widened to whole pages: [4097, 8193) touches pages 1 and 2 */
	assert_int_equal(ib_probe_resident(file, 4097, 4096, &r, &d), 0);
	assert_int_equal(r.pages, 2);
	assert_int_equal(r.resident, 2);
	/* past the end: nothing */
	assert_int_equal(ib_probe_resident(file, 1 << 20, 0, &r, &d), 0);
	assert_int_equal(r.pages, 0);
	if (!on_tmpfs(file) && !under_valgrind()) {	/* tmpfs pages cannot be dropped */
		assert_int_equal(fsync(fd), 0);
		assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
		assert_int_equal(ib_probe_resident(file, 0, 0, &r, &d), 0);
		assert_int_equal(r.pages, 6);
		assert_int_equal(r.resident, 0);
	}
	close(fd);
	snprintf(file, sizeof(file), "%s/none", root);
	assert_int_equal(ib_probe_resident(file, 0, 0, &r, &d), -ENOENT);
	assert_non_null(strstr(d.msg, "/none: open: "));
}

static void test_allocated(void **state)
{
	struct ib_probe_alloc a;
	struct ib_diag d = { "" };
	char file[PATH_MAX], buf[8192], link[PATH_MAX + 64];
	int fd;

	(void)state;
	snprintf(file, sizeof(file), "%s/sparse", root);
	fd = open(file, O_CREAT | O_RDWR | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	assert_int_equal(ib_probe_allocated(file, 0, 0, &a, &d), 0);
	assert_int_equal(a.size, 1 << 20);
	assert_int_equal(a.data, 0);
	assert_int_equal(a.blocks, 0);
	memset(buf, 'b', sizeof(buf));
	assert_int_equal(pwrite(fd, buf, sizeof(buf), 65536), sizeof(buf));
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(ib_probe_allocated(file, 0, 0, &a, &d), 0);
	assert_int_equal(a.data, 8192);
	assert_int_equal(a.blocks, 8192);
	assert_int_equal(ib_probe_allocated(file, 0, 65536, &a, &d), 0);
	assert_int_equal(a.size, 65536);
	assert_int_equal(a.data, 0);
	assert_int_equal(ib_probe_allocated(file, 61440, 8192, &a, &d), 0);
	assert_int_equal(a.data, 4096);
	assert_int_equal(ib_probe_allocated(file, 69632, 0, &a, &d), 0);
	assert_int_equal(a.size, (1 << 20) - 69632);
	assert_int_equal(a.data, 4096);
	close(fd);

	/* a loop device over it at offset 60 KiB, asked through fake sysfs */
	snprintf(link, sizeof(link), "%s\n", file);
	put("block/loop9/loop/backing_file", link);
	put("block/loop9/loop/offset", "61440\n");
	put("block/loop9/size", "2048\n");	/* 1 MiB in 512-byte sectors */
	assert_int_equal(ib_probe_loop_allocated(root, "loop9", 0, 8192, &a, &d), 0);
	assert_int_equal(a.size, 8192);
	assert_int_equal(a.data, 4096);
	assert_int_equal(ib_probe_loop_allocated(root, "loop9", 4096, 0, &a, &d), 0);
	assert_int_equal(a.size, (1 << 20) - 61440 - 4096);	/* clamped to the file */
	assert_int_equal(a.data, 8192);
	assert_int_equal(ib_probe_loop_allocated(root, "loop8", 0, 0, &a, &d), -ENOENT);
	assert_string_equal(d.msg, "loop8: not a loop device");
}

static void test_accessors(void **state)
{
	struct ib_env_target *t = calloc(1, sizeof(*t));
	struct ib_env *e = calloc(1, sizeof(*e));

	(void)state;
	assert_int_equal(ib_probe_write_cache_on(t), -1);
	snprintf(t->write_cache, sizeof(t->write_cache), "write back");
	assert_int_equal(ib_probe_write_cache_on(t), 1);
	snprintf(t->write_cache, sizeof(t->write_cache), "write through");
	assert_int_equal(ib_probe_write_cache_on(t), 0);
	assert_int_equal(ib_probe_governor_performance(e), -1);
	snprintf(e->governor, sizeof(e->governor), "none");
	assert_int_equal(ib_probe_governor_performance(e), -1);
	snprintf(e->governor, sizeof(e->governor), "performance");
	assert_int_equal(ib_probe_governor_performance(e), 1);
	snprintf(e->governor, sizeof(e->governor), "mixed");
	assert_int_equal(ib_probe_governor_performance(e), 0);
	snprintf(e->governor, sizeof(e->governor), "schedutil");
	assert_int_equal(ib_probe_governor_performance(e), 0);
	free(t);
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disk_stat),
		cmocka_unit_test(test_zram),
		cmocka_unit_test(test_proc_stat),
		cmocka_unit_test(test_compress),
		cmocka_unit_test(test_resident),
		cmocka_unit_test(test_allocated),
		cmocka_unit_test(test_accessors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
