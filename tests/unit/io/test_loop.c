// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job loop on its own, driven by a scripted engine (queue answers,
 * partial commits, short transfers, errors, inline completions, I/Os that
 * take a while, reaps that time out) and a scripted source (READY items,
 * NOT_YET until a due time, END). Each engine and hook call is written to
 * a log, and the log is compared whole: the exact order of queue, commit,
 * reap, sync and tick. Due times use the real clock and are checked as
 * lower bounds only.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/compiler.h"
#include "iobench/loop.h"

#define DEPTH_MAX 8
#define NIDS 32
#define BS 4096u
#define MS 1000000ull

/* --- the scripted source ----------------------------------------------- */

/* 'r'/'w' id: an I/O of block id; 'n' at: nothing before t0 + at ns;
 * 's' 0/1: a sync (1: datasync) of file 0, as a trace replay gives. */
struct sitem {
	char kind;
	uint64_t arg;
};

struct ssrc {
	struct ib_source src;
	const struct sitem *items;
	unsigned int n, pos;
	uint64_t t0;		/* the first call's now */
	uint64_t due;		/* a passed 'n': the next I/O was due then */
	unsigned int calls;
};

static int ssrc_next(struct ib_source *src, uint64_t now, struct ib_io_desc *out)
{
	struct ssrc *s = ib_container_of(src, struct ssrc, src);

	if (!s->calls++)
		s->t0 = now;	/* due times count from the first call */
	while (s->pos < s->n && s->items[s->pos].kind == 'n') {
		if (now < s->t0 + s->items[s->pos].arg) {
			out->due_ns = s->t0 + s->items[s->pos].arg;
			return IB_SRC_NOT_YET;
		}
		s->due = s->t0 + s->items[s->pos++].arg;
	}
	if (s->pos == s->n)
		return IB_SRC_END;
	out->ddir = s->items[s->pos].kind == 'w' ? IB_DDIR_WRITE : IB_DDIR_READ;
	if (s->items[s->pos].kind == 's') {
		out->ddir = IB_DDIR_SYNC;
		out->datasync = s->items[s->pos].arg == 1;
	}
	out->file_idx = 0;
	out->offset = s->items[s->pos].arg * BS;
	out->len = BS;
	out->due_ns = s->due ? s->due : now;
	s->due = 0;
	s->pos++;
	return IB_SRC_READY;
}

static bool ssrc_more(const struct ib_source *src)
{
	const struct ssrc *s = ib_container_of(src, const struct ssrc, src);

	return s->pos < s->n;
}

static const struct ib_source_ops ssrc_ops = {
	.name = "scripted", .next = ssrc_next, .more = ssrc_more,
};

/* --- the scripted engine ------------------------------------------------ */

struct fake {
	char log[2048];
	size_t len;
	const char *qscript;	/* per queue call: q, d (inline), b (busy) */
	unsigned int qcall;
	unsigned int commit_max;	/* 0: commit everything */
	struct ib_io *queued[DEPTH_MAX];
	unsigned int nq;
	struct ib_io *flight[DEPTH_MAX];
	uint64_t ready_at[DEPTH_MAX];	/* by flight slot */
	unsigned int nfl;
	uint64_t lat_ns[NIDS];		/* time in flight, by block id */
	int64_t short_id, err_id;	/* -1: none */
	int err;
	bool shorted;
	uint64_t timeouts[16];		/* finite reap timeouts seen */
	unsigned int ntimeouts;
};

static void logf_(struct fake *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	f->len += (size_t)vsnprintf(f->log + f->len, sizeof(f->log) - f->len,
				    fmt, ap);
	va_end(ap);
	assert_true(f->len < sizeof(f->log));
}

static uint64_t io_id(const struct ib_io *io)
{
	return (io->offset - io->xfer_done) / BS;
}

static void finish(struct fake *f, struct ib_io *io)
{
	if ((int64_t)io_id(io) == f->short_id && !f->shorted) {
		f->shorted = true;
		io->res = io->len / 2;
	} else if ((int64_t)io_id(io) == f->err_id) {
		io->res = -f->err;
	} else {
		io->res = io->len;
	}
}

