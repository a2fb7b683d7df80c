// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-target facts for the environment capture: the block device that
 * holds the target (disk.c maps it), its queue settings and identity, zram
 * and loop details, and for files the mount (env.h).
 */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "iobench/disk.h"
#include "env_priv.h"

const char *ib_env_kind_name(enum ib_env_kind k)
{
	switch (k) {
	case IB_ENV_FILE:
		return "file";
	case IB_ENV_BLOCK:
		return "block";
	case IB_ENV_OTHER:
		return "other";
	default:
		return "missing";
	}
}

/* stat the path, or the directory a file not created yet will live in */
static int stat_target(const char *path, struct stat *st, int *created)
{
	char tmp[PATH_MAX];

	*created = 1;
	if (stat(path, st) == 0)
		return 0;
	*created = 0;
	snprintf(tmp, sizeof(tmp), "%s", path);
	return stat(dirname(tmp), st);
}

static void queue_facts(struct ib_env_target *t, const char *sys)
{
	const char *d = t->disk;

	t->rotational = (int)ib_env_read_u64((uint64_t)-1, sys, "block/%s/queue/rotational", d);
	t->logical_block_size = (uint32_t)ib_env_read_u64(0, sys,
		"block/%s/queue/logical_block_size", d);
	t->physical_block_size = (uint32_t)ib_env_read_u64(0, sys,
		"block/%s/queue/physical_block_size", d);
	t->nr_requests = (uint32_t)ib_env_read_u64(0, sys, "block/%s/queue/nr_requests", d);
	t->max_sectors_kb = (uint32_t)ib_env_read_u64(0, sys,
		"block/%s/queue/max_sectors_kb", d);
	ib_env_read(t->scheduler, sizeof(t->scheduler), sys, "block/%s/queue/scheduler", d);
	ib_env_selected(t->scheduler);
	ib_env_read(t->write_cache, sizeof(t->write_cache), sys,
		    "block/%s/queue/write_cache", d);
}

/* device/model etc. (SCSI/ATA: rev; NVMe: firmware_rev) */
static void identity(char *model, char *vendor, char *fw, const char *sys, const char *d)
{
	ib_env_read(model, IB_ENV_STR, sys, "block/%s/device/model", d);
	if (vendor)
		ib_env_read(vendor, IB_ENV_STR, sys, "block/%s/device/vendor", d);
	if (fw && ib_env_read(fw, IB_ENV_STR, sys, "block/%s/device/firmware_rev", d))
		ib_env_read(fw, IB_ENV_STR, sys, "block/%s/device/rev", d);
}

static int cmp_slave(const void *a, const void *b)
{
	return strcmp(((const struct ib_env_slave *)a)->name,
		      ((const struct ib_env_slave *)b)->name);
}

/* A member may be a partition ("sda1"): its model and queue are its disk's */
static void slave_disk(const char *sys, const char *name, char *disk)
{
	char p[PATH_MAX], real[PATH_MAX], *base;

	snprintf(disk, IB_ENV_STR, "%s", name);
	snprintf(p, sizeof(p), "%s/class/block/%s", sys, name);
	if (!realpath(p, real) || strlen(real) + sizeof("/partition") > sizeof(real))
		return;
	strcat(real, "/partition");
	if (access(real, F_OK))
		return;
	*strrchr(real, '/') = '\0';
	base = strrchr(real, '/');
	*base = '\0';
	base = strrchr(real, '/');
	if (base)
		ib_env_copy(disk, IB_ENV_STR, base + 1);
}

/* The members of a dm/md disk, in name order, one level down */
static void slaves(struct ib_env_target *t, const char *sys)
{
	char p[PATH_MAX];
	struct dirent *de;
	unsigned int i;
	DIR *dir;

	snprintf(p, sizeof(p), "%s/block/%s/slaves", sys, t->disk);
	dir = opendir(p);
	if (!dir)
		return;
	while ((de = readdir(dir)) && t->nr_slaves < IB_ENV_SLAVES_MAX) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= IB_ENV_STR)
			continue;
		ib_env_copy(t->slave[t->nr_slaves++].name, IB_ENV_STR, de->d_name);
	}
	closedir(dir);
	qsort(t->slave, t->nr_slaves, sizeof(t->slave[0]), cmp_slave);
	for (i = 0; i < t->nr_slaves; i++) {
		struct ib_env_slave *s = &t->slave[i];

		char disk[IB_ENV_STR];

		slave_disk(sys, s->name, disk);
		identity(s->model, NULL, NULL, sys, disk);
		s->rotational = (int)ib_env_read_u64((uint64_t)-1, sys,
						     "block/%s/queue/rotational", disk);
	}
}

static void zram_loop(struct ib_env_target *t, const char *sys)
{
	const char *d = t->disk;
	char tmp[16];

	if (ib_env_read(tmp, sizeof(tmp), sys, "block/%s/mm_stat", d) == 0) {
		t->zram = 1;
		ib_env_read(t->zram_comp, sizeof(t->zram_comp), sys,
			    "block/%s/comp_algorithm", d);
		ib_env_selected(t->zram_comp);
		t->zram_disksize = ib_env_read_u64(0, sys, "block/%s/disksize", d);
	}
	if (ib_env_read(t->loop_backing, sizeof(t->loop_backing), sys,
			"block/%s/loop/backing_file", d) == 0) {
		t->loop = 1;
		t->loop_offset = ib_env_read_u64(0, sys, "block/%s/loop/offset", d);
		t->loop_dio = (int)ib_env_read_u64((uint64_t)-1, sys, "block/%s/loop/dio", d);
	}
}

static void disk_facts(struct ib_env_target *t, const char *sys, dev_t dev)
{
	if (ib_disk_resolve_dev(sys, major(dev), minor(dev), t->dev, sizeof(t->dev),
				t->disk, sizeof(t->disk))) {
		t->dev[0] = '\0';
		return;
	}
	identity(t->model, t->vendor, t->firmware, sys, t->disk);
	queue_facts(t, sys);
	ib_env_read(t->dm_name, sizeof(t->dm_name), sys, "block/%s/dm/name", t->disk);
	slaves(t, sys);
	zram_loop(t, sys);
}

void ib_env_target(struct ib_env_target *t, const char *path, const struct ib_env_roots *r)
{
	struct stat st;
	int exists;

	memset(t, 0, sizeof(*t));
	t->rotational = -1;
	t->loop_dio = -1;
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (stat_target(path, &st, &exists))
		return;		/* IB_ENV_MISSING */
	if (exists && S_ISBLK(st.st_mode))
		t->kind = IB_ENV_BLOCK;
	else if (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		t->kind = IB_ENV_OTHER;
	else
		t->kind = IB_ENV_FILE;
	if (t->kind == IB_ENV_OTHER)
		return;
	if (t->kind == IB_ENV_FILE)
		ib_env_mount(t, path, st.st_dev, ib_env_proc(r));
	disk_facts(t, ib_env_sys(r), t->kind == IB_ENV_BLOCK ? st.st_rdev : st.st_dev);
}

void ib_env_collect(struct ib_env *e, const char *const *paths, unsigned int n,
		    const struct ib_env_roots *r)
{
	unsigned int i, k;

	memset(e, 0, sizeof(*e));
	ib_env_host(e, r);
	e->targets_total = n;
	for (i = 0; i < n && e->nr_targets < IB_ENV_TARGETS_MAX; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(paths[k], paths[i]))
				break;
		if (k < i)
			continue;
		ib_env_target(&e->target[e->nr_targets++], paths[i], r);
	}
}
