// SPDX-License-Identifier: GPL-2.0-only
/*
 * The synchronous engines: every queue() does the I/O with one system call
 * and returns IB_Q_DONE, so their depth is effectively 1.
 *
 *   psync    pread/pwrite (fio's default; iobench's with defaults=fio)
 *   sync     lseek + read/write
 *   pvsync   preadv/pwritev with one iovec
 *   pvsync2  preadv2/pwritev2; hipri -> RWF_HIPRI, nowait -> RWF_NOWAIT,
 *           uncached -> RWF_DONTCACHE (buffered only)
 *   vsync    lseek + readv/writev (no merging of adjacent I/Os)
 *
 * res is the byte count (a short transfer stays short) or -errno; EINTR is
 * retried here so a signal never shows up as an I/O error.
 */
#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>
#include "engines.h"
#include "src/io/trim.h"

static int sync_init(struct ib_engine_ctx *ctx)
{
	ctx->data = NULL;
	ctx->errmsg[0] = '\0';
	return 0;
}

static void sync_cleanup(struct ib_engine_ctx *ctx)
{
	ctx->data = NULL;
}

static inline int io_fd(const struct ib_engine_ctx *ctx, const struct ib_io *io)
{
	return ctx->files[io->file_idx].fd;
}

static inline int finish(struct ib_engine_ctx *ctx, struct ib_io *io,
			 ssize_t ret)
{
	if (ib_likely(ret >= 0)) {
		io->res = ret;
	} else {
		io->res = -(int64_t)errno;
		eng_note_error(ctx, io->res);
	}
	return IB_Q_DONE;
}

static int psync_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	int fd = io_fd(ctx, io);
	ssize_t ret;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	do {
		if (io->ddir == IB_DDIR_WRITE)
			ret = pwrite(fd, io->buf, io->len, (off_t)io->offset);
		else
			ret = pread(fd, io->buf, io->len, (off_t)io->offset);
	} while (ret < 0 && errno == EINTR);
	return finish(ctx, io, ret);
}

static int sync_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	int fd = io_fd(ctx, io);
	ssize_t ret;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	if (lseek(fd, (off_t)io->offset, SEEK_SET) < 0)
		return finish(ctx, io, -1);
	do {
		if (io->ddir == IB_DDIR_WRITE)
			ret = write(fd, io->buf, io->len);
		else
			ret = read(fd, io->buf, io->len);
	} while (ret < 0 && errno == EINTR);
	return finish(ctx, io, ret);
}

static int pvsync_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
	int fd = io_fd(ctx, io);
	ssize_t ret;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	do {
		if (io->ddir == IB_DDIR_WRITE)
			ret = pwritev(fd, &iov, 1, (off_t)io->offset);
		else
			ret = preadv(fd, &iov, 1, (off_t)io->offset);
	} while (ret < 0 && errno == EINTR);
	return finish(ctx, io, ret);
}

static int pvsync2_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
	int fd = io_fd(ctx, io), flags = eng_rwf_flags(ctx->job);
	ssize_t ret;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	do {
		if (io->ddir == IB_DDIR_WRITE)
			ret = pwritev2(fd, &iov, 1, (off_t)io->offset,
				       flags | eng_rwf_write_flags(ctx->job));
		else
			ret = preadv2(fd, &iov, 1, (off_t)io->offset, flags);
	} while (ret < 0 && errno == EINTR);
	return finish(ctx, io, ret);
}

static int vsync_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
	int fd = io_fd(ctx, io);
	ssize_t ret;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	if (lseek(fd, (off_t)io->offset, SEEK_SET) < 0)
		return finish(ctx, io, -1);
	do {
		if (io->ddir == IB_DDIR_WRITE)
			ret = writev(fd, &iov, 1);
		else
			ret = readv(fd, &iov, 1);
	} while (ret < 0 && errno == EINTR);
	return finish(ctx, io, ret);
}

/* pvsync2's options; the other sync engines have none. */
static const struct ib_opt pvsync2_rows[] = {
	ENG_OPT_HIPRI,
	ENG_OPT_NOWAIT,
	ENG_OPT_UNCACHED,
	ENG_OPT_ATOMIC,
	ENG_OPT_END,
};

const struct ib_engine_opts ib_engine_opts_pvsync2 = {
	.engine = "pvsync2",
	.rows = pvsync2_rows,
};

#define SYNC_ENGINE(n, h)                                                     \
	const struct ib_engine_ops ib_engine_##n = {                          \
		.name = #n, .help = h, .flags = IB_ENGINE_SYNC,               \
		.init = sync_init, .queue = n##_queue, .cleanup = sync_cleanup, \
	}

SYNC_ENGINE(psync, "pread/pwrite, one I/O at a time (defaults=fio's engine)");
SYNC_ENGINE(sync, "lseek + read/write, one I/O at a time");
SYNC_ENGINE(pvsync, "preadv/pwritev, one I/O at a time");
SYNC_ENGINE(pvsync2, "preadv2/pwritev2 with RWF_* flags, one I/O at a time");
SYNC_ENGINE(vsync, "lseek + readv/writev, one I/O at a time");
