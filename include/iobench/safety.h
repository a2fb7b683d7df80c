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
#include "iobench/run.h"

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
int ib_safety_check(const struct ib_run *run, const struct ib_job *job,
		    struct ib_files *fs, const struct ib_files *first,
		    struct ib_diag *d);

/*
 * A report or log path (--output, --json-output, write_iolog=...) that names
 * an existing block device is refused: text written there lands on the
 * disk's first blocks (partition table, superblock). `what` names the
 * option in the message. No override: no benchmark needs that.
 */
int ib_safety_check_output(const char *what, const char *path,
			   struct ib_diag *d);
/*
 * The report or log opened (ib_safety_open, no O_TRUNC yet), refused if
 * the descriptor is a block device, then truncated if O_TRUNC and a
 * regular file: the fd, or -errno with d set. `what` names the option.
 */
int ib_safety_open_log(const char *what, const char *path, int flags,
		       struct ib_diag *d);
/* ib_safety_open_log(O_WRONLY|O_CREAT|O_TRUNC) as a stream, or NULL. */
FILE *ib_safety_open_output(const char *what, const char *path,
			    struct ib_diag *d);

/*
 * open(path, flags | O_CLOEXEC, 0644) for a file iobench creates or
 * writes, refusing to follow a final symbolic link that the kernel's
 * fs.protected_symlinks=1 would refuse: one in a sticky world-writable
 * directory owned neither by the caller nor by the directory's owner,
 * whatever the sysctl says on this machine. The fd; -ELOOP with one line in
 * d (that refusal, or too many links); any other -errno with d untouched,
 * for the caller's own message.
 */
int ib_safety_open(const char *path, int flags, struct ib_diag *d);

/*
 * A report removed after a failed write is removed only if the path is
 * still the regular file that was opened: taken (ib_safety_out_id) before
 * the stream is closed, checked by lstat (a symlink, a device node, a FIFO
 * or stdout are never removed).
 */
struct ib_out_id {
	dev_t dev;
	ino_t ino;
	bool reg;
};
void ib_safety_out_id(FILE *f, struct ib_out_id *id);
void ib_safety_fd_id(int fd, struct ib_out_id *id);
void ib_safety_remove_output(const char *path, const struct ib_out_id *id);

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
