// SPDX-License-Identifier: GPL-2.0-only
/*
 * ceiling: the leanest random-read loop this machine can run, with no
 * statistics at all, as the yardstick for iobench's own overhead
 * ("iobench reaches >= 0.95x the ceiling").
 *
 *   ceiling uring|aio|pread|lat FILE DEPTH SECONDS [BS]
 *
 * Random BS-aligned reads (BS default 4096) over the whole file or block
 * device, opened O_DIRECT (buffered if the file system refuses O_DIRECT)
 * and O_NOATIME (where the kernel allows it, as iobench),
 * each block once per pass in the order of iobench's keyed permutation
 * (randperm.h: the shape of iobench's random map, at a few ns per offset).
 * uring: one ring set up like the io_uring engine (SINGLE_ISSUER +
 * DEFER_TASKRUN, else COOP_TASKRUN, else nothing), registered ring fd,
 * registered buffers and file, READ_FIXED. Each batch of completions is
 * refilled and submitted with one io_uring_enter, which also flushes the
 * completions that came meanwhile (GETEVENTS without waiting). On a
 * regular file the loop does not sleep while the ring has nothing to
 * reap: it polls, up to SPIN_POLLS empty enters in a row, and only then
 * blocks for one completion; on a block device it blocks (uring_loop).
 * Measured on the 2-vCPU VM (tmpfs file: every read goes to
 * one io-wq worker; loop device: to the loop's kworker), polling beats
 * sleeping on every fourth I/O, which the old one-submit_and_wait loop
 * did: its sleeps and wake-ups were most of the gap to iobench, which
 * rarely sleeps. Submitting every SQE with its own enter (what iobench
 * does with iodepth_batch_submit=1) cost about half the IOPS on both.
 * aio: Linux native AIO (libaio), DEPTH reads in flight: each batch of
 * completions (io_getevents for at least one, up to DEPTH) refilled and
 * handed back with one io_submit; no timeout, no statistics. The yardstick
 * of the libaio engine, whose work per I/O the kernel's AIO path dominates.
 * pread: one pread at a time; DEPTH must be 1.
 * lat: pread at DEPTH 1 with each read timed by two readings of iobench's
 * per-I/O clock (ib_clock: TSC where invariant), the least a QD1 latency
 * can be here; FILE "-" times nothing between the readings (the floor under
 * the null engine's). Adds "p50_ns=N" (1-ns bins up to 64 us).
 * Prints one line ending in "iops=N" (lat: then " p50_ns=N").
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"
#include "iobench/clock.h"
#include "iobench/randperm.h"
#include "iobench/safe_open.h"
#if HAVE_LIBURING
#include <liburing.h>
#endif
#if HAVE_LIBAIO
#include <libaio.h>
#endif

struct bench {
	int fd;
	bool direct;
	bool poll;		/* regular file: poll the ring, see uring_loop */
	unsigned int depth;
	uint32_t bs;
	uint64_t nblocks;
	struct ib_randperm perm;
	uint64_t end_ns;
	uint64_t ios;
	void *bufs;
	uint32_t *lat_hist;	/* lat: LAT_BINS 1-ns bins, the last one open */
};

#define LAT_BINS 65536u

static inline uint64_t next_off(struct bench *b)
{
	return ib_randperm_next(&b->perm) * b->bs;
}

/* The target's size, and whether it is a regular file (*reg). */
static int target_size(int fd, uint64_t *size, bool *reg)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	*reg = S_ISREG(st.st_mode);
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int open_target(struct bench *b, const char *path)
{
	uint64_t size = 0;
	int ret;

	b->direct = true;
	b->fd = ib_open_noatime(path, O_RDONLY | O_DIRECT);
	if (b->fd < 0 && errno == EINVAL) {
		b->direct = false;
		b->fd = ib_open_noatime(path, O_RDONLY);
	}
	if (b->fd < 0)
		return -errno;
	ret = target_size(b->fd, &size, &b->poll);
	if (ret)
		return ret;
	b->nblocks = size / b->bs;
	if (!b->nblocks)
		return -EINVAL;
	return ib_randperm_init(&b->perm, b->nblocks, 0x9e3779b97f4a7c15ull);
}

