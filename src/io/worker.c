// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job loop: generate, queue, commit, reap, account. The engine moves
 * I/O; this file owns the clock, so slat/clat/lat mean the same for every
 * engine:
 *   slat = handed to the kernel (after commit) - prepared (before queue)
 *   clat = seen completed (after reap)           - handed to the kernel
 *   lat  = seen completed                        - prepared
 * Sync engines complete inside queue(): they have no slat and clat = lat.
 * The clock is read once per reap batch (that reading is also the prepare
 * time of the refill) and once per commit; inline completions chain one
 * reading per I/O (the end of one is the start of the next).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include "iobench/procopts.h"
#include "iobench/clock.h"
#include "iobench/iogen.h"
#include "iobench/iolog.h"
#include "iobench/ioerr.h"
#include "iobench/log.h"
#include "iobench/sampler.h"
#include "iobench/rand.h"
#include "iobench/worker.h"

#define NO_LAT UINT64_MAX
#define GTOD_REDUCE_EVERY 64

/* A completed I/O, measured and waiting to be accounted. */
struct done_rec {
	uint64_t slat, clat, lat;
	uint64_t offset;
	uint32_t bytes;
	uint8_t ddir;
};

struct worker {
	const struct ib_job *job;
	struct ib_job_stats *st;
	struct ib_files *fs;
	const struct ib_engine_ops *ops;
	struct ib_engine_ctx ctx;
	struct ib_iogen gen;
	struct ib_iolog iolog;
	struct ib_logs logs;
	struct ib_sampler smp;
	struct ib_rand buf_rand;
	const volatile sig_atomic_t *stop;
	struct ib_clock clock;

	struct ib_io **free_ios;	/* stack of idle units */
	unsigned int nr_free;
	struct ib_io **pending;		/* queued, not yet committed (FIFO) */
	unsigned int nr_pending;
	struct ib_io **requeue;		/* short transfers to send again */
	unsigned int nr_requeue;
	struct ib_io **done;		/* reap output */
	struct done_rec *recs;		/* a reap batch, measured */
	unsigned int inflight;		/* committed, not reaped */
	struct ib_io *busy_io;		/* got IB_Q_BUSY, retry first */

	void *lockmem;
	uint64_t start_ns;		/* measured period start (after ramp) */
	uint64_t job_start_ns;
	uint64_t ramp_end_ns;		/* 0: no ramp (or over) */
	uint64_t end_ns;		/* 0: no runtime limit */
	uint64_t last_ns;		/* latest clock reading */
	uint64_t cum_bytes[IB_DDIR_RWT];/* including ramp, for the live line */
	uint64_t cum_ios[IB_DDIR_RWT];
	unsigned int writes_since_sync;
	unsigned int sync_every;	/* fsync=/fdatasync= N; 0: never */
	unsigned int reduce_count;
	bool lat_on;
	bool issuing_done;
	bool failed;
	struct rusage ru0;
	struct ib_diag diag;
};

static void set_state(struct worker *w, uint32_t state)
{
	__atomic_store_n(&w->st->live.state, state, __ATOMIC_RELAXED);
}

static uint32_t run_letter(const struct ib_job *job)
{
	bool rnd = ib_job_random(job);

	if ((job->rw & IB_RW_READ) && (job->rw & IB_RW_WRITE) &&
	    job->rwmixread != 0 && job->rwmixread != 100)
		return rnd ? 'm' : 'M';
	if ((job->rw & IB_RW_READ) && job->rwmixread != 0)
		return rnd ? 'r' : 'R';
	return rnd ? 'w' : 'W';
}

