// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping`: ioping's request loop on iobench's job loop (loop.h).
 * The ping source (ping_source.h) paces one request at a time; the loop
 * runs it through the engine (psync as ioping's cached I/O, -A the
 * asynchronous chain of iomode.h); two hooks do what ioping does around
 * each request: the prep hook drops the cache over the request's range
 * (unless -C) and starts the request's clock, the done hook adds
 * fdatasync after a write (unless -C), stops the clock, feeds the
 * statistics and prints the request line. The loop itself never prints.
 * With -N an EAGAIN is one of ioping's results, not a failure: the job
 * lets the loop go on after it, and a thin wrapper around the source
 * accounts the request the done hook never saw ("(EAGAIN)", 0 bytes).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iobench/job_setup.h"
#include "iobench/buf.h"
#include "iobench/clock.h"
#include "iobench/compiler.h"
#include "iomode.h"
#include "iobench/loop.h"
#include "iobench/ping_run.h"
#include "iobench/ping_source.h"

struct ping_run {
	const struct ib_ping_opts *o;
	struct ib_ping_prep *pp;
	const struct ib_ping_sink *out;
	struct ib_job job;
	const struct ib_engine_ops *ops;
	struct ib_engine_ctx ctx;
	struct ib_file file;
	struct ib_bufs bufs;
	struct ib_job_stats *st;
	struct ib_loop loop;
	struct ib_clock clock;
	struct ib_ping_source src;
	struct ib_source wrap;		/* src as the loop sees it (-N) */
	enum ib_ddir last_ddir;		/* of the request handed out last */
	struct ib_ping_limits lim;
	struct ib_ping_stats part;
	struct ib_ping_outcome *res;
	int64_t period_deadline;
	uint64_t t0;			/* the current request's start */
	int err;			/* a failure around a request */
	const char *err_what;
};

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * IB_PING_NSEC + ts.tv_nsec;
}

/* fadvise or fdatasync failed: ioping's message, no request after this one */
static void fail(struct ping_run *r, int err, const char *what)
{
	if (!r->err) {
		r->err = err;
		r->err_what = what;
	}
	ib_ping_source_end(&r->src);
	ib_loop_stop(&r->loop);
}

static void prep_hook(void *arg, struct ib_io *io)
{
	struct ping_run *r = arg;
	int e;

	if (!r->o->cached) {
		e = posix_fadvise(r->pp->fd, (off_t)io->offset, (off_t)io->len,
				  POSIX_FADV_DONTNEED);
		if (e)
			fail(r, e, "fadvise(DONTNEED) failed, please retry with option -C");
	}
	r->t0 = ib_clock_ns(&r->clock);
}

/* A -p/-P period is over: its raw line (or JSON), then a new period. */
static void end_period(struct ping_run *r, uint64_t now)
{
	const struct ib_ping_opts *o = r->o;

	ib_ping_stats_finish(&r->part, (int64_t)now, o->size);
	r->out->period(r->out->arg, &r->part, realtime_ns());
	ib_ping_stats_merge(&r->res->total, &r->part);
	ib_ping_stats_start(&r->part, (int64_t)now);
	r->period_deadline = (int64_t)now + o->print_interval_ns;
	r->out->flush(r->out->arg);
}

/*
 * One request completed at now: pacing, statistics (unless it is -N's
 * EAGAIN, shown as such with 0 bytes, as ioping does), its line, periods.
 */
static void account(struct ping_run *r, struct ib_ping_req *q, uint64_t now)
{
	const struct ib_ping_opts *o = r->o;

	ib_ping_source_complete(&r->src, now);
	q->request = r->src.completed;
	q->burst_end = o->burst && !r->src.burst_req;
	if (q->mark != IB_PING_MARK_EAGAIN)
		q->mark = ib_ping_stats_add(&r->part, &r->lim, q->request, q->time_ns);
	if (ib_ping_mark_valid(q->mark)) {
		ib_hist_add(r->res->hist, (uint64_t)q->time_ns);
		r->res->hist_n++;
	}
	q->realtime_ns = realtime_ns();
	r->out->request(r->out->arg, q);
	if ((o->print_count && r->part.valid >= o->print_count) ||
	    (o->print_interval_ns && (int64_t)r->src.time_next >= r->period_deadline))
		end_period(r, now);
	if (!o->quiet)
		r->out->flush(r->out->arg);
}

static void done_hook(void *arg, const struct ib_io *io)
{
	struct ping_run *r = arg;
	uint64_t t = io->done_ns;

	if (io->ddir == IB_DDIR_WRITE && !r->o->cached) {
		if (fdatasync(r->pp->fd) < 0)
			fail(r, errno, "fdatasync failed, please retry with option -C");
		t = ib_clock_ns(&r->clock);
	}
	account(r, &(struct ib_ping_req){ .size = io->xfer_total,
		.time_ns = (int64_t)(t - r->t0), .write = io->ddir == IB_DDIR_WRITE }, t);
}

