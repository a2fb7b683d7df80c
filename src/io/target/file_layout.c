// SPDX-License-Identifier: GPL-2.0-only
/*
 * Job targets before the job opens them: probing what exists, sizing each
 * file's region, O_DIRECT alignment checks, creating and laying out the
 * files (ib_files_prepare, ib_files_layout, ib_files_virtual; file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>
#include "iobench/file.h"
#include "iobench/ioerr.h"
#include "iobench/jobseed.h"
#include "iobench/rand.h"
#include "iobench/safe_open.h"
#include "iobench/source_paced.h"
#include "src/io/kabi.h"
#include "src/io/trim.h"
#include "target_priv.h"

#define LAYOUT_CHUNK (1u << 20)


/* The kernel's O_DIRECT offset alignment for a file; 512 when it won't say. */
static unsigned int dio_alignment(const char *path)
{
	uint32_t stx[64];

	if (!kabi_statx(AT_FDCWD, path, 0, KABI_STATX_DIOALIGN, stx) &&
	    (stx[0] & KABI_STATX_DIOALIGN) && stx[KABI_STX_DIO_OFFSET_ALIGN])
		return stx[KABI_STX_DIO_OFFSET_ALIGN];
	return 512;
}

static int probe_bdev(struct ib_file *f, struct ib_diag *d)
{
	uint64_t size;
	int fd, lbs, ret = 0;

	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ib_diag_set(d, errno, "%s: open: %s", f->path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &size) < 0 || ioctl(fd, BLKSSZGET, &lbs) < 0)
		ret = ib_diag_set(d, errno, "%s: cannot get device size: %s",
				  f->path, strerror(errno));
	close(fd);
	if (ret)
		return ret;
	f->is_bdev = true;
	f->real_size = size;
	f->lbs = (unsigned int)lbs;
	return 0;
}

/*
 * A missing file is created at layout, with any missing directories on its
 * path (as fio does). Check now, before anything is written, that the
 * nearest existing ancestor is a directory we may create entries in.
 */
static int check_creatable(const char *path, struct ib_diag *d)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
		if (stat(dir, &st) == 0)
			break;
		if (errno != ENOENT)
			return ib_diag_set(d, errno, "%s: cannot create: %s: %s", path,
					   dir, strerror(errno));
		if (!slash || slash == dir)
			break;
	}
	if (!S_ISDIR(st.st_mode))
		return ib_diag_set(d, ENOTDIR, "%s: cannot create: %s is not a directory",
				   path, dir);
	if (access(dir, W_OK | X_OK) < 0)
		return ib_diag_set(d, errno, "%s: cannot create in %s: %s", path, dir,
				   strerror(errno));
	return 0;
}

/* Fill real_size/lbs/is_bdev; *exists tells whether the path is there. */
static int probe_file(struct ib_file *f, bool *exists, struct ib_diag *d)
{
	struct stat st;

	*exists = false;
	f->lbs = 512;
	if (stat(f->path, &st) < 0) {
		if (errno == ENOENT)
			return check_creatable(f->path, d);
		return ib_diag_set(d, errno, "%s: %s", f->path, strerror(errno));
	}
	*exists = true;
	if (S_ISDIR(st.st_mode))
		return ib_diag_set(d, EISDIR, "filename %s is a directory", f->path);
	if (S_ISBLK(st.st_mode))
		return probe_bdev(f, d);
	if (!S_ISREG(st.st_mode))
		return ib_diag_set(d, EINVAL,
				   "%s: not a regular file or block device", f->path);
	f->real_size = (uint64_t)st.st_size;
	f->lbs = dio_alignment(f->path);
	return 0;
}

/*
 * filetype=file or block: what every target must be. fio takes the type
 * instead of a stat; iobench stats each target anyway (its safety checks
 * need the type), so a target of another type is refused here.
 */
static int check_filetype(const struct ib_job *job, const struct ib_file *f,
			  bool exists, struct ib_diag *d)
{
	if (job->filetype == IB_FILETYPE_BLOCK && !f->is_bdev)
		return ib_diag_set(d, ENOTBLK, "job '%s': filetype=block: %s is %s",
				   job->name, f->path,
				   exists ? "not a block device" : "missing (a block device is not created)");
	if (job->filetype == IB_FILETYPE_FILE && f->is_bdev)
		return ib_diag_set(d, EINVAL, "job '%s': filetype=file: %s is a block device",
				   job->name, f->path);
	return 0;
}

