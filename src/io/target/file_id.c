// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check and use on the same object: the parent's safety check records what
 * each target path named (struct ib_file's id_type, id_rdev), and every
 * later open of that path for writing (the job's open, layout, a renewed
 * file) verifies the descriptor it got before the first write. A path that
 * changed meaning in between (a symlink swapped, a udev link moved) fails
 * the job with nothing written: the only device a job can write is the one
 * the checks passed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "iobench/file.h"

static void describe(unsigned int type, dev_t rdev, char *buf, size_t len)
{
	if (type == S_IFBLK)
		snprintf(buf, len, "block device %u:%u", major(rdev), minor(rdev));
	else if (type == S_IFREG)
		snprintf(buf, len, "a regular file");
	else if (type == S_IFDIR)
		snprintf(buf, len, "a directory");
	else if (type)
		snprintf(buf, len, "neither a regular file nor a block device");
	else
		snprintf(buf, len, "missing");
}

int ib_file_verify_fd(const struct ib_file *f, int fd, struct ib_diag *d)
{
	char now[64], was[64];
	struct stat st;
	unsigned int type;

	if (fstat(fd, &st) < 0)
		return ib_diag_set(d, errno, "%s: fstat: %s", f->path, strerror(errno));
	type = st.st_mode & S_IFMT;
	if (type == S_IFBLK && f->id_type == S_IFBLK && st.st_rdev == f->id_rdev)
		return 0;
	if (type == S_IFREG && f->id_type != S_IFBLK)
		return 0;
	describe(type, st.st_rdev, now, sizeof(now));
	describe(f->id_type, f->id_rdev, was, sizeof(was));
	return ib_diag_set(d, EXDEV,
			   "%s changed after its safety check (now %s, checked as %s); refusing to write",
			   f->path, now, was);
}
