// SPDX-License-Identifier: GPL-2.0-only
/*
 * Target path -> whole disk under /sys/block, and stat deltas over the run
 * (doc/fio-compat.md §1.10).
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "iobench/clock.h"
#include "iobench/disk.h"

static const char *sysfs_root(const char *sysfs)
{
	return sysfs ? sysfs : "/sys";
}

static int path_dev(const char *path, dev_t *dev)
{
	char tmp[PATH_MAX];
	struct stat st;

	if (stat(path, &st) != 0) {
		/* not created yet: use the directory it will live in */
		snprintf(tmp, sizeof(tmp), "%s", path);
		if (stat(dirname(tmp), &st) != 0)
			return -errno;
	}
	*dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	return 0;
}

static bool exists(const char *fmt1, const char *a, const char *b)
{
	char p[PATH_MAX + 64];

	if (snprintf(p, sizeof(p), fmt1, a, b) >= (int)sizeof(p))
		return false;
	return access(p, F_OK) == 0;
}

int ib_disk_resolve_dev(const char *sysfs, unsigned int maj, unsigned int min,
			char *dev, size_t dev_len, char *name, size_t len)
{
	char link[PATH_MAX], real[PATH_MAX], *base;
	const char *root = sysfs_root(sysfs);

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", root, maj, min);
	if (!realpath(link, real))
		return -ENODEV;
	base = strrchr(real, '/');
	if (dev)
		snprintf(dev, dev_len, "%s", base ? base + 1 : real);
	if (exists("%s/%s", real, "partition")) {
		if (!base)
			return -ENODEV;
		*base = '\0';	/* the parent directory is the whole disk */
	}
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (!exists("%s/block/%s/stat", root, base))
		return -ENODEV;
	snprintf(name, len, "%s", base);
	return 0;
}

int ib_disk_resolve(const char *sysfs, const char *path, char *name, size_t len)
{
	dev_t dev;
	int ret = path_dev(path, &dev);

	if (ret)
		return ret;
	return ib_disk_resolve_dev(sysfs, major(dev), minor(dev), NULL, 0, name, len);
}

int ib_disk_parse_stat(const char *text, struct ib_disk_stat *st)
{
	unsigned long long v[11];
	int n = sscanf(text, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
		       &v[9], &v[10]);

	if (n != 11)
		return -EINVAL;
	st->ios[0] = v[0];
	st->merges[0] = v[1];
	st->sectors[0] = v[2];
	st->ticks[0] = v[3];
	st->ios[1] = v[4];
	st->merges[1] = v[5];
	st->sectors[1] = v[6];
	st->ticks[1] = v[7];
	st->io_ticks = v[9];
	st->time_in_queue = v[10];
	return 0;
}

static void read_stat(const char *root, const char *name, struct ib_disk_stat *st)
{
	char p[PATH_MAX], buf[512];
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(p, sizeof(p), "%s/block/%s/stat", root, name);
	f = fopen(p, "re");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f))
		ib_disk_parse_stat(buf, st);
	fclose(f);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Slaves in name order (readdir order is arbitrary) */
