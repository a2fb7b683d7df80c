/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TEST_ENGINE_RIG_H
#define IOBENCH_TEST_ENGINE_RIG_H
/*
 * Shared by the engine tests: a file in /dev/shm with known content, an
 * engine context over it, a model of what the file must hold, and drive(),
 * which runs a list of I/Os through the real job loop (loop.h) and checks
 * every completion.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "config.h"
#include "iobench/compiler.h"
#include "iobench/engine.h"
#include "iobench/loop.h"
#if HAVE_LIBURING
#include <liburing.h>
#endif

/* Not every test file uses every helper. */
#pragma GCC diagnostic ignored "-Wunused-function"

#define FILE_SIZE (1u << 20)
#define MAX_DEPTH 32
#define MAX_BS (64u << 10)

/* A test case: engine, buffered or direct, depth, block size, options. */
struct tcase {
	const char *engine;
	bool direct;
	unsigned int depth;
	uint32_t bs;
	void (*tweak)(struct ib_job *job);
};

struct rig {
	struct ib_job job;
	struct ib_file file;
	char path[PATH_MAX];
	struct ib_io ios[MAX_DEPTH];
	unsigned int nfree;	/* units not with the engine (one_io etc.) */
	void *bufs;
	struct ib_engine_ctx ctx;
	const struct ib_engine_ops *e;
	const struct tcase *tc;	/* parameterised tests */
	uint8_t *model;		/* what the file must hold */
	unsigned int gen;	/* write generation, varies the pattern */
	bool inited;
};

static uint8_t pattern(uint64_t off, unsigned int gen)
{
	uint64_t x = (off >> 3) * 0x9e3779b97f4a7c15ull + gen * 0x632be5ab;

	return (uint8_t)((x >> 29) ^ (off & 7) ^ (x >> 47));
}

static int rig_setup(void **state)
{
	char path[] = "/dev/shm/ib_engtest_XXXXXX";
	struct rig *r = calloc(1, sizeof(*r));
	int fd;

	assert_non_null(r);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	r->model = malloc(FILE_SIZE);
	assert_non_null(r->model);
	for (uint64_t i = 0; i < FILE_SIZE; i++)
		r->model[i] = pattern(i, 0);
	assert_int_equal(pwrite(fd, r->model, FILE_SIZE, 0), FILE_SIZE);
	r->file.fd = fd;
	r->file.reg_index = -1;
	r->file.real_size = FILE_SIZE;
	r->file.io_size = FILE_SIZE;
	r->file.lbs = 512;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->file.path = r->path;
	assert_int_equal(posix_memalign(&r->bufs, 4096, MAX_DEPTH * MAX_BS), 0);
	r->job.iodepth = 1;
	r->job.engine.nonvectored = -1;
	r->job.engine.sqthread_poll_cpu = -1;
	*state = r;
	return 0;
}

static int rig_teardown(void **state)
{
	struct rig *r = *state;

	if (r->inited)
		r->e->cleanup(&r->ctx);
	close(r->file.fd);
	free(r->bufs);
	free(r->model);
	free(r);
	return 0;
}

/* Reopen the file (O_DIRECT or not, with `flags`) and init the engine. */
static int rig_start(struct rig *r, const char *engine, unsigned int depth,
		     uint32_t bs, int flags)
{
	char proc[64];
	int fd, ret;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", r->file.fd);
	fd = open(proc, flags);
	assert_true(fd >= 0);
	close(r->file.fd);
	r->file.fd = fd;
	r->e = ib_engine_find(engine);
	assert_non_null(r->e);
	r->job.ioengine = engine;
	r->job.iodepth = depth;
	r->ctx = (struct ib_engine_ctx){
		.job = &r->job, .files = &r->file, .nr_files = 1,
		.ios = r->ios, .nr_ios = depth, .buf_size = bs,
		.buf_base = r->bufs,
	};
	r->nfree = depth;
	for (unsigned int i = 0; i < depth; i++)
		r->ios[i] = (struct ib_io){ .idx = i,
			.buf = (char *)r->bufs + (size_t)i * bs };
	ret = r->e->init(&r->ctx);
	r->inited = true;
	if (ret < 0 && !strcmp(engine, "io_uring") &&
	    (ret == -EPERM || ret == -ENOSYS))
		skip();
	return ret;
}

static void check_done(struct rig *r, struct ib_io *io)
{
	assert_int_equal(io->res, io->len);
	if (io->ddir == IB_DDIR_READ && !(r->e->flags & IB_ENGINE_NOIO))
		assert_memory_equal(io->buf, r->model + io->offset, io->len);
	assert_true(r->nfree < r->ctx.nr_ios);
	r->nfree++;
}