static int run_pread(struct bench *b)
{
	while (1) {
		for (unsigned int i = 0; i < 256; i++) {
			ssize_t r = pread(b->fd, b->bufs, b->bs,
					  (off_t)next_off(b));

			if (r != (ssize_t)b->bs)
				return r < 0 ? -errno : -EIO;
		}
		b->ios += 256;
		if (ib_now_ns() >= b->end_ns)
			return 0;
	}
}

/* lat: QD1 preads (or nothing, fd < 0), each timed; the clock's own cost
 * is in every sample, as it is in iobench's */
static int run_lat(struct bench *b)
{
	struct ib_clock c;

	ib_clock_init(&c, true);
	while (1) {
		for (unsigned int i = 0; i < 256; i++) {
			uint64_t t0 = ib_clock_ns(&c), d;

			if (b->fd >= 0 && pread(b->fd, b->bufs, b->bs,
						(off_t)next_off(b)) != (ssize_t)b->bs)
				return -EIO;
			d = ib_clock_ns(&c) - t0;
			b->lat_hist[d < LAT_BINS ? d : LAT_BINS - 1]++;
		}
		b->ios += 256;
		if (ib_now_ns() >= b->end_ns)
			return 0;
	}
}

static uint64_t lat_p50(const struct bench *b)
{
	uint64_t seen = 0;

	for (uint32_t i = 0; i < LAT_BINS; i++)
		if ((seen += b->lat_hist[i]) * 2 >= b->ios)
			return i;
	return LAT_BINS - 1;
}

