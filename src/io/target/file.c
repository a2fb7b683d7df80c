// SPDX-License-Identifier: GPL-2.0-only
/*
 * Job targets: naming (filename=, directory=, filename_format=), opening,
 * renewing and closing them. Sizing, alignment checks and layout are
 * file_layout.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>
#include "iobench/file.h"
#include "iobench/jobseed.h"
#include "iobench/rand.h"
#include "iobench/safe_open.h"
#include "iobench/source_paced.h"
#include "src/io/trim.h"
#include "target_priv.h"

static int add_file(struct ib_files *fs, const char *dir, const char *name,
		    struct ib_diag *d)
{
	struct ib_file *nf, *f;
	int n;

	nf = realloc(fs->f, (fs->nr + 1) * sizeof(*fs->f));
	if (!nf)
		return ib_diag_set(d, ENOMEM, "no memory for file list");
	fs->f = nf;
	f = &fs->f[fs->nr];
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->reg_index = -1;
	if (dir[0] && name[0] != '/')
		n = asprintf(&f->path, "%s/%s", dir, name);
	else
		n = asprintf(&f->path, "%s", name);
	if (n < 0) {
		f->path = NULL;
		return ib_diag_set(d, ENOMEM, "no memory for file list");
	}
	fs->nr++;
	if (n >= PATH_MAX)
		return ib_diag_set(d, ENAMETOOLONG, "filename: path too long: %s",
				   name);
	return 0;
}

/* filename=a:b:c with '\:' for a literal colon. */
static int split_filenames(const struct ib_job *job, struct ib_files *fs,
			   struct ib_diag *d)
{
	char name[PATH_MAX];
	const char *p = job->filename;
	size_t n = 0;
	int ret;

	for (;; p++) {
		if (*p == '\\' && p[1] == ':') {
			p++;
		} else if (*p == ':' || !*p) {
			name[n] = '\0';
			if (n) {
				ret = add_file(fs, job->directory, name, d);
				if (ret)
					return ret;
			}
			n = 0;
			if (!*p)
				break;
			continue;
		}
		if (n + 1 >= sizeof(name))
			return ib_diag_set(d, ENAMETOOLONG, "filename: name too long");
		name[n++] = *p;
	}
	if (!fs->nr)
		return ib_diag_set(d, EINVAL, "filename: no file name given");
	return 0;
}

/*
 * opendir=DIR: every regular file below dir, in readdir order, a
 * subdirectory's files where it is met (fio's walk; links are not
 * followed).
 */
static int add_dir(struct ib_files *fs, const char *dir, unsigned int depth,
		   struct ib_diag *d)
{
	char path[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *dp;
	int ret = 0;

	if (depth > 64)
		return ib_diag_set(d, ELOOP, "opendir: %s: more than 64 levels deep", dir);
	dp = opendir(dir);
	if (!dp)
		return ib_diag_set(d, errno, "opendir=%s: %s", dir, strerror(errno));
	while (!ret && (e = readdir(dp))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path))
			ret = ib_diag_set(d, ENAMETOOLONG, "opendir: path too long: %s/%s",
					  dir, e->d_name);
		else if (lstat(path, &st) < 0)
			ret = ib_diag_set(d, errno, "opendir: %s: %s", path, strerror(errno));
		else if (S_ISDIR(st.st_mode))
			ret = add_dir(fs, path, depth + 1, d);
		else if (S_ISREG(st.st_mode))
			ret = add_file(fs, "", path, d);
	}
	closedir(dp);
	return ret;
}

/* The job's name in its files' names (job.h: section). */
static const char *job_name(const struct ib_job *job)
{
	return job->section[0] ? job->section : job->name;
}

/*
 * With no filename= and one file, a job name that names an existing file
 * other than a regular one (a block device, a symbolic link: lstat, as
 * fio) is the target itself, not a NAME.0.0 of its own beside it.
 */
static bool name_is_target(const struct ib_job *job)
{
	struct stat st;

	return job->nrfiles == 1 && lstat(job_name(job), &st) == 0 &&
	       !S_ISREG(st.st_mode);
}

/*
 * A default file name from filename_format: $jobname, $jobnum (the clone),
 * $filenum and $clientuid (empty: no client/server mode). Returns 0 or
 * -ENAMETOOLONG.
 */
static int format_name(const struct ib_job *job, unsigned int filenum,
		       char *buf, size_t len, struct ib_diag *d)
{
	const char *fmt = job->filename_format[0] ? job->filename_format
						  : "$jobname.$jobnum.$filenum";
	size_t n = 0;
	int w;

	while (*fmt) {
		w = 0;
		if (!strncmp(fmt, "$jobname", 8)) {
			w = snprintf(buf + n, len - n, "%s", job_name(job));
			fmt += 8;
		} else if (!strncmp(fmt, "$jobnum", 7)) {
			w = snprintf(buf + n, len - n, "%u", job->clone);
			fmt += 7;
		} else if (!strncmp(fmt, "$filenum", 8)) {
			w = snprintf(buf + n, len - n, "%u", filenum);
			fmt += 8;
		} else if (!strncmp(fmt, "$clientuid", 10)) {
			fmt += 10;
		} else if (n + 1 < len) {
			buf[n] = *fmt++;
			w = 1;
		} else {
			w = (int)len;
		}
		if (w < 0 || n + (size_t)w >= len)
			return ib_diag_set(d, ENAMETOOLONG, "filename_format: name too long");
		n += (size_t)w;
	}
	buf[n] = '\0';
	return 0;
}

