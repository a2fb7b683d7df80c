// SPDX-License-Identifier: GPL-2.0-only
/*
 * The io_uring engine (liburing >= 2.0; newer setup flags are used when the
 * headers know them and dropped when the kernel refuses them).
 *
 * One ring of iodepth entries per job. queue() fills an SQE whose user_data
 * is the ib_io, commit() is io_uring_submit(), reap() peeks CQEs in batches
 * and waits only for what the loop asked for, as long as it allows. Options
 * (io_uring_opts.c): fixedbufs (registered buffers, READ/WRITE_FIXED),
 * registerfiles (IOSQE_FIXED_FILE), sqthread_poll(+_cpu) (SQPOLL), hipri
 * (IOPOLL), nonvectored, nowait, force_async (IOSQE_ASYNC on every Nth SQE).
 * The ring's set-up and registrations: io_uring_setup.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <liburing.h>
#include "engines.h"
#include "io_uring_priv.h"
#include "src/io/trim.h"

static int uring_init(struct ib_engine_ctx *ctx)
{
	struct uring_data *ud;

	ctx->errmsg[0] = '\0';
	ud = calloc(1, sizeof(*ud));
	if (!ud)
		return -ENOMEM;
	ctx->data = ud;
	ud->cqes = calloc(ctx->nr_ios, sizeof(*ud->cqes));
	ud->iov = calloc(ib_ctx_nr_bufs(ctx), sizeof(*ud->iov));
	if (!ud->cqes || !ud->iov)
		return -ENOMEM;
	return uring_setup(ctx, ud);
}

static void prep_sqe(struct ib_engine_ctx *ctx, struct uring_data *ud,
		     struct io_uring_sqe *sqe, struct ib_io *io)
{
	const struct ib_file *f = &ctx->files[io->file_idx];
	bool wr = io->ddir == IB_DDIR_WRITE;
	int fd = ud->fixed_files ? f->reg_index : f->fd;

	if (ud->op == OP_FIXED) {
		if (wr)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset,
						  (int)ib_ctx_buf_index(ctx, io));
		else
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset,
						 (int)ib_ctx_buf_index(ctx, io));
	} else if (ud->op == OP_RWV) {
		struct iovec *iov = &ud->iov[io->idx];

		iov->iov_base = io->buf;
		iov->iov_len = io->len;
		if (wr)
			io_uring_prep_writev(sqe, fd, iov, 1, io->offset);
		else
			io_uring_prep_readv(sqe, fd, iov, 1, io->offset);
	} else if (wr) {
		io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
	} else {
		io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
	}
	if (ud->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (ib_unlikely(ud->async_every) && !--ud->async_left) {
		sqe->flags |= IOSQE_ASYNC;
		ud->async_left = ud->async_every;
	}
	sqe->rw_flags = wr ? ud->wr_flags : ud->rw_flags;
	io_uring_sqe_set_data(sqe, io);
}

static int uring_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct uring_data *ud = ctx->data;
	struct io_uring_sqe *sqe;

	if (ib_unlikely(io->ddir == IB_DDIR_TRIM))
		return ib_trim_io(ctx, io);
	if (ud->queued + ud->inflight >= ctx->nr_ios)
		return IB_Q_BUSY;
	sqe = io_uring_get_sqe(&ud->ring);
	if (!sqe)	/* SQPOLL thread has not consumed the ring yet */
		return IB_Q_BUSY;
	prep_sqe(ctx, ud, sqe, io);
	ud->queued++;
	return IB_Q_QUEUED;
}

static int uring_commit(struct ib_engine_ctx *ctx)
{
	struct uring_data *ud = ctx->data;
	int ret;

	if (!ud->queued)
		return 0;
#ifdef HAVE_DEFER_TASKRUN
	/* the same enter also runs deferred completions: reap may need none */
	if (ud->defer)
		ret = io_uring_submit_and_get_events(&ud->ring);
	else
#endif
		ret = io_uring_submit(&ud->ring);
	if (ret == -EAGAIN || ret == -EBUSY || ret == -EINTR)
		return 0;
	if (ret < 0)
		return ret;
	if ((unsigned int)ret > ud->queued)	/* never, but stay consistent */
		ret = (int)ud->queued;
	ud->queued -= (unsigned int)ret;
	ud->inflight += (unsigned int)ret;
	return ret;
}

/* One CQE's result into its unit, which goes to done. */
static inline void take_cqe(struct ib_engine_ctx *ctx,
			    const struct io_uring_cqe *cqe, struct ib_io **done)
{
	struct ib_io *io = io_uring_cqe_get_data(cqe);

	io->res = cqe->res;
	if (ib_unlikely(io->res < 0))
		eng_note_error(ctx, io->res);
	*done = io;
}

/*
 * Take up to max CQEs that are already there, straight from the CQ ring
 * (never CQE32). With none there, liburing's peek looks again after
 * flushing what the kernel holds back (an overflowed CQ ring).
 */
