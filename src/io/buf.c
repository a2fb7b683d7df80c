// SPDX-License-Identifier: GPL-2.0-only
/*
 * I/O units, their buffers and write data (see buf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/buf.h"
#include "iobench/jobseed.h"
#include "iobench/rand.h"

/* The fixed part of a compressible chunk: the pattern, or zeros. */
static void fill_fixed(const struct ib_bufs *b, char *p, size_t n)
{
	if (b->has_pattern)
		ib_vpattern_fill(&b->pattern, 0, p, n);
	else
		memset(p, 0, n);
}

/* One buffer's data from the random state r (see buf.h). */
static void fill_data(const struct ib_bufs *b, struct ib_rand *r, char *p,
		      size_t len)
{
	size_t chunk, rnd;

	if (!b->compress_pct) {
		if (b->has_pattern)
			ib_vpattern_fill(&b->pattern, 0, p, len);
		else
			ib_rand_fill(r, p, len);
		return;
	}
	while (len) {
		chunk = len < b->compress_seg ? len : b->compress_seg;
		rnd = chunk * (100 - b->compress_pct) / 100;
		ib_rand_fill(r, p, rnd);
		fill_fixed(b, p + rnd, chunk - rnd);
		p += chunk;
		len -= chunk;
	}
}

static uint64_t ws_job_base(uint32_t seed)
{
	return seed * 0x9e3779b97f4a7c15ull;
}

static int data_setup(struct ib_bufs *b, const struct ib_job *job,
		      struct ib_diag *d)
{
	uint64_t minw = job->bs.min[IB_DDIR_WRITE];

	b->zero = job->zero_buffers;
	b->refill = job->refill_buffers;
	/* fio's rule: zero_buffers=1 turns the default stamp off, not a
	 * given one; verify's data replaces the whole block anyway */
	b->scramble = job->scramble_buffers && !b->refill && !job->verify.type &&
		      (job->scramble_given || !b->zero);
	b->compress_pct = job->compress_pct;
	b->compress_seg = job->compress_chunk && job->compress_chunk < minw ?
				  job->compress_chunk : minw;
	b->dedupe_pct = job->dedupe_pct;
	b->have_unique = false;
	b->ws_pages = 0;
	if (job->dedupe_pct && job->dedupe_mode == IB_DEDUPE_WORKING_SET && minw) {
		b->ws_pages = job->size * job->dedupe_ws_pct / 100 / minw;
		b->ws_pages = b->ws_pages ? b->ws_pages : 1;
		b->ws_next = 0;
		b->ws_base = ws_job_base(ib_rand_job_seed(job, IB_STREAM_DATA));
		b->ws_jobs = 0;
		ib_rand_seed(&b->ws_rand, ib_rand_job_seed(job, IB_STREAM_DATA) ^ 0x5bd1e995u);
	}
	b->has_pattern = job->buffer_pattern[0] != '\0';
	if (b->has_pattern && ib_vpattern_parse(job->buffer_pattern, &b->pattern, d))
		return -EINVAL;
	ib_rand_seed(&b->rand, ib_rand_job_seed(job, IB_STREAM_DATA));
	return 0;
}

size_t ib_bufs_unit_size(const struct ib_job *job)
{
	size_t bs = ib_job_max_bs(job);

	/* trimwrite writes the ranges it trims */
	if ((job->rw & IB_RW_TRIM) && job->bs.max[IB_DDIR_TRIM] > bs)
		bs = job->bs.max[IB_DDIR_TRIM];
	return (bs + 4095) & ~(size_t)4095;
}

/*
 * A job that reads and writes reads into buffers of its own (buf.h), unless
 * every write sets the whole block anyway (refill with data) or the reads'
 * data is checked (verify).
 */
static bool reads_apart(const struct ib_bufs *b, const struct ib_job *job)
{
	return (job->rw & IB_RW_READ) && (job->rw & IB_RW_WRITE) &&
	       !job->verify.type && !(b->refill && !b->zero);
}

int ib_bufs_alloc(struct ib_bufs *b, struct ib_engine_ctx *ctx,
		  const struct ib_job *job, unsigned int depth,
		  struct ib_diag *d)
{
	unsigned int i;
	int ret;

