// SPDX-License-Identifier: GPL-2.0-only
/*
 * Evidence probes on files and devices: page-cache residency (mincore) and
 * allocated extents (SEEK_DATA/SEEK_HOLE), also through a loop device to
 * its backing file (probe.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iobench/safe_open.h"
#include "probe.h"
#include "env_priv.h"

/* mincore's vector is one byte per page: map the range in windows */
#define WINDOW_PAGES 65536u

static int open_sized(const char *path, uint64_t *size, struct stat *st, struct ib_diag *d)
{
	/* mmap() sets the atime, which the job's own reads leave alone */
	int fd = ib_open_noatime(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return ib_diag_set(d, errno, "%s: open: %s", path, strerror(errno));
	if (fstat(fd, st) != 0) {
		close(fd);
		return ib_diag_set(d, errno, "%s: fstat: %s", path, strerror(errno));
	}
	*size = (uint64_t)st->st_size;
	if (S_ISBLK(st->st_mode) && ioctl(fd, BLKGETSIZE64, size) != 0) {
		close(fd);
		return ib_diag_set(d, errno, "%s: BLKGETSIZE64: %s", path, strerror(errno));
	}
	return fd;
}

/* [*off, *end) clamped to size; len 0 means to the end */
static void clamp(uint64_t size, uint64_t off, uint64_t len, uint64_t *start, uint64_t *end)
{
	*start = off < size ? off : size;
	*end = (!len || len > size - *start) ? size : *start + len;
}

static int count_window(int fd, uint64_t off, size_t bytes, size_t pages,
			unsigned char *vec, uint64_t *resident)
{
	void *p = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, (off_t)off);
	size_t i;
	int ret = 0;

	if (p == MAP_FAILED)
		return -errno;
	if (mincore(p, bytes, vec) != 0)
		ret = -errno;
	for (i = 0; !ret && i < pages; i++)
		*resident += vec[i] & 1;
	munmap(p, bytes);
	return ret;
}

int ib_probe_resident(const char *path, uint64_t off, uint64_t len,
		      struct ib_probe_resident *r, struct ib_diag *d)
{
	uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE), size, start, end, pos;
	unsigned char *vec;
	struct stat st;
	int fd, ret = 0;

	memset(r, 0, sizeof(*r));
	r->page_size = ps;
	fd = open_sized(path, &size, &st, d);
	if (fd < 0)
		return fd;
	clamp(size, off, len, &start, &end);
	if (start == end) {
		close(fd);
		return 0;
	}
	start &= ~(ps - 1);
	r->pages = (end - start + ps - 1) / ps;
	vec = malloc(WINDOW_PAGES);
	if (!vec)
		ret = ib_diag_set(d, ENOMEM, "%s: mincore vector", path);
	for (pos = start; !ret && pos < end; pos += (uint64_t)WINDOW_PAGES * ps) {
		uint64_t bytes = end - pos < (uint64_t)WINDOW_PAGES * ps ?
			end - pos : (uint64_t)WINDOW_PAGES * ps;

		ret = count_window(fd, pos, (size_t)bytes, (size_t)((bytes + ps - 1) / ps),
				   vec, &r->resident);
		if (ret)
			ib_diag_set(d, -ret, "%s: mmap/mincore: %s", path, strerror(-ret));
	}
	free(vec);
	close(fd);
	return ret;
}

/* Bytes in data extents within [start, end) */
static int data_bytes(int fd, uint64_t start, uint64_t end, uint64_t *data)
{
	off_t pos = (off_t)start, s, h;

	*data = 0;
	while ((uint64_t)pos < end) {
		s = lseek(fd, pos, SEEK_DATA);
		if (s < 0)
			return errno == ENXIO ? 0 : -errno;	/* ENXIO: no more data */
		if ((uint64_t)s >= end)
			return 0;
		h = lseek(fd, s, SEEK_HOLE);
		if (h < 0)
			return -errno;
		if ((uint64_t)h > end)
			h = (off_t)end;
		*data += (uint64_t)(h - s);
		pos = h;
	}
	return 0;
}

int ib_probe_allocated(const char *path, uint64_t off, uint64_t len,
		       struct ib_probe_alloc *a, struct ib_diag *d)
{
	uint64_t size, start, end;
	struct stat st;
	int fd, ret;

	memset(a, 0, sizeof(*a));
	fd = open_sized(path, &size, &st, d);
	if (fd < 0)
		return fd;
	clamp(size, off, len, &start, &end);
	a->size = end - start;
	if (S_ISREG(st.st_mode))
		a->blocks = (uint64_t)st.st_blocks * 512;
	ret = data_bytes(fd, start, end, &a->data);
	if (ret)
		ib_diag_set(d, -ret, "%s: SEEK_DATA/SEEK_HOLE: %s", path, strerror(-ret));
	close(fd);
	return ret;
}

int ib_probe_loop_allocated(const char *sysfs, const char *disk, uint64_t off,
			    uint64_t len, struct ib_probe_alloc *a, struct ib_diag *d)
{
	const char *root = sysfs ? sysfs : "/sys";
	char backing[PATH_MAX];
	uint64_t boff;
	int ret;

	memset(a, 0, sizeof(*a));
	ret = ib_env_read(backing, sizeof(backing), root, "block/%s/loop/backing_file", disk);
	if (ret)
		return ib_diag_set(d, -ret, "%s: not a loop device", disk);
	boff = ib_env_read_u64(0, root, "block/%s/loop/offset", disk);
	if (!len) {
		uint64_t sectors = ib_env_read_u64(0, root, "block/%s/size", disk);

		len = sectors * 512 > off ? sectors * 512 - off : 0;
		if (!len)
			return 0;
	}
	return ib_probe_allocated(backing, boff + off, len, a, d);
}
