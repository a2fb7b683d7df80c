// SPDX-License-Identifier: GPL-2.0-only
/*
 * The null engine: no I/O at all. At iodepth=1 it completes inside queue(),
 * as fio's null engine does there (fio treats it as synchronous at depth 1:
 * no slat), so the two tools measure the same thing. At higher depths it
 * behaves like an asynchronous engine, measuring the job loop's own cost of
 * the queue/commit/reap cycle: queue() parks the io in a FIFO, commit() marks
 * everything parked as submitted, reap() hands submitted ios back in FIFO
 * order with res = len. It never waits: reap(min > submitted) returns what
 * was submitted.
 */
#include <errno.h>
#include <stdlib.h>
#include "engines.h"

struct null_data {
	unsigned int head;	/* oldest io in the FIFO */
	unsigned int count;	/* ios in the FIFO (queued + submitted) */
	unsigned int submitted;	/* the first `submitted` of them were committed */
	struct ib_io *fifo[];	/* nr_ios slots, circular */
};

static int null_init(struct ib_engine_ctx *ctx)
{
	struct null_data *nd;

	ctx->errmsg[0] = '\0';
	nd = calloc(1, sizeof(*nd) + ctx->nr_ios * sizeof(nd->fifo[0]));
	if (!nd)
		return -ENOMEM;
	ctx->data = nd;
	return 0;
}

static int null_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct null_data *nd = ctx->data;
	unsigned int slot;

	if (ctx->nr_ios == 1) {
		io->res = io->len;
		return IB_Q_DONE;
	}
	if (nd->count == ctx->nr_ios)
		return IB_Q_BUSY;
	slot = nd->head + nd->count;
	if (slot >= ctx->nr_ios)
		slot -= ctx->nr_ios;
	nd->fifo[slot] = io;
	nd->count++;
	return IB_Q_QUEUED;
}

static int null_commit(struct ib_engine_ctx *ctx)
{
	struct null_data *nd = ctx->data;
	int n = (int)(nd->count - nd->submitted);

	nd->submitted = nd->count;
	return n;
}

static int null_reap(struct ib_engine_ctx *ctx, unsigned int min,
		     unsigned int max, struct ib_io **done, uint64_t timeout_ns)
{
	struct null_data *nd = ctx->data;
	unsigned int n = max < nd->submitted ? max : nd->submitted;
	unsigned int head = nd->head, i;

	(void)min;
	(void)timeout_ns; /* never waits */
	for (i = 0; i < n; i++) {
		struct ib_io *io = nd->fifo[head];

		io->res = io->len;
		done[i] = io;
		if (++head == ctx->nr_ios)
			head = 0;
	}
	nd->head = head;
	nd->submitted -= n;
	nd->count -= n;
	return (int)n;
}

static void null_cleanup(struct ib_engine_ctx *ctx)
{
	free(ctx->data);
	ctx->data = NULL;
}

const struct ib_engine_ops ib_engine_null = {
	.name = "null",
	.help = "does no I/O: measures iobench's own overhead",
	.flags = IB_ENGINE_NOIO | IB_ENGINE_NOFILES,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