#if HAVE_LIBURING
static int ring_setup(struct io_uring *ring, unsigned int depth)
{
	unsigned int flags[3] = { 0, 0, 0 };
	int ret = -EINVAL;

#if defined(IORING_SETUP_SINGLE_ISSUER) && defined(IORING_SETUP_DEFER_TASKRUN)
	flags[0] = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
	flags[1] = IORING_SETUP_COOP_TASKRUN;
#endif
	for (int i = 0; i < 3; i++) {
		ret = io_uring_queue_init(depth, ring, flags[i]);
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

static void prep_read(struct bench *b, struct io_uring *ring, unsigned int idx)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_prep_read_fixed(sqe, 0, (char *)b->bufs + (size_t)idx * b->bs,
				 b->bs, next_off(b), (int)idx);
	sqe->flags |= IOSQE_FIXED_FILE;
	sqe->user_data = idx;
}

static int uring_register(struct bench *b, struct io_uring *ring)
{
	struct iovec *iov = calloc(b->depth, sizeof(*iov));
	int ret;

	if (!iov)
		return -ENOMEM;
	for (unsigned int i = 0; i < b->depth; i++) {
		iov[i].iov_base = (char *)b->bufs + (size_t)i * b->bs;
		iov[i].iov_len = b->bs;
	}
	ret = io_uring_register_buffers(ring, iov, b->depth);
	free(iov);
	if (!ret)
		ret = io_uring_register_files(ring, &b->fd, 1);
#ifdef IORING_SETUP_COOP_TASKRUN
	if (!ret)
		io_uring_register_ring_fd(ring);
#endif
	return ret;
}

/* Empty polls in a row before the loop blocks: 0.1-0.3 ms of polling. */
#define SPIN_POLLS 256

/* liburing 2.3 added io_uring_submit_and_get_events with DEFER_TASKRUN;
 * before, io_uring_submit enters for the completions when they need it */
#ifndef IORING_SETUP_DEFER_TASKRUN
#define io_uring_submit_and_get_events io_uring_submit
#endif

/*
 * Keep depth reads in flight; refill each batch of completions with one
 * enter. On a regular file, poll while nothing is there and block only
 * after SPIN_POLLS empty polls: its reads run in this process's own io-wq
 * worker. A block device's completions come from outside (the loop
 * device's kworker, at nice 0 outside our scheduler group): polling at
 * nice -20 starved it (bench.py on a loaded machine: 79k IOPS against
 * iobench's 191k), so there the loop blocks for one completion.
 */
static int uring_loop(struct bench *b, struct io_uring *ring,
		      struct io_uring_cqe **cqes)
{
	unsigned int inflight = b->depth, idle = 0;
	unsigned int spin = b->poll ? SPIN_POLLS : 0;
	bool stop = false;

	for (unsigned int i = 0; i < b->depth; i++)
		prep_read(b, ring, i);
	while (inflight) {
		int ret = idle < spin ? io_uring_submit_and_get_events(ring) :
					      io_uring_submit_and_wait(ring, 1);
		unsigned int n;

		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			return ret;
		n = io_uring_peek_batch_cqe(ring, cqes, b->depth);
		idle = n ? 0 : idle + 1;
		for (unsigned int i = 0; i < n; i++) {
			if (cqes[i]->res != (int)b->bs)
				return cqes[i]->res < 0 ? cqes[i]->res : -EIO;
			if (!stop)
				prep_read(b, ring, (unsigned int)cqes[i]->user_data);
			else
				inflight--;
		}
		io_uring_cq_advance(ring, n);
		b->ios += n;
		if (n && !stop && ib_now_ns() >= b->end_ns)
			stop = true;
	}
	return 0;
}

static int run_uring(struct bench *b)
{
	struct io_uring_cqe **cqes = calloc(b->depth, sizeof(*cqes));
	struct io_uring ring;
	int ret;

	if (!cqes)
		return -ENOMEM;
	ret = ring_setup(&ring, b->depth);
	if (ret < 0) {
		free(cqes);
		return ret;
	}
	ret = uring_register(b, &ring);
	if (!ret)
		ret = uring_loop(b, &ring, cqes);
	io_uring_queue_exit(&ring);
	free(cqes);
	return ret;
}
#endif

#if HAVE_LIBAIO
static void prep_aio(struct bench *b, struct iocb *cb, unsigned int idx)
{
	io_prep_pread(cb, b->fd, (char *)b->bufs + (size_t)idx * b->bs, b->bs,
		      (long long)next_off(b));
	cb->data = (void *)(uintptr_t)idx;
}

/* io_submit all n, however many calls the kernel takes them in. */
static int aio_submit_all(io_context_t ctx, struct iocb **list, unsigned int n)
{
	while (n) {
		int ret = io_submit(ctx, (long)n, list);

		if (ret < 0 && ret != -EAGAIN && ret != -EINTR)
			return ret;
		if (ret > 0) {
			list += ret;
			n -= (unsigned int)ret;
		}
	}
	return 0;
}

/* Keep depth reads in flight; refill each batch of completions with one
 * io_submit. At the end, io_destroy waits for the reads still in flight. */
static int aio_loop(struct bench *b, io_context_t ctx, struct iocb *cbs,
		    struct iocb **list, struct io_event *ev)
{
	for (unsigned int i = 0; i < b->depth; i++) {
		prep_aio(b, &cbs[i], i);
		list[i] = &cbs[i];
	}
	for (unsigned int n = b->depth;;) {
		int ret = aio_submit_all(ctx, list, n);

		if (ret)
			return ret;
		do
			ret = io_getevents(ctx, 1, (long)b->depth, ev, NULL);
		while (ret == -EINTR);
		if (ret < 0)
			return ret;
		n = (unsigned int)ret;
		for (unsigned int i = 0; i < n; i++) {
			struct iocb *cb = ev[i].obj;

			if (ev[i].res != b->bs)
				return (long)ev[i].res < 0 ? (int)ev[i].res : -EIO;
			prep_aio(b, cb, (unsigned int)(uintptr_t)cb->data);
			list[i] = cb;
		}
		b->ios += n;
		if (ib_now_ns() >= b->end_ns)
			return 0;
	}
}

static int run_aio(struct bench *b)
{
	struct iocb *cbs = calloc(b->depth, sizeof(*cbs));
	struct iocb **list = calloc(b->depth, sizeof(*list));
	struct io_event *ev = calloc(b->depth, sizeof(*ev));
	io_context_t ctx = 0;
	int ret = -ENOMEM;

	if (cbs && list && ev)
		ret = io_setup((int)b->depth, &ctx);
	if (!ret) {
		ret = aio_loop(b, ctx, cbs, list, ev);
		io_destroy(ctx);
	}
	free(ev);
	free(list);
	free(cbs);
	return ret;
}
#endif

/*
 * The loops by name: run NULL where the build lacks lib; deep loops take
 * any DEPTH, the others 1.
 */
static const struct mode {
	const char *name;
	int (*run)(struct bench *b);
	bool deep;
	const char *lib;
} modes[] = {
#if HAVE_LIBURING
	{ "uring", run_uring, true, "liburing" },
#else
	{ "uring", NULL, true, "liburing" },
#endif
#if HAVE_LIBAIO
	{ "aio", run_aio, true, "libaio" },
#else
	{ "aio", NULL, true, "libaio" },
#endif
	{ "pread", run_pread, false, NULL },
	{ "lat", run_lat, false, NULL },
};

static int usage(void)
{
	fprintf(stderr, "usage: ceiling uring|aio|pread|lat FILE DEPTH SECONDS [BS]\n");
	return 2;
}

static const struct mode *find_mode(const char *name)
{
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(modes[i].name, name))
			return &modes[i];
	return NULL;
}

