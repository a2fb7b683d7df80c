// SPDX-License-Identifier: GPL-2.0-only
/* The environment capture (env.h) on fake /sys and /proc trees. */
#include <errno.h>
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
#include <sys/utsname.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/env.h"
#include "iobench/env_out.h"
#include "iobench/json.h"

struct tree {
	char root[64];		/* the temp dir: sys/, proc/, the target files */
	char sys[96], proc[96];
	struct ib_env_roots roots;
};

static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

/* Write text to <root>/<rel>, making the directories */
static void put(const struct tree *t, const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", t->root, rel);
	sh("mkdir -p \"$(dirname '%s')\"", p);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct tree *tree_new(void)
{
	struct tree *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	snprintf(t->root, sizeof(t->root), "/tmp/ib_env_XXXXXX");
	assert_non_null(mkdtemp(t->root));
	snprintf(t->sys, sizeof(t->sys), "%s/sys", t->root);
	snprintf(t->proc, sizeof(t->proc), "%s/proc", t->root);
	sh("mkdir -p %s %s", t->sys, t->proc);
	t->roots.sysfs = t->sys;
	t->roots.procfs = t->proc;
	return t;
}

static void tree_free(struct tree *t)
{
	sh("rm -rf %s", t->root);
	free(t);
}

static void host_tree(struct tree *t)
{
	put(t, "proc/sys/kernel/hostname", "bench-7\n");
	put(t, "proc/sys/kernel/osrelease", "6.1.0-test\n");
	put(t, "proc/sys/kernel/version", "#1 SMP Debian 6.1.99\n");
	put(t, "proc/cpuinfo", "processor\t: 0\ncpu family\t: 25\n"
	    "model name\t: Fake CPU 9000   \nflags\t\t: fpu hypervisor_x sse\n\n"
	    "processor\t: 1\nmodel name\t: Fake CPU 9000\n"
	    "flags\t\t: fpu sse hypervisor\n");
	put(t, "proc/meminfo", "MemTotal:        2048 kB\nMemFree:        1024 kB\n");
	put(t, "sys/devices/system/cpu/online", "0-3,6,8-9\n");
	put(t, "sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n");
	put(t, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "performance\n");
	put(t, "sys/devices/system/cpu/cpufreq/policy4/scaling_governor", "performance\n");
	put(t, "sys/class/dmi/id/sys_vendor", "Amazon EC2\n");
	put(t, "sys/class/dmi/id/product_name", "m5.large\n");
	put(t, "sys/class/dmi/id/product_version", "1.0\n");
	put(t, "sys/hypervisor/type", "xen\n");
}

static void test_host(void **state)
{
	struct tree *t = tree_new();
	struct ib_env *e = calloc(1, sizeof(*e));
	struct utsname u;

	(void)state;
	host_tree(t);
	ib_env_host(e, &t->roots);
	assert_string_equal(e->hostname, "bench-7");
	assert_string_equal(e->kernel_release, "6.1.0-test");
	assert_string_equal(e->kernel_version, "#1 SMP Debian 6.1.99");
	assert_int_equal(uname(&u), 0);
	assert_string_equal(e->arch, u.machine);
	assert_string_equal(e->cpu_model, "Fake CPU 9000");
	assert_int_equal(e->cpus_online, 7);
	assert_int_equal(e->mem_total, 2048 * 1024);
	assert_string_equal(e->clocksource, "kvm-clock");
	assert_string_equal(e->governor, "performance");
	assert_string_equal(e->sys_vendor, "Amazon EC2");
	assert_string_equal(e->product_name, "m5.large");
	assert_string_equal(e->product_version, "1.0");
	assert_int_equal(e->hypervisor_flag, 1);
	assert_string_equal(e->hypervisor_type, "xen");

	/* policies that differ; a flag that only starts with "hypervisor" */
	put(t, "sys/devices/system/cpu/cpufreq/policy4/scaling_governor", "powersave\n");
	put(t, "proc/cpuinfo", "model name\t: X\nflags\t\t: fpu hypervisor_x\n");
	memset(e, 0, sizeof(*e));
	ib_env_host(e, &t->roots);
	assert_string_equal(e->governor, "mixed");
	assert_int_equal(e->hypervisor_flag, 0);
	free(e);
	tree_free(t);
}

/* An empty tree: every fact unknown, nothing fails */
static void test_host_empty(void **state)
{
	struct tree *t = tree_new();
	struct ib_env *e = calloc(1, sizeof(*e));

	(void)state;
	put(t, "sys/devices/system/cpu/cpufreq/.keep", "");
	put(t, "proc/cpuinfo", "processor\t: 0\nModel\t\t: Raspberry Pi 4\ncpu\t: ignored\n");
	ib_env_host(e, &t->roots);
	assert_string_equal(e->hostname, "");
	assert_string_equal(e->kernel_release, "");
	assert_string_equal(e->cpu_model, "Raspberry Pi 4");
	assert_int_equal(e->hypervisor_flag, 0);
	assert_int_equal(e->cpus_online, 0);
	assert_int_equal(e->mem_total, 0);
	assert_string_equal(e->clocksource, "");
	assert_string_equal(e->governor, "none");	/* cpufreq without policies */
	assert_string_equal(e->sys_vendor, "");
	assert_string_equal(e->hypervisor_type, "");
	sh("rm -f %s/cpuinfo", t->proc);
	memset(e, 0, sizeof(*e));
	ib_env_host(e, &t->roots);
	assert_int_equal(e->hypervisor_flag, -1);
	assert_string_equal(e->cpu_model, "");
	free(e);
	tree_free(t);
}

/* The disk sdx with its queue, as sysfs has it */
static void disk_tree(struct tree *t, const char *disk)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/block/%s/stat", disk);
	put(t, rel, "1 0 8 0 2 0 16 0 0 0 0\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/queue/rotational", disk);
	put(t, rel, "0\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/queue/logical_block_size", disk);
	put(t, rel, "512\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/queue/physical_block_size", disk);
	put(t, rel, "4096\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/queue/scheduler", disk);
	put(t, rel, "mq-deadline [bfq] none\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/queue/nr_requests", disk);
	put(t, rel, "64\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/queue/max_sectors_kb", disk);
	put(t, rel, "1280\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/queue/write_cache", disk);
	put(t, rel, "write through\n");
}

