/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_LOOP_H
#define IOBENCH_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "iobench/buf.h"
#include "iobench/clock.h"
#include "iobench/diag.h"
#include "iobench/engine.h"
#include "iobench/iolog.h"
#include "iobench/job.h"
#include "iobench/log.h"
#include "iobench/sampler.h"
#include "iobench/source.h"
#include "iobench/stats.h"
#include "iobench/status.h"

/*
 * The job loop: take I/Os from a source, queue, commit and reap them
 * through an engine, measure and account every completion. It owns the
 * clock, so slat/clat/lat mean the same for every engine:
 *   slat = handed to the kernel (after commit) - prepared (before queue)
 *   clat = seen completed (after reap)           - handed to the kernel
 *   lat  = seen completed                        - prepared
 * Sync engines (and inline IB_Q_DONE) have no slat: clat is the engine's
 * call alone (as fio's clat of a sync engine is the system call), lat
 * adds the loop's own work since the previous I/O. Each I/O also carries
 * due_ns, when its source wanted it started (ib_io).
 *
 * Clock readings: one per reap batch (also the prepare time of the refill)
 * and one per commit; inline completions take two per I/O (just before
 * queue(), and after it, which is also the start of the next: the end of
 * one is the start of the next's lat). Under gtod_reduce (lat_on false)
 * only every 64th reading is taken, and none before queue().
 *
 * Issuing: a unit that got IB_Q_BUSY first, then the rest of short
 * transfers, then (fsync=N: drained, then hooks.sync) a new I/O from the
 * source. NOT_YET from the source: with I/O in flight, reap waits for a
 * completion or the due time, whichever comes first; with none, the loop
 * sleeps until the due time (or wake_ns, a sample, a stop). A sync from
 * the source (IB_DDIR_SYNC) takes no unit: the loop drains, calls
 * hooks.file_sync, then asks the source again.
 *
 * serialize: an I/O that overlaps one in flight, when either of them
 * writes or trims, is held (the source is not asked again) until no
 * such I/O is in flight: the device may run two overlapping writes in
 * either order, and what a read racing a write returns is undefined
 * (fio's serialize_overlap). Costs a scan of the units per new I/O. A
 * source's sync is held the same way, until nothing is in flight.
 *
 * It ends when nothing is left in flight and no new I/O will be issued:
 * source END, *stop, ib_loop_stop() from a hook, or a fatal error.
 *
 * Accounting per completion: ib_stats_add_io(), the depth/submit/complete
 * histograms, issued and short counts, errors under continue_on_error
 * (ib_err_decide), the latency logs, the write_iolog, live counters and
 * the bw/iops sampler, all into cfg.st and the optional outputs.
 */
struct ib_loop;

struct ib_loop_hooks {
	/*
	 * The clock reached l->wake_ns (ramp end, runtime end): the owner
	 * acts, sets wake_ns to its next time and may call ib_loop_stop().
	 */
	void (*tick)(void *arg, struct ib_loop *l, uint64_t now_ns);
	/*
	 * fsync=/fdatasync= N: after N writes, with nothing in flight. Errors
	 * go through ib_loop_error(). NULL with sync_every 0.
	 */
	void (*sync)(void *arg, struct ib_loop *l);
	/*
	 * A sync from the source (ddir IB_DDIR_SYNC: a trace's sync or
	 * datasync of file d->file_idx): called with nothing in flight (the
	 * loop drains first), before the source is asked again. Errors go
	 * through ib_loop_error(). NULL: such syncs are dropped.
	 */
	void (*file_sync)(void *arg, struct ib_loop *l,
			  const struct ib_io_desc *d);
	/*
	 * Optional, NULL costs one predicted branch per I/O: a new I/O is
	 * prepared (write data in place), and a full completion before its
	 * unit is reused. The tests check data here; data verification
	 * (headers in, checks out) fits here without touching the loop.
	 * As in fio, prep's work counts in lat but not clat (sync engines)
	 * or in slat (async); done's work is in no I/O's latency (the clock
	 * is read again after it).
	 */
	void (*prep)(void *arg, struct ib_io *io);
	void (*done)(void *arg, const struct ib_io *io);
};

