// SPDX-License-Identifier: GPL-2.0-only
/*
 * Engine tests, part 1: the registry, the sync engines, null, and what every
 * engine must do alike (round trips, short reads, errors, BUSY).
 * Real I/O on a file in /dev/shm, buffered and O_DIRECT.
 */
#include "engine_rig.h"
#include "iobench/help.h"

static const char *const sync_names[] = {
	"psync", "sync", "pvsync", "pvsync2", "vsync",
};

/* Every engine that does real I/O. */
static const char *const io_names[] = {
	"psync", "sync", "pvsync", "pvsync2", "vsync", "posixaio", "splice",
#if HAVE_LIBURING
	"io_uring",
#endif
#if HAVE_LIBAIO
	"libaio",
#endif
};

/* A read across EOF comes back short, with the bytes that exist. */
static void short_read(void **state)
{
	struct rig *r = *state;

	for (unsigned int i = 0; i < sizeof(io_names) / sizeof(io_names[0]); i++) {
		struct ib_io *io;

		assert_int_equal(rig_start(r, io_names[i], 1, 4096, O_RDWR), 0);
		io = one_io(r, IB_DDIR_READ, FILE_SIZE - 1024, 4096);
		assert_int_equal(io->res, 1024);
		assert_memory_equal(io->buf, r->model + FILE_SIZE - 1024, 1024);
		io = one_io(r, IB_DDIR_READ, FILE_SIZE, 4096);
		assert_int_equal(io->res, 0);
		r->e->cleanup(&r->ctx);
		r->inited = false;
	}
}

/* An error is -errno in res: writing to a read-only fd is -EBADF. */
static void error_res(void **state)
{
	struct rig *r = *state;

	for (unsigned int i = 0; i < sizeof(io_names) / sizeof(io_names[0]); i++) {
		struct ib_io *io;

		assert_int_equal(rig_start(r, io_names[i], 1, 4096, O_RDONLY), 0);
		io = one_io(r, IB_DDIR_WRITE, 0, 4096);
		assert_int_equal(io->res, -EBADF);
		r->e->cleanup(&r->ctx);
		r->inited = false;
		for (uint64_t b = 0; b < 4096; b++)	/* nothing was written */
			r->model[b] = pattern(b, 0);
	}
	check_file(r);
}

/*
 * splice: a write that fails after its data went into the engine's pipe
 * leaves nothing there for the next I/O. A read after a failed write (a
 * read-only fd: -EBADF) returns the file's bytes, not the write's.
 */
static void splice_error_pipe(void **state)
{
	struct rig *r = *state;
	struct ib_io *io;

	/* 8 KiB buffers: the pipe has room for the failed write and the read */
	assert_int_equal(rig_start(r, "splice", 1, 8192, O_RDONLY), 0);
	r->gen = 1;
	io = one_io(r, IB_DDIR_WRITE, 0, 4096);
	assert_int_equal(io->res, -EBADF);
	for (uint64_t b = 0; b < 4096; b++)	/* nothing was written */
		r->model[b] = pattern(b, 0);
	io = one_io(r, IB_DDIR_READ, 0, 4096);
	assert_int_equal(io->res, 4096);
	assert_memory_equal(io->buf, r->model, 4096);
	io = one_io(r, IB_DDIR_READ, 4096, 4096);
	assert_int_equal(io->res, 4096);
	assert_memory_equal(io->buf, r->model + 4096, 4096);
}

/* Write ios[0..n) through engine e with the given job, wait for them all. */
static void write_all(const struct ib_engine_ops *e, struct ib_engine_ctx *ctx,
		      unsigned int n)
{
	struct ib_io *done[8];
	unsigned int got = 0;

	assert_int_equal(e->init(ctx), 0);
	for (unsigned int i = 0; i < n; i++) {
		int ret = e->queue(ctx, &ctx->ios[i]);

		assert_true(ret == IB_Q_DONE || ret == IB_Q_QUEUED);
		if (ret == IB_Q_DONE) {
			assert_int_equal(ctx->ios[i].res, 4096);
			got++;
		}
	}
	if (e->commit)
		assert_int_equal(e->commit(ctx), (int)(n - got));
	while (got < n) {
		int k = e->reap(ctx, 1, n, done, IB_WAIT_FOREVER);

		assert_true(k >= 1);
		for (int i = 0; i < k; i++)
			assert_int_equal(done[i]->res, 4096);
		got += (unsigned int)k;
	}
	e->cleanup(ctx);
}

