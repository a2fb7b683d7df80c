/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_BUF_H
#define IOBENCH_BUF_H

#include <stdbool.h>
#include "iobench/diag.h"
#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/rand.h"
#include "iobench/verify.h"

/*
 * The I/O units of a job and their buffers, and the data writes carry.
 *
 * ib_bufs_alloc() gives the engine context `depth` units (ctx->ios[i].idx
 * == i) over one 4 KiB-aligned block of depth buffers, each the largest
 * block size rounded up to 4 KiB (ctx->buf_base, ctx->buf_size), filled
 * once: zeros with zero_buffers, else random data from the job's
 * IB_STREAM_DATA stream. Per write, ib_bufs_prep_write() then applies
 * refill_buffers (new random data every write) or scramble_buffers (on
 * by default, as fio's: 8 bytes at the start of every 512, the sector's
 * offset ^ one random draw per write, so that a deduplicating target sees
 * no sector twice; fio stamps the offset and the time in each 512 bytes).
 * The stamp is off with refill, with verify (its data is the whole
 * block), after buffer_pattern (fio writes a pattern as it is), and with
 * zero_buffers=1 unless scramble_buffers is given too (fio's rule: then
 * the zeros are stamped).
 *
 * A read lands in the unit's buffer. In a job that reads and writes, a
 * later write from that unit would carry the data read (a fresh device's
 * zeros, compressible and deduplicable, in place of the random data or
 * pattern asked for): fio does so, but for buffer_pattern, where it turns
 * refill_buffers on. Here such a job's reads land in buffers of their own
 * (ctx->buf_areas 2: twice the memory, no copy per write), unless verify
 * (it checks what the reads bring) or refill writes the whole block anyway.
 *
 * The data itself (fio's definitions, facts checked against fio 3.33):
 * - buffer_pattern: the pattern repeated from the buffer's first byte.
 * - buffer_compress_percentage=P: the buffer is cut in chunks of
 *   min(buffer_compress_chunk, smallest write size) bytes (chunk 0: the
 *   smallest write size), the last one shorter; each chunk of n bytes is
 *   n * (100 - P) / 100 random bytes, then fixed bytes to its end: the
 *   pattern (restarting in each chunk) or zeros.
 * - dedupe_percentage=D: each write is, with probability D%, a copy of the
 *   last unique write's data (fio's dedupe_mode=repeat); unique ones are
 *   new data. The first write is unique.
 * - dedupe_mode=working_set (fio 3.33): the working set is the job's
 *   first M = size * dedupe_working_set_percentage / 100 / (smallest write
 *   size) unique writes' data; a duplicate (probability D%) repeats one of
 *   the M, drawn uniformly (whether or not it was written yet). With
 *   D + the percentage <= 100 (validated) the M unique writes come, so the
 *   distinct blocks written are the unique writes.
 * - dedupe_global=1 with working_set (fio 3.33): the M entries are spread
 *   over the run's T jobs, P = max(M / T, 1) each: entry i is unique write
 *   i % P of job (own index + i / P) % T, so a job's duplicates repeat
 *   other jobs' first writes too. The unique data of such jobs derive from
 *   their job numbers alone (not randseed), so each job can compute the
 *   others'.
 * - compress and dedupe imply refill_buffers (job fixup); zero_buffers wins
 *   over all of these (but a given scramble_buffers, above).
 */
struct ib_bufs {
	struct ib_rand rand;	/* IB_STREAM_DATA */
	bool zero;		/* zero_buffers: nothing to do per write */
	bool refill;
	bool scramble;
	bool has_pattern;
	unsigned int compress_pct;
	uint64_t compress_seg;	/* chunk of compress_pct */
	unsigned int dedupe_pct;
	bool have_unique;	/* a unique write was made (dedupe) */
	uint32_t unique_seed;	/* its data's seed */
	uint64_t ws_pages;	/* working_set: M (0: repeat mode) */
	uint64_t ws_next;	/* working_set: unique writes so far */
	uint64_t ws_base;	/* working_set: unique write k's seed from it */
	struct ib_rand ws_rand;	/* working_set: which of the M */
	unsigned int ws_jobs;	/* dedupe_global: T (0: off) */
	unsigned int ws_index;	/* dedupe_global: own job index */
	uint64_t ws_per_job;	/* dedupe_global: P */
	struct ib_vpattern pattern;
};

/* One unit's buffer size for the job: its largest block, in whole pages. */
size_t ib_bufs_unit_size(const struct ib_job *job);
/* 0, or -ENOMEM (d filled). ctx->ios/buf_base are NULL on failure. */
int ib_bufs_alloc(struct ib_bufs *b, struct ib_engine_ctx *ctx,
		  const struct ib_job *job, unsigned int depth,
		  struct ib_diag *d);
/* Safe after a failed or no ib_bufs_alloc() (ctx zeroed). */
void ib_bufs_free(struct ib_engine_ctx *ctx);

/*
 * The buffers' memory (bufmem.c), ctx->nr_ios * ctx->buf_size bytes at
 * ctx->buf_base, 4 KiB aligned, by job->iomem (fio's iomem=/mem=): malloc
 * (posix_memalign), shm (a private SysV segment, removed at once so that
 * it goes with the process), mmap (anonymous private; with a file,
 * iomem=mmap:FILE, a shared mapping of FILE, created, sized and unlinked
 * once mapped: fio removes it at the job's end), mmapshared (anonymous
 * shared). ctx->buf_mem records the kind for the free. 0 or -errno (d).
 */
int ib_bufmem_alloc(struct ib_engine_ctx *ctx, const struct ib_job *job,
		    struct ib_diag *d);
void ib_bufmem_free(struct ib_engine_ctx *ctx);

/* dedupe_global=1: set after ib_bufs_alloc, with the run's job count. */
void ib_bufs_dedupe_global(struct ib_bufs *b, const struct ib_job *job,
			   unsigned int nr_jobs);

/* Out of line: the refill and scramble cases. */
void ib_bufs_fill_write(struct ib_bufs *b, struct ib_io *io);

/* The scramble's stamp: every this many bytes of a write. */
#define IB_SCRAMBLE_SECTOR 512

/* Write data for io (its buffer, io->len bytes at io->offset). */
static inline void ib_bufs_prep_write(struct ib_bufs *b, struct ib_io *io)
{
	if (b->refill ? !b->zero : b->scramble)
		ib_bufs_fill_write(b, io);
}

/* A read lands in the unit's buffer of the reads' area, if there is one. */
static inline void ib_bufs_prep_read(const struct ib_engine_ctx *ctx,
				     struct ib_io *io)
{
	if (ctx->buf_areas > 1)
		io->buf = ib_ctx_buf(ctx, ctx->nr_ios + io->idx);
}

#endif
