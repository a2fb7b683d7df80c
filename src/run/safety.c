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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <blkid/blkid.h>
#include "iobench/iolog.h"
#include "iobench/safety.h"

#define MAX_NODES 64
#define MAX_DEPTH 8
#define NODE_NAME 64
#define FLAG_MOUNTED "allow_mounted_write"
#define FLAG_DATA "allow_data_loss"

enum rel { REL_SELF, REL_PART, REL_STACKED };

struct node {
	dev_t dev;
	char name[NODE_NAME];
	enum rel rel;
	int parent;		/* index of the node it sits on, -1 for the device */
};

struct tree {
	const char *path;	/* the device as the user named it */
	struct node n[MAX_NODES];
	unsigned int nr;
};

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

/* "/dev/loop3 is", "/dev/loop3 has partition loop3p1", "... has dm-0 stacked on it" */
static void describe(const struct tree *t, const struct node *n, char *buf,
		     size_t len)
{
	if (n->rel == REL_SELF)
		snprintf(buf, len, "%s is", t->path);
	else if (n->rel == REL_PART)
		snprintf(buf, len, "%s has partition %s", t->path, n->name);
	else
		snprintf(buf, len, "%s has %s stacked on it,", t->path, n->name);
}

/* ---- the device tree from sysfs ------------------------------------------ */

/* dir/name into buf; false if it does not fit. */
static bool join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < len;
}

static int read_devno(const char *dir, dev_t *dev)
{
	char path[PATH_MAX], buf[32];
	unsigned int maj, min;
	FILE *f;
	int ok;

	if (!join(path, sizeof(path), dir, "dev"))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*dev = makedev(maj, min);
	return 0;
}

static bool is_partition_dir(const char *dir, const char *name)
{
	char part[PATH_MAX], path[PATH_MAX];

	return join(part, sizeof(part), dir, name) &&
	       join(path, sizeof(path), part, "partition") &&
	       access(path, F_OK) == 0;
}

static int find_node(const struct tree *t, dev_t dev)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		if (t->n[i].dev == dev)
			return (int)i;
	return -1;
}

static void walk(struct tree *t, const char *dir, const char *name,
		 enum rel rel, int parent, unsigned int depth);

/* Every entry of dir/sub (or of dir, for partitions) as child nodes. */
static void walk_children(struct tree *t, const char *dir, bool holders,
			  enum rel rel, int self, unsigned int depth)
{
	char sub[PATH_MAX], child[PATH_MAX];
	struct dirent *e;
	DIR *dp;

	if (!join(sub, sizeof(sub), dir, holders ? "holders" : "."))
		return;
	dp = opendir(sub);
	if (!dp)
		return;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (!holders && !is_partition_dir(sub, e->d_name))
			continue;
		if (join(child, sizeof(child), sub, e->d_name))
			walk(t, child, e->d_name, rel, self, depth + 1);
	}
	closedir(dp);
}

static void walk(struct tree *t, const char *dir, const char *name,
		 enum rel rel, int parent, unsigned int depth)
{
	struct node *n;
	dev_t dev;
	int self;

	if (depth > MAX_DEPTH || t->nr >= MAX_NODES || read_devno(dir, &dev) ||
	    find_node(t, dev) >= 0)
		return;
	self = (int)t->nr++;
	n = &t->n[self];
	n->dev = dev;
	n->rel = rel;
	n->parent = parent;
	snprintf(n->name, sizeof(n->name), "%.*s", (int)sizeof(n->name) - 1, name);
	walk_children(t, dir, false, rel == REL_SELF ? REL_PART : rel, self, depth);
	walk_children(t, dir, true, REL_STACKED, self, depth);
}

static void build_tree(struct tree *t, const struct ib_safety_env *env,
		       const char *path, dev_t rdev)
{
	char dir[PATH_MAX];

	t->path = path;
	t->nr = 0;
	snprintf(dir, sizeof(dir), "%s/%u:%u", env->sysfs_dev, major(rdev),
		 minor(rdev));
	walk(t, dir, path, REL_SELF, -1, 0);
	if (t->nr == 0) { /* no sysfs entry: still match the number itself */
		t->n[0].dev = rdev;
		t->n[0].rel = REL_SELF;
		t->n[0].parent = -1;
		snprintf(t->n[0].name, sizeof(t->n[0].name), "%s", path);
		t->nr = 1;
	}
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
static int mount_node(const struct tree *t, const struct ib_mount_entry *m)
{
	struct stat st;
	int idx = find_node(t, m->dev);

	if (idx < 0 && major(m->dev) == 0 && m->source[0] == '/' &&
	    !stat(m->source, &st) && S_ISBLK(st.st_mode))
		idx = find_node(t, st.st_rdev);
	return idx;
}

static int check_mounted(const struct ib_safety_env *env, const struct tree *t,
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
		describe(t, &t->n[idx], who, sizeof(who));
		ret = refuse(d, EBUSY, job, FLAG_MOUNTED, "%s mounted on %s (%s)",
			     who, m->mnt, m->fstype);
	}
	free(m);
	return ret;
}

