// SPDX-License-Identifier: GPL-2.0-only
/*
 * Engine tests, part 2: io_uring and libaio with their options, several
 * I/Os in flight, completions in any order, and the error paths a user can
 * hit (hipri on tmpfs, a bad sqthread_poll_cpu). Skipped as a whole only if
 * neither library was built; io_uring tests skip when the kernel refuses
 * io_uring (-EPERM/-ENOSYS).
 */
#include <signal.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "iobench/clock.h"
#include "engine_rig.h"

static void fixedbufs(struct ib_job *j) { j->engine.fixedbufs = true; }
static void regfiles(struct ib_job *j) { j->engine.registerfiles = true; }
static void vectored(struct ib_job *j) { j->engine.nonvectored = 0; }
static void nonvectored(struct ib_job *j) { j->engine.nonvectored = 1; }
static void sqpoll(struct ib_job *j) { j->engine.sqthread_poll = true; }
static void uring_all(struct ib_job *j)
{
	j->engine.fixedbufs = j->engine.registerfiles = j->engine.sqthread_poll = true;
	j->engine.sqthread_poll_cpu = 0;
}
static void ureap(struct ib_job *j) { j->engine.userspace_reap = true; }

ib_unused static const struct tcase cases[] = {
#if HAVE_LIBURING
	{ "io_uring", false, 1, 4096, NULL },
	{ "io_uring", true, 1, 4096, NULL },
	{ "io_uring", false, 8, 4096, NULL },
	{ "io_uring", true, 32, 65536, NULL },
	{ "io_uring", true, 16, 4096, fixedbufs },
	{ "io_uring", false, 16, 8192, fixedbufs },
	{ "io_uring", true, 8, 4096, regfiles },
	{ "io_uring", true, 8, 4096, vectored },
	{ "io_uring", false, 8, 16384, nonvectored },
	{ "io_uring", true, 8, 4096, sqpoll },
	{ "io_uring", true, 16, 4096, uring_all },
#endif
#if HAVE_LIBAIO
	{ "libaio", false, 1, 4096, NULL },
	{ "libaio", true, 1, 4096, NULL },
	{ "libaio", true, 16, 4096, NULL },
	{ "libaio", true, 32, 65536, NULL },
	{ "libaio", false, 8, 4096, ureap },
	{ "libaio", true, 16, 8192, ureap },
#endif
};

/*
 * Eight reads in flight, reaped a few at a time with min 0 and 1, waits
 * bounded (1 s, never reached) or not: every io comes back exactly once
 * with its own data, in whatever order.
 */
static void many_in_flight(void **state)
{
	struct rig *r = *state;
	struct ib_io *done[8];
	unsigned int seen = 0, got = 0, spins = 0;

	if (r->tc->tweak)
		r->tc->tweak(&r->job);
	assert_int_equal(rig_start(r, r->tc->engine, 8, 4096,
				   O_RDWR | (r->tc->direct ? O_DIRECT : 0)), 0);
	for (unsigned int i = 0; i < 8; i++) {
		prep(r, &r->ios[i], IB_DDIR_READ, (uint64_t)(7 - i) * 12288, 4096);
		assert_int_equal(r->e->queue(&r->ctx, &r->ios[i]), IB_Q_QUEUED);
	}
	assert_int_equal(r->e->commit(&r->ctx), 8);
	r->nfree = 0;
	while (got < 8) {
		uint64_t tmo = spins & 2 ? 1000000000u : IB_WAIT_FOREVER;
		int n = r->e->reap(&r->ctx, (spins++ & 1), 3, done, tmo);

		assert_true(n >= 0 && n <= 3);
		assert_true(spins < 1000000);
		for (int i = 0; i < n; i++) {
			assert_true(done[i] >= r->ios && done[i] < r->ios + 8);
			assert_false(seen & (1u << done[i]->idx));
			seen |= 1u << done[i]->idx;
			check_done(r, done[i]);
		}
		got += (unsigned int)n;
	}
	assert_int_equal(seen, 0xff);
	assert_int_equal(r->e->reap(&r->ctx, 0, 8, done, IB_WAIT_FOREVER), 0);
}

static void on_alarm(int sig)
{
	(void)sig;
	_exit(3);	/* a hang is a failure, not a stuck test run */
}