/*
 * Two files, ios alternating between them: each write lands in the file
 * its file_idx names (with io_uring also through the registered table).
 */
static void two_files(void **state)
{
	struct rig *r = *state;
	unsigned int variants = IB_ARRAY_SIZE(io_names) + HAVE_LIBURING;

	for (unsigned int v = 0; v < variants; v++) {
		const char *name = v < IB_ARRAY_SIZE(io_names) ? io_names[v] :
							       "io_uring";
		struct ib_file files[2] = { { .reg_index = -1 },
					    { .reg_index = -1 } };
		struct ib_engine_ctx ctx = { .job = &r->job, .files = files,
			.nr_files = 2, .ios = r->ios, .nr_ios = 4,
			.buf_size = 4096, .buf_base = r->bufs };
		uint8_t got[4096];

		r->job.engine.registerfiles = v >= IB_ARRAY_SIZE(io_names);
		for (unsigned int f = 0; f < 2; f++) {
			char path[] = "/dev/shm/ib_engtest2_XXXXXX";

			files[f].fd = mkstemp(path);
			assert_true(files[f].fd >= 0);
			unlink(path);
		}
		for (unsigned int i = 0; i < 4; i++) {
			r->ios[i] = (struct ib_io){ .idx = i, .len = 4096,
				.ddir = IB_DDIR_WRITE, .file_idx = (uint16_t)(i % 2),
				.offset = (i / 2) * 4096u,
				.buf = (char *)r->bufs + i * 4096 };
			memset(r->ios[i].buf, 'a' + (int)i, 4096);
		}
		write_all(ib_engine_find(name), &ctx, 4);
		for (unsigned int i = 0; i < 4; i++) {
			assert_int_equal(pread(files[i % 2].fd, got, 4096,
					       (i / 2) * 4096), 4096);
			assert_memory_equal(got, r->ios[i].buf, 4096);
		}
		close(files[0].fd);
		close(files[1].fd);
	}
	r->job.engine.registerfiles = false;
}

/* Sync engines complete inline and have no commit/reap. */
static void sync_flags(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < sizeof(sync_names) / sizeof(sync_names[0]); i++) {
		const struct ib_engine_ops *e = ib_engine_find(sync_names[i]);

		assert_non_null(e);
		assert_true(e->flags & IB_ENGINE_SYNC);
		assert_null(e->commit);
		assert_null(e->reap);
		assert_non_null(e->init);
		assert_non_null(e->cleanup);
	}
}

/*
 * An async engine holds at most nr_ios ios: one more is BUSY, and after
 * commit + reap the same io queues fine.
 */
static void busy_path(void **state)
{
	struct rig *r = *state;
	const char *name = r->tc->engine;
	struct ib_io extra, *done[8];
	unsigned int got = 0;

	if (r->tc->tweak)
		r->tc->tweak(&r->job);
	assert_int_equal(rig_start(r, name, 4, 4096,
				   O_RDWR | (r->tc->direct ? O_DIRECT : 0)), 0);
	r->gen++;
	for (unsigned int i = 0; i < 4; i++) {
		prep(r, &r->ios[i], IB_DDIR_READ, (uint64_t)i * 8192, 4096);
		assert_int_equal(r->e->queue(&r->ctx, &r->ios[i]), IB_Q_QUEUED);
	}
	extra = r->ios[0];
	assert_int_equal(r->e->queue(&r->ctx, &extra), IB_Q_BUSY);
	assert_int_equal(r->e->commit(&r->ctx), 4);
	assert_int_equal(r->e->queue(&r->ctx, &extra), IB_Q_BUSY);
	while (got < 4) {
		int n = r->e->reap(&r->ctx, 1, 8, done + got, IB_WAIT_FOREVER);

		assert_true(n >= 1);
		got += (unsigned int)n;
	}
	/* nothing left: reap must not wait, whatever min says */
	assert_int_equal(r->e->reap(&r->ctx, 1, 8, done, IB_WAIT_FOREVER), 0);
	r->nfree = 0;
	for (unsigned int i = 0; i < 4; i++)
		check_done(r, done[i]);
	prep(r, &r->ios[0], IB_DDIR_READ, 65536, 4096);
	assert_int_equal(r->e->queue(&r->ctx, &r->ios[0]), IB_Q_QUEUED);
	assert_int_equal(r->e->commit(&r->ctx), 1);
	assert_int_equal(r->e->reap(&r->ctx, 1, 8, done, IB_WAIT_FOREVER), 1);
	assert_ptr_equal(done[0], &r->ios[0]);
	r->nfree = 0;
	check_done(r, done[0]);
}

