// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trims for every engine (see trim.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "trim.h"

int ib_trim_io(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	const struct ib_file *f = &ctx->files[io->file_idx];
	uint64_t range[2] = { io->offset, io->len };
	int ret;

	do {
		if (f->is_bdev)
			ret = ioctl(f->fd, BLKDISCARD, range);
		else
			ret = fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)io->offset, (off_t)io->len);
	} while (ret < 0 && errno == EINTR);
	io->res = ret < 0 ? -(int64_t)errno : (int64_t)io->len;
	if (ret < 0 && errno == EOPNOTSUPP)
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "%s: %s not supported here", f->path,
			 f->is_bdev ? "discard" : "fallocate(PUNCH_HOLE)");
	return IB_Q_DONE;
}

/* The device's queue/discard_max_bytes (a partition: its disk's). */
static int discard_max(dev_t rdev, unsigned long long *max)
{
	static const char *const fmt[] = {
		"/sys/dev/block/%u:%u/queue/discard_max_bytes",
		"/sys/dev/block/%u:%u/../queue/discard_max_bytes",
	};
	char path[96];
	unsigned int i;
	FILE *fp;
	int n;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), fmt[i], major(rdev), minor(rdev));
		fp = fopen(path, "re");
		if (!fp)
			continue;
		n = fscanf(fp, "%llu", max);
		fclose(fp);
		if (n == 1)
			return 0;
	}
	return -ENOENT;
}

int ib_trim_check(const struct ib_file *f, struct ib_diag *d)
{
	unsigned long long max = 0;
	struct stat st;

	if (!f->is_bdev)
		return 0;
	if (stat(f->path, &st) < 0) {
		int e = errno;

		return ib_diag_set(d, e, "%s: stat: %s", f->path, strerror(e));
	}
	if (discard_max(st.st_rdev, &max))
		return 0;	/* no sysfs: the first trim says */
	if (!max)
		return ib_diag_set(d, EOPNOTSUPP,
				   "%s does not support discard (queue/discard_max_bytes is 0): cannot trim",
				   f->path);
	return 0;
}
