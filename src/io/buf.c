// SPDX-License-Identifier: GPL-2.0-only
/*
 * I/O units, their buffers and write data (see buf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/buf.h"

int ib_bufs_alloc(struct ib_bufs *b, struct ib_engine_ctx *ctx,
		  const struct ib_job *job, unsigned int depth,
		  struct ib_diag *d)
{
	size_t bs = job->bs.max[IB_DDIR_READ] > job->bs.max[IB_DDIR_WRITE] ?
			    job->bs.max[IB_DDIR_READ] : job->bs.max[IB_DDIR_WRITE];
	unsigned int i;

	b->zero = job->zero_buffers;
	b->refill = job->refill_buffers;
	b->scramble = job->scramble_buffers;
	ib_rand_seed(&b->rand, ib_rand_job_seed(job, IB_STREAM_DATA));
	ctx->buf_size = (bs + 4095) & ~(size_t)4095;
	ctx->nr_ios = depth;
	if (posix_memalign(&ctx->buf_base, 4096, ctx->buf_size * depth)) {
		ctx->buf_base = NULL;
		return ib_diag_set(d, ENOMEM, "no memory for %u buffers of %zu bytes",
				   depth, ctx->buf_size);
	}
	ctx->ios = calloc(depth, sizeof(*ctx->ios));
	if (!ctx->ios)
		return ib_diag_set(d, ENOMEM, "no memory for %u I/O units", depth);
	if (b->zero)
		memset(ctx->buf_base, 0, ctx->buf_size * depth);
	else
		ib_rand_fill(&b->rand, ctx->buf_base, ctx->buf_size * depth);
	for (i = 0; i < depth; i++) {
		ctx->ios[i].idx = i;
		ctx->ios[i].buf = (char *)ctx->buf_base + (size_t)i * ctx->buf_size;
	}
	return 0;
}

void ib_bufs_free(struct ib_engine_ctx *ctx)
{
	free(ctx->buf_base);
	free(ctx->ios);
	ctx->buf_base = NULL;
	ctx->ios = NULL;
}

void ib_bufs_fill_write(struct ib_bufs *b, struct ib_io *io)
{
	uint64_t stamp;
	size_t i;

	if (b->refill) {
		ib_rand_fill(&b->rand, io->buf, io->len);
		return;
	}
	stamp = io->offset ^ ib_rand64(&b->rand);	/* scramble */

	for (i = 0; i + sizeof(stamp) <= io->len; i += 4096)
		memcpy((char *)io->buf + i, &stamp, sizeof(stamp));
}