static void find_slaves(const char *root, struct ib_disk_one *o)
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	snprintf(p, sizeof(p), "%s/block/%s/slaves", root, o->name);
	dir = opendir(p);
	if (!dir)
		return;
	while ((de = readdir(dir)) && o->nr_slaves < IB_DISK_SLAVES_MAX) {
		if (de->d_name[0] == '.')
			continue;
		if (strlen(de->d_name) >= sizeof(o->slave[0]))
			continue;
		memcpy(o->slave[o->nr_slaves++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(dir);
	qsort(o->slave, o->nr_slaves, sizeof(o->slave[0]), cmp_name);
}

int ib_disk_setup(struct ib_disk_set *set, const char *const *paths, unsigned int n,
		  struct ib_diag *d)
{
	const char *root = sysfs_root(set->sysfs);
	char name[64];
	unsigned int i, k;

	(void)d;
	set->nr = 0;
	for (i = 0; i < n; i++) {
		if (ib_disk_resolve(root, paths[i], name, sizeof(name)))
			continue;
		for (k = 0; k < set->nr; k++)
			if (!strcmp(set->one[k].name, name))
				break;
		if (k < set->nr || set->nr == IB_DISK_MAX)
			continue;
		memset(&set->one[set->nr], 0, sizeof(set->one[0]));
		snprintf(set->one[set->nr].name, sizeof(set->one[0].name), "%s", name);
		find_slaves(root, &set->one[set->nr]);
		set->nr++;
	}
	return 0;
}

void ib_disk_start(struct ib_disk_set *set)
{
	const char *root = sysfs_root(set->sysfs);
	unsigned int i, s;

	set->start_ns = ib_now_ns();
	for (i = 0; i < set->nr; i++) {
		read_stat(root, set->one[i].name, &set->one[i].start);
		for (s = 0; s < set->one[i].nr_slaves; s++)
			read_stat(root, set->one[i].slave[s], &set->one[i].slave_start[s]);
	}
}

/* u = end - start for one device */
static void delta(struct ib_disk_util *u, const struct ib_disk_stat *a,
		  const struct ib_disk_stat *b, uint64_t ms, uint64_t *io_ticks)
{
	unsigned int k;

	for (k = 0; k < 2; k++) {
		u->ios[k] = b->ios[k] - a->ios[k];
		u->merges[k] = b->merges[k] - a->merges[k];
		u->sectors[k] = b->sectors[k] - a->sectors[k];
		u->ticks[k] = b->ticks[k] - a->ticks[k];
	}
	u->in_queue = b->time_in_queue - a->time_in_queue;
	*io_ticks = b->io_ticks - a->io_ticks;
	u->util = ms ? (double)*io_ticks * 100.0 / (double)ms : 0.0;
	if (u->util > 100.0)
		u->util = 100.0;
}

static void copy_slave(struct ib_disk_slave_util *d, const char *name,
		       const struct ib_disk_util *su)
{
	snprintf(d->name, sizeof(d->name), "%s", name);
	memcpy(d->ios, su->ios, sizeof(d->ios));
	memcpy(d->merges, su->merges, sizeof(d->merges));
	memcpy(d->sectors, su->sectors, sizeof(d->sectors));
	memcpy(d->ticks, su->ticks, sizeof(d->ticks));
	d->in_queue = su->in_queue;
	d->util = su->util;
}

static void aggregate(struct ib_disk_util *u, const char *root, const struct ib_disk_one *o,
		      uint64_t ms)
{
	struct ib_disk_util su;
	struct ib_disk_stat end;
	uint64_t ticks;
	unsigned int s, k, n = o->nr_slaves;

	u->nr_slaves = n;
	for (s = 0; s < n; s++) {
		read_stat(root, o->slave[s], &end);
		delta(&su, &o->slave_start[s], &end, ms, &ticks);
		copy_slave(&u->slave[s], o->slave[s], &su);
		for (k = 0; k < 2; k++) {
			u->aggr_ios[k] += su.ios[k];
			u->aggr_merges[k] += su.merges[k];
			u->aggr_ticks[k] += su.ticks[k];
		}
		u->aggr_in_queue += su.in_queue;
		if (su.util > u->aggr_util)
			u->aggr_util = su.util;
	}
	for (k = 0; n && k < 2; k++) {
		u->aggr_ios[k] /= n;
		u->aggr_merges[k] /= n;
		u->aggr_ticks[k] /= n;
	}
	if (n)
		u->aggr_in_queue /= n;
}

void ib_disk_stop(struct ib_disk_set *set)
{
	const char *root = sysfs_root(set->sysfs);
	uint64_t ms = (ib_now_ns() - set->start_ns) / 1000000, ticks;
	struct ib_disk_stat end;
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		struct ib_disk_util *u = &set->util[i];

		memset(u, 0, sizeof(*u));
		memcpy(u->name, set->one[i].name, sizeof(u->name));
		read_stat(root, set->one[i].name, &end);
		delta(u, &set->one[i].start, &end, ms, &ticks);
		aggregate(u, root, &set->one[i], ms);
	}
}