/* Bounded formatting into a fixed field; truncation is fine there. */
static void ib_printf_fmt(3, 4) fmt_into(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

static void job_fail(struct worker *w, int err, const char *where)
{
	if (!w->st->error) {
		w->st->error = err;
		fmt_into(w->st->error_where, sizeof(w->st->error_where), "%s", where);
	}
	w->failed = true;
	w->issuing_done = true;
}

/* --- buffers ----------------------------------------------------------- */

static int alloc_ios(struct worker *w, unsigned int depth, struct ib_diag *d)
{
	const struct ib_job *job = w->job;
	size_t bs = job->bs.max[IB_DDIR_READ] > job->bs.max[IB_DDIR_WRITE] ?
			    job->bs.max[IB_DDIR_READ] : job->bs.max[IB_DDIR_WRITE];
	unsigned int i;

	w->ctx.buf_size = (bs + 4095) & ~(size_t)4095;
	w->ctx.nr_ios = depth;
	if (posix_memalign(&w->ctx.buf_base, 4096, w->ctx.buf_size * depth))
		return ib_diag_set(d, ENOMEM, "no memory for %u buffers of %zu bytes",
				   depth, w->ctx.buf_size);
	w->ctx.ios = calloc(depth, sizeof(*w->ctx.ios));
	w->free_ios = calloc(depth, sizeof(void *));
	w->pending = calloc(depth, sizeof(void *));
	w->requeue = calloc(depth, sizeof(void *));
	w->done = calloc(depth, sizeof(void *));
	w->recs = calloc(depth, sizeof(*w->recs));
	if (!w->ctx.ios || !w->free_ios || !w->pending || !w->requeue || !w->done ||
	    !w->recs)
		return ib_diag_set(d, ENOMEM, "no memory for %u I/O units", depth);
	if (job->zero_buffers)
		memset(w->ctx.buf_base, 0, w->ctx.buf_size * depth);
	else
		ib_rand_fill(&w->buf_rand, w->ctx.buf_base, w->ctx.buf_size * depth);
	for (i = 0; i < depth; i++) {
		w->ctx.ios[i].idx = i;
		w->ctx.ios[i].buf = (char *)w->ctx.buf_base + (size_t)i * w->ctx.buf_size;
		w->free_ios[w->nr_free++] = &w->ctx.ios[i];
	}
	return 0;
}

static void free_ios(struct worker *w)
{
	free(w->ctx.buf_base);
	free(w->ctx.ios);
	free(w->free_ios);
	free(w->pending);
	free(w->requeue);
	free(w->done);
	free(w->recs);
}

/* Write data: refill_buffers = new random data each write; scramble_buffers
 * = stamp each 4 KiB so no two writes carry identical blocks (dedupe). */
static void prep_write_data(struct worker *w, struct ib_io *io)
{
	size_t i;

	if (w->job->zero_buffers)
		return;
	if (w->job->refill_buffers) {
		ib_rand_fill(&w->buf_rand, io->buf, io->len);
		return;
	}
	if (w->job->scramble_buffers) {
		uint64_t stamp = io->offset ^ ib_rand64(&w->buf_rand);

		for (i = 0; i + sizeof(stamp) <= io->len; i += 4096)
			memcpy((char *)io->buf + i, &stamp, sizeof(stamp));
	}
}

/* --- accounting -------------------------------------------------------- */

static void publish_live(struct worker *w)
{
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		__atomic_store_n(&w->st->live.io_bytes[d], w->cum_bytes[d],
				 __ATOMIC_RELAXED);
		__atomic_store_n(&w->st->live.ios[d], w->cum_ios[d], __ATOMIC_RELAXED);
	}
}

/* --- errors ------------------------------------------------------------ */

/* Will the text of this error be kept (first counted, or the fatal one)? */
static bool error_text_needed(const struct worker *w, bool count, bool go_on)
{
	return (count && !w->st->first_error) || (!go_on && !w->st->error);
}