/* null: no I/O, queue/commit/reap count exactly, FIFO order. */
static void null_counts(void **state)
{
	struct rig *r = *state;
	struct ib_io *done[8];

	assert_true(ib_engine_find("null")->flags & IB_ENGINE_NOIO);
	assert_int_equal(rig_start(r, "null", 8, 4096, O_RDWR), 0);
	for (unsigned int i = 0; i < 8; i++) {
		prep(r, &r->ios[i], IB_DDIR_WRITE, (uint64_t)i * 4096, 4096 - i);
		assert_int_equal(r->e->queue(&r->ctx, &r->ios[i]), IB_Q_QUEUED);
		if (i == 4)
			assert_int_equal(r->e->commit(&r->ctx), 5);
	}
	assert_int_equal(r->e->queue(&r->ctx, &r->ios[0]), IB_Q_BUSY);
	assert_int_equal(r->e->reap(&r->ctx, 0, 2, done, IB_WAIT_FOREVER), 2);
	assert_ptr_equal(done[0], &r->ios[0]);
	assert_ptr_equal(done[1], &r->ios[1]);
	assert_int_equal(done[1]->res, 4095);
	/* 3 committed */
	assert_int_equal(r->e->reap(&r->ctx, 8, 8, done, IB_WAIT_FOREVER), 3);
	assert_int_equal(r->e->reap(&r->ctx, 0, 8, done, IB_WAIT_FOREVER), 0);
	assert_int_equal(r->e->commit(&r->ctx), 3);
	assert_int_equal(r->e->reap(&r->ctx, 1, 8, done, IB_WAIT_FOREVER), 3);
	assert_ptr_equal(done[2], &r->ios[7]);
	assert_int_equal(done[2]->res, 4089);
	assert_int_equal(r->e->commit(&r->ctx), 0);
	/* the file was never touched */
	for (uint64_t b = 0; b < 8 * 4096; b++)
		r->model[b] = pattern(b, 0);
	check_file(r);
}

static void registry(void **state)
{
	const struct ib_engine_ops *const *l = ib_engine_list();
	unsigned int n = 0;

	(void)state;
	for (; l[n]; n++) {
		assert_ptr_equal(ib_engine_find(l[n]->name), l[n]);
		assert_false(ib_engine_known_unbuilt(l[n]->name));
		assert_non_null(l[n]->queue);
		assert_true(!l[n]->commit == !l[n]->reap);
	}
	/* + null, mmap, falloc, ftruncate, filecreate, filestat, filedelete */
	assert_int_equal(n, sizeof(io_names) / sizeof(io_names[0]) + 7);
	for (unsigned int i = 0; i < sizeof(io_names) / sizeof(io_names[0]); i++)
		assert_non_null(ib_engine_find(io_names[i]));
	assert_non_null(ib_engine_find("null"));
	assert_null(ib_engine_find("nosuch"));
	assert_null(ib_engine_find("solarisaio"));
	assert_true(ib_engine_known_unbuilt("solarisaio"));
	assert_true(ib_engine_known_unbuilt("io_uring_cmd"));
	assert_true(ib_engine_known_unbuilt("external:/x.so"));
	assert_int_equal(ib_engine_known_unbuilt("io_uring"), !HAVE_LIBURING);
	assert_int_equal(ib_engine_known_unbuilt("libaio"), !HAVE_LIBAIO);
	assert_false(ib_engine_known_unbuilt("nosuch"));
	/* options are known whether or not the engine is built */
	assert_true(ib_engine_has_option("pvsync2", "hipri"));
	assert_false(ib_engine_has_option("psync", "hipri"));
	assert_false(ib_engine_has_option("nosuch", "hipri"));
	assert_true(ib_engine_has_option("io_uring", "fixedbufs"));
	assert_true(ib_engine_has_option("libaio", "userspace_reap"));
	assert_string_equal(ib_engine_opts_find("io_uring")->library, "liburing");
	assert_string_equal(ib_engine_opts_find("libaio")->library, "libaio");
	assert_null(ib_engine_opts_find("pvsync2")->library);
	assert_true(ib_engine_unavailable(-EPERM));
	assert_false(ib_engine_unavailable(-EINVAL));
}