static int fake_queue(struct ib_engine_ctx *ctx, struct ib_io *io)
{
	struct fake *f = ctx->data;
	char what = 'q';

	if (f->qscript && f->qcall < strlen(f->qscript))
		what = f->qscript[f->qcall];
	f->qcall++;
	logf_(f, "%c%llu ", what, (unsigned long long)io_id(io));
	if (what == 'b' || f->nq + f->nfl == ctx->nr_ios)
		return IB_Q_BUSY;
	if (what == 'd') {
		finish(f, io);
		return IB_Q_DONE;
	}
	f->queued[f->nq++] = io;
	return IB_Q_QUEUED;
}

static int fake_commit(struct ib_engine_ctx *ctx)
{
	struct fake *f = ctx->data;
	unsigned int n = f->nq, i;

	if (f->commit_max && n > f->commit_max)
		n = f->commit_max;
	for (i = 0; i < n; i++) {
		f->flight[f->nfl] = f->queued[i];
		f->ready_at[f->nfl++] = ib_now_ns() + f->lat_ns[io_id(f->queued[i])];
	}
	memmove(f->queued, f->queued + n, (f->nq - n) * sizeof(void *));
	f->nq -= n;
	logf_(f, "c%u ", n);
	return (int)n;
}

/* Completions whose time has come, oldest first, at most max. */
static unsigned int take_ready(struct fake *f, unsigned int max,
			       struct ib_io **done)
{
	uint64_t now = ib_now_ns();
	unsigned int i = 0, n = 0;

	while (i < f->nfl && n < max) {
		if (f->ready_at[i] > now) {
			i++;
			continue;
		}
		finish(f, f->flight[i]);
		done[n++] = f->flight[i];
		memmove(f->flight + i, f->flight + i + 1,
			(f->nfl - i - 1) * sizeof(void *));
		memmove(f->ready_at + i, f->ready_at + i + 1,
			(f->nfl - i - 1) * sizeof(uint64_t));
		f->nfl--;
	}
	return n;
}

static void sleep_until(uint64_t t)
{
	uint64_t now = ib_now_ns();
	struct timespec ts;

	if (t <= now)
		return;
	ts.tv_sec = (time_t)((t - now) / 1000000000u);
	ts.tv_nsec = (long)((t - now) % 1000000000u);
	nanosleep(&ts, NULL);
}

static int fake_reap(struct ib_engine_ctx *ctx, unsigned int min,
		     unsigned int max, struct ib_io **done, uint64_t timeout_ns)
{
	struct fake *f = ctx->data;
	uint64_t until = UINT64_MAX;
	unsigned int n, i;

	if (timeout_ns != IB_WAIT_FOREVER) {
		assert_true(f->ntimeouts < IB_ARRAY_SIZE(f->timeouts));
		f->timeouts[f->ntimeouts++] = timeout_ns;
		until = ib_now_ns() + timeout_ns;
	}
	n = take_ready(f, max, done);
	if (n < min && f->nfl) {
		uint64_t first = UINT64_MAX;

		for (i = 0; i < f->nfl; i++)
			first = f->ready_at[i] < first ? f->ready_at[i] : first;
		sleep_until(first < until ? first : until);
		n += take_ready(f, max - n, done + n);
	}
	if (n)
		logf_(f, "r%u ", n);
	else
		logf_(f, "t ");
	return (int)n;
}

