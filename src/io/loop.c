// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job loop: source, queue, commit, reap, account. See loop.h for the
 * contract and what each latency means.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "loop_priv.h"

#define NO_LAT UINT64_MAX
#define GTOD_REDUCE_EVERY 64
/* --- completion --------------------------------------------------------- */

static void release_io(struct ib_loop *l, struct ib_io *io)
{
	io->buf = ib_ctx_buf(l->c.ctx, io->idx);
	l->free_ios[l->nr_free++] = io;
	if (ib_unlikely(l->busy))
		l->busy[io->idx] = 0;
}

/*
 * Settle one finished unit seen at time t: errors are handled, a short
 * transfer is requeued, a full one is measured into *rec. Returns true when
 * *rec must be accounted. Every unit except a requeued one is free again.
 */
static inline __attribute__((always_inline)) bool
settle_io(struct ib_loop *l, struct ib_io *io, uint64_t t,
	  struct ib_done_rec *rec)
{
	io->done_ns = t;
	if (io->res <= 0) {
		loop_io_error(l, io, io->res < 0 ? (int)-io->res : EIO); /* 0: past EOF */
		release_io(l, io);
		return false;
	}
	if ((uint64_t)io->res < io->len) {
		l->c.st->dir[io->ddir].short_ios++;
		io->offset += (uint64_t)io->res;
		io->buf = (char *)io->buf + io->res;
		io->xfer_done += (uint32_t)io->res;
		io->len -= (uint32_t)io->res;
		l->requeue[l->nr_requeue++] = io;
		return false;
	}
	rec->slat = rec->clat = rec->lat = rec->colat = NO_LAT;
	if (l->c.lat_on) {
		rec->clat = t - io->issue_ns;
		rec->lat = t - io->start_ns;
		if (!(l->c.ops->flags & IB_ENGINE_SYNC) && !io->inline_done)
			rec->slat = io->issue_ns - io->start_ns;
		if (l->c.colat_on)
			rec->colat = t > io->due_ns ? t - io->due_ns : 0;
	}
	rec->ddir = io->ddir;
	rec->bytes = io->xfer_total;
	rec->offset = io->offset - io->xfer_done;
	if (l->c.hooks.done)
		l->c.hooks.done(l->c.arg, io);
	release_io(l, io);
	return true;
}

/* n completed I/Os measured alike (rec's): statistics and the live counts. */
static inline __attribute__((always_inline)) void
account_n(struct ib_loop *l, const struct ib_done_rec *rec, unsigned int n)
{
	ib_stats_add_ios(l->c.st, l->keep, rec->ddir, rec->bytes, rec->slat,
			 rec->clat, rec->lat, n);
	l->cum_bytes[rec->ddir] += (uint64_t)rec->bytes * n;
	l->cum_ios[rec->ddir] += n;
}

static inline __attribute__((always_inline)) void
account(struct ib_loop *l, const struct ib_done_rec *rec, uint64_t t)
{
	enum ib_ddir d = rec->ddir;

	account_n(l, rec, 1);
	if (rec->colat != NO_LAT)
		ib_stats_add_colat(l->c.st, d, rec->colat);
	if (l->c.logs && l->c.logs->per_io)
		ib_logs_lat(l->c.logs, t - l->log_start_ns, d,
			    rec->bytes, rec->offset, rec->slat, rec->clat, rec->lat);
}

/* Does b measure the same as a, so that one ib_stats_add_ios() takes both? */
static inline bool same_run(const struct ib_done_rec *a, const struct ib_done_rec *b)
{
	return a->clat == b->clat && a->lat == b->lat && a->slat == b->slat &&
	       a->bytes == b->bytes && a->ddir == b->ddir;
}

/*
 * A reap batch's k records, at t. The I/Os one commit submitted share
 * their start, issue and completion readings, so runs of equal records
 * are accounted at once; with a per-I/O log or a CO-free latency (each
 * record its own due time) one by one.
 */
