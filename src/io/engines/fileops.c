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
 * and fio's metadata engines, where each I/O is one call on the file's
 * path, timed as the I/O's latency, counted with the I/O's length:
 *
 *   filecreate open(O_CREAT) and close: the files are not laid out first
 *              (IB_ENGINE_NOFILES), the engine makes them.
 *   filestat   stat() of the laid-out files.
 *   filedelete unlink() of the laid-out files; the file's later I/Os (a
 *              region of several blocks) find it deleted and do nothing.
 * None of the three touches a device node: EPERM on one.
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
#include <sys/stat.h>
#include <unistd.h>
#include "engines.h"
#include "src/io/trim.h"

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

/* A device node is never created over, stat-timed or unlinked here. */
static bool meta_refused(struct ib_engine_ctx *ctx, const struct ib_file *f)
{
	struct stat st;

	if (!f->is_bdev && (stat(f->path, &st) || S_ISREG(st.st_mode)))
		return false;
	snprintf(ctx->errmsg, sizeof(ctx->errmsg),
		 "ioengine=%s: %s is not a regular file", ctx->job->ioengine, f->path);
	errno = EPERM;
	return true;
}

static int filecreate_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	const struct ib_file *f = &ctx->files[io->file_idx];
	int fd;

	if (ib_unlikely(f->is_bdev))
		return done(ctx, io, meta_refused(ctx, f) ? -1 : 0);
	fd = open(f->path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return done(ctx, io, -1);
	close(fd);
	return done(ctx, io, 0);
}

static int filestat_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct stat st;

	return done(ctx, io, stat(ctx->files[io->file_idx].path, &st));
}

static int filedelete_init(struct ib_engine_ctx *ctx)
{
	ctx->errmsg[0] = '\0';
	ctx->data = calloc(ctx->nr_files ? ctx->nr_files : 1, sizeof(bool));
	return ctx->data ? 0 : -ENOMEM;
}

static void filedelete_cleanup(struct ib_engine_ctx *ctx)
{
	free(ctx->data);
	ctx->data = NULL;
}

static int filedelete_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	const struct ib_file *f = &ctx->files[io->file_idx];
	bool *deleted = ctx->data;

	if (deleted[io->file_idx])
		return done(ctx, io, 0);
	if (meta_refused(ctx, f))
		return done(ctx, io, -1);
	deleted[io->file_idx] = true;
	return done(ctx, io, unlink(f->path));
}

const struct ib_engine_ops ib_engine_filecreate = {
	.name = "filecreate", .help = "create each file (open O_CREAT + close) per I/O, no data",
	.flags = IB_ENGINE_SYNC | IB_ENGINE_NOIO | IB_ENGINE_NOFILES,
	.init = plain_init, .queue = filecreate_queue, .cleanup = plain_cleanup,
};

const struct ib_engine_ops ib_engine_filestat = {
	.name = "filestat", .help = "stat(2) the file per I/O, no data",
	.flags = IB_ENGINE_SYNC | IB_ENGINE_NOIO,
	.init = plain_init, .queue = filestat_queue, .cleanup = plain_cleanup,
};

const struct ib_engine_ops ib_engine_filedelete = {
	.name = "filedelete", .help = "unlink(2) the file per I/O, no data",
	.flags = IB_ENGINE_SYNC | IB_ENGINE_NOIO,
	.init = filedelete_init, .queue = filedelete_queue,
	.cleanup = filedelete_cleanup,
};

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
