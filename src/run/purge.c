// SPDX-License-Identifier: GPL-2.0-only
/*
 * PTS's purge (purge.h): BLKSECDISCARD, else BLKDISCARD, over the region.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iobench/purge.h"

/* The region, whole 4 KiB blocks from 0, within the device. */
static uint64_t region(int fd, uint64_t len)
{
	uint64_t dev = 0;

	if (ioctl(fd, BLKGETSIZE64, &dev) < 0)
		return 0;
	if (!len || len > dev)
		len = dev;
	return len & ~(uint64_t)4095;
}

static int discard(int fd, uint64_t len, char *how, size_t howlen)
{
	uint64_t range[2] = { 0, len };
	int err;

	if (ioctl(fd, BLKSECDISCARD, range) == 0) {
		snprintf(how, howlen, "BLKSECDISCARD of %" PRIu64 " bytes", len);
		return 1;
	}
	err = errno;
	if (ioctl(fd, BLKDISCARD, range) == 0) {
		snprintf(how, howlen, "BLKDISCARD of %" PRIu64 " bytes (no secure discard: %s)",
			 len, strerror(err));
		return 1;
	}
	snprintf(how, howlen, "not purged: the device supports no discard (%s)",
		 strerror(errno));
	return 0;
}

int ib_purge(const char *path, dev_t rdev, uint64_t len, char *how,
	     size_t howlen, struct ib_diag *d)
{
	struct stat st;
	int fd, ret;

	if (stat(path, &st) == 0 && !S_ISBLK(st.st_mode)) {
		snprintf(how, howlen, "not purged: %s is not a block device", path);
		return 0;
	}
	fd = open(path, O_WRONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return ib_diag_set(d, errno, "purge: %s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != rdev) {
		close(fd);
		return ib_diag_set(d, ESTALE, "purge: %s changed after its safety check", path);
	}
	len = region(fd, len);
	if (!len) {
		snprintf(how, howlen, "not purged: the device's size is unknown");
		ret = 0;
	} else {
		ret = discard(fd, len, how, howlen);
	}
	close(fd);
	return ret;
}

unsigned int ib_blk_lbs(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int lbs = 0;

	if (fd < 0)
		return 0;
	if (ioctl(fd, BLKSSZGET, &lbs) < 0 || lbs < 0)
		lbs = 0;
	close(fd);
	return (unsigned int)lbs;
}