static uint64_t min_bs(const struct ib_job *job)
{
	uint64_t m = UINT64_MAX;
	int dd;

	for (dd = IB_DDIR_READ; dd <= IB_DDIR_WRITE; dd++)
		if (ib_job_dir_active(job, dd) && job->bs.min[dd] < m)
			m = job->bs.min[dd];
	return m == UINT64_MAX ? 4096 : m;
}

static uint64_t file_len(const struct ib_job *job, const struct ib_file *f,
			 unsigned int idx, unsigned int nr)
{
	struct ib_rand r;
	uint64_t span, len;

	if (job->filesize_min) {
		span = job->filesize_max - job->filesize_min;
		if (!span)
			return job->filesize_min;
		ib_rand_seed(&r, ib_rand_job_seed(job, IB_STREAM_FILESIZE) + idx);
		len = job->filesize_min + ib_rand_below(&r, span + 1);
		return len - len % min_bs(job);	/* fio: whole blocks */
	}
	if (job->size_pct)
		return f->real_size * job->size_pct / 100;
	if (job->size)
		return job->size / nr;
	return 0;
}

/*
 * Where the job's region of f starts: offset (or offset=N% of the file)
 * plus clone x offset_increment (or N% of the file). With either as a
 * percentage the sum is aligned up to offset_align or the smallest block
 * size, as fio does.
 */
static int region_base(const struct ib_job *job, const struct ib_file *f,
		       uint64_t *out, struct ib_diag *d)
{
	uint64_t al = job->offset_align ? job->offset_align : min_bs(job);
	uint64_t base, inc, step;

	base = job->offset_pct ? f->real_size * job->offset_pct / 100 : job->offset;
	inc = job->offset_increment_pct ?
	      f->real_size * job->offset_increment_pct / 100 : job->offset_increment;
	if (__builtin_mul_overflow((uint64_t)job->clone, inc, &step) ||
	    __builtin_add_overflow(base, step, out))
		return ib_diag_set(d, EINVAL,
				   "job '%s': offset=%llu + clone %u x offset_increment=%llu overflows 64 bits",
				   job->name, (unsigned long long)base, job->clone,
				   (unsigned long long)inc);
	if ((job->offset_pct || job->offset_increment_pct) && *out % al)
		*out += al - *out % al;	/* from a percentage: below 2^63 */
	return 0;
}

/* The region [base, base + len) of f: within what the kernel and the
 * device take, and a block of mbs at least. */
static int check_region(const struct ib_job *job, const struct ib_file *f,
			uint64_t base, uint64_t len, uint64_t mbs, struct ib_diag *d)
{
	if (base > INT64_MAX || len > INT64_MAX - base)
		return ib_diag_set(d, EINVAL,
				   "job '%s': offset=%llu + size=%llu of %s is past the largest offset the kernel takes (2^63-1)",
				   job->name, (unsigned long long)base,
				   (unsigned long long)len, f->path);
	if (f->is_bdev && base + len > f->real_size)
		return ib_diag_set(d, EINVAL,
				   "job '%s': offset+size (%llu) is past the end of %s (%llu bytes)",
				   job->name, (unsigned long long)(base + len), f->path,
				   (unsigned long long)f->real_size);
	if (len < mbs)
		return ib_diag_set(d, EINVAL,
				   "job '%s': size %llu of %s is smaller than bs=%llu",
				   job->name, (unsigned long long)len, f->path,
				   (unsigned long long)mbs);
	return 0;
}

/* Region of file idx for this job: io_offset and io_size. */
static int size_region(const struct ib_job *job, struct ib_file *f,
		       unsigned int idx, unsigned int nr, bool exists,
		       struct ib_diag *d)
{
	uint64_t mbs = min_bs(job), base = 0, len;
	int ret = region_base(job, f, &base, d);