static void link_dev(struct tree *t, dev_t dev, const char *devdir)
{
	sh("mkdir -p %s/dev/block %s/%s && ln -sfn ../../%s %s/dev/block/%u:%u", t->sys,
	   t->sys, devdir, devdir, t->sys, major(dev), minor(dev));
}

/* A file on partition sdx1 of disk sdx, mounted at the temp dir */
static void test_file_on_partition(void **state)
{
	struct tree *t = tree_new();
	struct ib_env_target *tg = calloc(1, sizeof(*tg));
	char file[128], mi[1024];
	struct stat st;

	(void)state;
	snprintf(file, sizeof(file), "%s/data/target", t->root);
	put(t, "data/target", "x");
	assert_int_equal(stat(file, &st), 0);
	link_dev(t, st.st_dev, "devices/pci/block/sdx/sdx1");
	put(t, "sys/devices/pci/block/sdx/sdx1/partition", "1\n");
	disk_tree(t, "sdx");
	put(t, "sys/block/sdx/device/model", "Samsung SSD 860 \n");
	put(t, "sys/block/sdx/device/vendor", "ATA     \n");
	put(t, "sys/block/sdx/device/rev", "4B6Q\n");
	/* "/" and the temp dir on this device, another device deeper, and the
	 * temp dir mounted again on top (the later line wins) */
	snprintf(mi, sizeof(mi),
		 "20 1 %u:%u / / rw,relatime - ext4 /dev/sdx1 rw,errors=remount-ro\n"
		 "30 20 %u:%u / %s rw,noatime shared:7 master:1 - xfs /dev/sdx1 rw,attr2\n"
		 "31 30 0:99 / %s/data rw - tmpfs tmpfs rw\n"
		 "32 30 %u:%u /sub %s ro,nosuid - ext4 /dev/my\\040disk ro,data=ordered\n",
		 major(st.st_dev), minor(st.st_dev), major(st.st_dev), minor(st.st_dev),
		 t->root, t->root, major(st.st_dev), minor(st.st_dev), t->root);
	put(t, "proc/self/mountinfo", mi);
	ib_env_target(tg, file, &t->roots);
	assert_int_equal(tg->kind, IB_ENV_FILE);
	assert_string_equal(tg->dev, "sdx1");
	assert_string_equal(tg->disk, "sdx");
	assert_string_equal(tg->model, "Samsung SSD 860");
	assert_string_equal(tg->vendor, "ATA");
	assert_string_equal(tg->firmware, "4B6Q");
	assert_int_equal(tg->rotational, 0);
	assert_int_equal(tg->logical_block_size, 512);
	assert_int_equal(tg->physical_block_size, 4096);
	assert_string_equal(tg->scheduler, "bfq");
	assert_int_equal(tg->nr_requests, 64);
	assert_int_equal(tg->max_sectors_kb, 1280);
	assert_string_equal(tg->write_cache, "write through");
	assert_int_equal(tg->zram, 0);
	assert_int_equal(tg->loop, 0);
	assert_int_equal(tg->nr_slaves, 0);
	assert_string_equal(tg->fstype, "ext4");
	assert_string_equal(tg->mount_point, t->root);
	assert_string_equal(tg->mount_source, "/dev/my disk");
	assert_string_equal(tg->mount_options, "ro,nosuid,data=ordered");

	/* not created yet: described through its directory */
	snprintf(file, sizeof(file), "%s/data/later", t->root);
	ib_env_target(tg, file, &t->roots);
	assert_int_equal(tg->kind, IB_ENV_FILE);
	assert_string_equal(tg->disk, "sdx");
	assert_string_equal(tg->fstype, "ext4");
	free(tg);
	tree_free(t);
}