static void account_batch(struct ib_loop *l, unsigned int k, uint64_t t)
{
	unsigned int i, j;

	if (l->c.colat_on || (l->c.logs && l->c.logs->per_io)) {
		for (i = 0; i < k; i++)
			account(l, &l->recs[i], t);
		return;
	}
	for (i = 0; i < k; i = j) {
		const struct ib_done_rec *r = &l->recs[i];

		for (j = i + 1; j < k && same_run(r, &l->recs[j]); j++)
			;
		account_n(l, r, j - i);
	}
}

static void complete_io(struct ib_loop *l, struct ib_io *io, uint64_t t)
{
	struct ib_done_rec rec;

	if (settle_io(l, io, t, &rec))
		account(l, &rec, t);
}

/* --- time --------------------------------------------------------------- */

/* Stop and owner times (ramp, runtime) at clock reading now. */
static void check_clock(struct ib_loop *l, uint64_t now)
{
	l->last_ns = now;
	if (*l->c.stop)
		l->issuing_done = true;
	if (ib_unlikely(now >= l->wake_ns))
		l->c.hooks.tick(l->c.arg, l, now);
}

/*
 * After accounting: interval samples; the live counters once a ms. Inline,
 * as tick() below: both run after every reap batch and inline completion
 * (out of line, the null engine at QD1 lost 5% on the same instructions).
 */
static inline __attribute__((always_inline)) void sample(struct ib_loop *l, uint64_t now)
{
	if (l->smp)
		ib_sampler_tick(l->smp, l->c.st, l->c.job, l->c.logs, now);
	if (ib_unlikely(now >= l->publish_ns))
		loop_publish_due(l, now);
}

static inline __attribute__((always_inline)) void tick(struct ib_loop *l, uint64_t now)
{
	check_clock(l, now);
	sample(l, now);
}

static uint64_t lazy_now(struct ib_loop *l)
{
	if (l->c.lat_on || ++l->reduce_count >= GTOD_REDUCE_EVERY) {
		l->reduce_count = 0;
		return ib_clock_ns(l->c.clock);
	}
	return l->last_ns;
}

/* The reap's bound: the source's due time, when a unit waits for it. */
static uint64_t reap_timeout(struct ib_loop *l)
{
	uint64_t now;

	if (ib_likely(!l->due_ns) || !l->nr_free || l->issuing_done ||
	    l->inflight > l->c.job->iodepth_low)
		return IB_WAIT_FOREVER;
	now = ib_clock_ns(l->c.clock);
	/* within spin_ns of the due time: poll, do not sleep */
	return l->due_ns > now + l->c.spin_ns ? l->due_ns - now - l->c.spin_ns : 0;
}

/* --- issuing ------------------------------------------------------------ */

/* Overlapping ranges of one file, one of them a write or a trim. */
static bool conflicts(const struct ib_io_desc *d, const struct ib_io *io)
{
	return io->file_idx == d->file_idx && io->len && d->len &&
	       (io->ddir != IB_DDIR_READ || d->ddir != IB_DDIR_READ) &&
	       io->offset < d->offset + d->len && d->offset < io->offset + io->len;
}

static bool overlaps_inflight(const struct ib_loop *l,
			      const struct ib_io_desc *d)
{
	for (unsigned int i = 0; i < l->c.ctx->nr_ios; i++)
		if (l->busy[i] && conflicts(d, &l->c.ctx->ios[i]))
			return true;
	return false;
}

/*
 * What the held I/O waits for: a source's sync, nothing in flight (the
 * loop drains); any other (serialize), no conflicting I/O in flight.
 */
static bool held_waits(const struct ib_loop *l)
{
	if (l->held.ddir == IB_DDIR_SYNC)
		return l->inflight || l->nr_pending;
	return overlaps_inflight(l, &l->held);
}

/* A source's sync, with nothing in flight; *t: the time after it. */
static void run_sync(struct ib_loop *l, uint64_t *t)
{
	if (!l->c.hooks.file_sync)
		return;
	l->c.hooks.file_sync(l->c.arg, l, &l->held);
	*t = l->last_ns = ib_clock_ns(l->c.clock);
}