/* Count the error (ib_err_decide()) and, if fatal, end the job with it. */
static void record_error(struct worker *w, int err, bool count, bool go_on,
			 const char *where)
{
	struct ib_job_stats *st = w->st;

	if (count) {
		st->total_err++;
		if (!st->first_error) {
			st->first_error = err;
			fmt_into(st->first_error_where, sizeof(st->first_error_where),
				 "%s", where);
		}
	}
	if (!go_on)
		job_fail(w, err, where);
}

/* "write offset=O, buflen=L, file=F: No space left on device (ENOSPC)" */
static void describe_io(const struct worker *w, const struct ib_io *io, int err,
			char *buf, size_t len)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };
	const char *why = w->ctx.errmsg;
	char what[128];

	fmt_into(buf, len, "%s offset=%llu, buflen=%u, file=%s: %s%s%s",
		 names[io->ddir], (unsigned long long)(io->offset - io->xfer_done),
		 io->xfer_total, w->fs->f[io->file_idx].path,
		 ib_strerror_named(err, what, sizeof(what)), why[0] ? "; " : "", why);
}

static void io_error(struct worker *w, struct ib_io *io, int err)
{
	bool inline_done = (w->ops->flags & IB_ENGINE_SYNC) || io->inline_done;
	bool count, go_on = ib_err_decide(w->job, io->ddir, err, inline_done, &count);
	char where[256] = "";

	if (error_text_needed(w, count, go_on))
		describe_io(w, io, err, where, sizeof(where));
	record_error(w, err, count, go_on, where);
	w->ctx.errmsg[0] = '\0'; /* an engine's note is about this I/O only */
}

static void release_io(struct worker *w, struct ib_io *io)
{
	io->buf = (char *)w->ctx.buf_base + (size_t)io->idx * w->ctx.buf_size;
	w->free_ios[w->nr_free++] = io;
}

/*
 * Settle one finished unit seen at time t: errors are handled, a short
 * transfer is requeued, a full one is measured into *rec. Returns true when
 * *rec must be accounted. Every unit except a requeued one is free again.
 */
static bool settle_io(struct worker *w, struct ib_io *io, uint64_t t,
		      struct done_rec *rec)
{
	if (io->res <= 0) {
		io_error(w, io, io->res < 0 ? (int)-io->res : EIO); /* 0: past EOF */
		release_io(w, io);
		return false;
	}
	if ((uint64_t)io->res < io->len) {
		w->st->dir[io->ddir].short_ios++;
		io->offset += (uint64_t)io->res;
		io->buf = (char *)io->buf + io->res;
		io->xfer_done += (uint32_t)io->res;
		io->len -= (uint32_t)io->res;
		w->requeue[w->nr_requeue++] = io;
		return false;
	}
	rec->slat = rec->clat = rec->lat = NO_LAT;
	if (w->lat_on) {
		rec->clat = t - io->issue_ns;
		rec->lat = t - io->start_ns;
		if (!(w->ops->flags & IB_ENGINE_SYNC) && !io->inline_done)
			rec->slat = io->issue_ns - io->start_ns;
	}
	rec->ddir = io->ddir;
	rec->bytes = io->xfer_total;
	rec->offset = io->offset - io->xfer_done;
	release_io(w, io);
	return true;
}

static void account(struct worker *w, const struct done_rec *rec, uint64_t t)
{
	enum ib_ddir d = rec->ddir;

	ib_stats_add_io(w->st, w->job, d, rec->bytes, rec->slat, rec->clat, rec->lat);
	w->cum_bytes[d] += rec->bytes;
	w->cum_ios[d]++;
	if (w->logs.per_io)
		ib_logs_lat(&w->logs, (t - w->start_ns) / 1000000, d, rec->bytes,
			    rec->offset, rec->slat, rec->clat, rec->lat);
}

static void complete_io(struct worker *w, struct ib_io *io, uint64_t t)
{
	struct done_rec rec;

	if (settle_io(w, io, t, &rec))
		account(w, &rec, t);
}

/* --- sync -------------------------------------------------------------- */