	if (ret)
		return ret;
	if (job->file_append && !f->is_bdev)
		base = f->real_size; /* fio: the offset is the file's end */
	len = file_len(job, f, idx, nr);
	if (job->filesize_min && !job->file_append && !f->is_bdev) {
		/* fio: the file is filesize= long, the region from the
		 * offset to its end */
		if (base + mbs > len)
			return ib_diag_set(d, EINVAL,
					   "job '%s': offset %llu leaves less than bs=%llu of filesize=%llu (%s)",
					   job->name, (unsigned long long)base,
					   (unsigned long long)mbs,
					   (unsigned long long)len, f->path);
		len -= base;
	}
	if (!len && job->fill_device && !f->is_bdev) {
		ret = ib_fill_len(job, f, base, &len, d);
		if (ret)
			return ret;
		len -= len % mbs;
	}
	if (job->size_pct) {	/* fio: up to the file's end, whole blocks */
		if (base < f->real_size && len > f->real_size - base)
			len = f->real_size - base;
		len -= len % mbs;
	}
	if (!len) {
		if (!exists || (!f->is_bdev && !f->real_size))
			return ib_diag_set(d, EINVAL,
					   "job '%s': you need to specify size= (%s %s)",
					   job->name, f->path,
					   exists ? "is empty" : "does not exist");
		if (base >= f->real_size)
			return ib_diag_set(d, EINVAL,
					   "job '%s': offset %llu is past the end of %s (%llu bytes)",
					   job->name, (unsigned long long)base, f->path,
					   (unsigned long long)f->real_size);
		len = f->real_size - base;
	}
	ret = check_region(job, f, base, len, mbs, d);
	if (ret)
		return ret;
	f->io_offset = base;
	f->io_size = len;
	return 0;
}

/* Why O_DIRECT cannot work for this job on f ("" if it can), in why. */
static void dio_misaligned(const struct ib_job *job, const struct ib_file *f,
			   char *why, size_t len)
{
	static const char *const names[] = { "bs (read)", "bs (write)" };
	uint64_t lbs = f->lbs;
	int dd;

	why[0] = '\0';
	for (dd = IB_DDIR_READ; dd <= IB_DDIR_WRITE; dd++) {
		if (!ib_job_dir_active(job, dd))
			continue;
		if (job->bs.min[dd] % lbs || job->bs.max[dd] % lbs ||
		    (job->bs.align[dd] && job->bs.align[dd] % lbs)) {
			snprintf(why, len, "%s=%llu is not a multiple of %llu, the direct I/O alignment of %s",
				 names[dd], (unsigned long long)job->bs.min[dd],
				 (unsigned long long)lbs, f->path);
			return;
		}
	}
	for (dd = IB_DDIR_READ; dd <= IB_DDIR_WRITE; dd++)
		for (unsigned int k = 0; k < job->bssplit[dd].nr; k++)
			if (ib_job_dir_active(job, dd) && job->bssplit[dd].bs[k] % lbs) {
				snprintf(why, len, "bssplit size %u is not a multiple of %llu, the direct I/O alignment of %s",
					 job->bssplit[dd].bs[k], (unsigned long long)lbs, f->path);
				return;
			}
	if (job->rw_seq_add % (int64_t)lbs) {
		snprintf(why, len, "rw=%s:%lld moves offsets off the direct I/O alignment (%llu) of %s",
			 ib_rw_name(job->rw), (long long)job->rw_seq_add,
			 (unsigned long long)lbs, f->path);
		return;
	}
	if (f->io_offset % lbs)
		snprintf(why, len, "offset %llu is not a multiple of %llu, the direct I/O alignment of %s",
			 (unsigned long long)f->io_offset, (unsigned long long)lbs,
			 f->path);
}

/*
 * Does the filesystem holding f refuse O_DIRECT? Opened read-only with
 * O_DIRECT if it exists, else as an O_TMPFILE (unnamed: gone at close) in
 * the directory it will be created in. EINVAL there, where the same open
 * without O_DIRECT works, is a refusal; anything else is left to the job.
 */
