// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data safety: a job that writes (or trims) a block device is refused when
 * the device holds someone's data. Everything here reads: /proc, /sys and
 * a read-only libblkid probe; the O_EXCL test opens read-only.
 *
 * The device is described as a small tree gathered from sysfs: the device
 * itself, its partitions, and every device stacked on any of them (the
 * holders/ directories, followed recursively: dm on a partition, LVM on md
 * on the disk...). Mounts and swap are matched against that tree by device
 * number, never by name: /dev/mapper/x, /dev/dm-0 and a udev symlink are
 * the same device.
 *
 * Overrides (see safety.h for the order): fio's allow_mounted_write=1 keeps
 * its meaning, the mount check only. Every other reason is overridden by one
 * iobench flag, allow_data_loss=1: what the user accepts is the same in each
 * case (the data on, or the use of, that device is destroyed), so one name
 * that says exactly that is clearer than a flag per detector, and stretching
 * allow_mounted_write to cover unmounted RAID members or partition tables
 * would silently widen what existing fio job files allow.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>
#include <blkid/blkid.h>
#include "iobench/iolog.h"
#include "iobench/safety.h"
#include "safety_priv.h"

#define FLAG_MOUNTED "allow_mounted_write"
#define FLAG_DATA "allow_data_loss"
#define NODE_NAME IB_SAFETY_NODE_NAME

static const struct ib_safety_env real_env = {
	.mountinfo = "/proc/self/mountinfo",
	.swaps = "/proc/swaps",
	.sysfs_dev = "/sys/dev/block",
	.exclusive_open = true,
};

/* ---- refusal message ----------------------------------------------------- */

static int refuse(struct ib_diag *d, int err, const struct ib_job *job,
		  const char *flag, const char *fmt, ...) ib_printf_fmt(5, 6);