static int sync_file(const struct ib_job *job, int fd)
{
	int r = job->fdatasync_every && !job->fsync_every ? fdatasync(fd) : fsync(fd);

	return r < 0 ? -errno : 0;
}

/*
 * A failed fsync/fdatasync (fsync=, fdatasync=) is a write error (fio's
 * rule), completed inline. end_fsync's always fails the job uncounted, as
 * in fio. Returns true when the job goes on.
 */
static bool sync_error(struct worker *w, const struct ib_file *f, int err,
		       bool at_end)
{
	bool count = false, go_on = false;
	char where[256] = "", what[128];

	if (!at_end)
		go_on = ib_err_decide(w->job, IB_DDIR_SYNC, err, true, &count);
	if (error_text_needed(w, count, go_on))
		fmt_into(where, sizeof(where), "%s file=%s: %s",
			 at_end ? "end_fsync" : "sync", f->path,
			 ib_strerror_named(err, what, sizeof(what)));
	record_error(w, err, count, go_on, where);
	return go_on;
}

/*
 * fsync/fdatasync every file; drained first (the caller guarantees).
 * at_end: end_fsync, which the statistics leave out.
 */
static void do_sync(struct worker *w, bool at_end)
{
	unsigned int i;
	uint64_t t0, t1;
	int ret;

	set_state(w, IB_ST_FSYNC);
	for (i = 0; i < w->fs->nr; i++) {
		ib_iolog_io(&w->iolog, &w->fs->f[i], IB_DDIR_SYNC, 0, 0);
		t0 = ib_clock_ns(&w->clock);
		ret = sync_file(w->job, w->fs->f[i].fd);
		t1 = ib_clock_ns(&w->clock);
		w->last_ns = t1;
		if (!at_end)
			ib_stats_add_sync(w->st, ret ? UINT64_MAX : t1 - t0);
		if (ret && !sync_error(w, &w->fs->f[i], -ret, at_end))
			return;
	}
	w->writes_since_sync = 0;
	set_state(w, w->ramp_end_ns ? IB_ST_RAMP : run_letter(w->job));
}

/* --- time -------------------------------------------------------------- */

static void end_ramp(struct worker *w, uint64_t now)
{
	ib_stats_reset(w->st);
	getrusage(RUSAGE_THREAD, &w->ru0);
	w->start_ns = now;
	w->ramp_end_ns = 0;
	if (w->job->runtime_us)
		w->end_ns = now + w->job->runtime_us * 1000;
	ib_sampler_start(&w->smp, w->st, now);
	set_state(w, run_letter(w->job));
}

/* Stop, ramp and runtime checks at clock reading now. */
static void check_clock(struct worker *w, uint64_t now)
{
	w->last_ns = now;
	if (*w->stop)
		w->issuing_done = true;
	if (w->ramp_end_ns && now >= w->ramp_end_ns)
		end_ramp(w, now);
	else if (w->end_ns && now >= w->end_ns)
		w->issuing_done = true;
}

static void sample(struct worker *w, uint64_t now)
{
	if (!w->ramp_end_ns)
		ib_sampler_tick(&w->smp, w->st, w->job, &w->logs, now);
}

static void tick(struct worker *w, uint64_t now)
{
	check_clock(w, now);
	sample(w, now);
}

static uint64_t lazy_now(struct worker *w)
{
	if (w->lat_on || ++w->reduce_count >= GTOD_REDUCE_EVERY) {
		w->reduce_count = 0;
		return ib_clock_ns(&w->clock);
	}
	return w->last_ns;
}

/* --- issuing ----------------------------------------------------------- */

/* Prepare the next new I/O into a free unit; NULL when the budget is done. */
static struct ib_io *next_io(struct worker *w)
{
	struct ib_io_desc desc;
	struct ib_io *io;

