// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping`: the "(fs device size)" description of a target as
 * ioping 1.3 derives it (ping.h). The root is injected so tests can hand
 * in their own proc/self/mountinfo and device nodes.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "iobench/ping_target.h"

static void copy(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ROOT + path, "/" for an empty root */
static void rooted(char *buf, size_t len, const char *root, const char *path)
{
	snprintf(buf, len, "%s%s", root && *root && strcmp(root, "/") ? root : "", path);
}

/* "36 25 8:1 / / rw - ext4 /dev/vda1 rw": fstype and source after " - " */
static bool mountinfo_line(const char *line, dev_t dev, struct ib_ping_target *t)
{
	unsigned int maj, min;
	const char *p, *sp;

	if (sscanf(line, "%*d %*d %u:%u", &maj, &min) != 2 || makedev(maj, min) != dev)
		return false;
	p = strstr(line, " - ");
	if (!p)
		return false;
	p += 3;
	sp = p + strcspn(p, " \n");
	copy(t->fstype, sizeof(t->fstype), p, (size_t)(sp - p));
	p = *sp == ' ' ? sp + 1 : sp;
	copy(t->device, sizeof(t->device), p, strcspn(p, " \n"));
	return true;
}

/* /proc/mounts: "SOURCE MOUNTPOINT FSTYPE ...", SOURCE a node with st_rdev == dev */
static bool mounts_line(const char *root, char *line, dev_t dev, struct ib_ping_target *t)
{
	char *save = NULL, *src = strtok_r(line, " ", &save);
	char *fstype, node[PATH_MAX];
	struct stat st;

	if (!src || src[0] != '/')
		return false;
	rooted(node, sizeof(node), root, src);
	if (stat(node, &st) || st.st_rdev != dev)
		return false;
	if (!strtok_r(NULL, " ", &save) || !(fstype = strtok_r(NULL, " ", &save)))
		return false;
	copy(t->fstype, sizeof(t->fstype), fstype, strlen(fstype));
	copy(t->device, sizeof(t->device), src, strlen(src));
	return true;
}

static bool scan(const char *root, const char *file, bool info, dev_t dev,
		 struct ib_ping_target *t)
{
	char path[PATH_MAX], line[4096];
	bool found = false;
	FILE *f;

	rooted(path, sizeof(path), root, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = info ? mountinfo_line(line, dev, t)
				       : mounts_line(root, line, dev, t);
	fclose(f);
	return found;
}

/* ioping shows the device through realpath ("/dev/root" -> "/dev/vda1") */
static void resolve(const char *root, struct ib_ping_target *t)
{
	char path[PATH_MAX], real[PATH_MAX];
	size_t rl = root && strcmp(root, "/") ? strlen(root) : 0;

	if (t->device[0] != '/')
		return;
	rooted(path, sizeof(path), root, t->device);
	if (!realpath(path, real) || strncmp(real, root ? root : "", rl))
		return;
	copy(t->device, sizeof(t->device), real + rl, strlen(real + rl));
}

int ib_ping_describe_fs(const char *root, dev_t dev, struct ib_ping_target *t,
			struct ib_diag *d)
{
	(void)d;
	t->fstype[0] = t->device[0] = '\0';
	if (!scan(root, "/proc/self/mountinfo", true, dev, t) &&
	    !scan(root, "/proc/mounts", false, dev, t))
		return 0;
	resolve(root, t);
	return 0;
}

void ib_ping_describe_dev(struct ib_ping_target *t, enum ib_ping_kind kind, int64_t size)
{
	snprintf(t->fstype, sizeof(t->fstype), "%s",
		 kind == IB_PING_CHAR ? "character" : "block");
	snprintf(t->device, sizeof(t->device), "device");
	t->device_size = kind == IB_PING_CHAR ? 0 : size;
}
