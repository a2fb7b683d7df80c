// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's engines that move data without read/write calls, one I/O at a time
 * (IB_ENGINE_SYNC), each as fio 3.33 defines it:
 *
 *   mmap       every file's region is mapped (MAP_SHARED) at init; a read
 *              copies from the mapping, a write into it (memcpy).
 *   falloc     read: fallocate(FALLOC_FL_KEEP_SIZE), write: fallocate(0),
 *              trim: fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)
 *              over the I/O's range.
 *   ftruncate  write: ftruncate() to the I/O's offset; reads and trims
 *              fail with EINVAL (fio's engine does writes only).
 *
 * res is the I/O's length, or -errno. Trims on mmap and ftruncate are
 * trim.h's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <linux/falloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "engines.h"
#include "iobench/trim.h"

struct map {
	char *base;		/* MAP_FAILED: not mapped */
	uint64_t start;		/* file offset of base (page aligned) */
	uint64_t len;
};

static int done(struct ib_engine_ctx *ctx, struct ib_io *io, int ret)
{
	if (ret < 0) {
		io->res = -(int64_t)errno;
		eng_note_error(ctx, io->res);
	} else {
		io->res = io->len;
	}
	return IB_Q_DONE;
}

static void mmap_cleanup(struct ib_engine_ctx *ctx)
{
	struct map *m = ctx->data;
	unsigned int i;

	for (i = 0; m && i < ctx->nr_files; i++)
		if (m[i].base != MAP_FAILED)
			munmap(m[i].base, m[i].len);
	free(m);
	ctx->data = NULL;
}

static int map_file(struct ib_engine_ctx *ctx, struct map *m,
		    const struct ib_file *f)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	int prot = PROT_READ | (ib_job_writes(ctx->job) ? PROT_WRITE : 0);

	m->base = MAP_FAILED;
	m->start = f->io_offset & ~(page - 1);
	m->len = f->io_offset + f->io_size - m->start;
	if (!f->io_size)
		return 0;
	m->base = mmap(NULL, m->len, prot, MAP_SHARED, f->fd, (off_t)m->start);
	if (m->base != MAP_FAILED)
		return 0;
	{
		int e = errno;

		snprintf(ctx->errmsg, sizeof(ctx->errmsg), "mmap %s: %s", f->path,
			 strerror(e));
		return -e;
	}
}

static int mmap_init(struct ib_engine_ctx *ctx)
{
	struct map *m = calloc(ctx->nr_files ? ctx->nr_files : 1, sizeof(*m));
	unsigned int i;
	int ret = 0;

	ctx->errmsg[0] = '\0';
	ctx->data = m;
	if (!m)
		return -ENOMEM;
	for (i = 0; i < ctx->nr_files; i++)
		m[i].base = MAP_FAILED;
	for (i = 0; i < ctx->nr_files && !ret; i++)
		ret = map_file(ctx, &m[i], &ctx->files[i]);
	return ret;
}

static int mmap_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct map *m = &((struct map *)ctx->data)[io->file_idx];
	uint64_t off = io->offset - m->start;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	if (m->base == MAP_FAILED || io->offset < m->start || off + io->len > m->len) {
		errno = EINVAL;
		return done(ctx, io, -1);
	}
	if (io->ddir == IB_DDIR_WRITE)
		memcpy(m->base + off, io->buf, io->len);
	else
		memcpy(io->buf, m->base + off, io->len);
	return done(ctx, io, 0);
}

static int plain_init(struct ib_engine_ctx *ctx)
{
	ctx->data = NULL;
	ctx->errmsg[0] = '\0';
	return 0;
}

static void plain_cleanup(struct ib_engine_ctx *ctx)
{
	ctx->data = NULL;
}

static int falloc_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	static const int mode[IB_DDIR_RWT] = {
		FALLOC_FL_KEEP_SIZE, 0, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	};
	int fd = ctx->files[io->file_idx].fd, ret;

	do {
		ret = fallocate(fd, mode[io->ddir], (off_t)io->offset, (off_t)io->len);
	} while (ret < 0 && errno == EINTR);
	return done(ctx, io, ret);
}

static int ftruncate_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	int fd = ctx->files[io->file_idx].fd, ret;

	if (io->ddir != IB_DDIR_WRITE) {
		eng_errmsg(ctx, "ftruncate: the engine does writes only");
		errno = EINVAL;
		return done(ctx, io, -1);
	}
	do {
		ret = ftruncate(fd, (off_t)io->offset);
	} while (ret < 0 && errno == EINTR);
	return done(ctx, io, ret);
}

const struct ib_engine_ops ib_engine_mmap = {
	.name = "mmap", .help = "memcpy to and from the files mapped with mmap(2)",
	.flags = IB_ENGINE_SYNC, .init = mmap_init, .queue = mmap_queue,
	.cleanup = mmap_cleanup,
};

const struct ib_engine_ops ib_engine_falloc = {
	.name = "falloc", .help = "fallocate(2) per I/O: read keeps the size, write allocates, trim punches",
	.flags = IB_ENGINE_SYNC, .init = plain_init, .queue = falloc_queue,
	.cleanup = plain_cleanup,
};

const struct ib_engine_ops ib_engine_ftruncate = {
	.name = "ftruncate", .help = "ftruncate(2) to each write's offset (writes only)",
	.flags = IB_ENGINE_SYNC, .init = plain_init, .queue = ftruncate_queue,
	.cleanup = plain_cleanup,
};
