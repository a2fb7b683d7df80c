/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PING_TARGET_H
#define IOBENCH_PING_TARGET_H

#include <stdint.h>
#include <sys/types.h>
#include "iobench/diag.h"
#include "iobench/ping.h"

/* `iobench ping` (ping.h): a target as ioping's output names it (run/ping_target.c). */

/* A target as ioping describes it: "(tmpfs tmpfs 64 MiB)" */
struct ib_ping_target {
	const char *path;	/* as given on the command line */
	char fstype[64];	/* "ext4"; "block"/"character" for devices */
	char device[256];	/* "/dev/vda1"; "device" for devices */
	int64_t device_size;	/* fs size (statvfs) or device size; 0 unknown */
};

/*
 * fstype and device of the filesystem holding dev (st_dev of a file or
 * directory) from ROOT/proc/self/mountinfo (fields after " - "), else
 * ROOT/proc/mounts (the line whose source node has st_rdev == dev). An
 * absolute device is resolved with realpath (under ROOT). root "" or NULL
 * is "/". Nothing found: both empty, as ioping. Returns 0 or -errno.
 */
int ib_ping_describe_fs(const char *root, dev_t dev, struct ib_ping_target *t,
			struct ib_diag *d);
/* A device target: fstype "block" (size known) or "character", device "device". */
void ib_ping_describe_dev(struct ib_ping_target *t, enum ib_ping_kind kind, int64_t size);

#endif