#if HAVE_LIBURING
/* hipri on tmpfs: IOPOLL cannot work there; a clear error, no hang. */
static void uring_hipri_tmpfs(void **state)
{
	struct rig *r = *state;
	struct ib_io *io;

	signal(SIGALRM, on_alarm);
	alarm(30);
	r->job.engine.hipri = true;
	assert_int_equal(rig_start(r, "io_uring", 4, 4096, O_RDWR | O_DIRECT), 0);
	io = one_io(r, IB_DDIR_READ, 0, 4096);
	assert_int_equal(io->res, -EOPNOTSUPP);
	assert_non_null(strstr(r->ctx.errmsg, "hipri: this file or device "
				"cannot do polled I/O"));
	r->e->cleanup(&r->ctx);
	r->ctx.errmsg[0] = '\0';
	assert_int_equal(rig_start(r, "io_uring", 4, 4096, O_RDWR), 0);
	io = one_io(r, IB_DDIR_WRITE, 0, 4096);	/* buffered: same answer */
	assert_int_equal(io->res, -EOPNOTSUPP);
	assert_non_null(strstr(r->ctx.errmsg, "hipri:"));
	alarm(0);
	for (uint64_t b = 0; b < 4096; b++)	/* nothing was written */
		r->model[b] = pattern(b, 0);
	check_file(r);
}

/*
 * A read from an empty pipe stays in flight: a timed reap gives up after
 * (at least) its timeout with nothing, a zero timeout does not wait, and
 * once data arrives the read completes, seen by zero-timeout reaps alone.
 */
static void uring_timed_reap(void **state)
{
	struct rig *r = *state;
	struct ib_file pf = { .reg_index = -1 };
	struct ib_io *done[1];
	uint64_t t0;
	int p[2], n, got = 0;

	signal(SIGALRM, on_alarm);
	alarm(30);
	assert_int_equal(pipe(p), 0);
	pf.fd = p[0];
	r->e = ib_engine_find("io_uring");
	r->ctx = (struct ib_engine_ctx){ .job = &r->job, .files = &pf,
		.nr_files = 1, .ios = r->ios, .nr_ios = 2, .buf_size = 4096,
		.buf_base = r->bufs };
	r->ios[0] = (struct ib_io){ .idx = 0, .len = 16, .ddir = IB_DDIR_READ,
		.buf = r->bufs };
	memset(r->bufs, 0xee, 16);	/* valgrind cannot see the kernel's write */
	if (r->e->init(&r->ctx) == -EPERM)
		skip();
	r->inited = true;
	assert_int_equal(r->e->queue(&r->ctx, &r->ios[0]), IB_Q_QUEUED);
	assert_int_equal(r->e->commit(&r->ctx), 1);
	t0 = ib_now_ns();
	assert_int_equal(r->e->reap(&r->ctx, 1, 1, done, 0), 0);
	assert_int_equal(r->e->reap(&r->ctx, 1, 1, done, 50000000), 0);
	assert_true(ib_now_ns() - t0 >= 50000000);
	assert_int_equal(write(p[1], "0123456789", 10), 10);
	/* zero timeouts only look, but they do see the completion (and run
	 * DEFER_TASKRUN's task work to post it) */
	for (n = 0; n < 5000 && !got; n++) {
		got = r->e->reap(&r->ctx, 1, 1, done, 0);
		if (!got)
			usleep(1000);
	}
	assert_int_equal(got, 1);
	assert_ptr_equal(done[0], &r->ios[0]);
	assert_int_equal(r->ios[0].res, 10);
	assert_memory_equal(r->bufs, "0123456789", 10);
	alarm(0);
	close(p[0]);
	close(p[1]);
}

/* A CPU that does not exist: init fails and the message names the option. */
static void uring_bad_sqcpu(void **state)
{
	struct rig *r = *state;
	int ret;

	r->job.engine.sqthread_poll = true;
	r->job.engine.sqthread_poll_cpu = 100000;
	ret = rig_start(r, "io_uring", 4, 4096, O_RDWR);
	assert_int_equal(ret, -EINVAL);
	assert_false(ib_engine_unavailable(ret));
	assert_non_null(strstr(r->ctx.errmsg, "io_uring: ring setup: "));
	assert_non_null(strstr(r->ctx.errmsg, "sqthread_poll_cpu"));
}

/* registerfiles puts the file in the ring's table; cleanup takes it out. */
static void uring_regfiles_index(void **state)
{
	struct rig *r = *state;

	r->job.engine.registerfiles = true;
	assert_int_equal(rig_start(r, "io_uring", 2, 4096, O_RDWR), 0);
	assert_int_equal(r->file.reg_index, 0);
	r->e->cleanup(&r->ctx);
	r->inited = false;
	assert_int_equal(r->file.reg_index, -1);
	assert_null(r->ctx.data);
}