/*
 * The source's next I/O into *desc: IB_SRC_*. A sync, and with serialize
 * every I/O, is held first (the source is not asked again) until what it
 * waits for comes; then a sync runs and the source is asked on, *t moved
 * past it. NOT_YET with l->held_set: waiting (a completion wakes the loop).
 */
static inline __attribute__((always_inline)) int
source_next(struct ib_loop *l, uint64_t *t, struct ib_io_desc *desc)
{
	int ret;

	for (;;) {
		if (ib_likely(!l->held_set)) {
			ret = ib_source_next(l->c.src, *t, desc);
			if (ib_likely(ret != IB_SRC_READY ||
				      (desc->ddir != IB_DDIR_SYNC && !l->c.serialize)))
				return ret;
			l->held = *desc;
			l->held_set = true;
		}
		if (held_waits(l))
			return IB_SRC_NOT_YET;
		l->held_set = false;
		if (l->held.ddir != IB_DDIR_SYNC) {
			*desc = l->held;
			return IB_SRC_READY;
		}
		run_sync(l, t);
		if (l->issuing_done)	/* the sync failed the job */
			return IB_SRC_NOT_YET;
	}
}

/* The steps of a new I/O that most jobs do not have (issue_extras). */
static void issue_extras(struct ib_loop *l, struct ib_io *io, uint64_t t)
{
	if (l->busy)
		l->busy[io->idx] = 1;
	if (l->c.hooks.prep)
		l->c.hooks.prep(l->c.arg, io);
	if (l->c.iolog && l->c.iolog->buf)
		ib_iolog_io(l->c.iolog, &l->c.ctx->files[io->file_idx], io->ddir,
			    io->offset, io->len, t);
}

/*
 * Prepare the next new I/O from the source into a free unit at time *tp
 * (moved on past a source's sync); NULL when the source has none now
 * (due_ns set) or ever (issuing done).
 */
static inline __attribute__((always_inline)) struct ib_io *
next_io(struct ib_loop *l, uint64_t *tp)
{
	struct ib_io_desc desc;
	struct ib_io *io;
	uint64_t t;
	int ret;

	l->due_ns = 0;
	desc.due_ns = 0;
	ret = source_next(l, tp, &desc);
	t = *tp;
	if (ib_unlikely(ret != IB_SRC_READY)) {
		if (l->held_set || l->issuing_done)
			return NULL; /* held (no due time), or a sync failed */
		if (ret == IB_SRC_NOT_YET)
			l->due_ns = desc.due_ns ? desc.due_ns : 1;
		else
			l->issuing_done = true;
		return NULL;
	}
	io = l->free_ios[--l->nr_free];
	io->ddir = (uint8_t)desc.ddir;
	io->file_idx = (uint16_t)desc.file_idx;
	io->offset = desc.offset;
	io->len = desc.len;
	io->xfer_total = desc.len;
	io->xfer_done = 0;
	io->res = 0;
	io->due_ns = desc.due_ns;
	if (desc.ddir == IB_DDIR_WRITE) {
		if (l->c.bufs)
			ib_bufs_prep_write(l->c.bufs, io);
		l->writes_since_sync++;
	} else if (desc.ddir == IB_DDIR_READ) {
		ib_bufs_prep_read(l->c.ctx, io);
	}
	l->c.st->dir[desc.ddir].issued++;
	if (ib_unlikely(l->issue_extras))
		issue_extras(l, io, t);
	return io;
}

static bool sync_due(const struct ib_loop *l)
{
	/* due before the next I/O, so none after the job's last write */
	return l->c.sync_every && l->writes_since_sync >= l->c.sync_every &&
	       (l->held_set || ib_source_more(l->c.src));
}

/* One I/O submitted and completed by the same call (queue() completed it). */
static void count_inline(struct ib_loop *l)
{
	struct ib_job_stats *st = l->c.st;

	st->depth[0]++;
	st->submit[ib_batch_bucket(1)]++;
	st->complete[ib_batch_bucket(1)]++;
	st->total_submit_calls++;
	st->total_complete_calls++;
}