static int fake_init(struct ib_engine_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static void fake_cleanup(struct ib_engine_ctx *ctx)
{
	(void)ctx;
}

static const struct ib_engine_ops fake_async = {
	.name = "fake", .init = fake_init, .queue = fake_queue,
	.commit = fake_commit, .reap = fake_reap, .cleanup = fake_cleanup,
};

static const struct ib_engine_ops fake_sync = {
	.name = "fakesync", .flags = IB_ENGINE_SYNC, .init = fake_init,
	.queue = fake_queue, .cleanup = fake_cleanup,
};

/* --- the rig ------------------------------------------------------------- */

struct times {
	uint64_t due, start, issue, done;
	unsigned int seen;
};

struct t {
	struct ib_job job;
	struct ib_job_stats *st;
	struct ib_file file;
	struct ib_io ios[DEPTH_MAX];
	char *bufs;
	struct ib_engine_ctx ctx;
	struct fake fk;
	struct ssrc src;
	struct ib_clock clock;
	volatile sig_atomic_t stop;
	struct ib_loop loop;
	struct times tm[NIDS];
	unsigned int ticks, syncs;
	uint64_t tick_at;
	bool stop_at_tick;
	bool serialize;
	struct ib_status_slot *status;	/* status reports' copies; NULL: none */
	int idle_seen;			/* on_alarm_idle saw the loop idle */
};

static struct t *g_t;	/* for the signal handler only */

static void done_hook(void *arg, const struct ib_io *io)
{
	struct t *t = arg;
	struct times *tm = &t->tm[io_id(io)];

	tm->due = io->due_ns;
	tm->start = io->start_ns;
	tm->issue = io->issue_ns;
	tm->done = io->done_ns;
	tm->seen++;
	if (t->status && io_id(io) == 5)	/* a report asked mid-batch */
		ib_status_ask(t->status, 2);
}

static void sync_hook(void *arg, struct ib_loop *l)
{
	struct t *t = arg;

	assert_int_equal(l->inflight + l->nr_pending, 0);
	t->syncs++;
	logf_(&t->fk, "S ");
}

static void file_sync_hook(void *arg, struct ib_loop *l,
			   const struct ib_io_desc *d)
{
	struct t *t = arg;

	assert_int_equal(l->inflight + l->nr_pending, 0);
	assert_int_equal(d->ddir, IB_DDIR_SYNC);
	assert_int_equal(d->file_idx, 0);
	t->syncs++;
	logf_(&t->fk, "%s ", d->datasync ? "D" : "F");
}

static void tick_hook(void *arg, struct ib_loop *l, uint64_t now)
{
	struct t *t = arg;

	assert_true(now >= l->wake_ns);
	t->ticks++;
	t->tick_at = now;
	logf_(&t->fk, "T ");
	l->wake_ns = UINT64_MAX;
	if (t->stop_at_tick)
		ib_loop_stop(l);
}

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->st = calloc(1, sizeof(*t->st));
	t->bufs = aligned_alloc(4096, DEPTH_MAX * BS);
	assert_non_null(t->st);
	assert_non_null(t->bufs);
	ib_job_defaults(&t->job);
	t->file.path = "f0";
	t->file.fd = -1;
	t->fk.short_id = t->fk.err_id = -1;
	ib_clock_init(&t->clock, false);
	g_t = t;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;

	ib_loop_free(&t->loop);
	free(t->bufs);
	free(t->st);
	free(t);
	return 0;
}

/* Depth, submit batch, complete min/max; iodepth_low = depth. */
static void start(struct t *t, const struct ib_engine_ops *ops,
		  unsigned int depth, unsigned int batch, unsigned int cmin,
		  unsigned int cmax, const struct sitem *items, unsigned int n)
{
	struct ib_loop_cfg cfg = {
		.job = &t->job, .ops = ops, .ctx = &t->ctx, .src = &t->src.src,
		.st = t->st, .stop = &t->stop, .clock = &t->clock,
		.lat_on = true, .arg = t,
		.hooks = { .tick = tick_hook, .sync = sync_hook,
			   .file_sync = file_sync_hook, .done = done_hook },
		.serialize = t->serialize, .status = t->status,
	};
	struct ib_diag d;

	t->job.iodepth = depth;
	t->job.iodepth_batch_submit = batch;
	t->job.iodepth_low = depth;
	t->job.iodepth_batch_complete_min = cmin;
	t->job.iodepth_batch_complete_max = cmax;
	/* batching as given, never the adaptive probe: its 20 ms slices made
	 * the order depend on the speed (a valgrind run switched mid-test) */
	t->job.batch_submit_given = true;
	t->job.batch_complete_max_given = true;
	t->ctx = (struct ib_engine_ctx){ .job = &t->job, .files = &t->file,
		.nr_files = 1, .ios = t->ios, .nr_ios = depth,
		.buf_size = BS, .buf_base = t->bufs, .data = &t->fk };
	for (unsigned int i = 0; i < depth; i++)
		t->ios[i] = (struct ib_io){ .idx = i, .buf = t->bufs + i * BS };
	t->src = (struct ssrc){ .src.ops = &ssrc_ops, .items = items, .n = n };
	assert_int_equal(ib_loop_init(&t->loop, &cfg, &d), 0);
}

static void run_ok(struct t *t)
{
	assert_int_equal(ib_loop_run(&t->loop), 0);
	assert_int_equal(t->loop.nr_free, t->ctx.nr_ios);	/* drained */
	assert_int_equal(t->loop.inflight, 0);
	assert_int_equal(t->fk.nq + t->fk.nfl, 0);
}

