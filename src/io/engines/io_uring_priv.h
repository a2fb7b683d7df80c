/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_IO_URING_PRIV_H
#define IOBENCH_IO_URING_PRIV_H

/* Private to the io_uring engine: io_uring.c (the I/O) and
 * io_uring_setup.c (the ring's set-up). */
#include <stdbool.h>
#include <liburing.h>
#include "iobench/engine.h"

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

/* Ring, registrations, opcode and flags; -errno with ctx->errmsg set. */
int uring_setup(struct ib_engine_ctx *ctx, struct uring_data *ud);
/* The job's fds in file order (free it), NULL without memory. */
int *uring_file_fds(const struct ib_engine_ctx *ctx);

#endif