static char *enghelp(const char *engine, int want_rc, const char *want_msg)
{
	struct ib_diag d = { { 0 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ib_help_enghelp(f, engine, &d), want_rc);
	assert_string_equal(d.msg, want_msg);
	fclose(f);
	return buf;
}

static void enghelp_is(const char *engine, const char *want)
{
	char *got = enghelp(engine, 0, "");

	assert_string_equal(got, want);
	free(got);
}

/* --enghelp, the one implementation (help.c): the engine list, and each
 * engine's own option rows. */
static void help_text(void **state)
{
	char *list = enghelp(NULL, 0, "");

	(void)state;
	assert_non_null(strstr(list, "Available I/O engines:\n"
				"  psync      pread/pwrite, one I/O at a time (defaults=fio's engine)\n"));
	assert_non_null(strstr(list, "\n  null       does no I/O: measures iobench's own overhead\n"));
#if HAVE_LIBURING
	assert_non_null(strstr(list, "\n  io_uring   Linux io_uring (liburing): asynchronous, batched (the default)\n"));
	enghelp_is("io_uring", "io_uring options:\n"
		   "  hipri                Polled I/O (io_uring IOPOLL, pvsync2 RWF_HIPRI)\n"
		   "  fixedbufs            Register the I/O buffers with the kernel (auto: when the kernel and RLIMIT_MEMLOCK allow it, else not)\n"
		   "  registerfiles        Register the files with the kernel (auto: when every file is open for the whole run, else not)\n"
		   "  sqthread_poll        A kernel thread polls the submission queue\n"
		   "  sqthread_poll_cpu    CPU of the submission polling thread\n"
		   "  nonvectored          Use non-vectored read/write opcodes (-1: automatic)\n"
		   "  force_async          Send every Nth request to the kernel's async workers (IOSQE_ASYNC; 0: none)\n"
		   "  nowait               Fail I/O that would block (RWF_NOWAIT)\n"
		   "  uncached             Buffered I/O that leaves nothing in the page cache (RWF_DONTCACHE; not with direct=1)\n"
		   "  atomic               Torn-write protection: writes with RWF_ATOMIC (direct=1, one power-of-two size in the target's limits)\n");
#else
	free(enghelp("io_uring", -ENOTSUP,
		     "--enghelp: engine 'io_uring' is not built into this iobench"));
#endif
#if HAVE_LIBAIO
	enghelp_is("libaio", "libaio options:\n"
		   "  userspace_reap       Reap completions from user space\n"
		   "  nowait               Fail I/O that would block (RWF_NOWAIT)\n"
		   "  libaio_vectored      Submit vectored reads and writes (IOCB_CMD_PREADV/PWRITEV, one iovec)\n"
		   "  atomic               Torn-write protection: writes with RWF_ATOMIC (direct=1, one power-of-two size in the target's limits)\n");
#endif
	enghelp_is("pvsync2", "pvsync2 options:\n"
		   "  hipri                Polled I/O (io_uring IOPOLL, pvsync2 RWF_HIPRI)\n"
		   "  nowait               Fail I/O that would block (RWF_NOWAIT)\n"
		   "  uncached             Buffered I/O that leaves nothing in the page cache (RWF_DONTCACHE; not with direct=1)\n"
		   "  atomic               Torn-write protection: writes with RWF_ATOMIC (direct=1, one power-of-two size in the target's limits)\n");
	enghelp_is("psync", "psync options:\n");
	enghelp_is("null", "null options:\n");
	free(enghelp("solarisaio", -ENOTSUP,
		     "--enghelp: engine 'solarisaio' is not built into this iobench"));
	free(enghelp("nosuch", -EINVAL, "--enghelp: unknown engine 'nosuch'"));
	free(list);
}

/*
 * pvsync2 nowait: a read of cached data must not block, so it either works
 * or, where the file system lacks RWF_NOWAIT (tmpfs on some kernels), fails
 * with EOPNOTSUPP and says so in errmsg. hipri on buffered I/O is ignored.
 */
static void pvsync2_flags(void **state)
{
	struct rig *r = *state;
	struct ib_io *io;

	r->job.engine.nowait = true;
	assert_int_equal(rig_start(r, "pvsync2", 1, 4096, O_RDWR), 0);
	io = one_io(r, IB_DDIR_READ, 8192, 4096);
	if (io->res == -EOPNOTSUPP) {
		assert_string_equal(r->ctx.errmsg, "nowait: this file system "
				    "does not support RWF_NOWAIT");
	} else {
		assert_int_equal(io->res, 4096);
		assert_memory_equal(io->buf, r->model + 8192, 4096);
		assert_string_equal(r->ctx.errmsg, "");
	}
	r->e->cleanup(&r->ctx);
	r->job.engine.nowait = false;
	r->job.engine.hipri = true;
	assert_int_equal(rig_start(r, "pvsync2", 1, 4096, O_RDWR), 0);
	io = one_io(r, IB_DDIR_READ, 12288, 4096);
	assert_int_equal(io->res, 4096);
	assert_memory_equal(io->buf, r->model + 12288, 4096);
	r->e->cleanup(&r->ctx);
	/* atomic: RWF_ATOMIC on writes only; the rig's tmpfs file has no
	 * torn-write protection, so the kernel refuses the write, not the read */
	r->job.engine.hipri = false;
	r->job.engine.atomic = true;
	assert_int_equal(rig_start(r, "pvsync2", 1, 4096, O_RDWR), 0);
	io = one_io(r, IB_DDIR_READ, 4096, 4096);
	assert_int_equal(io->res, 4096);
	io = one_io(r, IB_DDIR_WRITE, 4096, 4096);
	assert_int_equal(io->res, -EOPNOTSUPP);
}

#define TC(eng, dir, depth, bs) \
	{ eng, dir, depth, bs, NULL }
static const struct tcase rt_cases[] = {
	TC("psync", false, 1, 4096), TC("psync", true, 1, 4096),
	TC("psync", true, 1, 65536), TC("sync", false, 1, 4096),
	TC("sync", true, 1, 65536), TC("pvsync", false, 1, 4096),
	TC("pvsync", true, 1, 8192), TC("pvsync2", false, 1, 4096),
	TC("pvsync2", true, 1, 65536), TC("vsync", false, 1, 4096),
	TC("vsync", true, 1, 16384), TC("pvsync2", false, 1, 512),
};

static const struct tcase busy_cases[] = {
	TC("null", false, 4, 4096),
#if HAVE_LIBURING
	TC("io_uring", false, 4, 4096), TC("io_uring", true, 4, 4096),
#endif
#if HAVE_LIBAIO
	TC("libaio", false, 4, 4096), TC("libaio", true, 4, 4096),
#endif
};

#define RT(c) cmocka_unit_test_prestate_setup_teardown(roundtrip, tc_setup, \
						       rig_teardown, (void *)&(c))
#define BUSY(c) cmocka_unit_test_prestate_setup_teardown(busy_path, tc_setup, \
							 rig_teardown, (void *)&(c))
#define RIG(f) cmocka_unit_test_setup_teardown(f, rig_setup, rig_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(registry),
		cmocka_unit_test(help_text),
		cmocka_unit_test(sync_flags),
		RT(rt_cases[0]), RT(rt_cases[1]), RT(rt_cases[2]),
		RT(rt_cases[3]), RT(rt_cases[4]), RT(rt_cases[5]),
		RT(rt_cases[6]), RT(rt_cases[7]), RT(rt_cases[8]),
		RT(rt_cases[9]), RT(rt_cases[10]),
		RT(rt_cases[11]),
		BUSY(busy_cases[0]),
#if HAVE_LIBURING
		BUSY(busy_cases[1]), BUSY(busy_cases[2]),
#endif
#if HAVE_LIBAIO
		BUSY(busy_cases[1 + 2 * HAVE_LIBURING]),
		BUSY(busy_cases[2 + 2 * HAVE_LIBURING]),
#endif
		RIG(null_counts),
		RIG(short_read),
		RIG(error_res),
		RIG(splice_error_pipe),
		RIG(two_files),
		RIG(pvsync2_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
