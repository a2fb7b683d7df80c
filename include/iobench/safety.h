/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SAFETY_H
#define IOBENCH_SAFETY_H

#include <stdbool.h>
#include <stdio.h>
#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include "iobench/diag.h"
#include "iobench/file.h"
#include "iobench/plan.h"
#include "iobench/safe_open.h"

/*
 * Refuse, before anything is opened for writing, a job that would write to a
 * target holding someone's data (a mounted, swapped-on, held or formatted
 * block device). Called by the runner for every job after its paths are
 * resolved. 0 = go; -errno with one line in d naming the device, the reason
 * and the override. Each path is looked at once: what it names is recorded
 * in its struct ib_file (id_type, id_rdev) and a block device is opened
 * and every check made on that descriptor (fstat's number, the signature
 * probe through it, the exclusive open through /proc/self/fd); every later
 * open for writing verifies it found the same (ib_file_verify_fd). first:
 * the files of the job's clone 0 (NULL for clone 0 itself), whose checked
 * devices a clone does not probe again.
 *
 * The checks, in order, and the one flag that overrides each:
 *   mounted (the device, a partition of it, or a device stacked on it;
 *            matched by device number in mountinfo)  allow_mounted_write=1
 *   active swap (itself or a partition)               allow_data_loss=1
 *   holders (dm, md, LVM, bcache... on it or a partition) allow_data_loss=1
 *   claimed exclusively by the kernel (O_EXCL open gives EBUSY: mounted in
 *            another mount namespace, or claimed by a driver) allow_data_loss=1
 *   a filesystem, RAID, LVM, swap or partition-table signature (libblkid)
 *                                                     allow_data_loss=1
 * A device that is mounted and allowed by allow_mounted_write=1 skips the
 * last two checks: the filesystem being written under is what they would
 * find, and fio's flag alone must keep doing what it does in fio.
 */
int ib_safety_check(const struct ib_plan *run, const struct ib_job *job,
		    struct ib_files *fs, const struct ib_files *first,
		    struct ib_diag *d);

/*
 * Where the checks look; the real system by default, a fake tree in tests.
 * sysfs_dev is the directory holding MAJ:MIN entries (/sys/dev/block).
 */
struct ib_safety_env {
	const char *mountinfo;
	const char *swaps;
	const char *sysfs_dev;
	bool exclusive_open;	/* try open(O_RDONLY|O_EXCL) on the device */
};

/* One block device `path` with device number rdev, for a job that writes. */
int ib_safety_check_bdev(const struct ib_safety_env *env,
			 const struct ib_job *job, const char *path,
			 dev_t rdev, struct ib_diag *d);

/* One /proc/self/mountinfo line. */
struct ib_mount_entry {
	dev_t dev;		/* MAJ:MIN (0:N for btrfs and other anonymous devs) */
	char mnt[PATH_MAX];	/* mount point, unescaped */
	char fstype[64];
	char source[PATH_MAX];	/* mount source ("/dev/sdb1", "tmpfs"), unescaped */
};

/* Parse one mountinfo line into m. 0, or -EINVAL for a malformed line. */
int ib_safety_parse_mountinfo(const char *line, struct ib_mount_entry *m);

/* Undo /proc's octal escapes ("\040" -> ' ') from src into dst. */
void ib_safety_unescape(char *dst, size_t len, const char *src);

/*
 * libblkid: does path carry a filesystem, RAID, LVM, swap or partition
 * table signature? 1 (what names it: "filesystem signature (ext4)"),
 * 0 (blank) or -errno when it cannot be probed.
 */
int ib_safety_probe_signature(const char *path, char *what, size_t len);

#endif