static bool dio_refused(const struct ib_file *f, bool exists)
{
	char dir[PATH_MAX];
	int fd, err;

	if (exists) {
		fd = open(f->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		err = errno;
		if (fd >= 0)
			close(fd);
		return fd < 0 && err == EINVAL;
	}
	ib_target_existing_dir(f->path, dir, sizeof(dir));
	fd = open(dir, O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
	err = errno;
	if (fd >= 0 || err != EINVAL) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * O_DIRECT for f: given direct=1 fails the job now, before anything is
 * written; a default one turns the job buffered (fs->direct_why says why).
 */
static int check_dio(const struct ib_job *job, struct ib_files *fs,
		     const struct ib_file *f, bool exists, struct ib_diag *d)
{
	char why[sizeof(fs->direct_why)];

	if (!fs->direct)
		return 0;
	if (dio_refused(f, exists))
		snprintf(why, sizeof(why), "the filesystem of %s does not support O_DIRECT",
			 f->path);
	else
		dio_misaligned(job, f, why, sizeof(why));
	if (!why[0])
		return 0;
	if (job->direct_given)
		return ib_diag_set(d, EINVAL, "job '%s': %s (direct=1)", job->name, why);
	fs->direct = false;
	memcpy(fs->direct_why, why, sizeof(why));
	return 0;
}

/*
 * Random data into fd from pos up to *need; fill_device: up to where the
 * file system is full, *need cut there. 0 or -errno (d set).
 */
static int write_data(const struct ib_job *job, const struct ib_file *f, int fd,
		      uint64_t pos, uint64_t *need, const volatile sig_atomic_t *stop,
		      struct ib_diag *d)
{
	char *buf = malloc(LAYOUT_CHUNK);
	struct ib_rand r;
	int ret = 0;
	ssize_t n;

	if (!buf)
		return ib_diag_set(d, ENOMEM, "no memory for layout");
	ib_rand_seed(&r, ib_rand_job_seed(job, IB_STREAM_DATA));
	while (!ret && pos < *need) {
		size_t chunk = *need - pos < LAYOUT_CHUNK ? *need - pos : LAYOUT_CHUNK;

		ib_rand_fill(&r, buf, chunk);
		n = pwrite(fd, buf, chunk, (off_t)pos);
		if (n < 0 && ib_err_fill_end(job, errno))
			*need = pos;	/* fill_device: the file system is full */
		else if (n <= 0)
			ret = ib_diag_set(d, n < 0 ? errno : EIO,
					  "%s: laying out at offset %llu: %s", f->path,
					  (unsigned long long)pos,
					  strerror(n < 0 ? errno : EIO));
		else {
			pos += (uint64_t)n;
			if (stop && *stop)
				ret = ib_diag_set(d, EINTR, "%s: layout interrupted", f->path);
		}
	}
	free(buf);
	return ret;
}

/* Grow a regular file to `need` bytes; data already there is kept. */
static int extend_file(const struct ib_job *job, struct ib_file *f, uint64_t need,
		       const volatile sig_atomic_t *stop, struct ib_diag *d)
{
	bool fill = (job->rw & IB_RW_READ) || job->overwrite;
	int fd, ret;

	ret = ib_file_make_parents(f->path, d);
	if (ret)
		return ret;
	fd = ib_safety_open(f->path, O_WRONLY | O_CREAT, d);
	if (fd == -ELOOP)
		return fd;
	if (fd < 0)
		return ib_diag_set(d, -fd, "%s: cannot create: %s", f->path,
				   strerror(-fd));
	ret = ib_file_verify_fd(f, fd, d);
	if (!ret && !fill && !job->fill_device) /* fill_device: its writes find the space */
		ret = ib_files_prealloc(job, fd, f->path, f->real_size, need, d);
	else if (!ret && fill) /* filled files are allocated by the data written */
		ret = write_data(job, f, fd, f->real_size, &need, stop, d);
	if (!ret && fill && job->create_fsync && fsync(fd) < 0)
		ret = ib_diag_set(d, errno, "%s: fsync after layout: %s", f->path,
				  strerror(errno));
	close(fd);
	if (!ret)
		f->real_size = need;
	if (!ret && need < f->io_offset + f->io_size)
		ret = ib_fill_shrink(job, f, min_bs(job), d);
	return ret;
}

static int layout(const struct ib_job *job, struct ib_files *fs, bool readonly,
		  FILE *msg, const volatile sig_atomic_t *stop, struct ib_diag *d)
{
	uint64_t total = 0;
	unsigned int i, n = 0;
	struct stat st;
	int ret;

	/* an earlier job (a clone sharing the file) may have laid it out */
	for (i = 0; i < fs->nr; i++)
		if (!fs->f[i].is_bdev && stat(fs->f[i].path, &st) == 0)
			fs->f[i].real_size = (uint64_t)st.st_size;
	for (i = 0; i < fs->nr; i++) {
		struct ib_file *f = &fs->f[i];

		if (f->is_bdev || f->real_size >= f->io_offset + f->io_size)
			continue;
		if (readonly)
			return ib_diag_set(d, EROFS,
					   "job '%s': %s would have to be created or extended, refused by --readonly",
					   job->name, f->path);
		n++;
		total += f->io_offset + f->io_size;
	}
	if (!n || (job->create_on_open && !(job->rw & IB_RW_READ)))
		return 0;
	if (msg && n == 1)
		fprintf(msg, "%s: Laying out IO file (1 file / %lluMiB)\n", job->name,
			(unsigned long long)(total >> 20));
	else if (msg)
		fprintf(msg, "%s: Laying out IO files (%u files / total %lluMiB)\n",
			job->name, n, (unsigned long long)(total >> 20));
	for (i = 0; i < fs->nr; i++) {
		struct ib_file *f = &fs->f[i];

		if (f->is_bdev || f->real_size >= f->io_offset + f->io_size)
			continue;
		ret = extend_file(job, f, f->io_offset + f->io_size, stop, d);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * openfiles=N below the number of files (source_files.h) wraps the offset
 * generator: refused where another source or fixed fds are used.
 */
static int check_openfiles(const struct ib_job *job, const struct ib_files *fs,
			   struct ib_diag *d)
{
	const char *why = NULL;

	if (!job->openfiles || job->openfiles >= fs->nr)
		return 0;
	if (job->verify.type)
		why = "verify";
	else if (job->replay.iolog[0])
		why = "read_iolog";
	else if (ib_job_paced(job))
		why = "rate or thinktime options";
	else if (!strcmp(job->ioengine, "mmap"))
		why = "ioengine=mmap";
	else if (job->engine.registerfiles)
		why = "registerfiles";
	if (why)
		return ib_diag_set(d, ENOTSUP,
				   "openfiles=%u with %s: fewer open files than the job's %u is not supported by iobench",
				   job->openfiles, why, fs->nr);
	return 0;
}

int ib_files_prepare(const struct ib_job *job, struct ib_files *fs,
		     struct ib_diag *d)
{
	unsigned int i;
	bool exists;
	int ret;

	ret = check_openfiles(job, fs, d);
	if (ret)
		return ret;
	for (i = 0; i < fs->nr; i++) {
		ret = probe_file(&fs->f[i], &exists, d);
		if (!ret)
			ret = check_filetype(job, &fs->f[i], exists, d);
		if (!ret && !exists && !job->allow_file_create)
			ret = ib_diag_set(d, ENOENT,
					  "job '%s': %s does not exist and allow_file_create=0",
					  job->name, fs->f[i].path);
		if (!ret)
			ret = size_region(job, &fs->f[i], i, fs->nr, exists, d);
		if (!ret)
			ret = check_dio(job, fs, &fs->f[i], exists, d);
		if (!ret)
			ret = ib_target_check_rwf(job, fs, &fs->f[i], exists, d);
		if (!ret && (job->rw & IB_RW_TRIM))
			ret = ib_trim_check(&fs->f[i], d);
		if (ret)
			return ret;
	}
	return 0;
}

unsigned int ib_files_need_layout(const struct ib_files *fs)
{
	unsigned int i, n = 0;

	for (i = 0; i < fs->nr; i++)
		if (!fs->f[i].is_bdev &&
		    fs->f[i].real_size < fs->f[i].io_offset + fs->f[i].io_size)
			n++;
	return n;
}

int ib_files_layout(const struct ib_job *job, struct ib_files *fs,
		    bool readonly, FILE *msg, const volatile sig_atomic_t *stop,
		    struct ib_diag *d)
{
	return layout(job, fs, readonly, msg, stop, d);
}

int ib_files_virtual(const struct ib_job *job, struct ib_files *fs,
		     struct ib_diag *d)
{
	unsigned int i;

	for (i = 0; i < fs->nr; i++) {
		struct ib_file *f = &fs->f[i];

		f->io_offset = job->offset + (uint64_t)job->clone * job->offset_increment;
		f->io_size = job->size_pct ? 0 : job->size / fs->nr;
		if (job->filesize_min)
			f->io_size = job->filesize_min;
		if (f->io_size < min_bs(job))
			return ib_diag_set(d, EINVAL,
					   "job '%s': you need to specify size= (ioengine=%s does no file I/O)",
					   job->name, job->ioengine);
	}
	return 0;
}