static int commit(struct ib_loop *l)
{
	struct ib_job_stats *st = l->c.st;
	unsigned int i, n;
	uint64_t t;
	int ret;

	if (!l->nr_pending)
		return 0;
	ret = l->c.ops->commit(l->c.ctx);
	if (ret < 0)
		return ret;
	n = (unsigned int)ret > l->nr_pending ? l->nr_pending : (unsigned int)ret;
	if (!n)
		return 0;
	t = l->c.lat_on ? ib_clock_ns(l->c.clock) : l->last_ns;
	for (i = 0; i < n; i++)
		l->pending[i]->issue_ns = t;
	memmove(l->pending, l->pending + n, (l->nr_pending - n) * sizeof(void *));
	l->nr_pending -= n;
	l->inflight += n;
	st->depth[ib_depth_bucket(l->inflight)] += n;
	st->submit[ib_batch_bucket(n)]++;
	st->total_submit_calls++;
	return 0;
}

/*
 * Queue one unit prepared at *t. Returns 1 queued, 0 busy (kept for retry),
 * -errno. An inline completion's clat is from a reading just before queue()
 * (stamp_issue) to one after it, which also becomes *t, the start of the
 * next I/O (as for sync engines).
 */
static int queue_one(struct ib_loop *l, struct ib_io *io, uint64_t *t)
{
	uint64_t now;
	int ret;

	io->start_ns = *t;
	io->inline_done = 0;
	io->issue_ns = l->stamp_issue ? ib_clock_ns(l->c.clock) : *t;
	ret = l->c.ops->queue(l->c.ctx, io);
	if (ret == IB_Q_QUEUED) {
		l->pending[l->nr_pending++] = io;
		if (l->batch.submit && l->nr_pending >= l->batch.submit)
			return (ret = commit(l)) < 0 ? ret : 1;
		return 1;
	}
	if (ret == IB_Q_DONE) {
		io->inline_done = 1;
		now = lazy_now(l);
		complete_io(l, io, now);
		count_inline(l);
		tick(l, now); /* inline completions must see the clock */
		*t = now;
		return 1;
	}
	if (ret == IB_Q_BUSY) {
		l->busy_io = io;
		return 0;
	}
	return ret;
}

static inline __attribute__((always_inline)) struct ib_io *
take_io(struct ib_loop *l, uint64_t *t)
{
	struct ib_io *io;

	if (l->busy_io) {
		io = l->busy_io;
		l->busy_io = NULL;
		return io;
	}
	if (l->nr_requeue)
		return l->requeue[--l->nr_requeue];
	if (l->issuing_done || !l->nr_free)
		return NULL;
	if (ib_unlikely(l->depth_cap) && l->inflight + l->nr_pending >= l->depth_cap)
		return NULL;	/* latency_target's depth */
	if (sync_due(l)) {
		if (l->inflight || l->nr_pending)
			return NULL; /* drain first */
		l->c.hooks.sync(l->c.arg, l);
		if (l->issuing_done)
			return NULL;
		l->writes_since_sync = 0;
	}
	return next_io(l, t);
}

/* Fill the queue up to the depth and commit; t is the prepare time. */
static int fill(struct ib_loop *l, uint64_t t)
{
	struct ib_io *io;
	int ret;

	while ((io = take_io(l, &t))) {
		ret = queue_one(l, io, &t);
		if (ret < 0)
			return ret;
		if (ret == 0)
			break;
	}
	return commit(l);
}

/* --- reaping ------------------------------------------------------------ */

static int reap_some(struct ib_loop *l)
{
	const struct ib_job *job = l->c.job;
	unsigned int min = job->iodepth_batch_complete_min, max;
	int n;

	if (min > l->inflight)
		min = l->inflight;
	if (!min)
		min = 1; /* full, draining or busy: we must make progress */
	max = l->batch.complete_max ? l->batch.complete_max : l->c.ctx->nr_ios;
	if (max < min)
		max = min;
	n = 0;
	if (ib_unlikely(l->batch.spin) && !l->due_ns)
		n = ib_loop_spin_reap(l, max);
	if (!n)
		n = l->c.ops->reap(l->c.ctx, min, max, l->done,
				   reap_timeout(l));
	if (n > 0) {
		l->inflight -= (unsigned int)n;
		l->c.st->complete[ib_batch_bucket((unsigned int)n)]++;
		l->c.st->total_complete_calls++;
	}
	return n;
}