#define R(id) { 'r', id }
#define W(id) { 'w', id }
#define N(ms) { 'n', (ms) * MS }

/* --- tests --------------------------------------------------------------- */

/* Fill to the depth, commit per batch, reap, refill, drain at END. */
static void closed_loop_order(void **state)
{
	static const struct sitem it[] = {
		R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9),
	};
	struct t *t = *state;

	start(t, &fake_async, 4, 4, 1, 4, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_string_equal(t->fk.log, "q0 q1 q2 q3 c4 r4 q4 q5 q6 q7 c4 r4 "
			    "q8 q9 c2 r2 ");
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 10);
	assert_int_equal(t->st->dir[IB_DDIR_READ].issued, 10);
	assert_int_equal(t->st->dir[IB_DDIR_READ].io_bytes, 10 * BS);
	assert_int_equal(t->st->total_submit_calls, 3);
	assert_int_equal(t->st->total_complete_calls, 3);
	assert_int_equal(t->st->depth[ib_depth_bucket(4)], 8);
	assert_int_equal(t->st->depth[ib_depth_bucket(2)], 2);
	assert_int_equal(t->loop.cum_ios[IB_DDIR_READ], 10);
	assert_int_equal(t->st->live.ios[IB_DDIR_READ], 10);
	assert_int_equal(t->src.calls, 11);	/* the last one said END */
	for (unsigned int i = 0; i < 10; i++) {
		assert_int_equal(t->tm[i].seen, 1);
		assert_true(t->tm[i].due == t->tm[i].start);	/* closed loop */
		assert_true(t->tm[i].start <= t->tm[i].issue);
		assert_true(t->tm[i].issue <= t->tm[i].done);
	}
	assert_false(t->loop.failed);
}

static uint64_t hist_sum(const struct ib_hist *h)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < IB_HIST_NR; i++)
		n += h->count[i];
	return n;
}

/* A status copy's reads: count, bytes, clat samples and histogram. */
static void copy_has(const struct ib_status_slot *s, uint64_t ios)
{
	const struct ib_dir_stats *c = &s->st.dir[IB_DDIR_READ];

	assert_int_equal(c->total_ios, ios);
	assert_int_equal(c->io_bytes, ios * BS);
	assert_int_equal(c->lat[IB_LAT_CLAT].n, ios);
	assert_int_equal(hist_sum(&c->hist[IB_LAT_CLAT]), ios);
}

static const struct sitem ten_reads[] = {
	R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9),
};

/*
 * A status report's copy (status.h): asked before the run, the loop
 * answers once, after its first batch is accounted (4 reads whole); the
 * run goes on to its 10.
 */
static void status_copy_first_batch(void **state)
{
	struct t *t = *state;
	struct ib_status_slot *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	ib_status_ask(s, 1);
	t->status = s;
	start(t, &fake_async, 4, 4, 1, 4, ten_reads, IB_ARRAY_SIZE(ten_reads));
	t->status = NULL;	/* the done hook does not ask again */
	run_ok(t);
	assert_true(ib_status_answered(s, 1));
	copy_has(s, 4);
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 10);
	free(s);
}

/*
 * Asked while the second batch's completions are settled (the done hook,
 * at read 5): the copy comes after that whole batch is accounted (8), not
 * mid-batch. The loop looks at most once a millisecond (PUBLISH_NS): the
 * second batch is 2 ms in flight, so its look is due.
 */
static void status_copy_whole_batch(void **state)
{
	struct t *t = *state;
	struct ib_status_slot *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	for (unsigned int i = 4; i < 8; i++)
		t->fk.lat_ns[i] = 2 * MS;
	t->status = s;
	start(t, &fake_async, 4, 4, 1, 4, ten_reads, IB_ARRAY_SIZE(ten_reads));
	run_ok(t);
	assert_true(ib_status_answered(s, 2));
	copy_has(s, 8);
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 10);
	t->status = NULL;
	free(s);
}

/*
 * BUSY below the depth: commit and reap, then the same unit first. A
 * short transfer goes again for the rest before any new I/O. A partial
 * commit leaves the rest queued for the next one.
 */