	if (!ib_iogen_next(&w->gen, &desc)) {
		w->issuing_done = true;
		return NULL;
	}
	io = w->free_ios[--w->nr_free];
	io->ddir = (uint8_t)desc.ddir;
	io->file_idx = (uint16_t)desc.file_idx;
	io->offset = desc.offset;
	io->len = desc.len;
	io->xfer_total = desc.len;
	io->xfer_done = 0;
	io->res = 0;
	if (desc.ddir == IB_DDIR_WRITE) {
		prep_write_data(w, io);
		w->writes_since_sync++;
	}
	w->st->dir[desc.ddir].issued++;
	ib_iolog_io(&w->iolog, &w->fs->f[io->file_idx], io->ddir, io->offset,
		    io->len);
	return io;
}

static bool sync_due(const struct worker *w)
{
	/* due before the next I/O, so none after the job's last write */
	return w->sync_every && w->writes_since_sync >= w->sync_every &&
	       w->gen.bytes_left;
}

/* One I/O submitted and completed by the same call (queue() completed it). */
static void count_inline(struct worker *w)
{
	w->st->depth[0]++;
	w->st->submit[ib_batch_bucket(1)]++;
	w->st->complete[ib_batch_bucket(1)]++;
	w->st->total_submit_calls++;
	w->st->total_complete_calls++;
}

static int commit(struct worker *w)
{
	unsigned int i, n;
	uint64_t t;
	int ret;

	if (!w->nr_pending)
		return 0;
	ret = w->ops->commit(&w->ctx);
	if (ret < 0)
		return ret;
	n = (unsigned int)ret > w->nr_pending ? w->nr_pending : (unsigned int)ret;
	if (!n)
		return 0;
	t = w->lat_on ? ib_clock_ns(&w->clock) : w->last_ns;
	for (i = 0; i < n; i++)
		w->pending[i]->issue_ns = t;
	memmove(w->pending, w->pending + n, (w->nr_pending - n) * sizeof(void *));
	w->nr_pending -= n;
	w->inflight += n;
	w->st->depth[ib_depth_bucket(w->inflight)] += n;
	w->st->submit[ib_batch_bucket(n)]++;
	w->st->total_submit_calls++;
	return 0;
}

/*
 * Queue one unit prepared at *t. Returns 1 queued, 0 busy (kept for retry),
 * -errno. An inline completion is timed with one clock reading, which also
 * becomes *t, the start of the next I/O (as for sync engines).
 */
static int queue_one(struct worker *w, struct ib_io *io, uint64_t *t)
{
	uint64_t now;
	int ret;

	io->start_ns = *t;
	io->inline_done = 0;
	ret = w->ops->queue(&w->ctx, io);
	if (ret == IB_Q_QUEUED) {
		w->pending[w->nr_pending++] = io;
		if (w->job->iodepth_batch_submit &&
		    w->nr_pending >= w->job->iodepth_batch_submit)
			return (ret = commit(w)) < 0 ? ret : 1;
		return 1;
	}
	if (ret == IB_Q_DONE) {
		io->issue_ns = *t;
		io->inline_done = 1;
		now = lazy_now(w);
		complete_io(w, io, now);
		count_inline(w);
		tick(w, now); /* inline completions must see the clock */
		*t = now;
		return 1;
	}
	if (ret == IB_Q_BUSY) {
		w->busy_io = io;
		return 0;
	}
	return ret;
}

static struct ib_io *take_io(struct worker *w)
{
	struct ib_io *io;

	if (w->busy_io) {
		io = w->busy_io;
		w->busy_io = NULL;
		return io;
	}
	if (w->nr_requeue)
		return w->requeue[--w->nr_requeue];
	if (w->issuing_done || !w->nr_free)
		return NULL;
	if (sync_due(w)) {
		if (w->inflight || w->nr_pending)
			return NULL; /* drain first */
		do_sync(w, false);
		if (w->issuing_done)
			return NULL;
	}
	return next_io(w);
}