int ib_files_resolve(const struct ib_job *job, struct ib_files *fs,
		     struct ib_diag *d)
{
	char name[PATH_MAX];
	unsigned int i;
	int ret;

	fs->f = NULL;
	fs->nr = 0;
	fs->direct = job->direct;
	fs->direct_why[0] = '\0';
	if (job->directory[0]) {
		struct stat st;

		/* unlike a filename's directories, directory= must exist (as fio) */
		if (stat(job->directory, &st) < 0)
			return ib_diag_set(d, errno, "directory=%s: %s", job->directory,
					   strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return ib_diag_set(d, ENOTDIR, "directory=%s: not a directory",
					   job->directory);
	}
	if (job->opendir[0]) { /* its files, then filename='s (fio's order) */
		ret = add_dir(fs, job->opendir, 0, d);
		if (!ret && !fs->nr)
			ret = ib_diag_set(d, ENOENT, "opendir=%s: no regular file below it",
					  job->opendir);
		if (ret || !job->filename[0])
			return ret;
	}
	if (job->filename[0])
		return split_filenames(job, fs, d);
	if (name_is_target(job))
		return add_file(fs, job->directory, job_name(job), d);
	for (i = 0; i < job->nrfiles; i++) {
		ret = format_name(job, i, name, sizeof(name), d);
		if (!ret)
			ret = add_file(fs, job->directory, name, d);
		if (ret)
			return ret;
	}
	return 0;
}

void ib_files_free(struct ib_files *fs)
{
	unsigned int i;

	for (i = 0; fs->f && i < fs->nr; i++)
		free(fs->f[i].path);
	free(fs->f);
	fs->f = NULL;
	fs->nr = 0;
}

/* The nearest existing directory on the way to a missing file's path. */
void ib_target_existing_dir(const char *path, char *dir, size_t len)
{
	struct stat st;
	char *slash;

	snprintf(dir, len, "%s", path);
	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash) {
			snprintf(dir, len, ".");
			return;
		}
		if (slash == dir) {
			dir[1] = '\0';
			return;
		}
		*slash = '\0';
		if (stat(dir, &st) == 0)
			return;
	}
}

/* mkdir -p of path's directory part; existing directories are fine. */
int ib_file_make_parents(const char *path, struct ib_diag *d)
{
	char dir[PATH_MAX];
	char *p, *end;

	snprintf(dir, sizeof(dir), "%s", path);
	end = strrchr(dir, '/');
	if (!end || end == dir)
		return 0;
	*end = '\0';
	for (p = strchr(dir + 1, '/'); ; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		if (mkdir(dir, 0777) < 0 && errno != EEXIST)
			return ib_diag_set(d, errno, "%s: cannot create directory %s: %s",
					   path, dir, strerror(errno));
		if (!p)
			return 0;
		*p = '/';
	}
}

