// SPDX-License-Identifier: GPL-2.0-only
/*
 * splice: fio's splice engine, one I/O at a time through a pipe the engine
 * owns. A read splices the file's range into the pipe and reads it out
 * into the buffer; a write vmsplices the buffer into the pipe and splices
 * it to the file. Trims are trim.h's. A short move goes on until the
 * I/O's length is done or a call moves nothing (end of file: the I/O is
 * short).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>
#include "engines.h"
#include "iobench/trim.h"

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

static ssize_t do_read(struct splice_data *sd, int fd, char *buf, size_t len,
		       loff_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t in = splice(fd, &off, sd->pipe[1], NULL, len - done, SPLICE_F_MOVE);
		ssize_t got = 0;

		if (in <= 0)
			return in < 0 && !done ? -1 : (ssize_t)done;
		while (got < in) {
			ssize_t r = read(sd->pipe[0], buf + done + got, (size_t)(in - got));

			if (r <= 0)
				return -1;
			got += r;
		}
		done += (size_t)in;
	}
	return (ssize_t)done;
}

static ssize_t do_write(struct splice_data *sd, int fd, char *buf, size_t len,
			loff_t off)
{
	size_t done = 0;

	while (done < len) {
		struct iovec iov = { .iov_base = buf + done, .iov_len = len - done };
		ssize_t in = vmsplice(sd->pipe[1], &iov, 1, 0), out = 0;

		if (in <= 0)
			return -1;
		while (out < in) {
			ssize_t w = splice(sd->pipe[0], NULL, fd, &off, (size_t)(in - out),
					   SPLICE_F_MOVE);

			if (w <= 0)
				return -1;
			out += w;
		}
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
	do {
		if (io->ddir == IB_DDIR_WRITE)
			ret = do_write(sd, fd, io->buf, io->len, (loff_t)io->offset);
		else
			ret = do_read(sd, fd, io->buf, io->len, (loff_t)io->offset);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0) {
		io->res = -(int64_t)errno;
		eng_note_error(ctx, io->res);
	} else {
		io->res = ret;
	}
	return IB_Q_DONE;
}

const struct ib_engine_ops ib_engine_splice = {
	.name = "splice", .help = "splice(2)/vmsplice(2) through a pipe, one I/O at a time",
	.flags = IB_ENGINE_SYNC, .init = splice_init, .queue = splice_queue,
	.cleanup = splice_cleanup,
};
