// SPDX-License-Identifier: GPL-2.0-only
/* ioscheduler=: switch a device's I/O scheduler and put it back (iosched.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "iosched.h"

#define MAX_SAVED 64
#define SCHED_PATH 96
#define SCHED_NAME 32

static struct {
	char path[SCHED_PATH];
	char old[SCHED_NAME];
} saved[MAX_SAVED];
static volatile unsigned int nr_saved;

/*
 * stat of target or, for a file not laid out yet, of the nearest
 * directory on its path that exists: the file system it will be on.
 */
static int stat_or_parent(const char *target, struct stat *st)
{
	char dir[PATH_MAX];
	char *slash;

	if (stat(target, st) == 0)
		return 0;
	if (errno != ENOENT)
		return -errno;
	snprintf(dir, sizeof(dir), "%s", target);
	while ((slash = strrchr(dir, '/'))) {
		slash[slash == dir] = '\0';
		if (stat(dir, st) == 0)
			return 0;
		if (errno != ENOENT || slash == dir)
			return -errno;
	}
	return stat(".", st) < 0 ? -errno : 0;
}

/* /sys/dev/block/M:m/queue/scheduler of target's device (its disk's). */
static int sched_path(const char *target, char *out, struct ib_diag *d)
{
	char part[SCHED_PATH];
	struct stat st;
	dev_t dev;
	int ret = stat_or_parent(target, &st);

	if (ret)
		return ib_diag_set(d, -ret, "ioscheduler: %s: %s", target, strerror(-ret));
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(out, SCHED_PATH, "/sys/dev/block/%u:%u/queue/scheduler",
		 major(dev), minor(dev));
	if (access(out, R_OK) == 0)
		return 0;
	snprintf(part, sizeof(part), "/sys/dev/block/%u:%u/partition", major(dev),
		 minor(dev));
	snprintf(out, SCHED_PATH, "/sys/dev/block/%u:%u/../queue/scheduler",
		 major(dev), minor(dev));
	if (access(part, R_OK) == 0 && access(out, R_OK) == 0)
		return 0;
	return ib_diag_set(d, ENOTSUP,
			   "ioscheduler: %s is not on a block device with an I/O scheduler",
			   target);
}

/* Read the list "[none] mq-deadline"; *cur gets the bracketed one. */
static int read_list(const char *path, char *list, size_t len, char *cur,
		     struct ib_diag *d)
{
	FILE *f = fopen(path, "r");
	char *b, *e;

	if (!f || !fgets(list, (int)len, f)) {
		int err = errno ? errno : EIO;

		if (f)
			fclose(f);
		return ib_diag_set(d, err, "ioscheduler: %s: %s", path, strerror(err));
	}
	fclose(f);
	list[strcspn(list, "\n")] = '\0';
	cur[0] = '\0';
	b = strchr(list, '[');
	e = b ? strchr(b, ']') : NULL;
	if (b && e && (size_t)(e - b) <= SCHED_NAME)
		snprintf(cur, SCHED_NAME, "%.*s", (int)(e - b - 1), b + 1);
	return 0;
}

static bool listed(const char *list, const char *name)
{
	char buf[512], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, " []", &save); tok; tok = strtok_r(NULL, " []", &save))
		if (!strcmp(tok, name))
			return true;
	return false;
}

static int lookup(const char *target, const char *name, char *path, char *cur,
		  struct ib_diag *d)
{
	char list[512];
	int rc = sched_path(target, path, d);

	if (!rc)
		rc = read_list(path, list, sizeof(list), cur, d);
	if (!rc && !listed(list, name))
		rc = ib_diag_set(d, EINVAL, "ioscheduler=%s: not available for %s (%s)",
				 name, target, list);
	return rc;
}

int ib_iosched_check(const char *target, const char *name, struct ib_diag *d)
{
	char path[SCHED_PATH], cur[SCHED_NAME];

	return lookup(target, name, path, cur, d);
}

static int write_sched(const char *path, const char *name)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc = 0;
	size_t len = strlen(name);

	if (fd < 0)
		return -errno;
	if (write(fd, name, len) != (ssize_t)len)
		rc = -errno;
	close(fd);
	return rc;
}

int ib_iosched_set(const char *target, const char *name, struct ib_diag *d)
{
	char path[SCHED_PATH], cur[SCHED_NAME];
	unsigned int i;
	int rc = lookup(target, name, path, cur, d);

	if (rc)
		return rc;
	for (i = 0; i < nr_saved && strcmp(saved[i].path, path); i++)
		;
	if (i == nr_saved) {
		if (nr_saved == MAX_SAVED)
			return ib_diag_set(d, E2BIG, "ioscheduler: more than %d devices",
					   MAX_SAVED);
		snprintf(saved[i].path, SCHED_PATH, "%s", path);
		snprintf(saved[i].old, SCHED_NAME, "%s", cur);
		nr_saved = i + 1; /* complete before the signal path can see it */
	}
	rc = write_sched(path, name);
	if (rc)
		return ib_diag_set(d, -rc, "ioscheduler=%s: %s: %s", name, path,
				   strerror(-rc));
	return 0;
}

/*
 * Each entry is forgotten only once written back: a second SIGINT that
 * lands while the run's own restore is writing (runner_die_now, from the
 * handler) still finds it and writes it again (the same name: harmless),
 * where forgetting them all first left the device with the job's
 * scheduler (seen under valgrind, load 16: 'bfq' left on the loop device).
 */
void ib_iosched_restore(void)
{
	unsigned int n;

	while ((n = nr_saved) > 0) {
		(void)write_sched(saved[n - 1].path, saved[n - 1].old);
		nr_saved = n - 1;
	}
}