/* Fill the queue up to the depth and commit; t is the prepare time. */
static int fill(struct worker *w, uint64_t t)
{
	struct ib_io *io;
	int ret;

	while ((io = take_io(w))) {
		ret = queue_one(w, io, &t);
		if (ret < 0)
			return ret;
		if (ret == 0)
			break;
	}
	return commit(w);
}

/* --- reaping ----------------------------------------------------------- */

static int reap_some(struct worker *w)
{
	const struct ib_job *job = w->job;
	unsigned int min = job->iodepth_batch_complete_min, max;
	int n;

	if (min > w->inflight)
		min = w->inflight;
	if (!min)
		min = 1; /* full, draining or busy: we must make progress */
	max = job->iodepth_batch_complete_max ? job->iodepth_batch_complete_max :
						  w->ctx.nr_ios;
	if (max < min)
		max = min;
	n = w->ops->reap(&w->ctx, min, max, w->done);
	if (n > 0) {
		w->inflight -= (unsigned int)n;
		w->st->complete[ib_batch_bucket((unsigned int)n)]++;
		w->st->total_complete_calls++;
	}
	return n;
}

/*
 * One reap batch: one clock reading t measures every completion of the
 * batch and is also the prepare time of the I/Os that refill the freed
 * slots, which are submitted before the batch is accounted, so the
 * accounting never shows up in anyone's latency. Two clock readings per
 * batch in all (t and the commit's).
 */
static int reap_and_refill(struct worker *w)
{
	unsigned int i, k = 0;
	uint64_t t;
	int n, ret = 0;

	n = reap_some(w);
	if (n <= 0)
		return n;
	t = lazy_now(w);
	for (i = 0; i < (unsigned int)n; i++)
		if (settle_io(w, w->done[i], t, &w->recs[k]))
			k++;
	check_clock(w, t);
	if (!w->issuing_done && w->inflight <= w->job->iodepth_low)
		ret = fill(w, t);
	for (i = 0; i < k; i++)
		account(w, &w->recs[i], t);
	publish_live(w);
	sample(w, t);
	return ret < 0 ? ret : n;
}

static int loop_async(struct worker *w)
{
	int ret = fill(w, lazy_now(w));

	while (ret >= 0) {
		if (w->inflight) {
			ret = reap_and_refill(w);
			continue;
		}
		if (w->issuing_done && !w->nr_pending && !w->busy_io &&
		    !w->nr_requeue)
			break;
		/* nothing in flight: resubmit leftovers, sync, or start again */
		tick(w, lazy_now(w));
		ret = fill(w, w->last_ns);
	}
	return ret < 0 ? ret : 0;
}

/* Sync engines: one I/O at a time; the end of one is the start of the next. */
static int loop_sync(struct worker *w)
{
	uint64_t t = ib_clock_ns(&w->clock);
	struct ib_io *io;
	int ret;

	while ((io = take_io(w))) {
		io->start_ns = io->issue_ns = t;
		ret = w->ops->queue(&w->ctx, io);
		if (ret < 0)
			return ret;
		t = lazy_now(w);
		complete_io(w, io, t);
		count_inline(w);
		tick(w, t);
		if (ib_unlikely((w->cum_ios[0] + w->cum_ios[1]) % 256 == 0))
			publish_live(w);
	}
	return 0;
}

/* --- setup and teardown ------------------------------------------------- */

static int lock_memory(struct worker *w, struct ib_diag *d)
{
	if (!w->job->lockmem)
		return 0;
	w->lockmem = mmap(NULL, w->job->lockmem, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->lockmem == MAP_FAILED) {
		w->lockmem = NULL;
		return ib_diag_set(d, errno, "lockmem: cannot map %llu bytes: %s",
				   (unsigned long long)w->job->lockmem, strerror(errno));
	}
	if (mlock(w->lockmem, w->job->lockmem) < 0)
		return ib_diag_set(d, errno,
				   "lockmem: mlock of %llu bytes failed: %s (see ulimit -l)",
				   (unsigned long long)w->job->lockmem, strerror(errno));
	return 0;
}

