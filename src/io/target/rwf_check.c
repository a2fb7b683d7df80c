// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-I/O flags a job asks for that the target may not do, checked on
 * each target before anything is written (target_priv.h): atomic
 * (RWF_ATOMIC: the file's torn-write limits from statx STATX_WRITE_ATOMIC,
 * the job's write sizes and offsets within them) and uncached
 * (RWF_DONTCACHE: a one-byte read with the flag). A file not created yet
 * is probed as an unnamed O_TMPFILE in the directory it will be made in.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "iobench/file.h"
#include "iobench/job.h"
#include "src/io/kabi.h"
#include "target_priv.h"


/* f opened read-only, or an O_TMPFILE where it will be created; -errno. */
static int probe_open(const struct ib_file *f, bool exists)
{
	char dir[PATH_MAX];
	int fd;

	if (exists) {
		fd = open(f->path, O_RDONLY | O_CLOEXEC);
	} else {
		ib_target_existing_dir(f->path, dir, sizeof(dir));
		fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	}
	return fd < 0 ? -errno : fd;
}

/* The torn-write limits of fd into min and max (0 when it has none). */
static int atomic_limits(int fd, uint32_t *min, uint32_t *max)
{
	uint32_t stx[64];
	int ret = kabi_statx(fd, "", AT_EMPTY_PATH, KABI_STATX_WRITE_ATOMIC, stx);

	if (ret)
		return ret;
	*min = *max = 0;
	if (stx[0] & KABI_STATX_WRITE_ATOMIC) {
		*min = stx[KABI_STX_ATOMIC_MIN];
		*max = stx[KABI_STX_ATOMIC_MAX];
	}
	return 0;
}

static bool pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/*
 * Do the job's writes fit f's torn-write limits min..max? Each write must
 * be one power of two in the limits at an offset that is a multiple of
 * its size (else the kernel fails it with EINVAL). "" or why not, in why.
 */
static void atomic_misfit(const struct ib_job *job, const struct ib_file *f,
			  uint32_t min, uint32_t max, char *why, size_t len)
{
	const struct ib_bssplit *s = &job->bssplit[IB_DDIR_WRITE];
	uint64_t lo = job->bs.min[IB_DDIR_WRITE], hi = job->bs.max[IB_DDIR_WRITE];
	uint64_t al = job->bs.align[IB_DDIR_WRITE];
	bool fit = s->nr || lo == hi;	/* a bsrange writes any multiple of lo */
	unsigned int i;

	/* a split's smallest and largest sizes are lo and hi (validate.c) */
	for (i = 0; i < s->nr; i++)
		fit = fit && pow2(s->bs[i]);
	if (!al)
		al = lo;
	why[0] = '\0';
	if (!s->nr && lo != hi)
		snprintf(why, len, "bsrange=%llu-%llu writes sizes that vary; %s takes one power of two from %u to %u bytes (bs= or bssplit=)",
			 (unsigned long long)lo, (unsigned long long)hi, f->path, min, max);
	else if (!fit || !pow2(lo) || lo < min || hi > max)
		snprintf(why, len, "%s takes writes of one power of two from %u to %u bytes; the job writes %llu%s%.0llu bytes",
			 f->path, min, max, (unsigned long long)lo, lo == hi ? "" : " to ",
			 lo == hi ? 0ull : (unsigned long long)hi);
	else if (f->io_offset % hi)
		snprintf(why, len, "the job's offset %llu in %s is not a multiple of its write size %llu",
			 (unsigned long long)f->io_offset, f->path, (unsigned long long)hi);
	else if (lo != hi && !ib_job_random(job))
		snprintf(why, len, "sequential writes of %llu to %llu bytes land on offsets that are not multiples of their size",
			 (unsigned long long)lo, (unsigned long long)hi);
	else if (ib_job_random(job) && al % hi)
		snprintf(why, len, "random writes of up to %llu bytes at offsets aligned to %llu (blockalign=%llu would do)",
			 (unsigned long long)hi, (unsigned long long)al, (unsigned long long)hi);
}

/* atomic=1 on a writing job: what f and the job's writes must allow. */
static int check_atomic(const struct ib_job *job, const struct ib_files *fs,
			const struct ib_file *f, bool exists, struct ib_diag *d)
{
	uint32_t min = 0, max = 0;
	char why[320];
	int fd, ret;

	if (!fs->direct)
		return ib_diag_set(d, EINVAL,
				   "job '%s': atomic: writes with RWF_ATOMIC need direct=1 (the kernel refuses buffered ones)%s%s",
				   job->name, fs->direct_why[0] ? "; " : "", fs->direct_why);
	fd = probe_open(f, exists);
	if (fd < 0)
		return ib_diag_set(d, -fd, "job '%s': atomic: %s: %s", job->name,
				   f->path, strerror(-fd));
	ret = atomic_limits(fd, &min, &max);
	close(fd);
	if (ret == -EINVAL || ret == -ENOSYS || (!ret && !max))
		return ib_diag_set(d, EOPNOTSUPP,
				   "job '%s': atomic: %s does not support atomic writes (statx reports no torn-write limits)",
				   job->name, f->path);
	if (ret)
		return ib_diag_set(d, -ret, "job '%s': atomic: statx %s: %s",
				   job->name, f->path, strerror(-ret));
	atomic_misfit(job, f, min, max, why, sizeof(why));
	if (why[0])
		return ib_diag_set(d, EINVAL, "job '%s': atomic: %s", job->name, why);
	return 0;
}

/* uncached=N on buffered I/O: does f's file system take RWF_DONTCACHE? */
static int check_uncached(const struct ib_job *job, const struct ib_file *f,
			  bool exists, struct ib_diag *d)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	int fd = probe_open(f, exists), err;

	if (fd < 0)
		return 0;	/* the job's own open says why */
	err = preadv2(fd, &iov, 1, 0, RWF_DONTCACHE) < 0 ? errno : 0;
	close(fd);
	if (err == EOPNOTSUPP)
		return ib_diag_set(d, EOPNOTSUPP,
				   "job '%s': uncached: %s does not support uncached buffered I/O (RWF_DONTCACHE: Linux 6.14 on ext4, xfs, btrfs; not tmpfs)",
				   job->name, f->path);
	return 0;
}

int ib_target_check_rwf(const struct ib_job *job, const struct ib_files *fs,
			const struct ib_file *f, bool exists, struct ib_diag *d)
{
	int ret = 0;

	if (job->engine.atomic && ib_job_dir_active(job, IB_DDIR_WRITE))
		ret = check_atomic(job, fs, f, exists, d);
	if (!ret && job->engine.uncached && !fs->direct)
		ret = check_uncached(job, f, exists, d);
	return ret;
}