/*
 * One reap batch: one clock reading t measures every completion of the
 * batch and is also the prepare time of the I/Os that refill the freed
 * slots, which are submitted before the batch is accounted, so the
 * accounting never shows up in anyone's latency. Two clock readings per
 * batch in all (t and the commit's). A reap that ended empty at the
 * source's due time refills too.
 */
static int reap_and_refill(struct ib_loop *l)
{
	unsigned int i, k = 0;
	uint64_t t;
	int n, ret = 0;

	n = reap_some(l);
	if (n < 0 || (n == 0 && !l->due_ns))
		return n;
	t = n ? lazy_now(l) : ib_clock_ns(l->c.clock);
	for (i = 0; i < (unsigned int)n; i++)
		if (settle_io(l, l->done[i], t, &l->recs[k]))
			k++;
	check_clock(l, t);
	ib_loop_batch_tick(l, t);
	if (!l->issuing_done && l->inflight <= l->c.job->iodepth_low)
		/* a done hook's work (verify checks) is no one's latency */
		ret = fill(l, l->c.hooks.done && k ? lazy_now(l) : t);
	account_batch(l, k, t);
	sample(l, t);
	return ret < 0 ? ret : n;
}

/* Nothing left but units waiting for the source's due time? */
static bool only_waiting(const struct ib_loop *l)
{
	return l->due_ns && !l->issuing_done && !l->nr_pending && !l->busy_io &&
	       !l->nr_requeue;
}

static int loop_async(struct ib_loop *l)
{
	int ret = fill(l, lazy_now(l));

	while (ret >= 0) {
		if (l->inflight) {
			ret = reap_and_refill(l);
			continue;
		}
		if (l->issuing_done && !l->nr_pending && !l->busy_io &&
		    !l->nr_requeue)
			break;
		if (only_waiting(l))
			loop_wait_due(l);
		/* nothing in flight: resubmit leftovers, sync, or start again */
		tick(l, lazy_now(l));
		ret = fill(l, l->last_ns);
	}
	return ret < 0 ? ret : 0;
}

/* Sync engines: one I/O at a time; the end of one is the start of the next's
 * lat, a reading just before queue() its clat's (stamp_issue). */
static int loop_sync(struct ib_loop *l)
{
	uint64_t t = ib_clock_ns(l->c.clock);
	struct ib_io *io;
	int ret;

	for (;;) {
		io = take_io(l, &t);
		if (!io) {
			if (!only_waiting(l))
				break;
			loop_wait_due(l);
			t = l->last_ns;
			tick(l, t);
			continue;
		}
		/* clat is the engine's call alone; the loop's own work since
		 * the last I/O (and a prep hook's) is lat */
		io->start_ns = t;
		io->issue_ns = l->stamp_issue ? ib_clock_ns(l->c.clock) : t;
		ret = l->c.ops->queue(l->c.ctx, io);
		if (ret < 0)
			return ret;
		t = lazy_now(l);
		complete_io(l, io, t);
		if (l->c.hooks.done)	/* a done hook's work is no one's latency */
			t = lazy_now(l);
		count_inline(l);
		tick(l, t);
	}
	return 0;
}

int ib_loop_run(struct ib_loop *l)
{
	int ret;

	l->issuing_done = l->failed;
	l->due_ns = 0;
	l->held_set = false;	/* (a stop dropped it; a new source) */
	/* the iolog opens and closes outside a run */
	l->issue_extras = l->busy || l->c.hooks.prep ||
			  (l->c.iolog && l->c.iolog->buf);
	ret = l->c.ops->flags & IB_ENGINE_SYNC ? loop_sync(l) : loop_async(l);
	ib_loop_publish(l);	/* the live counters: the run's last I/Os */
	return ret;
}
