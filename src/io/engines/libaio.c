// SPDX-License-Identifier: GPL-2.0-only
/*
 * The libaio engine: Linux native AIO through io_setup/io_submit/
 * io_getevents. It is asynchronous only with direct=1; buffered AIO
 * completes inside io_submit.
 *
 * queue() prepares the io's own iocb (iocbs[io->idx]) and appends it to the
 * pending list; commit() hands the pending list to io_submit, which may take
 * only part of it (the rest stays pending, in order). reap() reads the
 * completion ring the kernel maps at the io_context_t address, skipping the
 * system call, and calls io_getevents (with a timespec for a timed wait)
 * only for what the ring did not hold. With iobench's defaults the ring is
 * read before every wait (engine_setup "ring_peek"): where the I/Os complete
 * in io_submit (a tmpfs file, zram) or while the job works (a loop device),
 * most waits find their events there. fio reads it only with
 * userspace_reap and iodepth_batch_complete_min=0, as defaults=fio does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <libaio.h>
#include "engines.h"
#include "src/io/trim.h"

/* The kernel's AIO completion ring header (a stable ABI, fs/aio.c). */
struct aio_uring {
	unsigned int id;
	unsigned int nr;	/* number of io_events */
	unsigned int head;	/* consumer index: written by us */
	unsigned int tail;	/* producer index: written by the kernel */
	unsigned int magic;
	unsigned int compat_features;
	unsigned int incompat_features;
	unsigned int header_length;
	struct io_event io_events[];
};

#define AIO_RING_MAGIC 0xa10a10a1u

struct aio_data {
	io_context_t aio_ctx;
	bool ctx_ok;
	bool user_reap;		/* userspace_reap and the ring looks right */
	bool peek;		/* iobench's defaults: the ring before each wait */
	int rw_flags;		/* RWF_NOWAIT (eng_rwf_flags) */
	int wr_flags;		/* and on writes: RWF_ATOMIC */
	unsigned int npending;	/* iocbs queued, not yet submitted */
	unsigned int inflight;	/* submitted, not yet reaped (failed included) */
	unsigned int nfailed;	/* refused by io_submit, res set, to reap */
	struct iocb *iocbs;	/* nr_ios, one per io (index io->idx) */
	struct iocb **pending;	/* nr_ios, in queue order */
	struct io_event *events;	/* nr_ios */
	struct ib_io **failed;	/* nr_ios */
	struct iovec *iov;	/* libaio_vectored: nr_ios, one per io */
};

static int aio_init(struct ib_engine_ctx *ctx)
{
	struct aio_data *ad;
	int ret;

	ctx->errmsg[0] = '\0';
	ad = calloc(1, sizeof(*ad));
	if (!ad)
		return -ENOMEM;
	ctx->data = ad;
	ad->iocbs = calloc(ctx->nr_ios, sizeof(*ad->iocbs));
	ad->pending = calloc(ctx->nr_ios, sizeof(*ad->pending));
	ad->events = calloc(ctx->nr_ios, sizeof(*ad->events));
	ad->failed = calloc(ctx->nr_ios, sizeof(*ad->failed));
	if (!ad->iocbs || !ad->pending || !ad->events || !ad->failed)
		return -ENOMEM;
	if (ctx->job->engine.libaio_vectored &&
	    !(ad->iov = calloc(ctx->nr_ios, sizeof(*ad->iov))))
		return -ENOMEM;
	ret = io_setup((int)ctx->nr_ios, &ad->aio_ctx);
	if (ret == -EAGAIN) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg),
			 "libaio: io_setup(%u): %s (the system-wide AIO limit is "
			 "reached: raise fs.aio-max-nr, see /proc/sys/fs/aio-nr)",
			 ctx->nr_ios, strerror(EAGAIN));
		return ret;
	}
	if (ret < 0) {
		snprintf(ctx->errmsg, sizeof(ctx->errmsg), "libaio: io_setup(%u): %s%s",
			 ctx->nr_ios, strerror(-ret),
			 ret == -ENOSYS ? " (no AIO support in this kernel)" : "");
		return ret;
	}
	ad->ctx_ok = true;
	if (((const struct aio_uring *)ad->aio_ctx)->magic == AIO_RING_MAGIC) {
		ad->user_reap = ctx->job->engine.userspace_reap;
		ad->peek = ctx->job->defaults == IB_DEFAULTS_IOBENCH;
	}
	if (ad->peek)
		snprintf(ctx->setup, sizeof(ctx->setup), "ring_peek");
	ad->rw_flags = eng_rwf_flags(ctx->job) & ~RWF_HIPRI;	/* nowait only here */
	ad->wr_flags = ad->rw_flags | eng_rwf_write_flags(ctx->job);
	return 0;
}

/* libaio_vectored=1: IOCB_CMD_PREADV/PWRITEV with the io's one iovec. */
static void prep_vectored(struct iocb *iocb, int fd, struct iovec *iov,
			  const struct ib_io *io)
{
	iov->iov_base = io->buf;
	iov->iov_len = io->len;
	if (io->ddir == IB_DDIR_WRITE)
		io_prep_pwritev(iocb, fd, iov, 1, (long long)io->offset);
	else
		io_prep_preadv(iocb, fd, iov, 1, (long long)io->offset);
}

