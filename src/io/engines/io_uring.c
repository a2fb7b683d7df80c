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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <liburing.h>
#include "engines.h"
#include "src/io/trim.h"

/* liburing 2.2 added COOP_TASKRUN and io_uring_register_ring_fd together. */
#ifdef IORING_SETUP_COOP_TASKRUN
#define HAVE_RING_FD 1
#endif
/* liburing 2.3 added SINGLE_ISSUER/DEFER_TASKRUN and io_uring_get_events. */
#if defined(IORING_SETUP_SINGLE_ISSUER) && defined(IORING_SETUP_DEFER_TASKRUN)
#define HAVE_DEFER_TASKRUN 1
#endif

enum { OP_RW, OP_RWV, OP_FIXED };

struct uring_data {
	struct io_uring ring;
	bool ring_ok;
	bool defer;		/* DEFER_TASKRUN: completions need an enter */
	bool fixed_files;	/* registerfiles: fd = files[].reg_index */
	bool fixed_bufs;	/* buffers registered: READ/WRITE_FIXED */
	bool ring_fd;		/* the ring's fd registered (no fdget per enter) */
	bool iowq_one;		/* one bounded io-wq worker (cap_iowq) */
	int op;			/* OP_* */
	int rw_flags;		/* RWF_NOWAIT, RWF_DONTCACHE */
	int wr_flags;		/* and on writes: RWF_ATOMIC */
	unsigned int async_every;	/* force_async: every Nth SQE, 0: none */
	unsigned int async_left;	/* SQEs until the next async one */
	unsigned int queued;	/* SQEs filled, not yet submitted */
	unsigned int inflight;	/* submitted, not yet reaped */
	struct io_uring_cqe **cqes;	/* nr_ios, for peek_batch */
	struct iovec *iov;	/* nr_ios: READV/WRITEV and buffer registration */
};

static unsigned int setup_flags(const struct ib_job *job, int attempt)
{
	unsigned int f = 0;

	if (job->engine.hipri)
		f |= IORING_SETUP_IOPOLL;
	if (job->engine.sqthread_poll) {
		f |= IORING_SETUP_SQPOLL;
		if (job->engine.sqthread_poll_cpu >= 0)
			f |= IORING_SETUP_SQ_AFF;
	}
#ifdef HAVE_DEFER_TASKRUN
	if (attempt == 0 && !job->engine.sqthread_poll)
		return f | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	if (attempt == 0)
		return f | IORING_SETUP_SINGLE_ISSUER;
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
	if (attempt <= 1 && !job->engine.sqthread_poll)
		return f | IORING_SETUP_COOP_TASKRUN;
#endif
	(void)attempt;
	return f;
}

#define RING_MAX_SQ 32768u	/* the kernel's IORING_MAX_ENTRIES */

