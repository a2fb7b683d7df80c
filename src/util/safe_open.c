// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files iobench creates or truncates (targets laid out, reports, logs,
 * state files): opened without following a symbolic link the kernel's
 * fs.protected_symlinks=1 would refuse (a link in a sticky world-writable
 * directory, owned neither by the caller nor by the directory's owner),
 * at any component of the path, whatever that sysctl says on this machine; a report or log that is a
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
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "iobench/safe_open.h"

#define MAX_LINKS 40	/* the kernel's MAXSYMLINKS */

/*
 * A walk of a path, one component at a time from the directory resolved
 * so far (an O_PATH descriptor), so that every symbolic link on the way is
 * seen and judged before it is followed, the intermediate ones too, and
 * nothing can swap a checked component for another before the open.
 */
struct walk {
	int dir;
	unsigned int links;
	char shown[PATH_MAX];	/* the directory's path, as the user wrote it */
	char rest[PATH_MAX];	/* what is left to resolve */
	const char *path;	/* the path asked for, for messages */
	struct ib_diag *d;
};

static void shown_add(struct walk *w, const char *name)
{
	size_t n = strlen(w->shown);

	snprintf(w->shown + n, sizeof(w->shown) - n, "%s%s",
		 n && w->shown[n - 1] != '/' ? "/" : "", name);
}

/* Start (again) at / or at the current directory. */
static int walk_root(struct walk *w, bool abs)
{
	int fd = open(abs ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (w->dir >= 0)
		close(w->dir);
	w->dir = fd;
	snprintf(w->shown, sizeof(w->shown), "%s", abs ? "/" : "");
	return 0;
}

/*
 * The link at lfd (an O_PATH descriptor of the link itself), named name in
 * w->dir: may it be followed? Not when it sits in a sticky world-writable
 * directory (/tmp) and belongs neither to us nor to the directory's owner:
 * anyone could have planted it there (the kernel's protected_symlinks
 * rule, whatever fs.protected_symlinks says here).
 */
static int link_followable(struct walk *w, int lfd, const char *name)
{
	struct stat ds, ls;
	char at[PATH_MAX];

	if (fstat(w->dir, &ds) < 0 || fstatat(lfd, "", &ls, AT_EMPTY_PATH) < 0)
		return -errno;
	if (!(ds.st_mode & S_ISVTX) || !(ds.st_mode & S_IWOTH) ||
	    ls.st_uid == geteuid() || ls.st_uid == ds.st_uid)
		return 0;
	snprintf(at, sizeof(at), "%s", w->shown);
	shown_add(w, name);
	return ib_diag_set(w->d, ELOOP,
			   "%s: a symbolic link owned by uid %u in the sticky world-writable directory %s; refusing to follow it",
			   w->shown, (unsigned int)ls.st_uid, at[0] ? at : ".");
}

/*
 * Follow the link at lfd: its target goes in front of what is left. 1: a
 * link of /proc (/dev/stdout's /proc/self/fd/1, a "pipe:[N]" no path
 * names), which only the kernel can follow: the caller opens through it.
 */
static int follow(struct walk *w, int lfd, const char *name, const char *left)
{
	char target[PATH_MAX], next[PATH_MAX];
	struct statfs fs;
	ssize_t n;
	int ret = link_followable(w, lfd, name);

	if (ret)
		return ret;
	if (!fstatfs(lfd, &fs) && fs.f_type == PROC_SUPER_MAGIC)
		return 1;
	if (++w->links > MAX_LINKS)
		return ib_diag_set(w->d, ELOOP, "%s: %s", w->path, strerror(ELOOP));
	n = readlinkat(lfd, "", target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (snprintf(next, sizeof(next), "%s%s%s", target, left[0] ? "/" : "",
		     left) >= (int)sizeof(next))
		return -ENAMETOOLONG;
	memcpy(w->rest, next, sizeof(next));
	return target[0] == '/' ? walk_root(w, true) : 0;
}

/* Next component of w->rest into name (empty: none left); *last if no more. */
static int next_name(struct walk *w, char *name, char **left, bool *last)
{
	char *p = w->rest, *slash;

	while (*p == '/')
		p++;
	slash = strchr(p, '/');
	if ((slash ? (size_t)(slash - p) : strlen(p)) >= NAME_MAX + 1)
		return -ENAMETOOLONG;
	snprintf(name, NAME_MAX + 1, "%.*s", slash ? (int)(slash - p) : (int)strlen(p), p);
	while (slash && *slash == '/')
		slash++;
	*left = slash ? slash : p + strlen(p);
	*last = !**left;
	return 0;
}

/* One directory step: into name, or through the link it is. */
static int step_dir(struct walk *w, const char *name, const char *left)
{
	char keep[PATH_MAX];
	struct stat st;
	int fd = openat(w->dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	if (fstatat(fd, "", &st, AT_EMPTY_PATH) < 0) {
		ret = -errno;
	} else if (S_ISLNK(st.st_mode)) {
		snprintf(keep, sizeof(keep), "%s", left);
		ret = follow(w, fd, name, keep);
		if (ret == 1) { /* /proc's: the kernel resolves it */
			close(fd);
			fd = openat(w->dir, name, O_PATH | O_CLOEXEC);
			if (fd < 0)
				return -errno;
			close(w->dir);
			w->dir = fd;
			shown_add(w, name);
			memmove(w->rest, keep, strlen(keep) + 1);
			return 0;
		}
	} else {
		close(w->dir);
		w->dir = fd;
		shown_add(w, name);
		memmove(w->rest, left, strlen(left) + 1);
		return 0;
	}
	close(fd);
	return ret;
}

/* The last step: open name, or follow the link it is and walk on. */
static int step_last(struct walk *w, const char *name, int flags, bool *done)
{
	struct stat st;
	int fd = openat(w->dir, name[0] ? name : ".", flags | O_NOFOLLOW | O_CLOEXEC, 0644);
	int err = errno, lfd, ret;

	*done = true;
	if (fd >= 0)
		return fd;
	/* ELOOP; EACCES with O_CREAT on a link in a sticky directory */
	if ((err != ELOOP && err != EACCES) || (flags & O_NOFOLLOW) ||
	    fstatat(w->dir, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISLNK(st.st_mode))
		return err == ELOOP ? ib_diag_set(w->d, ELOOP, "%s: %s", w->path,
						  strerror(ELOOP)) : -err;
	lfd = openat(w->dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (lfd < 0)
		return -errno;
	ret = follow(w, lfd, name, "");
	close(lfd);
	if (ret == 1) { /* /proc's: the kernel resolves it */
		fd = openat(w->dir, name, flags | O_CLOEXEC, 0644);
		return fd >= 0 ? fd : -errno;
	}
	*done = ret != 0;
	return ret;
}

int ib_safety_open(const char *path, int flags, struct ib_diag *d)
{
	struct walk w = { .dir = -1, .path = path, .d = d };
	char name[NAME_MAX + 1], *left;
	bool last, done = false;
	int ret;

	if (snprintf(w.rest, sizeof(w.rest), "%s", path) >= (int)sizeof(w.rest))
		return -ENAMETOOLONG;
	ret = walk_root(&w, path[0] == '/');
	while (!ret && !done) {
		ret = next_name(&w, name, &left, &last);
		if (!ret && last)
			ret = step_last(&w, name, flags, &done);
		else if (!ret)
			ret = step_dir(&w, name, left);
	}
	if (w.dir >= 0)
		close(w.dir);
	return ret;
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

bool ib_safety_remove_output(const char *path, const struct ib_out_id *id)
{
	struct stat st;

	return id->reg && !lstat(path, &st) && S_ISREG(st.st_mode) &&
	       st.st_dev == id->dev && st.st_ino == id->ino && !unlink(path);
}

int ib_open_noatime(const char *path, int flags)
{
	int fd = open(path, flags | O_NOATIME);

	return fd < 0 && errno == EPERM ? open(path, flags) : fd;
}