static void prep(struct rig *r, struct ib_io *io, uint8_t ddir, uint64_t off,
		 uint32_t len)
{
	io->ddir = ddir;
	io->offset = off;
	io->len = len;
	io->file_idx = 0;
	io->res = INT64_MIN;
	if (ddir == IB_DDIR_WRITE) {
		uint8_t *b = io->buf;

		for (uint32_t i = 0; i < len; i++)
			b[i] = r->model[off + i] = pattern(off + i, r->gen);
	} else {
		memset(io->buf, 0xee, len);
	}
}

/* The I/Os drive() runs: one direction and length, a list of offsets. */
struct rig_src {
	struct ib_source src;
	struct rig *r;
	uint8_t ddir;
	const uint64_t *offs;
	unsigned int n, next, done;
	uint32_t len;
};

static int rig_src_next(struct ib_source *src, uint64_t now,
			struct ib_io_desc *out)
{
	struct rig_src *s = ib_container_of(src, struct rig_src, src);

	if (s->next == s->n)
		return IB_SRC_END;
	out->ddir = s->ddir;
	out->file_idx = 0;
	out->offset = s->offs[s->next++];
	out->len = s->len;
	out->due_ns = now;
	return IB_SRC_READY;
}

static bool rig_src_more(const struct ib_source *src)
{
	const struct rig_src *s = ib_container_of(src, const struct rig_src, src);

	return s->next < s->n;
}

static const struct ib_source_ops rig_src_ops = {
	.name = "rig", .next = rig_src_next, .more = rig_src_more,
};

/* Loop hook: a new I/O; a write's data goes into the model too. */
static void rig_prep(void *arg, struct ib_io *io)
{
	struct rig_src *s = arg;
	uint8_t *b = io->buf;

	if (io->ddir != IB_DDIR_WRITE) {
		memset(io->buf, 0xee, io->len);
		return;
	}
	for (uint32_t i = 0; i < io->len; i++)
		b[i] = s->r->model[io->offset + i] = pattern(io->offset + i, s->r->gen);
}

/* Loop hook: every completion is whole and a read has the model's data. */
static void rig_done(void *arg, const struct ib_io *io)
{
	struct rig_src *s = arg;

	assert_int_equal(io->res, io->len);
	assert_int_equal(io->xfer_done, 0);
	if (io->ddir == IB_DDIR_READ && !(s->r->e->flags & IB_ENGINE_NOIO))
		assert_memory_equal(io->buf, s->r->model + io->offset, io->len);
	s->done++;
}

/*
 * drive() hands the loop these shims over the real engine: they hold the
 * engine to its contract on every call (queue answers, commit and reap
 * counts against what was queued and is in flight).
 */
static struct {
	const struct ib_engine_ops *real;
	unsigned int queued, inflight;
} chk;

static int chk_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	int ret = chk.real->queue(ctx, io);

	assert_true(ret == IB_Q_DONE || ret == IB_Q_QUEUED || ret == IB_Q_BUSY);
	if (ret == IB_Q_QUEUED)
		chk.queued++;
	return ret;
}

static int chk_commit(struct ib_engine_ctx *ctx)
{
	int c = chk.real->commit(ctx);

	assert_true(c >= 0 && (unsigned int)c <= chk.queued);
	chk.queued -= (unsigned int)c;
	chk.inflight += (unsigned int)c;
	return c;
}

static int chk_reap(struct ib_engine_ctx *ctx, unsigned int min,
		    unsigned int max, struct ib_io **done, uint64_t timeout_ns)
{
	int n = chk.real->reap(ctx, min, max, done, timeout_ns);

	assert_int_equal(timeout_ns, IB_WAIT_FOREVER);	/* no due times */
	assert_true(min >= 1 && chk.inflight >= 1);
	assert_true(n >= (int)min && n <= (int)max && n <= (int)chk.inflight);
	chk.inflight -= (unsigned int)n;
	return n;
}

/*
 * Run n I/Os at offs through the job loop with the engine at its depth,
 * committing every `batch` queued ios (BUSY, even below the depth, and a
 * full pool commit too). Distinct offsets only (ios in flight never
 * overlap). Every I/O completes whole, once, with no error.
 */
