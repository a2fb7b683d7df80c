/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_DISK_H
#define IOBENCH_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/diag.h"

/*
 * Disk utilisation (doc/fio-compat.md §1.10): each target path is mapped to the
 * whole disk under /sys/block that holds it (a partition to its parent, a
 * block device to itself, tmpfs and other virtual filesystems to nothing),
 * and /sys/block/<dev>/stat is read at start and stop. Plain data: the
 * runner can keep a set anywhere.
 *
 * A dm/md device with slaves is printed as fio does: its own line (indented
 * two more spaces) with the aggr* averages of its slaves, then one line per
 * slave; in JSON the slaves follow it as entries of their own.
 */
#define IB_DISK_MAX 16
#define IB_DISK_SLAVES_MAX 8

/* /sys/block/<dev>/stat fields we use */
struct ib_disk_stat {
	uint64_t ios[2], merges[2], sectors[2], ticks[2];
	uint64_t io_ticks, time_in_queue;
};

/* One slave of a dm/md device: its own deltas (printed on its own line). */
struct ib_disk_slave_util {
	char name[64];
	uint64_t ios[2], merges[2], sectors[2], ticks[2];
	uint64_t in_queue;
	double util;
};

/* What the report prints for one disk: deltas over the run. */
struct ib_disk_util {
	char name[64];
	uint64_t ios[2], merges[2], sectors[2], ticks[2];
	uint64_t in_queue;
	double util;		/* io_ticks * 100 / elapsed ms, capped at 100 */
	/* dm/md: averages over the slaves, max slave util */
	unsigned int nr_slaves;
	uint64_t aggr_ios[2], aggr_merges[2], aggr_ticks[2], aggr_in_queue;
	double aggr_util;
	struct ib_disk_slave_util slave[IB_DISK_SLAVES_MAX];
};

struct ib_disk_one {
	char name[64];
	struct ib_disk_stat start;
	unsigned int nr_slaves;
	char slave[IB_DISK_SLAVES_MAX][64];
	struct ib_disk_stat slave_start[IB_DISK_SLAVES_MAX];
};

struct ib_disk_set {
	unsigned int nr;
	struct ib_disk_one one[IB_DISK_MAX];
	struct ib_disk_util util[IB_DISK_MAX];	/* filled by ib_disk_stop() */
	uint64_t start_ns;
	const char *sysfs;	/* "/sys" unless a test points elsewhere */
};

/*
 * Map paths to disks (duplicates collapse). Paths that do not exist yet map
 * through their directory. Unmappable paths are skipped, not errors.
 */
int ib_disk_setup(struct ib_disk_set *set, const char *const *paths, unsigned int n,
		  struct ib_diag *d);
/* Resolve one path to its whole-disk name ("vda"); -ENODEV if none. */
int ib_disk_resolve(const char *sysfs, const char *path, char *name, size_t len);
/* The same for a device number: the device's own name ("vda1", NULL dev to
 * skip) and its whole disk's ("vda"); -ENODEV if none. */
int ib_disk_resolve_dev(const char *sysfs, unsigned int maj, unsigned int min,
			char *dev, size_t dev_len, char *name, size_t len);
int ib_disk_parse_stat(const char *text, struct ib_disk_stat *st);
void ib_disk_start(struct ib_disk_set *set);
/* Take the end sample and fill set->util[0..nr). */
void ib_disk_stop(struct ib_disk_set *set);

#endif