/*
 * -N: the loop goes on after an EAGAIN (make_job) without calling the done
 * hook. The request then is still open when the source is asked again (or
 * when the loop ends): account it here, as ioping's "(EAGAIN)" line.
 */
static void settle_eagain(struct ping_run *r, uint64_t now)
{
	if (r->src.issued <= r->src.completed)
		return;
	account(r, &(struct ib_ping_req){ .time_ns = (int64_t)(now - r->t0),
		.write = r->last_ddir == IB_DDIR_WRITE, .mark = IB_PING_MARK_EAGAIN }, now);
}

static int wrap_next(struct ib_source *src, uint64_t now_ns, struct ib_io_desc *out)
{
	struct ping_run *r = ib_container_of(src, struct ping_run, wrap);
	int ret;

	settle_eagain(r, now_ns);
	ret = ib_source_next(ib_ping_source(&r->src), now_ns, out);
	if (ret == IB_SRC_READY)
		r->last_ddir = out->ddir;
	return ret;
}

static bool wrap_more(const struct ib_source *src)
{
	const struct ping_run *r = (const struct ping_run *)(const void *)
		((const char *)src - offsetof(struct ping_run, wrap));

	return ib_source_more(&r->src.src);
}

static const struct ib_source_ops wrap_ops = {
	.name = "ping-nowait", .next = wrap_next, .more = wrap_more,
};

static void tick_hook(void *arg, struct ib_loop *l, uint64_t now)
{
	(void)arg;
	(void)now;
	l->wake_ns = UINT64_MAX;
}

/* ioping's request as a job: one file, one unit, the request size. */
static void make_job(struct ping_run *r)
{
	/* EAGAIN is a result ("(EAGAIN)"), not a failure */
	static const struct ib_err_list eagain[IB_ERR_TYPE_NR] = {
		[IB_ERR_READ] = { 1, { EAGAIN } },
		[IB_ERR_WRITE] = { 1, { EAGAIN } },
	};
	const struct ib_ping_opts *o = r->o;
	struct ib_job *j = &r->job;
	unsigned int i;

	ib_job_defaults(j);	/* no strs: its strings and tables are static */
	j->name = "ping";
	j->rw = o->read_write ? IB_RW_READ | IB_RW_WRITE :
		o->write ? IB_RW_WRITE : IB_RW_READ;
	for (i = 0; i < IB_DDIR_RWT; i++)
		j->bs.min[i] = j->bs.max[i] = (uint64_t)o->size;
	j->direct = o->direct;
	j->refill_buffers = true;	/* ioping writes fresh random data */
	j->engine.hipri = o->hipri;
	j->engine.nowait = o->nowait;
	if (o->nowait) {
		j->continue_on_error = IB_COE_IO;
		j->ignore_error = eagain;
	}
	j->ioengine = o->async ? "io_uring" : (o->hipri || o->nowait) ? "pvsync2" : "psync";
	j->ioengine_given = !o->async;
	ib_job_fixup(j);
}

static int pick_engine(struct ping_run *r, FILE *warn, struct ib_diag *d)
{
	struct ib_iomode_cache cache = { .nr = 0 };
	char why[256] = "";
	int err = 0;

	r->ops = ib_iomode_engine(&r->job, &cache, why, sizeof(why), &err, d);
	if (!r->ops)
		return err ? err : -ENOSYS;
	if (why[0])
		fprintf(warn, "iobench ping: -A: %s; using %s\n", why, r->ops->name);
	r->res->engine = r->ops->name;
	return 0;
}

static int engine_init(struct ping_run *r, struct ib_diag *d)
{
	int ret;

	r->file = (struct ib_file){ .path = r->pp->path, .fd = r->pp->fd, .reg_index = -1,
		.is_bdev = r->pp->kind == IB_PING_BLOCK, .real_size = (uint64_t)r->pp->size,
		.io_offset = r->pp->work_offset, .io_size = (uint64_t)r->pp->work_size,
		.lbs = 512 };
	r->ctx = (struct ib_engine_ctx){ .job = &r->job, .files = &r->file, .nr_files = 1 };
	ret = ib_bufs_alloc(&r->bufs, &r->ctx, &r->job, 1, d);
	if (ret)
		return ret;
	ret = r->ops->init(&r->ctx);
	if (ret)
		return ib_diag_set(d, -ret, "ioengine=%s: init failed: %s", r->ops->name,
				   r->ctx.errmsg[0] ? r->ctx.errmsg : strerror(-ret));
	return 0;
}