/* ---- swap, holders, exclusive claim ------------------------------------- */

static int check_swap(const struct ib_safety_env *env, const struct tree *t,
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
			idx = find_node(t, st.st_rdev);
	}
	free(line);
	fclose(f);
	if (idx < 0)
		return 0;
	describe(t, &t->n[idx], who, sizeof(who));
	return refuse(d, EBUSY, job, FLAG_DATA, "%s active swap (%s)", who, name);
}

static int check_holders(const struct tree *t, const struct ib_job *job,
			 struct ib_diag *d)
{
	char who[PATH_MAX + NODE_NAME];
	const struct node *held;
	unsigned int i;

	for (i = 0; i < t->nr; i++) {
		if (t->n[i].rel != REL_STACKED)
			continue;
		held = &t->n[t->n[i].parent];
		if (held->rel == REL_STACKED)
			continue; /* report the first level: what sits on the device */
		describe(t, held, who, sizeof(who));
		return refuse(d, EBUSY, job, FLAG_DATA,
			      "%s held by %s (device-mapper, LVM, RAID or similar)",
			      who, t->n[i].name);
	}
	return 0;
}

/* The kernel's own answer: mounted in another namespace, claimed by a driver. */
static int check_exclusive(const struct ib_safety_env *env, const struct tree *t,
			   const struct ib_job *job, struct ib_diag *d)
{
	int fd;

	if (!env->exclusive_open)
		return 0;
	fd = open(t->path, O_RDONLY | O_EXCL | O_CLOEXEC);
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

int ib_safety_probe_signature(const char *path, char *what, size_t len)
{
	blkid_probe pr;
	int rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return errno ? -errno : -EIO;
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

static int check_signature(const struct tree *t, const struct ib_job *job,
			   struct ib_diag *d)
{
	char what[128];
	int rc;

	rc = ib_safety_probe_signature(t->path, what, sizeof(what));
	if (rc < 0)
		return refuse(d, -rc, job, FLAG_DATA,
			      "%s cannot be probed for signatures (%s)", t->path,
			      strerror(-rc));
	if (rc > 0)
		return refuse(d, EEXIST, job, FLAG_DATA, "%s carries %s", t->path,
			      what);
	return 0;
}

/* ---- entry points --------------------------------------------------------- */

int ib_safety_check_bdev(const struct ib_safety_env *env,
			 const struct ib_job *job, const char *path,
			 dev_t rdev, struct ib_diag *d)
{
	struct tree *t;
	bool mounted = false;
	int ret;

	t = calloc(1, sizeof(*t));
	if (!t)
		return ib_diag_set(d, ENOMEM, "no memory to check %s", path);
	build_tree(t, env, path, rdev);
	ret = check_mounted(env, t, job, &mounted, d);
	if (!ret && !job->allow_data_loss) {
		ret = check_swap(env, t, job, d);
		if (!ret)
			ret = check_holders(t, job, d);
		if (!ret && !mounted)
			ret = check_exclusive(env, t, job, d);
		if (!ret && !mounted)
			ret = check_signature(t, job, d);
	}
	free(t);
	return ret;
}

int ib_safety_check_output(const char *what, const char *path,
			   struct ib_diag *d)
{
	struct stat st;

	if (!path[0] || stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return ib_diag_set(d, EPERM,
			   "%s: %s is a block device; refusing to write a report or log onto it",
			   what, path);
}

FILE *ib_safety_open_output(const char *what, const char *path,
			    struct ib_diag *d)
{
	FILE *f;

	if (ib_safety_check_output(what, path, d) < 0)
		return NULL;
	f = fopen(path, "w");
	if (!f)
		ib_diag_set(d, errno, "cannot write %s: %s", path, strerror(errno));
	return f;
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

int ib_safety_check(const struct ib_plan *run, const struct ib_job *job,
		    const struct ib_files *fs, struct ib_diag *d)
{
	struct stat st;
	unsigned int i;
	int ret;

	ret = check_logs(job, d);
	if (ret)
		return ret;
	if (!ib_job_writes(job) || run->readonly)
		return 0; /* readonly refuses writing jobs earlier, in validation */
	/*
	 * Clones of a job with filename= name the same paths, and clone 0 was
	 * checked just before (the runner stops at the first refusal): probe
	 * a device once, not numjobs times.
	 */
	if (job->clone > 0 && job->filename[0])
		return 0;
	for (i = 0; i < fs->nr; i++) {
		/* a missing path will be a regular file: layout never truncates */
		if (stat(fs->f[i].path, &st) || !S_ISBLK(st.st_mode))
			continue;
		ret = ib_safety_check_bdev(&real_env, job, fs->f[i].path,
					   st.st_rdev, d);
		if (ret)
			return ret;
	}
	return 0;
}