static void busy_short_partial(void **state)
{
	static const struct sitem it[] = { R(0), R(1), R(2), R(3), R(4) };
	struct t *t = *state;

	t->fk.qscript = "qqbq";
	t->fk.short_id = 1;
	t->fk.commit_max = 1;
	start(t, &fake_async, 4, 4, 1, 4, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	/*
	 * b2: busy with 0 and 1 queued; the commit takes 0 only. The retry
	 * of 2 queues first, the batch of 4 commits 1, a full pool commits
	 * 2; 1 came back short: its rest goes before any new I/O (the
	 * source said END) and the partial commits drain the queue in order.
	 */
	assert_string_equal(t->fk.log, "q0 q1 b2 c1 r1 q2 q3 q4 c1 c1 r2 q1 c1 "
			    "r1 c1 r1 c1 r1 ");
	assert_int_equal(t->st->dir[IB_DDIR_READ].short_ios, 1);
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 5);
	assert_int_equal(t->st->dir[IB_DDIR_READ].io_bytes, 5 * BS);
	assert_int_equal(t->st->dir[IB_DDIR_READ].issued, 5);
	assert_int_equal(t->tm[1].seen, 1);
	assert_int_equal(t->st->total_err, 0);
}

/* Inline completions: no slat, and one submit + complete call each. */
static void inline_done(void **state)
{
	static const struct sitem it[] = { R(0), R(1), R(2) };
	struct t *t = *state;

	t->fk.qscript = "dqd";
	start(t, &fake_async, 2, 2, 1, 2, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_string_equal(t->fk.log, "d0 q1 d2 c1 r1 ");
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 3);
	assert_int_equal(t->st->total_submit_calls, 3);
	assert_int_equal(t->st->total_complete_calls, 3);
	assert_int_equal(t->st->dir[IB_DDIR_READ].lat[IB_LAT_SLAT].n, 1);
	assert_int_equal(t->st->dir[IB_DDIR_READ].lat[IB_LAT_CLAT].n, 3);
	assert_true(t->tm[0].issue == t->tm[0].start);
}

/* A fatal read error: no new I/O, what is in flight drains, job failed. */
static void fatal_error(void **state)
{
	static const struct sitem it[] = { R(0), R(1), R(2), R(3), R(4), R(5) };
	struct t *t = *state;

	t->fk.err_id = 1;
	t->fk.err = EIO;
	start(t, &fake_async, 2, 2, 1, 1, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_string_equal(t->fk.log, "q0 q1 c2 r1 q2 c1 r1 r1 ");
	assert_true(t->loop.failed);
	assert_int_equal(t->st->error, EIO);
	assert_string_equal(t->st->error_where, "read offset=4096, buflen=4096, "
			    "file=f0: Input/output error (EIO)");
	assert_int_equal(t->st->total_err, 0);	/* reaped: fio counts none */
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 2);
	/* a later run of the same loop issues nothing */
	t->fk.len = 0;
	t->fk.log[0] = '\0';
	assert_int_equal(ib_loop_run(&t->loop), 0);
	assert_string_equal(t->fk.log, "");
}

/* continue_on_error=read: counted, the job goes on. */
static void counted_error(void **state)
{
	static const struct sitem it[] = { R(0), R(1), R(2) };
	struct t *t = *state;

	t->fk.err_id = 1;
	t->fk.err = EIO;
	t->job.continue_on_error = 1u << IB_ERR_READ;
	start(t, &fake_async, 1, 1, 1, 1, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_string_equal(t->fk.log, "q0 c1 r1 q1 c1 r1 q2 c1 r1 ");
	assert_false(t->loop.failed);
	assert_int_equal(t->st->total_err, 1);
	assert_int_equal(t->st->first_error, EIO);
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 2);
}

/* An engine failure ends the run with its -errno. */
static int broken_commit(struct ib_engine_ctx *ctx)
{
	(void)ctx;
	return -EFAULT;
}

static void engine_failure(void **state)
{
	static const struct sitem it[] = { R(0), R(1) };
	struct t *t = *state;
	struct ib_engine_ops ops = fake_async;

	ops.commit = broken_commit;
	start(t, &ops, 2, 2, 1, 2, it, IB_ARRAY_SIZE(it));
	assert_int_equal(ib_loop_run(&t->loop), -EFAULT);
	t->fk.nq = 0;	/* the queued units stay with the engine */
}