static void drive(struct rig *r, uint8_t ddir, const uint64_t *offs,
		  unsigned int n, uint32_t len, unsigned int batch)
{
	struct rig_src src = { .src.ops = &rig_src_ops, .r = r, .ddir = ddir,
			       .offs = offs, .n = n, .len = len };
	static const volatile sig_atomic_t no_stop;
	struct ib_job_stats *st = calloc(1, sizeof(*st));
	struct ib_clock clock;
	struct ib_loop loop;
	struct ib_diag d;
	struct ib_engine_ops ops = *r->e;
	struct ib_loop_cfg cfg = {
		.job = &r->job, .ops = &ops, .ctx = &r->ctx, .src = &src.src,
		.st = st, .stop = &no_stop, .clock = &clock, .lat_on = true,
		.hooks = { .prep = rig_prep, .done = rig_done }, .arg = &src,
	};

	assert_non_null(st);
	chk.real = r->e;
	chk.queued = chk.inflight = 0;
	ops.queue = chk_queue;
	if (ops.commit) {
		ops.commit = chk_commit;
		ops.reap = chk_reap;
	}
	ib_clock_init(&clock, false);
	r->gen++;
	/*
	 * The batching fixed, as if given: left to iobench, the adaptive
	 * probes start once a drive outlasts a 20 ms slice (under valgrind on
	 * a loaded machine, one run in a dozen), and their spin's polls
	 * (min 0, no wait) are not what this rig drives and checks.
	 */
	r->job.iodepth_batch_submit = batch;
	r->job.batch_submit_given = true;
	r->job.iodepth_low = r->ctx.nr_ios;
	r->job.iodepth_batch_complete_min = 1;
	r->job.iodepth_batch_complete_max = 0;
	r->job.batch_complete_max_given = true;
	assert_int_equal(ib_loop_init(&loop, &cfg, &d), 0);
	assert_false(loop.batch.on);
	assert_int_equal(ib_loop_run(&loop), 0);
	assert_false(loop.failed);
	assert_int_equal(src.done, n);
	assert_int_equal(st->dir[ddir].total_ios, n);
	assert_int_equal(st->dir[ddir].io_bytes, (uint64_t)n * len);
	assert_int_equal(st->dir[ddir].short_ios, 0);
	assert_int_equal(st->total_err, 0);
	assert_int_equal(loop.nr_free, r->ctx.nr_ios);	/* drained */
	assert_int_equal(loop.inflight, 0);
	assert_int_equal(chk.queued + chk.inflight, 0);
	ib_loop_free(&loop);
	free(st);
}

/* n distinct block offsets in a scrambled order. */
static void offsets(uint64_t *offs, unsigned int n, uint32_t bs)
{
	unsigned int nblocks = FILE_SIZE / bs;

	for (unsigned int i = 0; i < n; i++)
		offs[i] = (uint64_t)((i * 7919u + 13) % nblocks) * bs;
}

static void check_file(struct rig *r)
{
	uint8_t *got = malloc(FILE_SIZE);
	char proc[64];
	int fd;

	assert_non_null(got);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", r->file.fd);
	fd = open(proc, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, got, FILE_SIZE, 0), FILE_SIZE);
	assert_memory_equal(got, r->model, FILE_SIZE);
	close(fd);
	free(got);
}

/* Write, then read back, a scrambled set of blocks; then all of them. */
static void roundtrip(void **state)
{
	struct rig *r = *state;
	const struct tcase *tc = r->tc;
	uint64_t offs[FILE_SIZE / 512];
	unsigned int n;

	if (tc->tweak)
		tc->tweak(&r->job);
	assert_int_equal(rig_start(r, tc->engine, tc->depth, tc->bs,
				   O_RDWR | (tc->direct ? O_DIRECT : 0)), 0);
	assert_string_equal(r->ctx.errmsg, "");
	n = FILE_SIZE / tc->bs / 2;
	offsets(offs, n, tc->bs);
	drive(r, IB_DDIR_WRITE, offs, n, tc->bs, tc->depth > 2 ? tc->depth / 2 : 1);
	check_file(r);
	drive(r, IB_DDIR_READ, offs, n, tc->bs, 1);
	n = FILE_SIZE / tc->bs;
	for (unsigned int i = 0; i < n; i++)
		offs[i] = (uint64_t)i * tc->bs;
	drive(r, IB_DDIR_READ, offs, n, tc->bs, tc->depth);
	assert_string_equal(r->ctx.errmsg, "");
}

/* cmocka's prestate is the tcase; the rig replaces it as the state. */
static int tc_setup(void **state)
{
	const struct tcase *tc = *state;

	rig_setup(state);
	((struct rig *)*state)->tc = tc;
	return 0;
}

/* Queue one io and wait for it, whatever the engine kind. */
static struct ib_io *one_io(struct rig *r, uint8_t ddir, uint64_t off,
			    uint32_t len)
{
	struct ib_io *io = &r->ios[0], *done[1];
	int ret;

	prep(r, io, ddir, off, len);
	ret = r->e->queue(&r->ctx, io);
	if (ret == IB_Q_DONE)
		return io;
	assert_int_equal(ret, IB_Q_QUEUED);
	assert_int_equal(r->e->commit(&r->ctx), 1);
	assert_int_equal(r->e->reap(&r->ctx, 1, 1, done, IB_WAIT_FOREVER), 1);
	assert_ptr_equal(done[0], io);
	return io;
}

#endif