struct ib_loop_cfg {
	const struct ib_job *job;	/* batch sizes, iodepth_low, errors */
	const struct ib_engine_ops *ops;
	struct ib_engine_ctx *ctx;	/* units set up, engine initialised */
	struct ib_source *src;		/* may change between ib_loop_run()s */
	struct ib_job_stats *st;
	struct ib_bufs *bufs;		/* write data; NULL: buffers as is */
	struct ib_iolog *iolog;		/* NULL: none */
	struct ib_logs *logs;		/* NULL: none */
	const volatile sig_atomic_t *stop;
	const struct ib_clock *clock;
	bool lat_on;			/* false: gtod_reduce, no latencies */
	bool colat_on;			/* a rate: also done - due_ns (colat) */
	bool serialize;			/* serialize_overlap (see above) */
	uint64_t spin_ns;		/* wait for a due time: spin its last ns */
	unsigned int sync_every;	/* fsync=/fdatasync= N; 0: never */
	/* a status report's copy of st, made when asked (NULL: never) */
	struct ib_status_slot *status;
	struct ib_loop_hooks hooks;
	void *arg;			/* for the hooks */
};

/* A completed I/O, measured and waiting to be accounted. */
struct ib_done_rec {
	uint64_t slat, clat, lat;	/* UINT64_MAX: not measured */
	uint64_t colat;			/* done - due_ns; UINT64_MAX: not */
	uint64_t offset;
	uint32_t bytes;
	uint8_t ddir;
};

/*
 * Adaptive batching (loop_batch.c), with the batch options left to
 * iobench's defaults on an asynchronous engine: the loop alternates short
 * slices of its two ways to submit and reap (all that a refill queued in
 * one call, up to iodepth reaped at once; or each I/O submitted and reaped
 * on its own, fio's way) and keeps the one that completed more I/Os; then,
 * the same way, whether polling for completions a short while before a
 * blocking wait (spin) completes more than going to sleep at once. It
 * probes again later. submit, complete_max and spin are what the loop uses
 * now.
 */
struct ib_loop_batch {
	bool on;
	uint8_t mode;			/* IB_BATCH_ALL or IB_BATCH_ONE */
	uint8_t slice;			/* probe slice; IB_BATCH_SLICES: settled */
	unsigned int submit;		/* commit at this many queued; 0: at the end */
	unsigned int complete_max;	/* reap at most this many; 0: nr_ios */
	uint64_t next_ns;		/* the next slice end or probe start */
	uint64_t period_ns;		/* between two probes */
	uint64_t mark;			/* completions at the slice start */
	uint64_t got[2];		/* completions per way, this probe */
	uint64_t pair_first;		/* the pair's first slice's count */
	uint8_t pairs_won;		/* pairs way 1 completed more in */
	uint8_t dim;			/* probing: 0 the batching, 1 the spin */
	bool spin;			/* poll IB_SPIN_NS before a blocking reap;
					 * probed on IB_ENGINE_SPIN engines */
};

enum { IB_BATCH_ALL = 0, IB_BATCH_ONE = 1, IB_BATCH_SLICES = 6 };
#define IB_SPIN_NS 2000u	/* the spin's poll before a blocking reap */