	if (data_setup(b, job, d))
		return -EINVAL;
	ctx->buf_size = ib_bufs_unit_size(job);
	ctx->nr_ios = depth;
	ctx->buf_areas = reads_apart(b, job) ? 2 : 1;
	ret = ib_bufmem_alloc(ctx, job, d);
	if (ret)
		return ret;
	ctx->ios = calloc(depth, sizeof(*ctx->ios));
	if (!ctx->ios)
		return ib_diag_set(d, ENOMEM, "no memory for %u I/O units", depth);
	for (i = 0; i < depth; i++) {
		ctx->ios[i].idx = i;
		ctx->ios[i].buf = ib_ctx_buf(ctx, i);
		if (b->zero)
			memset(ctx->ios[i].buf, 0, ctx->buf_size);
		else
			fill_data(b, &b->rand, ctx->ios[i].buf, ctx->buf_size);
	}
	return 0;
}

void ib_bufs_free(struct ib_engine_ctx *ctx)
{
	ib_bufmem_free(ctx);
	free(ctx->ios);
	ctx->buf_base = NULL;
	ctx->ios = NULL;
}

/* The seed of unique write k of the job with base (working_set): a mix. */
static uint32_t ws_seed_of(uint64_t base, uint64_t k)
{
	return (uint32_t)ib_mix64(base + (k + 1) * 0x9e3779b97f4a7c15ull);
}

/* The data base of job index t (0-based) under dedupe_global. */
static uint64_t global_base(unsigned int t)
{
	return ws_job_base(ib_rand_stream_seed(IB_STREAM_DATA, t + 1, true,
					       false, 0));
}

void ib_bufs_dedupe_global(struct ib_bufs *b, const struct ib_job *job,
			   unsigned int nr_jobs)
{
	if (!b->ws_pages || !nr_jobs || !job->number)
		return;
	b->ws_jobs = nr_jobs;
	b->ws_index = job->number - 1;
	b->ws_per_job = b->ws_pages / nr_jobs ? b->ws_pages / nr_jobs : 1;
	b->ws_base = global_base(b->ws_index);
}

/* Working set entry i's seed: own unique write i, or (global) another's. */
static uint32_t ws_entry_seed(const struct ib_bufs *b, uint64_t i)
{
	unsigned int t;

	if (!b->ws_jobs)
		return ws_seed_of(b->ws_base, i);
	t = (unsigned int)((b->ws_index + i / b->ws_per_job) % b->ws_jobs);
	return ws_seed_of(global_base(t), i % b->ws_per_job);
}

/* dedupe_mode=working_set: a duplicate is one of the first ws_pages. */
static void fill_working_set(struct ib_bufs *b, struct ib_io *io)
{
	struct ib_rand r;
	uint64_t k;

	if (ib_rand_below(&b->rand, 100) < b->dedupe_pct) {
		k = ib_rand_below(&b->ws_rand, b->ws_pages);
		ib_rand_seed(&r, ws_entry_seed(b, k));
	} else {
		k = b->ws_next++;
		ib_rand_seed(&r, ws_seed_of(b->ws_base, k));
	}
	fill_data(b, &r, io->buf, io->len);
}

void ib_bufs_fill_write(struct ib_bufs *b, struct ib_io *io)
{
	uint64_t stamp, draw;
	size_t i;

	if (b->refill && b->ws_pages) {
		fill_working_set(b, io);
		return;
	}
	if (b->refill && b->dedupe_pct) {
		struct ib_rand r;

		if (!b->have_unique || ib_rand_below(&b->rand, 100) >= b->dedupe_pct) {
			b->unique_seed = ib_rand32(&b->rand);
			b->have_unique = true;
		}
		ib_rand_seed(&r, b->unique_seed);
		fill_data(b, &r, io->buf, io->len);
		return;
	}
	if (b->refill) {
		fill_data(b, &b->rand, io->buf, io->len);
		return;
	}
	/* scramble: each 512-byte sector starts with its offset ^ one draw
	 * per write, so no sector repeats an earlier write's */
	draw = ib_rand64(&b->rand);
	for (i = 0; i + sizeof(stamp) <= io->len; i += IB_SCRAMBLE_SECTOR) {
		stamp = (io->offset + i) ^ draw;
		memcpy((char *)io->buf + i, &stamp, sizeof(stamp));
	}
}
