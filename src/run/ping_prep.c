// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping`: the target made ready the way ioping 1.3 does it
 * (ping.h's notes, ping_run.h's contract), with iobench's safety checks
 * on top for block devices that would be written.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include "iobench/job.h"
#include "iobench/job_setup.h"
#include "iobench/ping_run.h"
#include "iobench/rand.h"
#include "iobench/safety.h"

static int open_flags(const struct ib_ping_opts *o)
{
	int fl = O_CLOEXEC;

	if (o->sync)
		fl |= O_SYNC;
	if (o->dsync)
		fl |= O_DSYNC;
	return fl;
}

/* The filesystem holding the target: "(ext4 /dev/loop0 54.7 MiB)" */
static void describe_fs(const struct stat *st, const char *path, struct ib_ping_prep *p,
			struct ib_diag *d)
{
	struct statvfs vfs;

	ib_ping_describe_fs(NULL, st->st_dev, &p->tgt, d);
	if (!statvfs(path, &vfs))
		p->tgt.device_size = (int64_t)(vfs.f_blocks * vfs.f_frsize);
}

/* Random data over the working set in request-sized writes, then fsync. */
static int fill(const struct ib_ping_opts *o, struct ib_ping_prep *p, struct ib_diag *d)
{
	uint64_t pos = p->work_offset, end = p->work_offset + (uint64_t)p->work_size;
	size_t len = (size_t)o->size;
	struct ib_rand rnd;
	char *buf = malloc(len);
	ssize_t n;

	if (!buf)
		return ib_diag_set(d, ENOMEM, "buffer allocation failed");
	ib_rand_seed(&rnd, (uint32_t)time(NULL));
	ib_rand_fill(&rnd, buf, len);
	errno = 0;
	for (; pos < end; pos += (uint64_t)n) {
		if (end - pos < len)
			len = (size_t)(end - pos);
		n = pwrite(p->fd, buf, len, (off_t)pos);
		if (n <= 0)
			break;
	}
	free(buf);
	if (pos < end)
		return ib_diag_set(d, errno ? errno : EIO, "preparation write failed: %s",
				   strerror(errno ? errno : EIO));
	if (fsync(p->fd) < 0)
		return ib_diag_set(d, errno, "fsync failed: %s", strerror(errno));
	return 0;
}

/* -k: DIR/ioping.tmp, kept; reused as is when it holds the working set. */
static int open_kept(const struct ib_ping_opts *o, struct ib_ping_prep *p, struct ib_diag *d)
{
	uint64_t need = p->work_offset + (uint64_t)p->work_size;
	struct stat st;

	snprintf(p->path, sizeof(p->path), "%s/ioping.tmp", o->target);
	p->fd = open(p->path, O_RDWR | O_CREAT | open_flags(o), 0600);
	if (p->fd < 0)
		return ib_diag_set(d, errno, "failed to create temporary file at \"%s\": %s",
				   o->target, strerror(errno));
	if (fstat(p->fd, &st) < 0)
		return ib_diag_set(d, errno, "fstat at \"%s\" failed: %s", p->path,
				   strerror(errno));
	if ((uint64_t)st.st_size >= need && (uint64_t)st.st_blocks * 512 >= need)
		return 0;
	return fill(o, p, d);
}

/* An unnamed file in DIR: O_TMPFILE, or a name unlinked at once. */
static int open_unnamed(const struct ib_ping_opts *o, struct ib_ping_prep *p,
			struct ib_diag *d)
{
	snprintf(p->path, sizeof(p->path), "%s", o->target);
	p->fd = open(o->target, O_RDWR | O_TMPFILE | open_flags(o), 0600);
	if (p->fd < 0) {
		snprintf(p->path, sizeof(p->path), "%s/ioping.tmp.XXXXXX", o->target);
		p->fd = mkostemp(p->path, open_flags(o));
		if (p->fd >= 0 && unlink(p->path) < 0) {
			int err = errno;

			return ib_diag_set(d, err, "unlink \"%s\" failed: %s", p->path,
					   strerror(err));
		}
		snprintf(p->path, sizeof(p->path), "%s", o->target);
	}
	if (p->fd < 0)
		return ib_diag_set(d, errno, "failed to create temporary file at \"%s\": %s",
				   o->target, strerror(errno));
	return fill(o, p, d);
}

static int prep_dir(const struct ib_ping_opts *o, const struct stat *st,
		    struct ib_ping_prep *p, struct ib_diag *d)
{
	int ret;

	p->kind = IB_PING_DIR;
	describe_fs(st, o->target, p, d);
	ret = ib_ping_check_target(o, p->kind, 0, &p->work_size, d);
	if (ret)
		return ret;
	return o->keep ? open_kept(o, p, d) : open_unnamed(o, p, d);
}