static int refuse(struct ib_diag *d, int err, const struct ib_job *job,
		  const char *flag, const char *fmt, ...)
{
	char reason[IB_DIAG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return ib_diag_set(d, err,
			   "job '%s': %s; refusing to write. Use --%s=1 to override.",
			   job->name, reason, flag);
}

/* ---- mounts --------------------------------------------------------------- */

void ib_safety_unescape(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	if (!len)
		return;
	while (*src && n + 1 < len) {
		if (src[0] == '\\' && src[1] >= '0' && src[1] <= '3' &&
		    src[2] >= '0' && src[2] <= '7' && src[3] >= '0' && src[3] <= '7') {
			dst[n++] = (char)((src[1] - '0') * 64 + (src[2] - '0') * 8 +
					  (src[3] - '0'));
			src += 4;
		} else {
			dst[n++] = *src++;
		}
	}
	dst[n] = '\0';
}

/*
 * "36 35 98:0 /root /mnt/point rw,noatime shared:1 - ext4 /dev/x rw":
 * field 3 is MAJ:MIN, field 5 the mount point, and the type and the source
 * follow the lone "-" that ends the optional fields.
 */
int ib_safety_parse_mountinfo(const char *line, struct ib_mount_entry *m)
{
	char copy[4 * PATH_MAX], *tok, *save = NULL;
	unsigned int i, maj = 0, min = 0, after_dash = 0;

	snprintf(copy, sizeof(copy), "%s", line);
	for (i = 0, tok = strtok_r(copy, " \n", &save); tok;
	     i++, tok = strtok_r(NULL, " \n", &save)) {
		if (i == 2 && sscanf(tok, "%u:%u", &maj, &min) != 2)
			return -EINVAL;
		if (i == 4)
			ib_safety_unescape(m->mnt, sizeof(m->mnt), tok);
		if (after_dash == 1)
			snprintf(m->fstype, sizeof(m->fstype), "%s", tok);
		if (after_dash == 2) {
			ib_safety_unescape(m->source, sizeof(m->source), tok);
			m->dev = makedev(maj, min);
			return 0;
		}
		if (after_dash)
			after_dash++;
		else if (i > 5 && !strcmp(tok, "-"))
			after_dash = 1;
	}
	return -EINVAL;
}

/*
 * The device a mount is on. btrfs (and any filesystem on an anonymous
 * device number, major 0) reports 0:N: then the source, if it names a block
 * device, gives the number (resolved by stat, still compared by number).
 */
static int mount_node(const struct ib_safety_tree *t, const struct ib_mount_entry *m)
{
	struct stat st;
	int idx = ib_safety_find_node(t, m->dev);

	if (idx < 0 && major(m->dev) == 0 && m->source[0] == '/' &&
	    !stat(m->source, &st) && S_ISBLK(st.st_mode))
		idx = ib_safety_find_node(t, st.st_rdev);
	return idx;
}

static int check_mounted(const struct ib_safety_env *env, const struct ib_safety_tree *t,
			 const struct ib_job *job, bool *mounted,
			 struct ib_diag *d)
{
	char who[PATH_MAX + NODE_NAME];
	struct ib_mount_entry *m;
	char *line = NULL;
	size_t cap = 0;
	int idx = -1, ret = 0;
	FILE *f;

	f = fopen(env->mountinfo, "re");
	if (!f)
		return ib_diag_set(d, errno, "job '%s': cannot read %s to check %s: %s",
				   job->name, env->mountinfo, t->path, strerror(errno));
	m = malloc(sizeof(*m));
	while (m && idx < 0 && getline(&line, &cap, f) > 0)
		if (!ib_safety_parse_mountinfo(line, m))
			idx = mount_node(t, m);
	free(line);
	fclose(f);
	if (!m)
		return ib_diag_set(d, ENOMEM, "no memory to check %s", t->path);
	*mounted = idx >= 0;
	if (*mounted && !job->allow_mounted_write) {
		ib_safety_describe(t, &t->n[idx], who, sizeof(who));
		ret = refuse(d, EBUSY, job, FLAG_MOUNTED, "%s mounted on %s (%s)",
			     who, m->mnt, m->fstype);
	}
	free(m);
	return ret;
}

/* ---- swap, holders, exclusive claim ------------------------------------- */

static int check_swap(const struct ib_safety_env *env, const struct ib_safety_tree *t,
		      const struct ib_job *job, struct ib_diag *d)
{
	char *line = NULL, name[PATH_MAX], who[PATH_MAX + NODE_NAME];
	size_t cap = 0;
	int idx = -1;
	struct stat st;
	FILE *f;

	f = fopen(env->swaps, "re");
	if (!f) /* no swap support in this kernel: nothing can be swapped on */
		return 0;
	while (idx < 0 && getline(&line, &cap, f) > 0) {
		line[strcspn(line, " \t\n")] = '\0';
		ib_safety_unescape(name, sizeof(name), line);
		if (name[0] == '/' && !stat(name, &st) && S_ISBLK(st.st_mode))
			idx = ib_safety_find_node(t, st.st_rdev);
	}
	free(line);
	fclose(f);
	if (idx < 0)
		return 0;
	ib_safety_describe(t, &t->n[idx], who, sizeof(who));
	return refuse(d, EBUSY, job, FLAG_DATA, "%s active swap (%s)", who, name);
}

static int check_holders(const struct ib_safety_tree *t, const struct ib_job *job,
			 struct ib_diag *d)
{
	char who[PATH_MAX + NODE_NAME];
	const struct ib_safety_node *held;
	unsigned int i;

	for (i = 0; i < t->nr; i++) {
		if (t->n[i].rel != REL_STACKED)
			continue;
		held = &t->n[t->n[i].parent];
		if (held->rel == REL_STACKED)
			continue; /* report the first level: what sits on the device */
		ib_safety_describe(t, held, who, sizeof(who));
		if (!strncmp(t->n[i].name, "loop", 4))
			return refuse(d, EBUSY, job, FLAG_DATA,
				      "%s held by %s (a loop device backed by it)",
				      who, t->n[i].name);
		return refuse(d, EBUSY, job, FLAG_DATA,
			      "%s held by %s (device-mapper, LVM, RAID or similar)",
			      who, t->n[i].name);
	}
	return 0;
}

/* The kernel's own answer: mounted in another namespace, claimed by a driver. */
static int check_exclusive(const struct ib_safety_env *env, const struct ib_safety_tree *t,
			   int checked, const struct ib_job *job, struct ib_diag *d)
{
	char self[64];
	int fd;

	if (!env->exclusive_open)
		return 0;
	/* the very device checked, reopened through its descriptor */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", checked);
	fd = open(checked >= 0 ? self : t->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EBUSY)
		return 0; /* the signature probe reports what it cannot open */
	return refuse(d, EBUSY, job, FLAG_DATA,
		      "%s is in use by the kernel (exclusively claimed: mounted in another mount namespace, or held by a driver)",
		      t->path);
}

/* ---- signatures ------------------------------------------------------------ */

/* libblkid's USAGE as words; "other" (swap...) names only the type. */
static const char *usage_words(const char *usage)
{
	if (!usage)
		return "";
	if (!strcmp(usage, "filesystem"))
		return "filesystem ";
	if (!strcmp(usage, "raid"))
		return "RAID/LVM member ";
	if (!strcmp(usage, "crypto"))
		return "encrypted volume ";
	return "";
}

static void name_signature(blkid_probe pr, char *what, size_t len)
{
	const char *type = NULL, *usage = NULL;

	if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) &&
	    blkid_probe_lookup_value(pr, "TYPE", NULL, NULL)) {
		snprintf(what, len, "a partition table (%s)", type);
		return;
	}
	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	snprintf(what, len, "a %ssignature (%s)", usage_words(usage),
		 type ? type : "unknown");
}