static int parse_args(struct bench *b, int argc, char **argv,
		      const struct mode **m, double *secs)
{
	char *end;

	if (argc < 5 || argc > 6 || !(*m = find_mode(argv[1])))
		return -1;
	b->depth = (unsigned int)strtoul(argv[3], &end, 10);
	if (*end || !b->depth || b->depth > 4096 ||
	    (!(*m)->deep && b->depth != 1))
		return -1;
	*secs = strtod(argv[4], &end);
	if (*end || *secs <= 0)
		return -1;
	b->bs = argc == 6 ? (uint32_t)strtoul(argv[5], &end, 0) : 4096;
	if ((argc == 6 && *end) || !b->bs || b->bs % 512)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b = { .fd = -1 };
	uint64_t start;
	double secs;
	const struct mode *m;
	bool lat;
	int ret;

	if (parse_args(&b, argc, argv, &m, &secs))
		return usage();
	if (!m->run) {
		fprintf(stderr, "ceiling: built without %s\n", m->lib);
		return 1;
	}
	lat = m->run == run_lat;
	if (lat && !(b.lat_hist = calloc(LAT_BINS, sizeof(*b.lat_hist))))
		return 1;
	ret = lat && !strcmp(argv[2], "-") ? 0 : open_target(&b, argv[2]);
	if (ret == -EINVAL) {
		fprintf(stderr, "ceiling: %s: smaller than one %u-byte block\n",
			argv[2], b.bs);
		return 1;
	}
	if (ret) {
		fprintf(stderr, "ceiling: %s: %s\n", argv[2], strerror(-ret));
		return 1;
	}
	if (posix_memalign(&b.bufs, 4096, (size_t)b.depth * b.bs))
		return 1;
	start = ib_now_ns();
	b.end_ns = start + (uint64_t)(secs * 1e9);
	ret = m->run(&b);
	if (ret) {
		fprintf(stderr, "ceiling: %s: %s\n", argv[1], strerror(-ret));
		return 1;
	}
	secs = (double)(ib_now_ns() - start) / 1e9;
	printf("ceiling: %s %s depth=%u bs=%u %s runtime=%.2fs ios=%llu iops=%.0f",
	       argv[1], argv[2], b.depth, b.bs, b.direct ? "direct" : "buffered",
	       secs, (unsigned long long)b.ios, (double)b.ios / secs);
	if (lat)
		printf(" p50_ns=%llu", (unsigned long long)lat_p50(&b));
	printf("\n");
	free(b.lat_hist);
	free(b.bufs);
	if (b.fd >= 0)
		close(b.fd);
	return 0;
}
