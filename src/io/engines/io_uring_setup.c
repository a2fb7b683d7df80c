// SPDX-License-Identifier: GPL-2.0-only
/*
 * The io_uring engine's set-up (io_uring.c does the I/O): the ring, with
 * the newest flags the kernel takes; the buffers and files registered where
 * asked or where iobench's defaults find it pays; the io-wq workers of a
 * job on block devices; the read/write opcode; and engine_setup, the list
 * of what no option asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <liburing.h>
#include "engines.h"
#include "io_uring_priv.h"

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

int *uring_file_fds(const struct ib_engine_ctx *ctx)
{
	int *fds = calloc(ctx->nr_files, sizeof(*fds));

	for (unsigned int i = 0; fds && i < ctx->nr_files; i++)
		fds[i] = ctx->files[i].fd;
	return fds;
}

static int register_files(struct ib_engine_ctx *ctx, struct uring_data *ud)
{
	int *fds = uring_file_fds(ctx);
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
 * files, a registered ring fd, the task-run setup flags, the io-wq cap.
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

int uring_setup(struct ib_engine_ctx *ctx, struct uring_data *ud)
{
	const struct ib_job *job = ctx->job;
	int ret;

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