struct ib_loop {
	struct ib_loop_cfg c;
	unsigned int keep;		/* ib_stats_keep() of the job */
	struct ib_sampler *smp;		/* NULL: not sampling (ramp) */
	uint64_t log_start_ns;		/* latency log times count from here */
	uint64_t wake_ns;		/* hooks.tick at this time; MAX: never */
	uint64_t due_ns;		/* source said NOT_YET until; 0: no */
	uint64_t last_ns;		/* latest clock reading */
	uint64_t cum_bytes[IB_DDIR_RWT];/* including ramp, for the live line */
	uint64_t cum_ios[IB_DDIR_RWT];
	unsigned int depth_cap;		/* at most this many in flight; 0: all */
	bool issuing_done;
	bool failed;			/* a fatal error ended the job */
	bool full;			/* fill_device: ENOSPC/EDQUOT ended the writes */
	/* internals */
	struct ib_io **free_ios;	/* stack of idle units */
	unsigned int nr_free;
	struct ib_io **pending;		/* queued, not yet committed (FIFO) */
	unsigned int nr_pending;
	struct ib_io **requeue;		/* short transfers to send again */
	unsigned int nr_requeue;
	struct ib_io **done;		/* reap output */
	struct ib_done_rec *recs;	/* a reap batch, measured */
	unsigned int inflight;		/* committed, not reaped */
	struct ib_io *busy_io;		/* got IB_Q_BUSY, retry first */
	unsigned int writes_since_sync;
	unsigned int reduce_count;
	uint8_t *busy;			/* serialize: per unit, not idle */
	bool issue_extras;		/* busy, hooks.prep or an open iolog:
					 * next_io's steps past the I/O itself */
	struct ib_io_desc held;		/* a sync waiting for the drain, or
					 * (serialize) an I/O for an overlap */
	bool held_set;
	bool stamp_issue;		/* an inline completion's clat from a
					 * reading just before queue(): the
					 * engine's call alone, not the loop's
					 * own work since the last I/O */
	struct ib_loop_batch batch;	/* the submit/reap batching in use */
	uint64_t publish_ns;		/* live counters, status copy: next look */
};

/*
 * Set up over cfg (copied) for cfg->ctx->nr_ios units, all idle. wake_ns
 * starts at UINT64_MAX, last_ns at "now". 0 or -ENOMEM (d filled).
 */
int ib_loop_init(struct ib_loop *l, const struct ib_loop_cfg *cfg,
		 struct ib_diag *d);
/* Safe after a failed init (l zeroed first) and more than once. */
void ib_loop_free(struct ib_loop *l);

/*
 * Run until the end (see above), everything drained: 0, or -errno when
 * the engine failed (queue/commit/reap). I/O errors are accounted and,
 * when fatal, set l->failed and st->error. Runs again with a new source.
 */
int ib_loop_run(struct ib_loop *l);

/* No new I/O from now on; what is in flight completes and is accounted. */
static inline void ib_loop_stop(struct ib_loop *l)
{
	l->issuing_done = true;
}

/*
 * An error: count it (total_err, first error and its text `where`) and,
 * unless go_on, fail the job with it (st->error, l->failed, no new I/O).
 */
void ib_loop_error(struct ib_loop *l, int err, bool count, bool go_on,
		   const char *where);
/*
 * error_dump=1 (job->error_dump; else nothing): note the non-fatal error
 * err of an I/O (ddir, offset, buflen, file path) in st->error_dump.
 */
void ib_loop_dump_error(struct ib_loop *l, unsigned int ddir, int err, uint64_t offset,
			uint64_t buflen, const char *path);
/* Would ib_loop_error() keep the text of this error? (build it only then) */
bool ib_loop_error_text_needed(const struct ib_loop *l, bool count, bool go_on);
/* Fail the job with err (the first failure wins st->error). */
void ib_loop_fail(struct ib_loop *l, int err, const char *where);

/*
 * Copy the cumulative counters into st->live (the parent's ETA line, the
 * live view, the group's ramp_size): the loop does it at least once a
 * millisecond while it runs, and when ib_loop_run() returns.
 */
void ib_loop_publish(struct ib_loop *l);

/* loop_batch.c: the batching in use, set up from the job (init) */
void ib_loop_batch_init(struct ib_loop *l);
/* the adaptive policy's step at clock reading now (every reap batch) */
void ib_loop_batch_step(struct ib_loop *l, uint64_t now);
/* the spin (batch.spin): a non-blocking reap repeated for up to IB_SPIN_NS;
 * the completions it got, 0 or -errno */
int ib_loop_spin_reap(struct ib_loop *l, unsigned int max);
static inline void ib_loop_batch_tick(struct ib_loop *l, uint64_t now)
{
	if (__builtin_expect(l->batch.on && now >= l->batch.next_ns, 0))
		ib_loop_batch_step(l, now);
}

#endif
