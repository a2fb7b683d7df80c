// SPDX-License-Identifier: GPL-2.0-only
/*
 * splice: fio's splice engine, one I/O at a time through a pipe the engine
 * owns. A read splices the file's range into the pipe and reads it out
 * into the buffer; a write vmsplices the buffer into the pipe and splices
 * it to the file. Trims are trim.h's. A short move goes on until the
 * I/O's length is done or a read's splice moves nothing (end of file: the
 * I/O is short); EINTR repeats the call that got it, not the I/O. Errors
 * are -errno in res, and an I/O that fails leaves nothing in the pipe for
 * the next one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>
#include "engines.h"
#include "src/io/trim.h"

struct splice_data {
	int pipe[2];
};

static void splice_cleanup(struct ib_engine_ctx *ctx)
{
	struct splice_data *sd = ctx->data;

	if (sd) {
		if (sd->pipe[0] >= 0)
			close(sd->pipe[0]);
		if (sd->pipe[1] >= 0)
			close(sd->pipe[1]);
	}
	free(sd);
	ctx->data = NULL;
}

static int splice_init(struct ib_engine_ctx *ctx)
{
	struct splice_data *sd = malloc(sizeof(*sd));

	ctx->errmsg[0] = '\0';
	ctx->data = sd;
	if (!sd)
		return -ENOMEM;
	if (pipe2(sd->pipe, O_CLOEXEC)) {
		sd->pipe[0] = sd->pipe[1] = -1;
		return -errno;
	}
	/* room for a whole buffer if the kernel allows it; smaller works too */
	(void)fcntl(sd->pipe[1], F_SETPIPE_SZ, (int)ctx->buf_size);
	return 0;
}

/*
 * After a failed move the pipe may still hold part of the I/O's data: a
 * new pipe, so that none of it reaches the next I/O. -errno if none can be
 * made (the next I/O then fails with -EBADF, and cleanup has nothing to
 * close twice).
 */
static int renew_pipe(struct splice_data *sd, size_t size)
{
	close(sd->pipe[0]);
	close(sd->pipe[1]);
	if (pipe2(sd->pipe, O_CLOEXEC)) {
		sd->pipe[0] = sd->pipe[1] = -1;
		return -errno;
	}
	(void)fcntl(sd->pipe[1], F_SETPIPE_SZ, (int)size);
	return 0;
}

/*
 * A call's answer as -errno: its errno when it failed, -EIO when it moved
 * nothing where it had to move something (errno is then stale).
 */
static ssize_t moved_err(ssize_t r)
{
	return r < 0 ? -(ssize_t)errno : -EIO;
}

/* Empty the pipe into buf: `len` bytes are there. 0 or -errno. */
static ssize_t drain(struct splice_data *sd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(sd->pipe[0], buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return moved_err(r);
		got += (size_t)r;
	}
	return 0;
}

/* Bytes read (short at end of file) or -errno; the pipe is empty after. */
static ssize_t do_read(struct splice_data *sd, int fd, char *buf, size_t len,
		       loff_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t in = splice(fd, &off, sd->pipe[1], NULL, len - done, SPLICE_F_MOVE);
		ssize_t err;

		if (in < 0 && errno == EINTR)
			continue;
		if (in < 0)
			return done ? (ssize_t)done : -(ssize_t)errno;
		if (in == 0)
			break;	/* end of file */
		err = drain(sd, buf + done, (size_t)in);
		if (err < 0)
			return err;
		done += (size_t)in;
	}
	return (ssize_t)done;
}

/* Splice `len` bytes out of the pipe to fd at *off: 0 or -errno. */
static ssize_t flush(struct splice_data *sd, int fd, size_t len, loff_t *off)
{
	size_t out = 0;

	while (out < len) {
		ssize_t w = splice(sd->pipe[0], NULL, fd, off, len - out, SPLICE_F_MOVE);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return moved_err(w);
		out += (size_t)w;
	}
	return 0;
}

/* Bytes written or -errno; data left in the pipe by a failure is the caller's. */
static ssize_t do_write(struct splice_data *sd, int fd, char *buf, size_t len,
			loff_t off)
{
	size_t done = 0;

	while (done < len) {
		struct iovec iov = { .iov_base = buf + done, .iov_len = len - done };
		ssize_t in = vmsplice(sd->pipe[1], &iov, 1, 0), err;

		if (in < 0 && errno == EINTR)
			continue;
		if (in <= 0)
			return moved_err(in);
		err = flush(sd, fd, (size_t)in, &off);
		if (err < 0)
			return err;
		done += (size_t)in;
	}
	return (ssize_t)done;
}

static int splice_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct splice_data *sd = ctx->data;
	int fd = ctx->files[io->file_idx].fd;
	ssize_t ret;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	if (io->ddir == IB_DDIR_WRITE)
		ret = do_write(sd, fd, io->buf, io->len, (loff_t)io->offset);
	else
		ret = do_read(sd, fd, io->buf, io->len, (loff_t)io->offset);
	io->res = ret;
	if (ret < 0) {
		eng_note_error(ctx, io->res);
		(void)renew_pipe(sd, ctx->buf_size);
	}
	return IB_Q_DONE;
}

const struct ib_engine_ops ib_engine_splice = {
	.name = "splice", .help = "splice(2)/vmsplice(2) through a pipe, one I/O at a time",
	.flags = IB_ENGINE_SYNC, .init = splice_init, .queue = splice_queue,
	.cleanup = splice_cleanup,
};