/* The kernel's count of buffers registered with this process's ring. */
static int ring_user_bufs(void)
{
	char path[64], link[64], line[256];
	int n = -1;

	for (int fd = 0; fd < 1024 && n < 0; fd++) {
		ssize_t len;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (!strstr(link, "io_uring"))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
		f = fopen(path, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "UserBufs: %d", &n) == 1)
				break;
		fclose(f);
	}
	return n;
}

/*
 * fixedbufs not given: the buffers are registered (the kernel's fdinfo
 * lists them) and I/O uses them; given as 0, or with nonvectored=0, not.
 */
static void uring_fixedbufs_auto(void **state)
{
	struct rig *r = *state;
	struct ib_io *io;

	assert_int_equal(rig_start(r, "io_uring", 4, 4096, O_RDWR | O_DIRECT), 0);
	assert_int_equal(ring_user_bufs(), 4);
	io = one_io(r, IB_DDIR_READ, 8192, 4096);
	assert_int_equal(io->res, 4096);
	assert_memory_equal(io->buf, r->model + 8192, 4096);
}

static void uring_fixedbufs_off(void **state)
{
	struct rig *r = *state;

	r->job.engine.fixedbufs_given = true;	/* fixedbufs=0 */
	assert_int_equal(rig_start(r, "io_uring", 4, 4096, O_RDWR), 0);
	assert_int_equal(ring_user_bufs(), 0);
	r->e->cleanup(&r->ctx);
	r->job.engine.fixedbufs_given = false;
	r->job.engine.nonvectored = 0;
	assert_int_equal(rig_start(r, "io_uring", 4, 4096, O_RDWR), 0);
	assert_int_equal(ring_user_bufs(), 0);
}

/*
 * Buffers in a file mapping of a disk file system (iomem=mmap with a
 * path): the kernel refuses to register them. Not given, the engine goes
 * on with plain reads; fixedbufs=1 fails init and says why.
 */
static void uring_fixedbufs_refused(void **state)
{
	struct rig *r = *state;
	char path[] = "/var/tmp/iobench-fbXXXXXX";
	size_t len = 4 * 4096;
	struct ib_io *io;
	void *heap = r->bufs, *map;
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, (off_t)len), 0);
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(map != MAP_FAILED);
	close(fd);
	r->bufs = map;
	assert_int_equal(rig_start(r, "io_uring", 4, 4096, O_RDWR), 0);
	if (ring_user_bufs() == 4) {	/* a tmpfs /var/tmp: shmem is allowed */
		r->bufs = heap;
		munmap(map, len);
		skip();
	}
	assert_int_equal(ring_user_bufs(), 0);
	io = one_io(r, IB_DDIR_READ, 4096, 4096);
	assert_int_equal(io->res, 4096);
	assert_memory_equal(io->buf, r->model + 4096, 4096);
	r->e->cleanup(&r->ctx);
	r->job.engine.fixedbufs = r->job.engine.fixedbufs_given = true;
	ret = rig_start(r, "io_uring", 4, 4096, O_RDWR);
	assert_true(ret < 0);
	assert_non_null(strstr(r->ctx.errmsg,
			       "io_uring: fixedbufs: registering buffers: "));
	r->e->cleanup(&r->ctx);
	r->inited = false;
	r->bufs = heap;
	munmap(map, len);
}
#endif

/* nowait: works, or the file system says it cannot (errmsg says so). */
static void nowait_read(void **state)
{
	struct rig *r = *state;
	struct ib_io *io;

	r->job.engine.nowait = true;
	assert_int_equal(rig_start(r, r->tc->engine, 2, 4096,
				   O_RDWR | (r->tc->direct ? O_DIRECT : 0)), 0);
	io = one_io(r, IB_DDIR_READ, 4096, 4096);
	if (io->res == -EOPNOTSUPP) {
		assert_string_equal(r->ctx.errmsg, "nowait: this file system "
				    "does not support RWF_NOWAIT");
	} else if (io->res == -EAGAIN) {
		assert_string_equal(r->ctx.errmsg, "nowait: the I/O would have "
				    "blocked (RWF_NOWAIT)");
	} else {
		assert_int_equal(io->res, 4096);
		assert_memory_equal(io->buf, r->model + 4096, 4096);
	}
}