static int open_flags(const struct ib_job *job, const struct ib_files *fs,
		      bool readonly)
{
	int flags = O_CLOEXEC;

	/* falloc's reads are fallocate(KEEP_SIZE): they need a writable fd */
	if ((ib_job_writes(job) || !strcmp(job->ioengine, "falloc")) && !readonly) {
		flags |= O_RDWR;
		if (job->create_on_open)
			flags |= O_CREAT;
	} else {
		flags |= O_RDONLY;
	}
	if (fs->direct)
		flags |= O_DIRECT;
	if (job->sync_io == IB_SYNC_IO_SYNC)
		flags |= O_SYNC;
	else if (job->sync_io == IB_SYNC_IO_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

/*
 * O_NOATIME for f: a benchmark's reads are not the file's access times'
 * business, and the check costs each read 2-3% of its CPU on a fast target
 * (atime_needs_update, current_time, touch_atime). fio opens every file
 * that is not a regular one so; iobench's defaults every file (as
 * t/io_uring does), which the JSON's effective options count
 * (noatime_files).
 */
static int file_flags(const struct ib_job *job, const struct ib_file *f,
		      int flags)
{
	if (f->is_bdev || job->defaults == IB_DEFAULTS_IOBENCH)
		flags |= O_NOATIME;
	return flags;
}

/* fd or -errno (a writable open through ib_safety_open) */
static int open_once(const char *path, int flags, struct ib_diag *d)
{
	int fd;

	if ((flags & O_ACCMODE) != O_RDONLY)
		return ib_safety_open(path, flags, d);
	fd = open(path, flags, 0644);
	return fd < 0 ? -errno : fd;
}

/*
 * open(2) of f->path; when it may write, the fd verified against what the
 * safety check saw (file_id.c) and closed again if it is not. O_NOATIME
 * is dropped where the kernel refuses it (EPERM: not the file's owner);
 * f->noatime says whether it stuck. fd or -errno.
 */
static int open_checked(struct ib_file *f, int flags, const char *how,
			struct ib_diag *d)
{
	int fd = open_once(f->path, flags, d), ret;

	if (fd == -EPERM && (flags & O_NOATIME)) {
		flags &= ~O_NOATIME;
		fd = open_once(f->path, flags, d);
	}
	if (fd == -ELOOP && (flags & O_ACCMODE) != O_RDONLY)
		return fd;
	if (fd < 0)
		return ib_diag_set(d, -fd, "%s: open%s: %s", f->path, how,
				   strerror(-fd));
	f->noatime = flags & O_NOATIME;
	if ((flags & O_ACCMODE) == O_RDONLY)
		return fd;
	ret = ib_file_verify_fd(f, fd, d);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

int ib_files_open(const struct ib_job *job, struct ib_files *fs, bool readonly,
		  struct ib_diag *d)
{
	int flags = open_flags(job, fs, readonly);
	unsigned int i;

	for (i = 0; i < fs->nr; i++) {
		struct ib_file *f = &fs->f[i];
		int ret = (flags & O_CREAT) ? ib_file_make_parents(f->path, d) : 0;

		if (ret)
			return ret;
		f->fd = open_checked(f, file_flags(job, f, flags),
				     fs->direct ? " with O_DIRECT" : "", d);
		if (f->fd < 0)
			return f->fd;
	}
	return 0;
}

unsigned int ib_files_noatime(const struct ib_files *fs)
{
	unsigned int i, n = 0;

	for (i = 0; i < fs->nr; i++)
		n += fs->f[i].noatime && !fs->f[i].is_bdev;
	return n;
}

/* unlink_each_loop: the old file gone (already gone is fine). */
static int unlink_old(const struct ib_file *f, struct ib_diag *d)
{
	if (unlink(f->path) < 0 && errno != ENOENT)
		return ib_diag_set(d, errno, "%s: unlink: %s", f->path,
				   strerror(errno));
	return 0;
}

/* The new file takes the old one's fd number: engines keep their fds. */
static int renew_file(struct ib_file *f, int flags, struct ib_diag *d)
{
	int fd, ret = unlink_old(f, d);

	if (ret)
		return ret;
	fd = open_checked(f, flags, "", d);
	if (fd < 0)
		return fd;
	if (fd != f->fd && dup3(fd, f->fd, O_CLOEXEC) < 0) {
		int err = errno;

		close(fd);
		return ib_diag_set(d, err, "%s: dup3: %s", f->path, strerror(err));
	}
	if (fd != f->fd)
		close(fd);
	return 0;
}

/* A file openfiles=N keeps closed: unlinked, and empty again if writing. */
static int recreate_closed(struct ib_file *f, int flags, struct ib_diag *d)
{
	int fd, ret = unlink_old(f, d);

	if (ret)
		return ret;
	if (!(flags & O_CREAT))
		return 0;
	fd = open_checked(f, (flags & ~O_DIRECT) | O_CREAT, "", d);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int ib_files_renew(const struct ib_job *job, struct ib_files *fs,
		   bool readonly, struct ib_diag *d)
{
	int flags = open_flags(job, fs, readonly);
	unsigned int i;
	int ret;

	if (flags & O_RDWR)
		flags |= O_CREAT;
	for (i = 0; i < fs->nr; i++) {
		if (fs->f[i].is_bdev)
			continue;
		if (fs->f[i].fd < 0) { /* openfiles=N: a closed one */
			ret = recreate_closed(&fs->f[i],
					      file_flags(job, &fs->f[i], flags), d);
			if (ret)
				return ret;
			continue;
		}
		if (job->fsync_on_close && (flags & O_RDWR))
			fsync(fs->f[i].fd);
		ret = renew_file(&fs->f[i], file_flags(job, &fs->f[i], flags), d);
		if (ret)
			return ret;
	}
	return 0;
}

/* unlink=1 removes the job's own regular file, never what replaced it. */
static bool is_regular(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

void ib_files_close(const struct ib_job *job, struct ib_files *fs)
{
	unsigned int i;

	for (i = 0; i < fs->nr; i++) {
		struct ib_file *f = &fs->f[i];

		if (f->fd >= 0 && job->fsync_on_close && ib_job_writes(job))
			fsync(f->fd); /* fio: errors at close are not reported */
		if (f->fd >= 0)
			close(f->fd);
		f->fd = -1;
		if (job->unlink && !f->is_bdev && is_regular(f->path))
			unlink(f->path);
	}
}