/* A node for fake device numbers (root only) */
static int node(struct tree *t, const char *name, unsigned int maj, unsigned int min,
		char *path, size_t len)
{
	snprintf(path, len, "%s/%s", t->root, name);
	return mknod(path, S_IFBLK | 0600, makedev(maj, min));
}

static void test_block_zram_loop(void **state)
{
	struct tree *t = tree_new();
	struct ib_env_target *tg = calloc(1, sizeof(*tg));
	char zr[128], lo[128];

	(void)state;
	if (node(t, "zr", 251, 9, zr, sizeof(zr)) || node(t, "lo", 7, 77, lo, sizeof(lo))) {
		tree_free(t);
		free(tg);
		skip();
	}
	link_dev(t, makedev(251, 9), "devices/virtual/block/zram9");
	disk_tree(t, "zram9");
	put(t, "sys/block/zram9/mm_stat", "0 0 0 0 0 0 0 0 0\n");
	put(t, "sys/block/zram9/comp_algorithm", "lzo lzo-rle [lz4] zstd \n");
	put(t, "sys/block/zram9/disksize", "1073741824\n");
	ib_env_target(tg, zr, &t->roots);
	assert_int_equal(tg->kind, IB_ENV_BLOCK);
	assert_string_equal(tg->dev, "zram9");
	assert_string_equal(tg->disk, "zram9");
	assert_int_equal(tg->zram, 1);
	assert_string_equal(tg->zram_comp, "lz4");
	assert_int_equal(tg->zram_disksize, 1073741824);
	assert_int_equal(tg->loop, 0);
	assert_string_equal(tg->fstype, "");	/* a device has no mount here */
	assert_string_equal(tg->model, "");

	link_dev(t, makedev(7, 77), "devices/virtual/block/loop77");
	disk_tree(t, "loop77");
	put(t, "sys/block/loop77/loop/backing_file", "/dev/shm/img with space\n");
	put(t, "sys/block/loop77/loop/offset", "1048576\n");
	put(t, "sys/block/loop77/loop/dio", "1\n");
	ib_env_target(tg, lo, &t->roots);
	assert_int_equal(tg->loop, 1);
	assert_int_equal(tg->zram, 0);
	assert_string_equal(tg->loop_backing, "/dev/shm/img with space");
	assert_int_equal(tg->loop_offset, 1048576);
	assert_int_equal(tg->loop_dio, 1);
	assert_int_equal(tg->rotational, 0);
	free(tg);
	tree_free(t);
}

