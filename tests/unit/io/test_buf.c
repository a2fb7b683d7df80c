// SPDX-License-Identifier: GPL-2.0-only
/*
 * I/O units and buffers (buf.c): layout, the initial fill from the job's
 * data stream, and the per-write data of refill_buffers and
 * scramble_buffers, byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/buf.h"
#include "iobench/jobseed.h"

#define DEPTH 3

struct t {
	struct ib_job job;
	struct ib_engine_ctx ctx;
	struct ib_bufs b;
	struct ib_rand want;	/* the same stream, for expected bytes */
	uint8_t *exp;
};

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	ib_job_defaults(&t->job);
	t->job.number = 5;
	t->job.randseed_set = true;
	t->job.randseed = 42;
	t->job.bs.max[IB_DDIR_READ] = 6000;
	t->job.bs.max[IB_DDIR_WRITE] = 4096;
	t->exp = malloc(DEPTH * 8192);
	assert_non_null(t->exp);
	ib_rand_seed(&t->want, ib_rand_job_seed(&t->job, IB_STREAM_DATA));
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;

	ib_bufs_free(&t->ctx);
	free(t->exp);
	free(t);
	return 0;
}

static void alloc(struct t *t)
{
	struct ib_diag d;

	assert_int_equal(ib_bufs_alloc(&t->b, &t->ctx, &t->job, DEPTH, &d), 0);
}

/* One 4 KiB-aligned block, max bs rounded up, random data of the stream. */
static void layout(void **state)
{
	struct t *t = *state;

	alloc(t);
	assert_int_equal(t->ctx.nr_ios, DEPTH);
	assert_int_equal(t->ctx.buf_size, 8192);
	assert_int_equal((uintptr_t)t->ctx.buf_base % 4096, 0);
	for (unsigned int i = 0; i < DEPTH; i++) {
		assert_int_equal(t->ctx.ios[i].idx, i);
		assert_ptr_equal(t->ctx.ios[i].buf,
				 (char *)t->ctx.buf_base + i * 8192);
	}
	ib_rand_fill(&t->want, t->exp, DEPTH * 8192);
	assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
	ib_bufs_free(&t->ctx);
	assert_null(t->ctx.ios);
	assert_null(t->ctx.buf_base);
	ib_bufs_free(&t->ctx);	/* twice is fine */
}

/* zero_buffers: zeros, and no write changes them (the default stamp off). */
static void zeros(void **state)
{
	struct t *t = *state;
	struct ib_io *io;

	t->job.zero_buffers = true;
	assert_true(t->job.scramble_buffers);	/* fio's default */
	assert_false(t->job.scramble_given);
	alloc(t);
	io = &t->ctx.ios[1];
	io->len = 8192;
	io->offset = 1 << 20;
	ib_bufs_prep_write(&t->b, io);
	memset(t->exp, 0, DEPTH * 8192);
	assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
}

/* Neither refill nor scramble: a write sends the buffer as it is. */
static void plain(void **state)
{
	struct t *t = *state;

	t->job.scramble_buffers = false;
	alloc(t);
	ib_rand_fill(&t->want, t->exp, DEPTH * 8192);
	t->ctx.ios[0].len = 4096;
	ib_bufs_prep_write(&t->b, &t->ctx.ios[0]);
	assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
}

/* refill_buffers: the next len bytes of the stream, this unit only. */
static void refill(void **state)
{
	struct t *t = *state;
	struct ib_io *io;

	t->job.refill_buffers = true;
	t->job.scramble_buffers = true;	/* refill wins */
	alloc(t);
	ib_rand_fill(&t->want, t->exp, DEPTH * 8192);
	io = &t->ctx.ios[2];
	io->len = 5000;
	ib_bufs_prep_write(&t->b, io);
	ib_rand_fill(&t->want, t->exp + 2 * 8192, 5000);
	assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
}

/* Each 512 bytes of exp's unit u from its start: (offset + i) ^ draw. */
static void stamp_exp(struct t *t, unsigned int u, uint64_t offset,
		      uint32_t len, uint64_t draw)
{
	for (uint32_t i = 0; i + 8 <= len; i += 512) {
		uint64_t stamp = (offset + i) ^ draw;

		memcpy(t->exp + u * 8192 + i, &stamp, 8);
	}
}

/*
 * scramble_buffers (the default): every 512 bytes start with the sector's
 * offset ^ one draw per write; a second write of the same unit and offset
 * carries a new draw, so no sector repeats.
 */
static void scramble(void **state)
{
	struct t *t = *state;
	struct ib_io *io;
	uint64_t draw;

	alloc(t);
	ib_rand_fill(&t->want, t->exp, DEPTH * 8192);
	io = &t->ctx.ios[1];
	io->len = 8192;
	io->offset = 0x123000;
	ib_bufs_prep_write(&t->b, io);
	draw = ib_rand64(&t->want);
	stamp_exp(t, 1, 0x123000, 8192, draw);
	assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
	ib_bufs_prep_write(&t->b, io);
	assert_int_not_equal(ib_rand64(&t->want), draw);
	assert_memory_not_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
	/* a short write stamps its first 1000 bytes' sectors, nothing past */
	memcpy(t->exp + 8192, t->ctx.ios[1].buf, 8192);
	io->len = 1000;
	ib_bufs_prep_write(&t->b, io);
	draw = ib_rand64(&t->want);
	stamp_exp(t, 1, 0x123000, 1000, draw);
	assert_memory_equal(t->ctx.ios[1].buf, t->exp + 8192, 8192);
}

