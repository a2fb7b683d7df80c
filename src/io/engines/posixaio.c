// SPDX-License-Identifier: GPL-2.0-only
/*
 * posixaio: POSIX asynchronous I/O, aio_read(3)/aio_write(3) (glibc runs
 * them on its own threads). queue() holds ios, commit() starts them, reap()
 * polls aio_error() over what is in flight and waits in aio_suspend(3).
 * Trims are done inline (trim.h). An aio_read/aio_write that fails to start
 * (other than EAGAIN, which leaves the rest queued for the next commit)
 * completes with its -errno on the next reap, as the other engines report.
 */
#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engines.h"
#include "src/io/trim.h"

struct paio_data {
	struct aiocb *cbs;		/* nr_ios, one per io (index io->idx) */
	struct ib_io **queued;		/* nr_ios, in queue order */
	struct ib_io **inflight;	/* nr_ios, started (or failed to) */
	const struct aiocb **wait;	/* nr_ios, for aio_suspend */
	unsigned int nq, nflight;
};

static void paio_cleanup(struct ib_engine_ctx *ctx)
{
	struct paio_data *pd = ctx->data;
	unsigned int i;

	if (!pd)
		return;
	for (i = 0; i < pd->nflight; i++) {	/* wait out what still runs */
		struct aiocb *cb = &pd->cbs[pd->inflight[i]->idx];

		while (pd->inflight[i]->engine_priv == NULL && aio_error(cb) == EINPROGRESS) {
			const struct aiocb *one[1] = { cb };

			aio_suspend(one, 1, NULL);
		}
	}
	free(pd->cbs);
	free(pd->queued);
	free(pd->inflight);
	free(pd->wait);
	free(pd);
	ctx->data = NULL;
}

static int paio_init(struct ib_engine_ctx *ctx)
{
	struct paio_data *pd = calloc(1, sizeof(*pd));
	unsigned int n = ctx->nr_ios;

	ctx->errmsg[0] = '\0';
	ctx->data = pd;
	if (!pd)
		return -ENOMEM;
	pd->cbs = calloc(n, sizeof(*pd->cbs));
	pd->queued = calloc(n, sizeof(*pd->queued));
	pd->inflight = calloc(n, sizeof(*pd->inflight));
	pd->wait = calloc(n, sizeof(*pd->wait));
	if (!pd->cbs || !pd->queued || !pd->inflight || !pd->wait)
		return -ENOMEM;
	return 0;
}

static int paio_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct paio_data *pd = ctx->data;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	if (pd->nq + pd->nflight >= ctx->nr_ios)
		return IB_Q_BUSY;
	pd->queued[pd->nq++] = io;
	return IB_Q_QUEUED;
}

/* Start io; 0, -EAGAIN (not started) or -errno (failed: res set). */
static int start(struct ib_engine_ctx *ctx, struct paio_data *pd, struct ib_io *io)
{
	struct aiocb *cb = &pd->cbs[io->idx];
	int ret;

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = ctx->files[io->file_idx].fd;
	cb->aio_buf = io->buf;
	cb->aio_nbytes = io->len;
	cb->aio_offset = (off_t)io->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	io->engine_priv = NULL;
	ret = io->ddir == IB_DDIR_WRITE ? aio_write(cb) : aio_read(cb);
	if (!ret)
		return 0;
	if (errno == EAGAIN)
		return -EAGAIN;
	io->res = -(int64_t)errno;
	io->engine_priv = io;	/* failed to start: complete at reap */
	return -errno;
}

static int paio_commit(struct ib_engine_ctx *ctx)
{
	struct paio_data *pd = ctx->data;
	unsigned int i, n = 0;

	for (i = 0; i < pd->nq; i++) {
		if (start(ctx, pd, pd->queued[i]) == -EAGAIN)
			break;
		pd->inflight[pd->nflight++] = pd->queued[i];
		n++;
	}
	memmove(pd->queued, pd->queued + i, (pd->nq - i) * sizeof(*pd->queued));
	pd->nq -= i;
	return (int)n;
}

/* Move the finished ios into done[] (at most max - got); returns got. */
static unsigned int collect(struct paio_data *pd, struct ib_io **done,
			    unsigned int got, unsigned int max)
{
	unsigned int i = 0;

	while (i < pd->nflight && got < max) {
		struct ib_io *io = pd->inflight[i];
		struct aiocb *cb = &pd->cbs[io->idx];
		int err = io->engine_priv ? 0 : aio_error(cb);

		if (err == EINPROGRESS) {
			i++;
			continue;
		}
		if (!io->engine_priv) {
			ssize_t r = aio_return(cb);

			io->res = err ? -(int64_t)err : (int64_t)r;
		}
		done[got++] = io;
		pd->inflight[i] = pd->inflight[--pd->nflight];
	}
	return got;
}

static int paio_reap(struct ib_engine_ctx *ctx, unsigned int min,
		     unsigned int max, struct ib_io **done, uint64_t timeout_ns)
{
	struct paio_data *pd = ctx->data;
	struct timespec ts = { (time_t)(timeout_ns / 1000000000u),
			       (long)(timeout_ns % 1000000000u) };
	unsigned int got = 0, i;

	if (min > pd->nflight)
		min = pd->nflight;
	for (;;) {
		got = collect(pd, done, got, max);
		if (got >= min || got == max)
			return (int)got;
		for (i = 0; i < pd->nflight; i++)
			pd->wait[i] = &pd->cbs[pd->inflight[i]->idx];
		if (aio_suspend(pd->wait, (int)pd->nflight,
				timeout_ns == IB_WAIT_FOREVER ? NULL : &ts) &&
		    errno != EINTR)
			return (int)collect(pd, done, got, max); /* timed out */
		if (errno == EINTR)
			return (int)collect(pd, done, got, max);
	}
}

const struct ib_engine_ops ib_engine_posixaio = {
	.name = "posixaio", .help = "POSIX aio_read/aio_write (glibc's threads), aio_suspend to wait",
	.init = paio_init, .queue = paio_queue, .commit = paio_commit,
	.reap = paio_reap, .cleanup = paio_cleanup,
};