/* Create the ring, dropping the optional flags one step at a time on EINVAL. */
static int ring_create(struct ib_engine_ctx *ctx, struct uring_data *ud)
{
	const struct ib_job *job = ctx->job;
	struct io_uring_params p;
	unsigned int prev = ~0u;
	int ret = -EINVAL;

	for (int attempt = 0; attempt < 3; attempt++) {
		memset(&p, 0, sizeof(p));
		p.flags = setup_flags(job, attempt);
		if (p.flags == prev)
			continue;
		prev = p.flags;
		if (job->engine.sqthread_poll) {
			p.sq_thread_idle = 1000;
			p.sq_thread_cpu = job->engine.sqthread_poll_cpu >= 0 ?
					  (unsigned int)job->engine.sqthread_poll_cpu : 0;
		}
		if (ctx->nr_ios > RING_MAX_SQ) {
			/* deeper than an SQ ring may be: a CQ ring that holds
			 * every I/O in flight, submitted in SQ-sized steps */
			p.flags |= IORING_SETUP_CQSIZE;
			p.cq_entries = ctx->nr_ios;
		}
		ret = io_uring_queue_init_params(ctx->nr_ios > RING_MAX_SQ ?
						 RING_MAX_SQ : ctx->nr_ios,
						 &ud->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (ret < 0)
		return ret;
	ud->ring_ok = true;
#ifdef HAVE_DEFER_TASKRUN
	ud->defer = (p.flags & IORING_SETUP_DEFER_TASKRUN) != 0;
#endif
	return 0;
}

static const char *init_hint(const struct ib_engine_ctx *ctx, int err)
{
	const struct ib_job *job = ctx->job;

	if ((err == -EPERM || err == -ENOSYS) && job->engine.sqthread_poll)
		return " (io_uring not available on this system, or "
		       "sqthread_poll not allowed: kernels before 5.11 need "
		       "CAP_SYS_ADMIN for it)";
	if (err == -EPERM || err == -ENOSYS)
		return " (io_uring not available on this system: "
		       "kernel.io_uring_disabled sysctl, seccomp or an old kernel)";
	if (err == -ENOMEM && job->engine.fixedbufs)
		return " (fixedbufs pins the buffers: raise RLIMIT_MEMLOCK, "
		       "ulimit -l, or lower iodepth/bs)";
	if (err == -EINVAL && job->engine.sqthread_poll_cpu >= 0)
		return " (is sqthread_poll_cpu a valid, online CPU?)";
	return "";
}

static int init_fail_msg(struct ib_engine_ctx *ctx, int err, const char *what)
{
	snprintf(ctx->errmsg, sizeof(ctx->errmsg), "io_uring: %s: %s%s", what,
		 strerror(-err), init_hint(ctx, err));
	return err;
}

/* Every buffer of every area (ctx->buf_areas), ud->iov as scratch. */
static int register_bufs(struct ib_engine_ctx *ctx, struct uring_data *ud)
{
	unsigned int n = ib_ctx_nr_bufs(ctx);

	for (unsigned int i = 0; i < n; i++) {
		ud->iov[i].iov_base = ib_ctx_buf(ctx, i);
		ud->iov[i].iov_len = ctx->buf_size;
	}
	return io_uring_register_buffers(&ud->ring, ud->iov, n);
}

/* The job's fds in file order (free it), NULL without memory. */
static int *file_fds(const struct ib_engine_ctx *ctx)
{
	int *fds = calloc(ctx->nr_files, sizeof(*fds));

	for (unsigned int i = 0; fds && i < ctx->nr_files; i++)
		fds[i] = ctx->files[i].fd;
	return fds;
}

static int register_files(struct ib_engine_ctx *ctx, struct uring_data *ud)
{
	int *fds = file_fds(ctx);
	int ret;

	if (!fds)
		return -ENOMEM;
	ret = io_uring_register_files(&ud->ring, fds, ctx->nr_files);
	free(fds);
	if (ret < 0)
		return ret;
	for (unsigned int i = 0; i < ctx->nr_files; i++)
		ctx->files[i].reg_index = (int)i;
	ud->fixed_files = true;
	return 0;
}

/*
 * registerfiles given: register or fail. Not given: register when every
 * file is open now and stays so for the run (openfiles=N below the file
 * count opens and closes them as the job goes), else use the fds. A file
 * renewed between loops (unlink_each_loop) is registered again
 * (uring_files_renewed).
 */
static int setup_files(struct ib_engine_ctx *ctx, struct uring_data *ud)
{
	const struct ib_job *job = ctx->job;
	int ret;

	if (job->engine.registerfiles_given && !job->engine.registerfiles)
		return 0;
	if (!job->engine.registerfiles) {
		if (!ctx->nr_files || (job->openfiles &&
				       job->openfiles < ctx->nr_files))
			return 0;
		for (unsigned int i = 0; i < ctx->nr_files; i++)
			if (ctx->files[i].fd < 0)
				return 0;
	}
	ret = register_files(ctx, ud);
	return job->engine.registerfiles ? ret : 0;
}

/*
 * fixedbufs given: register or fail. Not given: register when the ring can
 * hold a buffer per I/O, vectored I/O was not asked for, the writes are
 * not atomic (the kernel fails RWF_ATOMIC from registered buffers with
 * EINVAL) and the kernel agrees (RLIMIT_MEMLOCK, file-backed iomem and old
 * kernels refuse), else go on with plain reads and writes.
 */
static int setup_bufs(struct ib_engine_ctx *ctx, struct uring_data *ud)
{
	const struct ib_job *job = ctx->job;
	int ret;

	if (job->engine.fixedbufs_given && !job->engine.fixedbufs)
		return 0;
	if (!job->engine.fixedbufs && (!ctx->buf_base || !ctx->nr_ios ||
				ib_ctx_nr_bufs(ctx) > URING_MAX_FIXEDBUFS ||
				job->engine.nonvectored == 0 || /* READV/WRITEV asked */
				job->engine.atomic))
		return 0;
	ret = register_bufs(ctx, ud);
	if (ret < 0 && job->engine.fixedbufs)
		return ret;
	ud->fixed_bufs = ret >= 0;
	return 0;
}

/*
 * iobench's defaults, direct I/O to block devices only, every file open,
 * no fsync, fdatasync or forced async: one bounded io-wq worker for the
 * ring instead of the kernel's 4 per CPU. There, a request io_uring hands
 * to io-wq is one that found the device's request tags taken (or its
 * writes throttled); the worker issues it when they free and goes on, the
 * I/O completing as any other. One worker waits for the tags as well as
 * eight, without eight threads per job to wake and switch to: 8 jobs at
 * iodepth 64 on a loop device of 128 tags ran 64 workers (doc/
 * performance.md). Where io-wq does the I/O itself (buffered, a file
 * system's allocation, an fsync) it stays as the kernel sets it. A failure
 * (kernels before 5.15) leaves the default: an optimisation only.
 */
static bool cap_iowq(const struct ib_engine_ctx *ctx, struct uring_data *ud)
{
	const struct ib_job *job = ctx->job;
	unsigned int workers[2] = { 1, 0 };	/* bounded; unbounded as is */

	if (job->defaults != IB_DEFAULTS_IOBENCH || !job->direct ||
	    job->iodepth < 2 || !ctx->nr_files || job->fsync_every ||
	    job->fdatasync_every || job->engine.force_async)
		return false;
	for (unsigned int i = 0; i < ctx->nr_files; i++)
		if (ctx->files[i].fd < 0 || !ctx->files[i].is_bdev)
			return false;
	return io_uring_register_iowq_max_workers(&ud->ring, workers) == 0;
}

/* nonvectored=-1: READ/WRITE when the kernel has them (5.6+). */
static int pick_op(const struct ib_job *job, struct uring_data *ud)
{
	struct io_uring_probe *probe;
	int op = OP_RW;

	if (ud->fixed_bufs)
		return OP_FIXED;
	if (job->engine.nonvectored == 0)
		return OP_RWV;
	if (job->engine.nonvectored > 0)
		return OP_RW;
	probe = io_uring_get_probe_ring(&ud->ring);
	if (probe && !io_uring_opcode_supported(probe, IORING_OP_READ))
		op = OP_RWV;
	if (probe)
		io_uring_free_probe(probe);
	return op;
}

/*
 * What this ring does that the job's options did not ask for (fio's
 * io_uring engine does none of it by default): registered buffers and
 * files, a registered ring fd, the task-run setup flags.
 */
static void note_setup(struct ib_engine_ctx *ctx, const struct uring_data *ud)
{
	const struct ib_job *job = ctx->job;
	unsigned int f = ud->ring.flags;
	size_t n = 0;

#define NOTE(cond, word) \
	do { \
		if ((cond) && n < sizeof(ctx->setup)) \
			n += (size_t)snprintf(ctx->setup + n, sizeof(ctx->setup) - n, \
					      "%s%s", n ? "," : "", word); \
	} while (0)
	NOTE(ud->fixed_bufs && !job->engine.fixedbufs, "fixedbufs");
	NOTE(ud->fixed_files && !job->engine.registerfiles, "registerfiles");
#ifdef HAVE_RING_FD
	NOTE(ud->ring_fd, "ring_fd");
	NOTE(f & IORING_SETUP_COOP_TASKRUN, "coop_taskrun");
#endif
#ifdef HAVE_DEFER_TASKRUN
	NOTE(f & IORING_SETUP_SINGLE_ISSUER, "single_issuer");
	NOTE(f & IORING_SETUP_DEFER_TASKRUN, "defer_taskrun");
#endif
	NOTE(ud->iowq_one, "iowq_workers=1");
#undef NOTE
	(void)f;
}

static int uring_init(struct ib_engine_ctx *ctx)
{
	const struct ib_job *job = ctx->job;
	struct uring_data *ud;
	int ret;

	ctx->errmsg[0] = '\0';
	ud = calloc(1, sizeof(*ud));
	if (!ud)
		return -ENOMEM;
	ctx->data = ud;
	ud->cqes = calloc(ctx->nr_ios, sizeof(*ud->cqes));
	ud->iov = calloc(ib_ctx_nr_bufs(ctx), sizeof(*ud->iov));
	if (!ud->cqes || !ud->iov)
		return -ENOMEM;
	ret = ring_create(ctx, ud);
	if (ret < 0)
		return init_fail_msg(ctx, ret, "ring setup");
#ifdef HAVE_RING_FD
	/* an optimisation only */
	ud->ring_fd = io_uring_register_ring_fd(&ud->ring) == 1;
#endif
	if ((ret = setup_bufs(ctx, ud)) < 0)
		return init_fail_msg(ctx, ret, "fixedbufs: registering buffers");
	if ((ret = setup_files(ctx, ud)) < 0)
		return init_fail_msg(ctx, ret, "registerfiles: registering files");
	ud->iowq_one = cap_iowq(ctx, ud);
	ud->op = pick_op(job, ud);
	ud->rw_flags = eng_rwf_flags(job) & ~RWF_HIPRI;
	ud->wr_flags = ud->rw_flags | eng_rwf_write_flags(job);
	ud->async_every = ud->async_left = job->engine.force_async;
	note_setup(ctx, ud);
	return 0;
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
	fds = file_fds(ctx);
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
