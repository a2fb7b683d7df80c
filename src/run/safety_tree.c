// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device tree the safety checks match against (safety_priv.h), from
 * sysfs alone, followed through every stacking this kernel shows there:
 *   partitions        DEV/NAME/partition
 *   holders           DEV/holders/ (dm, md, bcache on a disk or partition)
 *   loop devices      LOOP/loop/backing_file naming a block device: a loop
 *                     device on a node is stacked on it (loop devices never
 *                     appear in holders/), and the device a loop target
 *                     sits on is below it (writing the loop writes there)
 *   slaves            DEV/slaves/ of a dm or md target: the devices below
 * recursively, each device once, at most MAX_DEPTH levels and
 * IB_SAFETY_MAX_NODES nodes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "safety_priv.h"

#define MAX_DEPTH 8

/* dir/name into buf; false if it does not fit. */
static bool join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < len;
}

/* The first line of dir/name, without its newline; false if unreadable. */
static bool read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	bool ok;

	if (!join(path, sizeof(path), dir, name) || !(f = fopen(path, "re")))
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0];
}

static int read_devno(const char *dir, dev_t *dev)
{
	unsigned int maj, min;
	char buf[32];

	if (!read_line(dir, "dev", buf, sizeof(buf)))
		return -ENOENT;
	if (sscanf(buf, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	*dev = makedev(maj, min);
	return 0;
}

/* A loop device's backing file, if it is a block device: its number. */
static bool loop_backing(const char *dir, char *path, size_t len, dev_t *dev)
{
	struct stat st;

	if (!read_line(dir, "loop/backing_file", path, len) ||
	    stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return false;
	*dev = st.st_rdev;
	return true;
}

static bool is_partition_dir(const char *dir, const char *name)
{
	char part[PATH_MAX], path[PATH_MAX];

	return join(part, sizeof(part), dir, name) &&
	       join(path, sizeof(path), part, "partition") &&
	       access(path, F_OK) == 0;
}

int ib_safety_find_node(const struct ib_safety_tree *t, dev_t dev)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		if (t->n[i].dev == dev)
			return (int)i;
	return -1;
}

struct walker {
	struct ib_safety_tree *t;
	const struct ib_safety_env *env;
};

static void walk(struct walker *w, const char *dir, const char *name,
		 enum ib_safety_rel rel, int parent, unsigned int depth);

/* Every entry of dir/sub (partitions: of dir itself) as child nodes. */
static void walk_children(struct walker *w, const char *dir, const char *sub,
			  enum ib_safety_rel rel, int self, unsigned int depth)
{
	char path[PATH_MAX], child[PATH_MAX];
	bool parts = !strcmp(sub, ".");
	struct dirent *e;
	DIR *dp;

	if (!join(path, sizeof(path), dir, sub) || !(dp = opendir(path)))
		return;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (parts && !is_partition_dir(path, e->d_name))
			continue;
		if (join(child, sizeof(child), path, e->d_name))
			walk(w, child, e->d_name, rel, self, depth + 1);
	}
	closedir(dp);
}

/* Loop devices whose backing file is the block device `dev`: stacked. */
static void walk_loops_on(struct walker *w, dev_t dev, int self,
			  unsigned int depth)
{
	char dir[PATH_MAX], backing[PATH_MAX], name[PATH_MAX], *base;
	struct dirent *e;
	dev_t bdev;
	ssize_t n;
	DIR *dp;

	if (!(dp = opendir(w->env->sysfs_dev)))
		return;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.' ||
		    !join(dir, sizeof(dir), w->env->sysfs_dev, e->d_name) ||
		    !loop_backing(dir, backing, sizeof(backing), &bdev) || bdev != dev)
			continue;
		n = readlink(dir, name, sizeof(name) - 1); /* ../../devices/.../loop5 */
		name[n > 0 ? n : 0] = '\0';
		base = strrchr(name, '/');
		walk(w, dir, base ? base + 1 : (n > 0 ? name : e->d_name),
		     REL_STACKED, self, depth + 1);
	}
	closedir(dp);
}

/* The block device a loop node writes to (its backing file), below it. */
static void walk_backing(struct walker *w, const char *dir, int self,
			 unsigned int depth)
{
	char backing[PATH_MAX], bdir[PATH_MAX];
	dev_t bdev;

	if (!loop_backing(dir, backing, sizeof(backing), &bdev))
		return;
	snprintf(bdir, sizeof(bdir), "%s/%u:%u", w->env->sysfs_dev, major(bdev),
		 minor(bdev));
	walk(w, bdir, backing, REL_BELOW, self, depth + 1);
}

static void walk(struct walker *w, const char *dir, const char *name,
		 enum ib_safety_rel rel, int parent, unsigned int depth)
{
	struct ib_safety_tree *t = w->t;
	struct ib_safety_node *n;
	bool under = rel == REL_BELOW;
	dev_t dev;
	int self;

	if (depth > MAX_DEPTH || t->nr >= IB_SAFETY_MAX_NODES ||
	    read_devno(dir, &dev) || ib_safety_find_node(t, dev) >= 0)
		return;
	self = (int)t->nr++;
	n = &t->n[self];
	n->dev = dev;
	n->rel = rel;
	n->parent = parent;
	snprintf(n->name, sizeof(n->name), "%.*s", (int)sizeof(n->name) - 1, name);
	walk_children(w, dir, ".", rel == REL_SELF ? REL_PART : rel, self, depth);
	walk_children(w, dir, "holders", REL_STACKED, self, depth);
	walk_loops_on(w, dev, self, depth);
	if (rel == REL_SELF || under) {
		walk_backing(w, dir, self, depth);
		walk_children(w, dir, "slaves", REL_BELOW, self, depth);
	}
}

void ib_safety_build_tree(struct ib_safety_tree *t,
			  const struct ib_safety_env *env, const char *path,
			  dev_t rdev)
{
	struct walker w = { t, env };
	char dir[PATH_MAX];

	t->path = path;
	t->nr = 0;
	snprintf(dir, sizeof(dir), "%s/%u:%u", env->sysfs_dev, major(rdev),
		 minor(rdev));
	walk(&w, dir, path, REL_SELF, -1, 0);
	if (t->nr == 0) { /* no sysfs entry: still match the number itself */
		t->n[0].dev = rdev;
		t->n[0].rel = REL_SELF;
		t->n[0].parent = -1;
		snprintf(t->n[0].name, sizeof(t->n[0].name), "%s", path);
		t->nr = 1;
	}
}

void ib_safety_describe(const struct ib_safety_tree *t,
			const struct ib_safety_node *n, char *buf, size_t len)
{
	if (n->rel == REL_SELF)
		snprintf(buf, len, "%s is", t->path);
	else if (n->rel == REL_PART)
		snprintf(buf, len, "%s has partition %s", t->path, n->name);
	else if (n->rel == REL_STACKED)
		snprintf(buf, len, "%s has %s stacked on it,", t->path, n->name);
	else
		snprintf(buf, len, "%s writes through to %s, which is", t->path,
			 n->name);
}