/* The probe on an open descriptor: what the job will write is what is read. */
static int probe_fd(int fd, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	int rc;

	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0)
		name_signature(pr, what, len);
	else if (rc == -2)
		snprintf(what, len, "several conflicting signatures");
	blkid_free_probe(pr);
	if (rc == 1)
		return 0;
	return rc == 0 || rc == -2 ? 1 : -EIO;
}

int ib_safety_probe_signature(const char *path, char *what, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;

	if (fd < 0)
		return -errno;
	rc = probe_fd(fd, what, len);
	close(fd);
	return rc;
}

/*
 * The target, probed on the descriptor checked (fd), and each device it
 * writes through to (a loop device's backing device) that is not mounted:
 * a filesystem there is destroyed the same way.
 */
static int check_signature(const struct ib_safety_tree *t, int fd,
			   const struct ib_job *job, struct ib_diag *d)
{
	char what[128], who[PATH_MAX + NODE_NAME];
	const char *name = t->path;
	unsigned int i;
	int rc;

	rc = fd >= 0 ? probe_fd(fd, what, sizeof(what)) :
		       ib_safety_probe_signature(t->path, what, sizeof(what));
	for (i = 1; rc == 0 && i < t->nr; i++) {
		if (t->n[i].rel != REL_BELOW || t->n[i].name[0] != '/')
			continue;
		name = t->n[i].name;
		rc = ib_safety_probe_signature(name, what, sizeof(what));
	}
	if (rc < 0)
		return refuse(d, -rc, job, FLAG_DATA,
			      "%s cannot be probed for signatures (%s)", name,
			      strerror(-rc));
	if (rc == 0)
		return 0;
	if (name == t->path)
		return refuse(d, EEXIST, job, FLAG_DATA, "%s carries %s", t->path,
			      what);
	ib_safety_describe(t, &t->n[i - 1], who, sizeof(who));
	return refuse(d, EEXIST, job, FLAG_DATA, "%s carrying %s", who, what);
}

/* ---- entry points --------------------------------------------------------- */

/* The checks on the device open as fd (-1: by path), number rdev. */
static int check_bdev_fd(const struct ib_safety_env *env,
			 const struct ib_job *job, const char *path, int fd,
			 dev_t rdev, struct ib_diag *d)
{
	struct ib_safety_tree *t;
	bool mounted = false;
	int ret;

	t = calloc(1, sizeof(*t));
	if (!t)
		return ib_diag_set(d, ENOMEM, "no memory to check %s", path);
	ib_safety_build_tree(t, env, path, rdev);
	ret = check_mounted(env, t, job, &mounted, d);
	if (!ret && !job->allow_data_loss) {
		ret = check_swap(env, t, job, d);
		if (!ret)
			ret = check_holders(t, job, d);
		if (!ret && !mounted)
			ret = check_exclusive(env, t, fd, job, d);
		if (!ret && !mounted)
			ret = check_signature(t, fd, job, d);
	}
	free(t);
	return ret;
}

static int changed(const struct ib_job *job, const char *path, struct ib_diag *d)
{
	return ib_diag_set(d, EXDEV, "job '%s': %s changed while it was being checked; refusing to write",
			   job->name, path);
}