/* dm-7 over sdb (a disk) and sdc1 (a partition: its disk's model) */
static void test_dm_slaves(void **state)
{
	struct tree *t = tree_new();
	struct ib_env_target *tg = calloc(1, sizeof(*tg));
	char dm[128];

	(void)state;
	if (node(t, "dm", 252, 7, dm, sizeof(dm))) {
		tree_free(t);
		free(tg);
		skip();
	}
	link_dev(t, makedev(252, 7), "devices/virtual/block/dm-7");
	disk_tree(t, "dm-7");
	put(t, "sys/block/dm-7/dm/name", "vg0-data\n");
	put(t, "sys/block/dm-7/slaves/sdc1", "");
	put(t, "sys/block/dm-7/slaves/sdb", "");
	put(t, "sys/block/sdb/device/model", "HDD A\n");
	put(t, "sys/block/sdb/queue/rotational", "1\n");
	put(t, "sys/block/sdc/device/model", "SSD B\n");
	put(t, "sys/block/sdc/queue/rotational", "0\n");
	put(t, "sys/devices/pci/sdc/sdc1/partition", "1\n");
	sh("mkdir -p %s/class/block && ln -s ../../devices/pci/sdc/sdc1 %s/class/block/sdc1",
	   t->sys, t->sys);
	ib_env_target(tg, dm, &t->roots);
	assert_string_equal(tg->disk, "dm-7");
	assert_string_equal(tg->dm_name, "vg0-data");
	assert_int_equal(tg->nr_slaves, 2);
	assert_string_equal(tg->slave[0].name, "sdb");
	assert_string_equal(tg->slave[0].model, "HDD A");
	assert_int_equal(tg->slave[0].rotational, 1);
	assert_string_equal(tg->slave[1].name, "sdc1");
	assert_string_equal(tg->slave[1].model, "SSD B");
	assert_int_equal(tg->slave[1].rotational, 0);
	free(tg);
	tree_free(t);
}

/* Kinds, repeated paths, more targets than fit */
static void test_collect(void **state)
{
	struct tree *t = tree_new();
	struct ib_env *e = calloc(1, sizeof(*e));
	const char *paths[20];
	unsigned int i;

	(void)state;
	paths[0] = "/dev/null";
	paths[1] = "/no/such/dir/file";
	paths[2] = "/dev/null";
	for (i = 3; i < 20; i++)
		paths[i] = i % 2 ? "/tmp/a" : "/tmp/b";
	ib_env_collect(e, paths, 3, &t->roots);
	assert_int_equal(e->targets_total, 3);
	assert_int_equal(e->nr_targets, 2);
	assert_int_equal(e->target[0].kind, IB_ENV_OTHER);
	assert_int_equal(e->target[1].kind, IB_ENV_MISSING);
	assert_string_equal(e->target[1].path, "/no/such/dir/file");
	assert_int_equal(e->target[1].rotational, -1);
	assert_string_equal(ib_env_kind_name(IB_ENV_BLOCK), "block");
	assert_string_equal(ib_env_kind_name(IB_ENV_FILE), "file");
	for (i = 3; i < 20; i++) {
		static char names[20][16];

		snprintf(names[i], sizeof(names[i]), "/tmp/n%u", i);
		paths[i] = names[i];
	}
	ib_env_collect(e, paths, 20, &t->roots);
	assert_int_equal(e->targets_total, 20);
	assert_int_equal(e->nr_targets, IB_ENV_TARGETS_MAX);
	assert_string_equal(e->target[15].path, "/tmp/n16");
	free(e);
	tree_free(t);
}

static struct ib_env *sample_env(void)
{
	struct ib_env *e = calloc(1, sizeof(*e));
	struct ib_env_target *t = &e->target[0];

