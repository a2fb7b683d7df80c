// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files iobench creates or truncates (targets laid out, reports, logs,
 * state files): opened without following a symbolic link the kernel's
 * fs.protected_symlinks=1 would refuse (a link in a sticky world-writable
 * directory, owned neither by the caller nor by the directory's owner),
 * whatever that sysctl says on this machine; a report or log that is a
 * block device refused on the descriptor opened; and only a regular file
 * iobench opened is ever removed again (never a symlink, a device node, a
 * FIFO or /dev/stdout).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iobench/safe_open.h"

/* The directory part of path ("." for a bare name) into dir. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/*
 * path's last component is a symbolic link: may it be followed? Not when
 * it sits in a sticky world-writable directory (/tmp) and belongs neither
 * to us nor to the directory's owner: anyone could have planted it there.
 * Such a link cannot be replaced by another user once checked (sticky).
 */
static int link_followable(const char *path, struct ib_diag *d)
{
	char dir[PATH_MAX];
	struct stat ds, ls;

	dir_of(path, dir, sizeof(dir));
	if (lstat(path, &ls) < 0 || stat(dir, &ds) < 0)
		return 0; /* gone or unreadable: the open says what it finds */
	if (!S_ISLNK(ls.st_mode) || !(ds.st_mode & S_ISVTX) ||
	    !(ds.st_mode & S_IWOTH) || ls.st_uid == geteuid() ||
	    ls.st_uid == ds.st_uid)
		return 0;
	return ib_diag_set(d, ELOOP,
			   "%s: a symbolic link owned by uid %u in the sticky world-writable directory %s; refusing to follow it",
			   path, (unsigned int)ls.st_uid, dir);
}

/* Did open(O_NOFOLLOW) fail with err because path ends in a symlink? */
static bool at_link(const char *path, int err)
{
	struct stat ls;

	/* ELOOP; EACCES with O_CREAT on a link in a sticky directory */
	return (err == ELOOP || err == EACCES) && lstat(path, &ls) == 0 &&
	       S_ISLNK(ls.st_mode);
}

int ib_safety_open(const char *path, int flags, struct ib_diag *d)
{
	int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0644), err, ret;

	if (fd >= 0)
		return fd;
	err = errno;
	if (!(flags & O_NOFOLLOW) && at_link(path, err)) {
		ret = link_followable(path, d);
		if (ret)
			return ret;
		fd = open(path, flags | O_CLOEXEC, 0644);
		if (fd >= 0)
			return fd;
		err = errno;
	}
	if (err == ELOOP)
		return ib_diag_set(d, ELOOP, "%s: %s", path, strerror(ELOOP));
	return -err;
}

static int refuse_device(const char *what, const char *path, struct ib_diag *d)
{
	return ib_diag_set(d, EPERM,
			   "%s: %s is a block device; refusing to write a report or log onto it",
			   what, path);
}

int ib_safety_check_output(const char *what, const char *path,
			   struct ib_diag *d)
{
	struct stat st;

	if (!path[0] || stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return refuse_device(what, path, d);
}

int ib_safety_open_log(const char *what, const char *path, int flags,
		       struct ib_diag *d)
{
	struct stat st;
	int fd = ib_safety_open(path, (flags & ~O_TRUNC) | O_NOCTTY, d);

	if (fd == -ELOOP)
		return fd;
	if (fd < 0)
		return ib_diag_set(d, -fd, "cannot write %s: %s", path, strerror(-fd));
	if (fstat(fd, &st) < 0 || S_ISBLK(st.st_mode)) {
		close(fd);
		return refuse_device(what, path, d);
	}
	if ((flags & O_TRUNC) && S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0) {
		int err = errno;

		close(fd);
		return ib_diag_set(d, err, "cannot write %s: %s", path, strerror(err));
	}
	return fd;
}

int ib_safety_probe_output(const char *what, const char *path,
			   struct ib_diag *d)
{
	int fd;

	if (!path[0])
		return 0;
	fd = ib_safety_open_log(what, path, O_WRONLY | O_NONBLOCK, d);
	if (fd == -ENOENT) {
		/* not there yet: made and removed again, so nothing is left */
		fd = ib_safety_open(path, O_WRONLY | O_CREAT | O_EXCL, d);
		if (fd >= 0)
			unlink(path);
	}
	if (fd >= 0) {
		close(fd);
		d->msg[0] = '\0';
		return 0;
	}
	if (fd == -ELOOP)
		return fd;
	return ib_diag_set(d, -fd, "%s: cannot write %s: %s", what, path,
			   strerror(-fd));
}

FILE *ib_safety_open_output(const char *what, const char *path,
			    struct ib_diag *d)
{
	int fd = ib_safety_open_log(what, path, O_WRONLY | O_CREAT | O_TRUNC, d);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		ib_diag_set(d, errno, "cannot write %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

void ib_safety_fd_id(int fd, struct ib_out_id *id)
{
	struct stat st;

	id->reg = fd > STDERR_FILENO && !fstat(fd, &st) && S_ISREG(st.st_mode);
	id->dev = id->reg ? st.st_dev : 0;
	id->ino = id->reg ? st.st_ino : 0;
}

void ib_safety_out_id(FILE *f, struct ib_out_id *id)
{
	ib_safety_fd_id(f && f != stdout && f != stderr ? fileno(f) : -1, id);
}

void ib_safety_remove_output(const char *path, const struct ib_out_id *id)
{
	struct stat st;

	if (id->reg && !lstat(path, &st) && S_ISREG(st.st_mode) &&
	    st.st_dev == id->dev && st.st_ino == id->ino)
		unlink(path);
}