/* What a child saw when an engine met a refused system call. */
struct refused {
	int init, commit, reap;
	int64_t res[2];
	char errmsg[IB_ENGINE_ERRMSG_LEN];
};

/* Make system call `nr` fail with `err` in this process from now on. */
static int deny_syscall(long nr, int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned int)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = IB_ARRAY_SIZE(f), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/*
 * The child's side: no cmocka asserts here (a failing one would unwind
 * into the child's copy of the test runner). With at_submit false the
 * call is refused before init (io_uring_setup, io_setup); otherwise init
 * works, two reads are queued, and the submission call is refused.
 */
static int child_steps(struct rig *r, const char *engine, long nr, int err,
		       bool at_submit, struct refused *sh)
{
	struct ib_io *done[2];

	r->e = ib_engine_find(engine);
	r->ctx = (struct ib_engine_ctx){ .job = &r->job, .files = &r->file,
		.nr_files = 1, .ios = r->ios, .nr_ios = 4, .buf_size = 4096,
		.buf_base = r->bufs };
	for (unsigned int i = 0; i < 2; i++)
		r->ios[i] = (struct ib_io){ .idx = i, .len = 4096,
			.offset = i * 4096, .ddir = IB_DDIR_READ, .res = 1,
			.buf = (char *)r->bufs + i * 4096 };
	if (!at_submit && deny_syscall(nr, err))
		return 77;
	sh->init = r->e->init(&r->ctx);
	if (at_submit && !sh->init) {
		if (r->e->queue(&r->ctx, &r->ios[0]) != IB_Q_QUEUED ||
		    r->e->queue(&r->ctx, &r->ios[1]) != IB_Q_QUEUED)
			return 1;
		if (deny_syscall(nr, err))
			return 77;
		sh->commit = r->e->commit(&r->ctx);
		sh->reap = r->e->reap(&r->ctx, 1, 2, done, IB_WAIT_FOREVER);
		sh->res[0] = r->ios[0].res;
		sh->res[1] = r->ios[1].res;
	}
	memcpy(sh->errmsg, r->ctx.errmsg, sizeof(sh->errmsg));
	r->e->cleanup(&r->ctx);
	return 0;
}