static int open_target(const struct ib_ping_opts *o, struct ib_ping_prep *p,
		       struct ib_diag *d)
{
	snprintf(p->path, sizeof(p->path), "%s", o->target);
	p->fd = open(o->target, (o->write ? O_RDWR : O_RDONLY) | open_flags(o));
	if (p->fd < 0)
		return ib_diag_set(d, errno, "failed to open \"%s\": %s", o->target,
				   strerror(errno));
	return 0;
}

static int prep_file(const struct ib_ping_opts *o, const struct stat *st,
		     struct ib_ping_prep *p, struct ib_diag *d)
{
	int ret;

	p->kind = IB_PING_FILE;
	p->size = st->st_size;
	describe_fs(st, o->target, p, d);
	ret = ib_ping_check_target(o, p->kind, p->size, &p->work_size, d);
	return ret ? ret : open_target(o, p, d);
}

static int device_size(const char *path, int64_t *size, struct ib_diag *d)
{
	uint64_t bytes = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return ib_diag_set(d, errno, "failed to open \"%s\": %s", path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
		ret = ib_diag_set(d, errno, "block get size ioctl failed: %s", strerror(errno));
	close(fd);
	*size = (int64_t)bytes;
	return ret;
}

/* A device that would be written: iobench's safety checks (safety.h). */
static int device_safe(const char *path, dev_t rdev, struct ib_diag *d)
{
	static const struct ib_safety_env env = {
		.mountinfo = "/proc/self/mountinfo",
		.swaps = "/proc/swaps",
		.sysfs_dev = "/sys/dev/block",
		.exclusive_open = true,
	};
	struct ib_job job;
	char reason[IB_DIAG_LEN];
	const char *p, *e;
	int ret;

	ib_job_defaults(&job);
	job.rw = IB_RW_WRITE;
	ret = ib_safety_check_bdev(&env, &job, path, rdev, d);
	if (!ret)
		return 0;
	/* "job '': WHY; refusing to write. Use --flag=1 ...": no flag here */
	p = strstr(d->msg, "': ");
	p = p ? p + 3 : d->msg;
	e = strstr(p, "; refusing to write");
	snprintf(reason, sizeof(reason), "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
	return ib_diag_set(d, -ret, "refusing to write: %s (iobench's safety checks)", reason);
}

static int prep_dev(const struct ib_ping_opts *o, const struct stat *st,
		    struct ib_ping_prep *p, struct ib_diag *d)
{
	int ret = 0;

	p->kind = S_ISBLK(st->st_mode) ? IB_PING_BLOCK : IB_PING_CHAR;
	if (p->kind == IB_PING_BLOCK)
		ret = device_size(o->target, &p->size, d);
	if (ret)
		return ret;
	ib_ping_describe_dev(&p->tgt, p->kind, p->size);
	ret = ib_ping_check_target(o, p->kind, p->size, &p->work_size, d);
	if (!ret && o->write && p->kind == IB_PING_BLOCK)
		ret = device_safe(o->target, st->st_rdev, d);
	return ret ? ret : open_target(o, p, d);
}

/* -D after opening (and filling), fadvise(RANDOM) over the working set */
static int finish(const struct ib_ping_opts *o, struct ib_ping_prep *p, FILE *warn,
		  struct ib_diag *d)
{
	int fl;

	if (o->direct) {
		fl = fcntl(p->fd, F_GETFL);
		if (fl < 0 || fcntl(p->fd, F_SETFL, fl | O_DIRECT) < 0)
			return ib_diag_set(d, errno,
					   "fcntl(O_DIRECT) failed, please retry without option -D: %s",
					   strerror(errno));
	}
	if ((!o->linear || !o->cached) &&
	    posix_fadvise(p->fd, (off_t)p->work_offset, (off_t)p->work_size,
			  POSIX_FADV_RANDOM))
		fprintf(warn, "iobench ping: fadvise(RANDOM) failed, operations might perform unneeded readahead\n");
	return 0;
}

int ib_ping_prepare(const struct ib_ping_opts *o, struct ib_ping_prep *p, FILE *warn,
		    struct ib_diag *d)
{
	struct stat st;
	int ret;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->tgt.path = o->target;
	p->work_offset = (uint64_t)o->offset;
	if (stat(o->target, &st) < 0)
		return ib_diag_set(d, errno, "stat \"%s\" failed: %s", o->target,
				   strerror(errno));
	if (S_ISDIR(st.st_mode))
		ret = prep_dir(o, &st, p, d);
	else if (S_ISREG(st.st_mode))
		ret = prep_file(o, &st, p, d);
	else if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))
		ret = prep_dev(o, &st, p, d);
	else
		ret = ib_diag_set(d, EINVAL, "unsupported destination: \"%s\"", o->target);
	if (!ret)
		ret = finish(o, p, warn, d);
	if (ret)
		ib_ping_release(p);
	return ret;
}

void ib_ping_release(struct ib_ping_prep *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}