static void source_init(struct ping_run *r)
{
	const struct ib_ping_opts *o = r->o;
	struct ib_ping_source_cfg c = {
		.offset = r->pp->work_offset, .work_size = (uint64_t)r->pp->work_size,
		.size = (uint32_t)o->size, .interval_ns = o->interval_ns,
		.burst = o->burst, .count = o->count, .deadline_ns = o->deadline_ns,
		.linear = o->linear, .read_write = o->read_write,
		.write = o->write > 0 && !o->read_write,
		.seed = o->entropy ? (uint32_t)(o->entropy ^ (o->entropy >> 32)) :
				     (uint32_t)realtime_ns(),
	};

	ib_ping_source_init(&r->src, &c);
}

static int setup(struct ping_run *r, const volatile sig_atomic_t *stop, FILE *warn,
		 struct ib_diag *d)
{
	struct ib_loop_cfg cfg;
	int ret;

	make_job(r);
	ret = pick_engine(r, warn, d);
	if (!ret)
		ret = engine_init(r, d);
	if (ret)
		return ret;
	r->st = calloc(1, sizeof(*r->st));
	r->res->hist = calloc(1, sizeof(*r->res->hist));
	if (!r->st || !r->res->hist)
		return ib_diag_set(d, ENOMEM, "no memory for the statistics");
	ib_clock_init(&r->clock, true);
	source_init(r);
	r->wrap.ops = &wrap_ops;
	cfg = (struct ib_loop_cfg){ .job = &r->job, .ops = r->ops, .ctx = &r->ctx,
		.src = &r->wrap, .st = r->st, .bufs = &r->bufs,
		.stop = stop, .clock = &r->clock, .lat_on = true,
		.hooks = { .tick = tick_hook, .prep = prep_hook, .done = done_hook },
		.arg = r };
	return ib_loop_init(&r->loop, &cfg, d);
}

static void teardown(struct ping_run *r)
{
	if (r->ops && r->ctx.ios)
		r->ops->cleanup(&r->ctx);
	ib_loop_free(&r->loop);
	ib_bufs_free(&r->ctx);
	free(r->st);
}

static void limits_init(struct ping_run *r)
{
	const struct ib_ping_opts *o = r->o;

	r->lim = (struct ib_ping_limits){ o->warmup, o->min_time_ns, o->max_time_ns };
}

/* The loop, then the final statistics; 0 or -errno (d: why). */
static int run_requests(struct ping_run *r, const volatile sig_atomic_t *stop,
			struct ib_diag *d)
{
	const struct ib_job_stats *st = r->st;
	uint64_t start = ib_clock_ns(&r->clock), end;
	int ret;

	limits_init(r);
	ib_ping_stats_start(&r->part, (int64_t)start);
	ib_ping_stats_start(&r->res->total, (int64_t)start);
	r->period_deadline = (int64_t)start + r->o->print_interval_ns;
	r->loop.last_ns = start;
	r->out->begin(r->out->arg);
	/* a SIGINT while the target was prepared: statistics of nothing */
	ret = *stop ? 0 : ib_loop_run(&r->loop);
	if (r->err)
		return ib_diag_set(d, r->err, "%s: %s", r->err_what, strerror(r->err));
	if (ret < 0 || r->loop.failed)
		return ib_diag_set(d, ret < 0 ? -ret : st->error, "request failed: %s",
				   st->error_where[0] ? st->error_where :
				   strerror(ret < 0 ? -ret : st->error));
	end = ib_clock_ns(&r->clock);
	settle_eagain(r, end);	/* the last request, when the loop ended on it */
	r->res->interrupted = *stop != 0;
	ib_ping_stats_finish(&r->part, (int64_t)end, r->o->size);
	ib_ping_stats_merge(&r->res->total, &r->part);
	ib_ping_stats_finish(&r->res->total, (int64_t)end, r->o->size);
	r->out->final(r->out->arg, &r->res->total, realtime_ns());
	r->out->flush(r->out->arg);
	return 0;
}

int ib_ping_run(const struct ib_ping_opts *o, struct ib_ping_prep *p,
		const struct ib_ping_sink *out,
		const volatile sig_atomic_t *stop, struct ib_ping_outcome *res,
		FILE *warn, struct ib_diag *d)
{
	struct ping_run *r = calloc(1, sizeof(*r));
	int ret;

	memset(res, 0, sizeof(*res));
	if (!r)
		return ib_diag_set(d, ENOMEM, "no memory");
	r->o = o;
	r->pp = p;
	r->out = out;
	r->res = res;
	ret = setup(r, stop, warn, d);
	res->started = !ret;
	if (!ret)
		ret = run_requests(r, stop, d);
	teardown(r);
	free(r);
	return ret;
}