static void wait_startdelay(struct worker *w)
{
	uint64_t end = ib_clock_ns(&w->clock) + w->job->startdelay_us * 1000;

	while (!*w->stop && ib_clock_ns(&w->clock) < end)
		usleep(10000);
}

static int engine_init(struct worker *w, struct ib_diag *d)
{
	const char *why = w->ctx.errmsg;
	int ret;

	w->ctx.errmsg[0] = '\0';
	ret = w->ops->init(&w->ctx);
	if (!ret)
		return 0;
	if (!why[0])
		why = strerror(-ret);
	if (ib_engine_unavailable(ret))
		return ib_diag_set(d, ret, "ioengine=%s: not available on this system (%s)",
				   w->ops->name, why);
	if (ret == -ENOMEM && w->job->fixedbufs)
		return ib_diag_set(d, ret,
				   "ioengine=%s: cannot register %u buffers of %zu bytes (fixedbufs): RLIMIT_MEMLOCK too low? (ulimit -l): %s",
				   w->ops->name, w->ctx.nr_ios, w->ctx.buf_size, why);
	return ib_diag_set(d, ret, "ioengine=%s: init failed: %s", w->ops->name, why);
}

static int setup(struct worker *w, struct ib_worker_args *a, struct ib_diag *d)
{
	const struct ib_job *job = a->job;
	unsigned int depth;
	int ret;

	w->ops = ib_engine_find(job->ioengine);
	if (!w->ops)
		return ib_diag_set(d, EINVAL, "ioengine=%s: unknown engine",
				   job->ioengine);
	depth = (w->ops->flags & IB_ENGINE_SYNC) ? 1 : job->iodepth;
	if (!(w->ops->flags & IB_ENGINE_NOFILES)) /* nothing to sync otherwise */
		w->sync_every = job->fsync_every ? job->fsync_every :
						   job->fdatasync_every;
	ib_rand_seed(&w->buf_rand, ib_iogen_seed(job, 3));
	ret = ib_proc_setup(job, d);
	if (!ret)
		ret = lock_memory(w, d);
	if (!ret && !(w->ops->flags & IB_ENGINE_NOFILES))
		ret = ib_files_open(job, w->fs, a->readonly, d);
	if (!ret && !(w->ops->flags & IB_ENGINE_NOFILES) && !job->create_only)
		ret = ib_files_cache_setup(job, w->fs, d);
	if (ret)
		return ret;
	__atomic_store_n(&w->st->live.nr_files_open, w->fs->nr, __ATOMIC_RELAXED);
	w->ctx.job = job;
	w->ctx.files = w->fs->f;
	w->ctx.nr_files = w->fs->nr;
	ret = alloc_ios(w, depth, d);
	if (!ret)
		ret = ib_iogen_init(&w->gen, job, w->fs->f, w->fs->nr, d);
	if (!ret)
		ret = ib_iolog_open(&w->iolog, job, w->fs, d);
	if (!ret)
		ret = ib_logs_open(&w->logs, job, d);
	if (!ret)
		ret = engine_init(w, d);
	return ret;
}

