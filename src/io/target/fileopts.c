// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page cache and allocation options of a job's files, as fio does them
 * (doc/fio-compat.md): fallocate= when a file is laid out; in the job,
 * after the files are opened, pre_read or invalidate, then fadvise_hint.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "iobench/file.h"

#define PRE_READ_CHUNK (1u << 20)

int ib_files_prealloc(const struct ib_job *job, int fd, const char *path,
		      uint64_t from, uint64_t need, struct ib_diag *d)
{
	off_t off = (off_t)from, len = (off_t)(need - from);
	int rc = 0;

	switch (job->fallocate) {
	case IB_FALLOC_NATIVE:
		(void)fallocate(fd, 0, off, len); /* sparse where unsupported */
		break;
	case IB_FALLOC_KEEP:
		(void)fallocate(fd, FALLOC_FL_KEEP_SIZE, off, len);
		break;
	case IB_FALLOC_POSIX:
		rc = posix_fallocate(fd, off, len);
		if (rc)
			return ib_diag_set(d, rc, "%s: fallocate=posix of %llu bytes: %s",
					   path, (unsigned long long)need, strerror(rc));
		break;
	case IB_FALLOC_TRUNCATE:
		break;
	default: /* none: the writes make the file (as fio) */
		return 0;
	}
	/* fio sets the size only by truncate=; keep leaves it */
	if (job->fallocate != IB_FALLOC_TRUNCATE)
		return 0;
	if (ftruncate(fd, (off_t)need) < 0)
		return ib_diag_set(d, errno, "%s: cannot extend to %llu bytes: %s",
				   path, (unsigned long long)need, strerror(errno));
	return 0;
}

/*
 * Read the file's region once, through the job's own fd; with O_DIRECT
 * only whole logical blocks (the unaligned tail is left).
 */
static int pre_read(const struct ib_job *job, const struct ib_file *f,
		    void *buf, struct ib_diag *d)
{
	uint64_t pos = f->io_offset, end = f->io_offset + f->io_size;
	ssize_t n;

	while (pos < end) {
		size_t chunk = end - pos < PRE_READ_CHUNK ? end - pos : PRE_READ_CHUNK;

		if (job->direct && f->lbs)
			chunk -= chunk % f->lbs;
		if (!chunk)
			break;

		n = pread(f->fd, buf, chunk, (off_t)pos);
		if (n < 0)
			return ib_diag_set(d, errno, "%s: pre_read at offset %llu: %s",
					   f->path, (unsigned long long)pos,
					   strerror(errno));
		if (n == 0)
			break; /* end of file */
		pos += (uint64_t)n;
	}
	return 0;
}

/* Drop the region's cached pages; only root may flush a block device. */
static int invalidate(const struct ib_file *f, struct ib_diag *d)
{
	int rc;

	if (f->is_bdev) {
		if (ioctl(f->fd, BLKFLSBUF, 0) < 0 && errno != EACCES && errno != EPERM)
			return ib_diag_set(d, errno, "%s: invalidate (BLKFLSBUF): %s",
					   f->path, strerror(errno));
		return 0;
	}
	rc = posix_fadvise(f->fd, (off_t)f->io_offset, (off_t)f->io_size,
			   POSIX_FADV_DONTNEED);
	if (rc)
		return ib_diag_set(d, rc, "%s: invalidate (fadvise): %s", f->path,
				   strerror(rc));
	return 0;
}

static int advice(const struct ib_job *job)
{
	switch (job->fadvise_hint) {
	case IB_FADV_SEQ:
		return POSIX_FADV_SEQUENTIAL;
	case IB_FADV_RAND:
		return POSIX_FADV_RANDOM;
	case IB_FADV_NOREUSE:
		return POSIX_FADV_NOREUSE;
	case IB_FADV_AUTO:
		return ib_job_random(job) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	default:
		return -1;
	}
}

int ib_files_cache_setup(const struct ib_job *job, struct ib_files *fs,
			 struct ib_diag *d)
{
	void *buf = NULL;
	unsigned int i;
	int rc = 0, adv = advice(job);

	if (job->pre_read && posix_memalign(&buf, 4096, PRE_READ_CHUNK))
		return ib_diag_set(d, ENOMEM, "no memory for pre_read");
	for (i = 0; !rc && i < fs->nr; i++) {
		const struct ib_file *f = &fs->f[i];

		if (job->pre_read)
			rc = pre_read(job, f, buf, d);
		else if (job->invalidate)
			rc = invalidate(f, d);
		/* fio: a refused hint is not an error */
		if (!rc && adv >= 0)
			(void)posix_fadvise(f->fd, (off_t)f->io_offset,
					    (off_t)f->io_size, adv);
	}
	free(buf);
	return rc;
}