static int aio_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct aio_data *ad = ctx->data;
	struct iocb *iocb;
	int fd;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	if (ad->npending + ad->inflight >= ctx->nr_ios)
		return IB_Q_BUSY;
	iocb = &ad->iocbs[io->idx];
	fd = ctx->files[io->file_idx].fd;
	if (ad->iov)
		prep_vectored(iocb, fd, &ad->iov[io->idx], io);
	else if (io->ddir == IB_DDIR_WRITE)
		io_prep_pwrite(iocb, fd, io->buf, io->len, (long long)io->offset);
	else
		io_prep_pread(iocb, fd, io->buf, io->len, (long long)io->offset);
	iocb->aio_rw_flags = io->ddir == IB_DDIR_WRITE ? ad->wr_flags : ad->rw_flags;
	iocb->data = io;
	ad->pending[ad->npending++] = iocb;
	return IB_Q_QUEUED;
}

/*
 * io_submit takes a prefix of the list. EAGAIN means the kernel is out of
 * resources for now: keep the rest pending and let the loop reap first.
 * Any other error belongs to the first iocb (a write to a read-only fd
 * gives EBADF here, not in its event): that io completes with res = -errno
 * through reap, as io_uring would report it in its CQE.
 */
static int aio_commit(struct ib_engine_ctx *ctx)
{
	struct aio_data *ad = ctx->data;
	unsigned int done = 0;

	while (done < ad->npending) {
		int ret = io_submit(ad->aio_ctx, (long)(ad->npending - done),
				    ad->pending + done);

		if (ret > 0) {
			done += (unsigned int)ret;
		} else if (ret < 0 && ret != -EAGAIN && ret != -EINTR) {
			struct ib_io *io = ad->pending[done++]->data;

			io->res = ret;
			ad->failed[ad->nfailed++] = io;
		} else if (ret != -EINTR) {
			break;	/* 0 or EAGAIN */
		}
	}
	if (done && done < ad->npending)
		memmove(ad->pending, ad->pending + done,
			(ad->npending - done) * sizeof(*ad->pending));
	ad->npending -= done;
	ad->inflight += done;
	return (int)done;
}

static void take_event(struct ib_engine_ctx *ctx, const struct io_event *ev,
		       struct ib_io **slot)
{
	struct ib_io *io = ev->data;

	/* res is an unsigned long holding bytes or -errno */
	io->res = (int64_t)(long)ev->res;
	if (ib_unlikely(io->res < 0))
		eng_note_error(ctx, io->res);
	*slot = io;
}

/* Read completions straight from the mapped ring: no system call. */
static unsigned int user_reap(struct ib_engine_ctx *ctx, struct aio_data *ad,
			      unsigned int max, struct ib_io **done)
{
	struct aio_uring *r = (void *)ad->aio_ctx;
	unsigned int head = r->head, n = 0;
	unsigned int tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);

	while (head != tail && n < max) {
		take_event(ctx, &r->io_events[head], &done[n++]);
		if (++head == r->nr)
			head = 0;
	}
	__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return n;
}

static int take_failed(struct ib_engine_ctx *ctx, struct aio_data *ad,
		       unsigned int max, struct ib_io **done)
{
	unsigned int n = ad->nfailed < max ? ad->nfailed : max;

	for (unsigned int i = 0; i < n; i++) {
		done[i] = ad->failed[--ad->nfailed];
		eng_note_error(ctx, done[i]->res);
	}
	ad->inflight -= n;
	return (int)n;
}

/* io_getevents for min..max events; timeout_ns IB_WAIT_FOREVER: no bound. */
static int get_events(struct aio_data *ad, unsigned int min, unsigned int max,
		      uint64_t timeout_ns)
{
	struct timespec ts, *tsp = NULL;

	if (timeout_ns != IB_WAIT_FOREVER) {
		ts.tv_sec = (time_t)(timeout_ns / 1000000000u);
		ts.tv_nsec = (long)(timeout_ns % 1000000000u);
		tsp = &ts;
	}
	return io_getevents(ad->aio_ctx, (long)min, (long)max, ad->events, tsp);
}

/*
 * At least min, at most max completions. What the ring holds first (peek,
 * or fio's userspace_reap at min 0), then io_getevents for the rest; a
 * failed or interrupted wait after some events returns those.
 */
static int aio_reap(struct ib_engine_ctx *ctx, unsigned int min,
		    unsigned int max, struct ib_io **done, uint64_t timeout_ns)
{
	struct aio_data *ad = ctx->data;
	unsigned int n = 0;
	int ret;

	if (max > ad->inflight)
		max = ad->inflight;
	if (min > max)
		min = max;
	if (!max)
		return 0;
	if (ib_unlikely(ad->nfailed))
		return take_failed(ctx, ad, max, done);
	if (ad->peek || (ad->user_reap && !min))
		n = user_reap(ctx, ad, max, done);
	if (n < min) {
		ret = get_events(ad, min - n, max - n, timeout_ns);
		if (ret < 0 && !n && ret != -EINTR)
			return ret;
		for (int i = 0; i < ret; i++)
			take_event(ctx, &ad->events[i], &done[n + (unsigned int)i]);
		if (ret > 0)
			n += (unsigned int)ret;
	}
	ad->inflight -= n;
	return (int)n;
}

static void aio_cleanup(struct ib_engine_ctx *ctx)
{
	struct aio_data *ad = ctx->data;

	if (!ad)
		return;
	if (ad->ctx_ok)
		io_destroy(ad->aio_ctx);	/* waits for what is in flight */
	free(ad->iocbs);
	free(ad->pending);
	free(ad->events);
	free(ad->failed);
	free(ad->iov);
	free(ad);
	ctx->data = NULL;
}

static int aio_probe(void)
{
	io_context_t c = 0;
	int ret = io_setup(1, &c);

	if (ret < 0)
		return ret;
	io_destroy(c);
	return 0;
}

const struct ib_engine_ops ib_engine_libaio = {
	.name = "libaio",
	.help = "Linux native AIO (libaio): asynchronous with direct=1",
	.flags = 0,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
	.probe = aio_probe,
};