/* fsync=2: drained first, never after the last write. */
static void sync_every(void **state)
{
	static const struct sitem it[] = { W(0), W(1), W(2), W(3), W(4) };
	struct t *t = *state;

	start(t, &fake_async, 4, 4, 1, 4, it, IB_ARRAY_SIZE(it));
	t->loop.c.sync_every = 2;
	run_ok(t);
	assert_string_equal(t->fk.log, "q0 q1 c2 r2 S q2 q3 c2 r2 S q4 c1 r1 ");
	assert_int_equal(t->syncs, 2);
	assert_int_equal(t->st->dir[IB_DDIR_WRITE].total_ios, 5);
}

/* A source's syncs: drained first, in the source's order, no unit used. */
static void source_syncs(void **state)
{
	static const struct sitem it[] = {
		W(0), W(1), { 's', 0 }, W(2), { 's', 1 }, { 's', 0 }, R(3),
	};
	struct t *t = *state;

	start(t, &fake_async, 4, 4, 1, 4, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_string_equal(t->fk.log, "q0 q1 c2 r2 F q2 c1 r1 D F q3 c1 r1 ");
	assert_int_equal(t->syncs, 3);
	assert_int_equal(t->st->dir[IB_DDIR_WRITE].total_ios, 3);
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 1);
}

static void source_syncs_sync_engine(void **state)
{
	static const struct sitem it[] = { W(0), { 's', 1 }, R(1), { 's', 0 } };
	struct t *t = *state;

	t->fk.qscript = "dd";
	start(t, &fake_sync, 1, 1, 1, 1, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_string_equal(t->fk.log, "d0 D d1 F ");
	assert_int_equal(t->syncs, 2);
}

/* The tick hook at wake_ns (here: a runtime end that stops issuing). */
static void wake_tick(void **state)
{
	static const struct sitem it[] = { R(0), N(20000), R(1) };
	struct t *t = *state;
	uint64_t wake;

	t->stop_at_tick = true;
	start(t, &fake_async, 2, 1, 1, 2, it, IB_ARRAY_SIZE(it));
	wake = ib_now_ns() + 10 * MS;
	t->loop.wake_ns = wake;
	run_ok(t);
	assert_string_equal(t->fk.log, "q0 c1 r1 T ");
	assert_int_equal(t->ticks, 1);
	assert_true(t->tick_at >= wake);
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 1);
}

/*
 * Nothing in flight and the source says not yet: the loop sleeps until
 * the due time, then the I/O carries that due time.
 */
static void due_idle(void **state, const struct ib_engine_ops *ops,
		     const char *want)
{
	static const struct sitem it[] = { R(0), N(30), R(1), N(60), R(2) };
	struct t *t = *state;

	if (ops == &fake_sync)
		t->fk.qscript = "ddd";
	start(t, ops, 1, 1, 1, 1, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_string_equal(t->fk.log, want);
	assert_int_equal(t->fk.ntimeouts, 0);
	assert_true(t->tm[1].due == t->src.t0 + 30 * MS);
	assert_true(t->tm[1].start >= t->tm[1].due);
	assert_true(t->tm[2].due == t->src.t0 + 60 * MS);
	assert_true(t->tm[2].start >= t->tm[2].due);
	assert_true(t->tm[0].due == t->tm[0].start);
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 3);
}

static void due_idle_async(void **state)
{
	due_idle(state, &fake_async, "q0 c1 r1 q1 c1 r1 q2 c1 r1 ");
}

static void due_idle_sync(void **state)
{
	due_idle(state, &fake_sync, "d0 d1 d2 ");
}

/*
 * I/O in flight (block 0 takes 300 ms) and the source says not yet (30
 * ms): the reap waits no longer than the due time, times out, and block 1
 * goes out and completes while block 0 is still in flight.
 */
