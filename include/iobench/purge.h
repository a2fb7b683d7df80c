/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PURGE_H
#define IOBENCH_PURGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "iobench/diag.h"

/*
 * SNIA PTS's purge, as far as the kernel offers one to a program: a
 * secure discard (BLKSECDISCARD) of the region, else a discard
 * (BLKDISCARD). Only after the region's write job passed the safety
 * checks (safety.h): the caller runs ib_runner_check first, and passes the
 * device number the path had then (rdev; the open device must still be
 * it). The device is opened O_EXCL, so a device something holds is never
 * purged.
 *
 * Returns 1 (purged; how says how, "BLKDISCARD of 64 MiB"), 0 (not
 * purged; how says why: not a block device, the device supports neither)
 * or -errno (d says why: the open, a changed device).
 */
int ib_purge(const char *path, dev_t rdev, uint64_t len, char *how,
	     size_t howlen, struct ib_diag *d);

/* The logical block size of the block device at path, or 0 (not a block
 * device, or unknown). */
unsigned int ib_blk_lbs(const char *path);

#endif
