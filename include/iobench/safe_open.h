/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SAFE_OPEN_H
#define IOBENCH_SAFE_OPEN_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "iobench/diag.h"

/*
 * Files iobench creates or writes (targets laid out, reports, logs, state
 * files), for every layer (util/safe_open.c): no planted symbolic link
 * followed, no report written onto a block device, and only a regular
 * file iobench opened ever removed again.
 */

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
/*
 * Before a run: could the report at path (written after it: --plot,
 * --report) be written? An existing file is opened for writing and closed
 * (nothing truncated), a new one is created and removed again (nothing
 * left). 0, or -errno with one line in d naming `what` and the path.
 */
int ib_safety_probe_output(const char *what, const char *path,
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
 * open(path, flags | O_NOATIME) for reading, without O_NOATIME where the
 * kernel refuses it (EPERM: not the file's owner, no CAP_FOWNER): reads
 * that leave the access time alone where they may. As open(2): fd, or -1
 * with errno.
 */
int ib_open_noatime(const char *path, int flags);

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
bool ib_safety_remove_output(const char *path, const struct ib_out_id *id);

#endif