static void due_inflight(void **state)
{
	static const struct sitem it[] = { R(0), N(30), R(1) };
	struct t *t = *state;

	t->fk.lat_ns[0] = 300 * MS;
	start(t, &fake_async, 2, 1, 1, 2, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_string_equal(t->fk.log, "q0 c1 t q1 c1 r1 r1 ");
	assert_int_equal(t->fk.ntimeouts, 1);
	assert_true(t->fk.timeouts[0] > 0 && t->fk.timeouts[0] <= 30 * MS);
	assert_true(t->tm[1].start >= t->src.t0 + 30 * MS);
	assert_true(t->tm[1].due == t->src.t0 + 30 * MS);
	assert_true(t->tm[1].done < t->tm[0].done);
	assert_true(t->tm[0].done >= t->tm[0].issue + 300 * MS);
}

static void on_alarm(int sig)
{
	(void)sig;
	g_t->stop = 1;
}

/* A stop (a signal) ends a long wait for a due time early. */
static void stop_while_waiting(void **state)
{
	static const struct sitem it[] = { R(0), N(20000), R(1) };
	struct itimerval itv = { .it_value = { .tv_usec = 50000 } };
	struct t *t = *state;
	struct sigaction sa = { .sa_handler = on_alarm };

	sigaction(SIGALRM, &sa, NULL);
	start(t, &fake_async, 1, 1, 1, 1, it, IB_ARRAY_SIZE(it));
	assert_int_equal(setitimer(ITIMER_REAL, &itv, NULL), 0);
	run_ok(t);
	assert_string_equal(t->fk.log, "q0 c1 r1 ");
	assert_true(ib_now_ns() - t->src.t0 < 10000 * MS);	/* not 20 s */
	assert_true(t->loop.issuing_done);
	signal(SIGALRM, SIG_DFL);
}

static void on_alarm_idle(int sig)
{
	(void)sig;
	if (ib_status_is_idle(g_t->status))
		g_t->idle_seen = 1;
}

/*
 * Waiting for a due time with nothing in flight, the loop keeps its status
 * slot's idle count odd (a report reads it in place meanwhile), and even
 * again once the wait is over: seen from a signal every 10 ms of a 200 ms
 * wait (however late the wait starts under valgrind).
 */
static void status_idle_while_waiting(void **state)
{
	static const struct sitem it[] = { R(0), N(200), R(1) };
	struct itimerval itv = { .it_value = { .tv_usec = 10000 },
				 .it_interval = { .tv_usec = 10000 } };
	struct itimerval off = { 0 };
	struct sigaction sa = { .sa_handler = on_alarm_idle };
	struct t *t = *state;
	struct ib_status_slot *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	t->status = s;
	t->idle_seen = 0;
	sigaction(SIGALRM, &sa, NULL);
	start(t, &fake_async, 1, 1, 1, 1, it, IB_ARRAY_SIZE(it));
	assert_int_equal(setitimer(ITIMER_REAL, &itv, NULL), 0);
	run_ok(t);
	assert_int_equal(setitimer(ITIMER_REAL, &off, NULL), 0);
	signal(SIGALRM, SIG_DFL);
	assert_string_equal(t->fk.log, "q0 c1 r1 q1 c1 r1 ");
	assert_int_equal(t->idle_seen, 1);
	assert_false(ib_status_is_idle(s));
	assert_true(s->idle >= 2);
	assert_true(t->tm[1].start >= t->src.t0 + 200 * MS);	/* the whole wait */
	t->status = NULL;
	free(s);
}

/* One direction's statistics, as ib_stats_add_io() one I/O at a time. */
static void expect_one_by_one(const struct t *t, unsigned int nr,
			      struct ib_job_stats *want)
{
	unsigned int keep = ib_stats_keep(&t->job), i;

	for (i = 0; i < nr; i++) {
		const struct times *tm = &t->tm[i];

		assert_int_equal(tm->seen, 1);
		ib_stats_add_io(want, keep, i % 3 ? IB_DDIR_READ : IB_DDIR_WRITE,
				BS, tm->issue - tm->start, tm->done - tm->issue,
				tm->done - tm->start);
	}
}

static void lat_equal(const struct ib_lat_stat *a, const struct ib_lat_stat *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_float_equal(a->mean, b->mean, b->mean * 1e-12 + 1e-9);
	assert_float_equal(a->m2, b->m2, b->m2 * 1e-9 + 1e-6);
}

/*
 * A reap batch's I/Os submitted together share their readings: the loop
 * accounts each run of equal records at once, and the statistics are
 * those of the same I/Os accounted one by one (counts, bytes, min, max,
 * mean, variance, histograms, the lat table), with reads and writes
 * breaking the runs and I/Os of other latencies between them.
 */
static void runs_accounted_as_singles(void **state)
{
	static const struct sitem it[] = {
		W(0), R(1), R(2), W(3), R(4), R(5), W(6), R(7), R(8), W(9),
		R(10), R(11), W(12), R(13), R(14), W(15), R(16), R(17), W(18),
		R(19), R(20), W(21), R(22), R(23),
	};
	struct ib_job_stats *want = calloc(1, sizeof(*want));
	unsigned int i, d, k, runs = 0;
	struct t *t = *state;

	assert_non_null(want);
	t->fk.lat_ns[4] = t->fk.lat_ns[13] = MS;
	t->fk.lat_ns[7] = 3 * MS;
	start(t, &fake_async, 8, 8, 1, 8, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	expect_one_by_one(t, IB_ARRAY_SIZE(it), want);
	for (i = 1; i < IB_ARRAY_SIZE(it); i++)
		runs += t->tm[i].issue == t->tm[i - 1].issue &&
			t->tm[i].done == t->tm[i - 1].done &&
			t->tm[i].start == t->tm[i - 1].start;
	assert_true(runs > 4);	/* the run path was taken */
	for (d = 0; d < 2; d++) {
		const struct ib_dir_stats *a = &t->st->dir[d], *b = &want->dir[d];

		assert_int_equal(a->total_ios, b->total_ios);
		assert_int_equal(a->io_bytes, b->io_bytes);
		for (k = 0; k < IB_LAT_NR; k++) {
			lat_equal(&a->lat[k], &b->lat[k]);
			assert_memory_equal(&a->hist[k], &b->hist[k], sizeof(a->hist[k]));
		}
	}
	assert_memory_equal(t->st->lat_n, want->lat_n, sizeof(want->lat_n));
	assert_memory_equal(t->st->lat_u, want->lat_u, sizeof(want->lat_u));
	assert_memory_equal(t->st->lat_m, want->lat_m, sizeof(want->lat_m));
	assert_int_equal(t->loop.cum_ios[IB_DDIR_READ], 16);
	assert_int_equal(t->loop.cum_bytes[IB_DDIR_WRITE], 8 * BS);
	free(want);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

/*
 * serialize_overlap: a write of a block in flight waits for it (the
 * source is not asked meanwhile), and so does a read of a block being
 * written; reads of the same block (and other blocks) pass each other.
 */
static void serialize_overlap(void **state)
{
	static const struct sitem it[] = {
		W(0), R(1), W(0), R(2), R(0), R(1), R(1),
	};
	struct t *t = *state;

	t->serialize = true;
	t->fk.lat_ns[0] = 2 * MS;
	start(t, &fake_async, 4, 4, 1, 4, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	/* W0 R1 | W0 held: R1 done, W0 done | W0 R2 | R0 held until the
	 * W0, then R0 R1 R1 together */
	assert_string_equal(t->fk.log, "q0 q1 c2 r1 r1 q0 q2 c2 r1 r1 "
			    "q0 q1 q1 c3 r2 r1 ");
	assert_int_equal(t->st->dir[IB_DDIR_WRITE].total_ios, 2);
	assert_int_equal(t->st->dir[IB_DDIR_READ].total_ios, 5);
	assert_int_equal(t->src.calls, 8);	/* a held I/O is not asked again */
}

/* Without it, the same script fills the depth at once. */
static void overlap_unserialized(void **state)
{
	static const struct sitem it[] = {
		W(0), R(1), W(0), R(2), R(0), R(1), R(1),
	};
	struct t *t = *state;

	t->fk.lat_ns[0] = 2 * MS;
	start(t, &fake_async, 4, 4, 1, 4, it, IB_ARRAY_SIZE(it));
	run_ok(t);
	assert_memory_equal(t->fk.log, "q0 q1 q0 q2 c4 ", 15);
	assert_int_equal(t->src.calls, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(closed_loop_order),
		T(status_copy_first_batch),
		T(status_copy_whole_batch),
		T(status_idle_while_waiting),
		T(runs_accounted_as_singles), T(busy_short_partial), T(inline_done),
		T(fatal_error), T(counted_error), T(engine_failure),
		T(sync_every), T(source_syncs), T(source_syncs_sync_engine),
		T(wake_tick), T(due_idle_async),
		T(due_idle_sync), T(due_inflight), T(stop_while_waiting),
		T(serialize_overlap), T(overlap_unserialized),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