int ib_safety_check_bdev(const struct ib_safety_env *env,
			 const struct ib_job *job, const char *path,
			 dev_t rdev, struct ib_diag *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret;
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) < 0 ||
			(S_ISBLK(st.st_mode) && st.st_rdev != rdev))) {
		close(fd);
		return changed(job, path, d);
	}
	ret = check_bdev_fd(env, job, path, fd, rdev, d);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* write_iolog=: the file this clone writes */
static int check_logs(const struct ib_job *job, struct ib_diag *d)
{
	char path[PATH_MAX + 16];
	int n;

	if (!job->logs.iolog[0] || !ib_iolog_path(job, path, sizeof(path)))
		return 0; /* a name that does not fit: iolog.c reports it */
	n = ib_safety_check_output("write_iolog", path, d);
	if (n)
		ib_diag_prefix(d, "job '%s'", job->name);
	return n;
}

/*
 * What path names now, recorded in f (engine.h: id_type, id_rdev), with
 * the block device open as *fd: it is what the checks read, and what every
 * later open for writing must find again (file_id.c).
 */
static int look(const struct ib_job *job, struct ib_file *f, int *fd,
		struct ib_diag *d)
{
	struct stat st;

	*fd = -1;
	f->id_type = 0;
	f->id_rdev = 0;
	if (stat(f->path, &st) < 0)
		return 0; /* missing: created as a regular file, or the job fails */
	if (S_ISBLK(st.st_mode)) {
		*fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		/* cannot be opened: the checks by path report why */
		if (*fd >= 0 && (fstat(*fd, &st) < 0 || !S_ISBLK(st.st_mode))) {
			close(*fd);
			*fd = -1;
			return changed(job, f->path, d);
		}
	}
	f->id_type = st.st_mode & S_IFMT;
	f->id_rdev = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	return 0;
}

/*
 * A job that writes, on a device set read-only (BLKROGET: losetup -r, a
 * write-protected disk) or a file (or the directory a missing one goes
 * into) on a read-only mount, would start and fail at its first write.
 */
static int check_writable(const struct ib_job *job, const struct ib_file *f,
			  int fd, struct ib_diag *d)
{
	char dir[PATH_MAX];
	struct statvfs vfs;
	const char *slash;
	int ro = 0;

	if (f->id_type == S_IFBLK)
		return fd >= 0 && !ioctl(fd, BLKROGET, &ro) && ro ?
		       ib_diag_set(d, EROFS, "job '%s': %s is a read-only device; a job that writes cannot run on it",
				   job->name, f->path) : 0;
	if (f->id_type == S_IFREG) {
		snprintf(dir, sizeof(dir), "%s", f->path);
	} else {
		slash = strrchr(f->path, '/');
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - f->path) + 1 : 1,
			 slash ? f->path : ".");
	}
	if (statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		return ib_diag_set(d, EROFS, "job '%s': %s is on a read-only file system; a job that writes cannot run on it",
				   job->name, f->path);
	return 0;
}

/*
 * Clones of a job with filename= name the same paths, and clone 0 was
 * checked just before (the runner stops at the first refusal): a device
 * is probed once, not numjobs times, if it is still the same device.
 */
static bool checked_before(const struct ib_files *first, unsigned int i,
			   const struct ib_file *f)
{
	return first && i < first->nr && first->f[i].id_type == S_IFBLK &&
	       f->id_type == S_IFBLK && first->f[i].id_rdev == f->id_rdev;
}

int ib_safety_check(const struct ib_plan *run, const struct ib_job *job,
		    struct ib_files *fs, const struct ib_files *first,
		    struct ib_diag *d)
{
	bool writes = ib_job_writes(job) && !run->readonly;
	unsigned int i;
	int ret, fd;

	ret = check_logs(job, d);
	for (i = 0; !ret && i < fs->nr; i++) {
		struct ib_file *f = &fs->f[i];

		ret = look(job, f, &fd, d);
		if (!ret && writes)
			ret = check_writable(job, f, fd, d);
		if (!ret && writes && f->id_type == S_IFBLK &&
		    !checked_before(first, i, f))
			ret = check_bdev_fd(&real_env, job, f->path, fd, f->id_rdev, d);
		if (fd >= 0)
			close(fd);
	}
	return ret;
}