static void start_clock(struct worker *w)
{
	uint64_t now = ib_clock_ns(&w->clock);

	w->job_start_ns = now;
	w->last_ns = now;
	w->st->start_time = (int64_t)time(NULL);
	__atomic_store_n(&w->st->live.start_ns, now, __ATOMIC_RELAXED);
	if (w->job->ramp_time_us) {
		w->ramp_end_ns = now + w->job->ramp_time_us * 1000;
		set_state(w, IB_ST_RAMP);
	} else {
		end_ramp(w, now);
	}
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

static void finish_stats(struct worker *w)
{
	struct ib_job_stats *st = w->st;
	uint64_t end = ib_clock_ns(&w->clock), us = (end - w->start_ns) / 1000;
	struct rusage ru;
	int d;

	if (w->ramp_end_ns) /* never left the ramp: nothing was measured */
		us = 0;
	getrusage(RUSAGE_THREAD, &ru);
	st->usr_us = tv_us(&ru.ru_utime) - tv_us(&w->ru0.ru_utime);
	st->sys_us = tv_us(&ru.ru_stime) - tv_us(&w->ru0.ru_stime);
	st->ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw - w->ru0.ru_nvcsw -
			     w->ru0.ru_nivcsw);
	st->majf = (uint64_t)(ru.ru_majflt - w->ru0.ru_majflt);
	st->minf = (uint64_t)(ru.ru_minflt - w->ru0.ru_minflt);
	for (d = 0; d < IB_DDIR_RWT; d++)
		if (st->dir[d].total_ios)
			st->dir[d].runtime_us = us ? us : 1;
	st->job_runtime_ms = us / 1000;
	st->elapsed_s = (end - w->job_start_ns + 999999999ull) / 1000000000ull;
	if (!w->ramp_end_ns)
		ib_sampler_finish(&w->smp, st, w->job, &w->logs, end);
	publish_live(w);
}

static void teardown(struct worker *w)
{
	if (w->ops && w->ops->cleanup && w->ctx.ios)
		w->ops->cleanup(&w->ctx);
	if (ib_logs_close(&w->logs, &w->diag) < 0 && !w->st->error) {
		w->st->error = EIO;
		fmt_into(w->st->error_where, sizeof(w->st->error_where), "%s",
			 w->diag.msg);
	}
	ib_iolog_close(&w->iolog, w->fs);
	ib_iogen_free(&w->gen);
	ib_files_close(w->job, w->fs);
	__atomic_store_n(&w->st->live.nr_files_open, 0, __ATOMIC_RELAXED);
	free_ios(w);
	if (w->lockmem)
		munmap(w->lockmem, w->job->lockmem);
}

static int run_io(struct worker *w)
{
	int ret;

	start_clock(w);
	if (w->ops->flags & IB_ENGINE_SYNC)
		ret = loop_sync(w);
	else
		ret = loop_async(w);
	if (ret < 0 && !w->failed) {
		char where[256], what[128];

		fmt_into(where, sizeof(where), "ioengine=%s: %s", w->ops->name,
			 ib_strerror_named(-ret, what, sizeof(what)));
		job_fail(w, -ret, where);
	}
	if (!w->failed && w->job->end_fsync && ib_job_writes(w->job) &&
	    !(w->ops->flags & IB_ENGINE_NOIO))
		do_sync(w, true);
	set_state(w, IB_ST_FINISHING);
	finish_stats(w);
	return w->failed ? -w->st->error : 0;
}

int ib_worker_run(struct ib_worker_args *a)
{
	struct worker w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.job = a->job;
	w.st = a->st;
	w.fs = &a->files;
	w.stop = a->stop;
	w.clock = a->clock;
	w.lat_on = !(a->job->gtod_reduce ||
		     (a->job->disable_lat && a->job->disable_clat &&
		      a->job->disable_slat));
	w.st->pid = (int)getpid();
	w.st->start_time = (int64_t)time(NULL); /* again when I/O starts */
	set_state(&w, IB_ST_SETUP);
	wait_startdelay(&w);
	ret = setup(&w, a, &w.diag);
	if (ret) {
		w.st->error = -ret;
		fmt_into(w.st->error_where, sizeof(w.st->error_where), "%s",
			 w.diag.msg);
	} else if (!a->job->create_only) { /* create_only: the layout was all */
		ret = run_io(&w);
	}
	teardown(&w);
	w.st->finished = true;
	set_state(&w, ret ? IB_ST_ERROR : IB_ST_DONE);
	return ret;
}