	snprintf(e->hostname, sizeof(e->hostname), "h1");
	snprintf(e->kernel_release, sizeof(e->kernel_release), "6.1.0");
	snprintf(e->cpu_model, sizeof(e->cpu_model), "CPU \"X\"");
	e->cpus_online = 4;
	e->mem_total = 8ULL << 30;
	snprintf(e->clocksource, sizeof(e->clocksource), "tsc");
	snprintf(e->governor, sizeof(e->governor), "none");
	e->hypervisor_flag = 1;
	snprintf(e->product_name, sizeof(e->product_name), "m5.large");
	e->nr_targets = 1;
	e->targets_total = 1;
	snprintf(t->path, sizeof(t->path), "/mnt/f");
	t->kind = IB_ENV_FILE;
	snprintf(t->dev, sizeof(t->dev), "loop3");
	snprintf(t->disk, sizeof(t->disk), "loop3");
	t->rotational = 0;
	t->logical_block_size = 4096;
	t->physical_block_size = 4096;
	snprintf(t->scheduler, sizeof(t->scheduler), "none");
	t->nr_requests = 128;
	t->max_sectors_kb = 1280;
	snprintf(t->write_cache, sizeof(t->write_cache), "write back");
	t->loop = 1;
	snprintf(t->loop_backing, sizeof(t->loop_backing), "/img");
	t->loop_dio = 1;
	snprintf(t->fstype, sizeof(t->fstype), "ext4");
	snprintf(t->mount_point, sizeof(t->mount_point), "/mnt");
	snprintf(t->mount_source, sizeof(t->mount_source), "/dev/loop3");
	snprintf(t->mount_options, sizeof(t->mount_options), "rw,relatime");
	return e;
}

static const char want_json[] =
	"{\n  \"environment\" : {\n    \"hostname\" : \"h1\",\n"
	"    \"kernel_release\" : \"6.1.0\",\n    \"cpu_model\" : \"CPU \\\"X\\\"\",\n"
	"    \"cpus_online\" : 4,\n    \"mem_total\" : 8589934592,\n"
	"    \"clocksource\" : \"tsc\",\n    \"cpu_governor\" : \"none\",\n"
	"    \"virtualization\" : {\n      \"product_name\" : \"m5.large\",\n"
	"      \"hypervisor_flag\" : 1\n    },\n    \"targets_total\" : 1,\n"
	"    \"targets\" : [\n      {\n        \"path\" : \"/mnt/f\",\n"
	"        \"kind\" : \"file\",\n        \"dev\" : \"loop3\",\n"
	"        \"disk\" : \"loop3\",\n        \"rotational\" : 0,\n"
	"        \"logical_block_size\" : 4096,\n        \"physical_block_size\" : 4096,\n"
	"        \"scheduler\" : \"none\",\n        \"nr_requests\" : 128,\n"
	"        \"max_sectors_kb\" : 1280,\n        \"write_cache\" : \"write back\",\n"
	"        \"loop\" : {\n          \"backing_file\" : \"/img\",\n"
	"          \"offset\" : 0,\n          \"dio\" : 1\n        },\n"
	"        \"filesystem\" : {\n          \"type\" : \"ext4\",\n"
	"          \"mount_point\" : \"/mnt\",\n          \"source\" : \"/dev/loop3\",\n"
	"          \"options\" : \"rw,relatime\"\n        }\n      }\n    ]\n  }\n}\n";

static const char want_text[] =
	"Environment:\n"
	"  host     : h1, Linux 6.1.0\n"
	"  cpu      : 4 x CPU \"X\", governor none, clocksource tsc\n"
	"  memory   : 8192 MiB\n"
	"  virt     : hypervisor (cpuinfo flag), DMI m5.large\n"
	"  target   : /mnt/f (file) on ext4 /mnt from /dev/loop3 (rw,relatime)\n"
	"             loop3: loop of /img (dio on), rotational no, blocks 4096/4096, "
	"scheduler none, nr_requests 128, max_sectors_kb 1280, write cache write back\n";

static void test_json_and_text(void **state)
{
	struct ib_env *e = sample_env();
	struct ib_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	ib_json_begin(&j, f);
	ib_env_json(&j, e);
	ib_json_end(&j);
	fclose(f);
	assert_string_equal(buf, want_json);
	free(buf);
	f = open_memstream(&buf, &len);
	ib_env_text(f, e);
	fclose(f);
	assert_string_equal(buf, want_text);
	free(buf);
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_host_empty),
		cmocka_unit_test(test_file_on_partition),
		cmocka_unit_test(test_block_zram_loop),
		cmocka_unit_test(test_dm_slaves),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_json_and_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