static unsigned int reap_ready(struct ib_engine_ctx *ctx, struct uring_data *ud,
			       unsigned int max, struct ib_io **done)
{
	const struct io_uring_cq *cq = &ud->ring.cq;
	unsigned int n = io_uring_cq_ready(&ud->ring), head, mask, i;

	if (n) {
		n = n < max ? n : max;
		head = *cq->khead;
		mask = *cq->kring_mask;
		for (i = 0; i < n; i++)
			take_cqe(ctx, &cq->cqes[(head + i) & mask], &done[i]);
	} else {
		n = io_uring_peek_batch_cqe(&ud->ring, ud->cqes, max);
		for (i = 0; i < n; i++)
			take_cqe(ctx, ud->cqes[i], &done[i]);
	}
	io_uring_cq_advance(&ud->ring, n);
	ud->inflight -= n;
	return n;
}

/*
 * Wait until nr more CQEs are there or timeout_ns passed (-ETIME). The
 * timed wait passes the timeout to io_uring_enter (IORING_FEAT_EXT_ARG,
 * Linux 5.11). Older kernels would need a timeout SQE, which would also
 * submit what is queued behind the loop's back: there a timed wait only
 * looks (enters once for the completions, if liburing can) and the loop
 * polls until its due time.
 */
static int wait_cqes(struct uring_data *ud, unsigned int nr,
		     uint64_t timeout_ns)
{
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;

	if (timeout_ns == IB_WAIT_FOREVER)
		return io_uring_wait_cqe_nr(&ud->ring, &cqe, nr);
	/* a zero timeout is a look, not a sleep on an expired timer */
	if (!timeout_ns || !(ud->ring.features & IORING_FEAT_EXT_ARG)) {
#ifdef HAVE_DEFER_TASKRUN
		io_uring_get_events(&ud->ring);
#endif
		return -ETIME;
	}
	ts.tv_sec = (long long)(timeout_ns / 1000000000u);
	ts.tv_nsec = (long long)(timeout_ns % 1000000000u);
	return io_uring_wait_cqes(&ud->ring, &cqe, nr, &ts, NULL);
}

static int uring_reap(struct ib_engine_ctx *ctx, unsigned int min,
		      unsigned int max, struct ib_io **done, uint64_t timeout_ns)
{
	struct uring_data *ud = ctx->data;
	unsigned int got;

	if (max > ud->inflight)
		max = ud->inflight;
	if (min > max)
		min = max;
	got = reap_ready(ctx, ud, max, done);
#ifdef HAVE_DEFER_TASKRUN
	if (!got && !min && max && ud->defer) {
		/* deferred task work runs only when we enter the kernel */
		io_uring_get_events(&ud->ring);
		got = reap_ready(ctx, ud, max, done);
	}
#endif
	while (got < min) {
		int ret = wait_cqes(ud, min - got, timeout_ns);

		if (ret == -EINTR)
			break;
		if (ret < 0 && ret != -EAGAIN && ret != -ETIME)
			return ret;
		got += reap_ready(ctx, ud, max - got, done + got);
		if (timeout_ns != IB_WAIT_FOREVER)
			break;	/* one timed wait: the loop asks again */
	}
	return (int)got;
}

static void uring_cleanup(struct ib_engine_ctx *ctx)
{
	struct uring_data *ud = ctx->data;

	if (!ud)
		return;
	/*
	 * Registered files first, here: the ring's own teardown after
	 * io_uring_queue_exit runs later in a kernel worker and holds them
	 * until then, past the process's exit (a zram device's hot_remove or
	 * a FUSE mount's umount right after the run failed EBUSY, 6 times of
	 * 6). Only with no I/O in flight: older kernels (6.1 among them) wait
	 * in the unregister for every request using the table, and an I/O a
	 * stalled target never completes would hold the job here.
	 */
	if (ud->ring_ok && ud->fixed_files && !ud->inflight)
		io_uring_unregister_files(&ud->ring);
	if (ud->ring_ok)
		io_uring_queue_exit(&ud->ring);	/* drops the other registrations */
	if (ud->fixed_files)
		for (unsigned int i = 0; i < ctx->nr_files; i++)
			ctx->files[i].reg_index = -1;
	free(ud->cqes);
	free(ud->iov);
	free(ud);
	ctx->data = NULL;
}

/*
 * The files were renewed between loops (unlink_each_loop: new files under
 * the old fd numbers). A registered table still holds the old files, so
 * register the new ones in their slots.
 */
static int uring_files_renewed(struct ib_engine_ctx *ctx)
{
	struct uring_data *ud = ctx->data;
	int *fds, ret;

	if (!ud || !ud->fixed_files)
		return 0;
	fds = uring_file_fds(ctx);
	if (!fds)
		return -ENOMEM;
	ret = io_uring_register_files_update(&ud->ring, 0, fds, ctx->nr_files);
	free(fds);
	return ret < 0 ? ret : 0;
}

/* seccomp filters and kernel.io_uring_disabled refuse io_uring_setup itself */
static int uring_probe(void)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(1, &ring, 0);

	if (ret < 0)
		return ret;
	io_uring_queue_exit(&ring);
	return 0;
}

const struct ib_engine_ops ib_engine_io_uring = {
	.name = "io_uring",
	.help = "Linux io_uring (liburing): asynchronous, batched (the default)",
	.flags = IB_ENGINE_SPIN,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
	.probe = uring_probe,
	.files_renewed = uring_files_renewed,
};