/*
 * fio's rule: zero_buffers=1 with scramble_buffers given stamps the zeros;
 * verify and refill take the stamp off.
 */
static void scramble_rules(void **state)
{
	struct t *t = *state;
	struct ib_io *io;
	uint64_t draw;

	t->job.zero_buffers = true;
	t->job.scramble_given = true;
	alloc(t);
	io = &t->ctx.ios[0];
	io->len = 4096;
	io->offset = 4096;
	ib_bufs_prep_write(&t->b, io);
	memset(t->exp, 0, DEPTH * 8192);
	draw = ib_rand64(&t->want);
	stamp_exp(t, 0, 4096, 4096, draw);
	assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
	ib_bufs_free(&t->ctx);

	t->job.zero_buffers = false;
	t->job.verify.type = 1;
	alloc(t);
	assert_false(t->b.scramble);
	ib_bufs_free(&t->ctx);
	t->job.verify.type = 0;
	t->job.refill_buffers = true;
	alloc(t);
	assert_false(t->b.scramble);
}

/*
 * A job that reads and writes: its reads land in an area of their own
 * (unit i's at nr_ios + i), so the units' write data never holds what a
 * read brought; a job that only writes, or verifies, has one area.
 */
static void reads_apart(void **state)
{
	struct t *t = *state;
	struct ib_io *io;

	t->job.rw = IB_RW_READ | IB_RW_WRITE;
	t->job.scramble_buffers = false;
	alloc(t);
	assert_int_equal(t->ctx.buf_areas, 2);
	assert_int_equal(ib_ctx_buf_bytes(&t->ctx), 2 * DEPTH * 8192);
	ib_rand_fill(&t->want, t->exp, DEPTH * 8192);
	assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
	io = &t->ctx.ios[2];
	ib_bufs_prep_read(&t->ctx, io);
	assert_ptr_equal(io->buf, (char *)t->ctx.buf_base + (DEPTH + 2) * 8192);
	assert_int_equal(ib_ctx_buf_index(&t->ctx, io), DEPTH + 2);
	memset(io->buf, 0xab, 8192);	/* what a read brings */
	io->buf = ib_ctx_buf(&t->ctx, 2);	/* the loop's release */
	io->len = 8192;
	ib_bufs_prep_write(&t->b, io);
	assert_int_equal(ib_ctx_buf_index(&t->ctx, io), 2);
	assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
	ib_bufs_free(&t->ctx);

	t->job.zero_buffers = true;	/* zeros too */
	alloc(t);
	assert_int_equal(t->ctx.buf_areas, 2);
	ib_bufs_free(&t->ctx);
	t->job.zero_buffers = false;
	t->job.rw = IB_RW_WRITE;
	alloc(t);
	assert_int_equal(t->ctx.buf_areas, 1);
	io = &t->ctx.ios[1];
	ib_bufs_prep_read(&t->ctx, io);	/* one area: the unit's own */
	assert_ptr_equal(io->buf, ib_ctx_buf(&t->ctx, 1));
	ib_bufs_free(&t->ctx);
	t->job.rw = IB_RW_READ | IB_RW_WRITE;
	t->job.verify.type = 1;		/* verify checks the reads' data */
	alloc(t);
	assert_int_equal(t->ctx.buf_areas, 1);
	ib_bufs_free(&t->ctx);
	t->job.verify.type = 0;
	t->job.refill_buffers = true;	/* every write sets its data */
	alloc(t);
	assert_int_equal(t->ctx.buf_areas, 1);
}

/*
 * iomem=: each kind gives the same layout and data; the mmap:FILE kind
 * leaves no file; a shm segment is gone with the detach.
 */
static void iomem_kinds(void **state)
{
	struct t *t = *state;
	char path[] = "/dev/shm/ib_test_buf_XXXXXX";
	int fd = mkstemp(path);
	unsigned int kind;

	assert_true(fd >= 0);
	close(fd);
	unlink(path);	/* a name: the mmap kind creates and unlinks it */
	t->job.iomem_file = path;
	ib_rand_fill(&t->want, t->exp, DEPTH * 8192);
	for (kind = IB_IOMEM_MALLOC; kind <= IB_IOMEM_MMAPSHARED; kind++) {
		t->job.iomem = kind;
		alloc(t);
		assert_int_equal(t->ctx.buf_mem, kind);
		assert_int_equal((uintptr_t)t->ctx.buf_base % 4096, 0);
		assert_memory_equal(t->ctx.buf_base, t->exp, DEPTH * 8192);
		assert_int_equal(access(path, F_OK), -1); /* mmap:FILE unlinked */
		ib_bufs_free(&t->ctx);
		assert_null(t->ctx.buf_base);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(layout), T(zeros), T(plain), T(refill), T(scramble),
		T(scramble_rules), T(reads_apart), T(iomem_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