/* Run child_steps() in a child (the filter cannot be undone) and report. */
static void refused_run(struct rig *r, const char *engine, long nr, int err,
			bool at_submit, struct refused *out)
{
	struct refused *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t pid;

	assert_true(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	sh->init = sh->commit = sh->reap = 12345;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(child_steps(r, engine, nr, err, at_submit, sh));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();		/* no seccomp filters here */
	assert_int_equal(WEXITSTATUS(status), 0);
	*out = *sh;
	munmap(sh, sizeof(*sh));
}

static void init_refused(struct rig *r, const char *engine, long nr, int err,
			 struct refused *out)
{
	refused_run(r, engine, nr, err, false, out);
}

#if HAVE_LIBURING
static void uring_unavailable(void **state)
{
	struct refused got;

	init_refused(*state, "io_uring", __NR_io_uring_setup, EPERM, &got);
	assert_int_equal(got.init, -EPERM);
	assert_true(ib_engine_unavailable(got.init));
	assert_non_null(strstr(got.errmsg, "io_uring not available on this "
				"system"));
	init_refused(*state, "io_uring", __NR_io_uring_setup, ENOSYS, &got);
	assert_int_equal(got.init, -ENOSYS);
	assert_true(ib_engine_unavailable(got.init));
}
#endif

#if HAVE_LIBURING
/* io_uring_enter refused: EAGAIN/EBUSY submit nothing (0), others fail. */
static void uring_submit_refused(void **state)
{
	struct refused got;

	refused_run(*state, "io_uring", __NR_io_uring_enter, EAGAIN, true, &got);
	assert_int_equal(got.init, 0);
	assert_int_equal(got.commit, 0);
	assert_int_equal(got.reap, 0);	/* nothing in flight: no wait */
	assert_int_equal(got.res[0], 1);	/* untouched */
	refused_run(*state, "io_uring", __NR_io_uring_enter, EBUSY, true, &got);
	assert_int_equal(got.commit, 0);
	assert_int_equal(got.reap, 0);
	refused_run(*state, "io_uring", __NR_io_uring_enter, EFAULT, true, &got);
	assert_int_equal(got.commit, -EFAULT);
}
#endif

#if HAVE_LIBAIO
/*
 * io_submit refused: EAGAIN keeps both queued (commit 0, nothing to reap);
 * any other error fails the iocb it names, which comes back through reap.
 */
static void libaio_submit_refused(void **state)
{
	struct refused got;

	refused_run(*state, "libaio", __NR_io_submit, EAGAIN, true, &got);
	assert_int_equal(got.init, 0);
	assert_int_equal(got.commit, 0);
	assert_int_equal(got.reap, 0);
	assert_int_equal(got.res[0], 1);
	refused_run(*state, "libaio", __NR_io_submit, EINVAL, true, &got);
	assert_int_equal(got.commit, 2);
	assert_int_equal(got.reap, 2);
	assert_int_equal(got.res[0], -EINVAL);
	assert_int_equal(got.res[1], -EINVAL);
}

/*
 * With iobench's defaults the completion ring is read before any wait:
 * two reads of a buffered file complete in io_submit, so reaping them makes
 * no io_getevents at all (refused here, it would fail the reap). With
 * defaults=fio the wait is io_getevents, as fio's: refused, the reap fails.
 */
static void libaio_ring_peek(void **state)
{
	struct rig *r = *state;
	struct refused got;

	r->job.defaults = IB_DEFAULTS_IOBENCH;
	refused_run(r, "libaio", __NR_io_getevents, EPERM, true, &got);
	assert_int_equal(got.init, 0);
	assert_int_equal(got.commit, 2);
	assert_int_equal(got.reap, 2);
	assert_int_equal(got.res[0], 4096);
	assert_int_equal(got.res[1], 4096);
	r->job.defaults = IB_DEFAULTS_FIO;
	refused_run(r, "libaio", __NR_io_getevents, EPERM, true, &got);
	assert_int_equal(got.commit, 2);
	assert_int_equal(got.reap, -EPERM);
	r->job.engine.userspace_reap = true;	/* fio's: only at min 0 */
	refused_run(r, "libaio", __NR_io_getevents, EPERM, true, &got);
	assert_int_equal(got.reap, -EPERM);
}

static void libaio_refused(void **state)
{
	struct refused got;

	init_refused(*state, "libaio", __NR_io_setup, EAGAIN, &got);
	assert_int_equal(got.init, -EAGAIN);
	assert_non_null(strstr(got.errmsg, "fs.aio-max-nr"));
	init_refused(*state, "libaio", __NR_io_setup, ENOSYS, &got);
	assert_int_equal(got.init, -ENOSYS);
	assert_true(ib_engine_unavailable(got.init));
	assert_non_null(strstr(got.errmsg, "no AIO support"));
}
#endif

#define RT(i) cmocka_unit_test_prestate_setup_teardown(roundtrip, tc_setup, \
		rig_teardown, (void *)&cases[i])
#define MANY(i) cmocka_unit_test_prestate_setup_teardown(many_in_flight, \
		tc_setup, rig_teardown, (void *)&cases[i])
#define NOWAIT(i) cmocka_unit_test_prestate_setup_teardown(nowait_read, \
		tc_setup, rig_teardown, (void *)&cases[i])
#define RIG(f) cmocka_unit_test_setup_teardown(f, rig_setup, rig_teardown)
#define U (11 * HAVE_LIBURING)	/* first libaio case */

int main(void)
{
	const struct CMUnitTest tests[] = {
#if HAVE_LIBURING
		RT(0), RT(1), RT(2), RT(3), RT(4), RT(5), RT(6), RT(7),
		RT(8), RT(9), RT(10),
		MANY(0), MANY(1), MANY(4), MANY(6), MANY(7), MANY(9), MANY(10),
		NOWAIT(0), NOWAIT(1),
		RIG(uring_hipri_tmpfs),
		RIG(uring_bad_sqcpu),
		RIG(uring_timed_reap),
		RIG(uring_regfiles_index),
		RIG(uring_fixedbufs_auto),
		RIG(uring_fixedbufs_off),
		RIG(uring_fixedbufs_refused),
		RIG(uring_unavailable),
		RIG(uring_submit_refused),
#endif
#if HAVE_LIBAIO
		RT(U), RT(U + 1), RT(U + 2), RT(U + 3), RT(U + 4), RT(U + 5),
		MANY(U), MANY(U + 1), MANY(U + 4), MANY(U + 5),
		NOWAIT(U), NOWAIT(U + 1),
		RIG(libaio_refused),
		RIG(libaio_submit_refused),
		RIG(libaio_ring_peek),
#endif
	};

	if (!IB_ARRAY_SIZE(tests))
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
