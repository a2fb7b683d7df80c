// SPDX-License-Identifier: GPL-2.0-only
/*
 * fill_device (fill_fs): without size=, a regular file's region is what it
 * holds past its offset plus the size of its file system, so every file's
 * writes (several files fill up in turn) go on until the file system is
 * full: ENOSPC or EDQUOT ends them without an error (ib_err_fill_end()),
 * as fio's unbounded size does; a read job's layout ends there too.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "target_priv.h"

int ib_fill_len(const struct ib_job *job, const struct ib_file *f, uint64_t base,
		uint64_t *len, struct ib_diag *d)
{
	char dir[PATH_MAX];
	struct statvfs sv;
	uint64_t fs_bytes;

	ib_target_existing_dir(f->path, dir, sizeof(dir));
	if (statvfs(dir, &sv) < 0)
		return ib_diag_set(d, errno, "job '%s': fill_device: the size of the file system of %s: %s",
				   job->name, dir, strerror(errno));
	fs_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	/* a block more than the file system holds: the last write finds it
	 * full, even where the whole of it was free */
	*len = (f->real_size > base ? f->real_size - base : 0) + fs_bytes +
	       ib_job_max_bs(job);
	return 0;
}

int ib_fill_shrink(const struct ib_job *job, struct ib_file *f, uint64_t bs,
		   struct ib_diag *d)
{
	uint64_t len = f->real_size > f->io_offset ? f->real_size - f->io_offset : 0;

	len -= len % bs;
	if (!len)
		return ib_diag_set(d, ENOSPC, "job '%s': fill_device: no room for a block of %s after offset %llu",
				   job->name, f->path, (unsigned long long)f->io_offset);
	f->io_size = len;
	return 0;
}

/* The file system of fs->f[i] is one an earlier file is on. */
static bool fs_seen(const dev_t *devs, unsigned int i, dev_t dev)
{
	while (i--)
		if (devs[i] == dev)
			return true;
	return false;
}

uint64_t ib_fill_plan(const struct ib_files *fs)
{
	dev_t devs[64];
	uint64_t bytes = 0;
	struct statvfs sv;
	struct stat st;
	unsigned int i;

	for (i = 0; i < fs->nr; i++) {
		const struct ib_file *f = &fs->f[i];

		if (i >= 64 || f->fd < 0 || f->is_bdev || fstat(f->fd, &st) < 0)
			return 0;
		bytes += (uint64_t)st.st_size > f->io_offset ? (uint64_t)st.st_size - f->io_offset : 0;
		devs[i] = st.st_dev;
		if (fs_seen(devs, i, st.st_dev))
			continue;
		if (fstatvfs(f->fd, &sv) < 0)
			return 0;
		bytes += (uint64_t)sv.f_bavail * sv.f_frsize;
	}
	return bytes;
}
