// SPDX-License-Identifier: GPL-2.0-only
/*
 * The validity checks (checks.h): one pure function each over the results
 * document and the job's evidence record, and the table that names them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/checks.h"
#include "iobench/hist.h"
#include "iobench/median.h"
#include "../report_common.h"

static const struct ib_job_stats *ST(const struct ib_check_ctx *c)
{
	return &c->res->stats[c->idx];
}

static const struct ib_res_job *JOB(const struct ib_check_ctx *c)
{
	return &c->res->jobs[c->idx];
}

static double mib(uint64_t b)
{
	return (double)b / 1048576.0;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/*
 * Percent of one CPU the job wanted: on a CPU or runnable waiting for one
 * (schedstat), else the CPU time it used (rusage) over its measured run;
 * -1: too short to tell.
 */
static double cpu_pct(const struct ib_job_stats *s, const struct ib_evidence *ev)
{
	if (ev->sched_ok && ev->sched_wall_ns >= 200000000ull)
		return 100.0 * (double)(ev->sched_run_ns + ev->sched_wait_ns) /
		       (double)ev->sched_wall_ns;
	if (ev->sched_ok || s->job_runtime_ms < 200)
		return -1.0;
	return (double)(s->usr_us + s->sys_us) / 10.0 / (double)s->job_runtime_ms;
}

/*
 * CPU-bound: wanting a CPU 90% of the time or more, and (schedstat)
 * blocking under 10 times a second: a job that sleeps on its I/O thousands
 * of times a second and then waits for a CPU a busy machine keeps from it
 * is short of CPU, but iobench is not its bottleneck.
 */
static bool cpu_bound(const struct ib_job_stats *s, const struct ib_evidence *ev,
		      double *p)
{
	*p = cpu_pct(s, ev);
	if (*p < 90.0)
		return false;
	return !ev->sched_ok || (double)ev->vol_switches * 1e8 < (double)ev->sched_wall_ns;
}

static bool memory_fs(const char *fstype)
{
	return !strcmp(fstype, "tmpfs") || !strcmp(fstype, "ramfs");
}

/* Buffered reads served from the page cache, not the device. */
static bool chk_page_cache(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_job_stats *s = ST(c);
	const struct ib_evidence *ev = c->ev;
	uint64_t rd = s->dir[0].io_bytes;

	if (!rd || s->direct || !s->ioengine[0] || !ev->disk[0] || memory_fs(ev->fstype))
		return false;
	if (ev->dev_ok) {
		if (ev->dev_read_bytes * 2 >= rd)
			return false;
		ib_check_msg(h, "buffered reads: %.0f%% of the %.1f MiB read never reached %s (it read %.1f MiB): the page cache was measured, not the device",
			     100.0 - pct(ev->dev_read_bytes, rd), mib(rd), ev->disk,
			     mib(ev->dev_read_bytes));
	} else if (ev->resident_ok && ev->resident_pages * 2 >= ev->range_pages &&
		   ev->range_pages) {
		ib_check_msg(h, "buffered reads: %.0f%% of the range was in the page cache before the job started",
			     pct(ev->resident_pages, ev->range_pages));
	} else {
		return false;
	}
	ib_check_ev_add(h, "read_bytes", (double)rd, true);
	if (ev->dev_ok)
		ib_check_ev_add(h, "device_read_bytes", (double)ev->dev_read_bytes, true);
	if (ev->resident_ok) {
		ib_check_ev_add(h, "resident_pages_before", (double)ev->resident_pages, true);
		ib_check_ev_add(h, "range_pages", (double)ev->range_pages, true);
	}
	return true;
}

/* direct=0 on a block device. */
static bool chk_buffered_device(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_job_stats *s = ST(c);

	if (c->ev->target_kind != IB_ENV_BLOCK || s->direct || !s->ioengine[0] ||
	    !(s->dir[0].io_bytes + s->dir[1].io_bytes))
		return false;
	ib_check_msg(h, "direct=0 on the block device %s: the page cache sits between the job and the device",
		     c->ev->disk);
	ib_check_ev_add(h, "direct", 0, true);
	return true;
}

/* Reads of holes, never-written or trimmed regions. */
static bool chk_unwritten(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_evidence *ev = c->ev;

	if (!ST(c)->dir[0].io_bytes || !ev->alloc_ok || !ev->alloc_size ||
	    ev->alloc_data * 10 >= ev->alloc_size * 9)
		return false;
	ib_check_msg(h, "reads of never-written regions: %.0f%% of the %.1f MiB range held no data when the job started (%s): they read back as zeroes without touching the media",
		     100.0 - pct(ev->alloc_data, ev->alloc_size), mib(ev->alloc_size),
		     ev->zram ? "zram" : ev->loop ? "holes of the loop device's backing file" :
				"holes of the file");
	ib_check_ev_add(h, "range_bytes", (double)ev->alloc_size, true);
	ib_check_ev_add(h, "data_bytes", (double)ev->alloc_data, true);
	return true;
}

/*
 * Written data that compresses: a warning on zram (it compresses), a note
 * elsewhere (a cloud volume or an SSD may compress or deduplicate).
 */
static bool chk_compressible(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_evidence *ev = c->ev;

	if (!ST(c)->dir[1].io_bytes || ev->compress_ratio < 0 || ev->compress_ratio >= 0.5)
		return false;
	if (!ev->zram)
		h->sev = IB_SEV_INFO;
	ib_check_msg(h, "the data written compresses to %.0f%% of its size%s: a compressing or deduplicating target stores far less than was written",
		     100.0 * ev->compress_ratio,
		     ev->zram ? " and the target is zram, which compresses it" : "");
	ib_check_ev_add(h, "compress_ratio", ev->compress_ratio, false);
	ib_check_ev_add(h, "zram", ev->zram, true);
	return true;
}

/* A job process near 100% of a CPU. */
static bool chk_cpu_bound(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_evidence *ev = c->ev;
	double p;

	if (!cpu_bound(ST(c), ev, &p))
		return false;
	ib_check_msg(h, "the job process wanted a CPU %.0f%% of the time (running or waiting to run): iobench, not the target, may be the limit", p);
	ib_check_ev_add(h, "cpu_percent", p, false);
	if (ev->sched_ok) {
		ib_check_ev_add(h, "run_ns", (double)ev->sched_run_ns, true);
		ib_check_ev_add(h, "runqueue_wait_ns", (double)ev->sched_wait_ns, true);
		ib_check_ev_add(h, "life_ns", (double)ev->sched_wall_ns, true);
		ib_check_ev_add(h, "voluntary_switches", (double)ev->vol_switches, true);
	}
	return true;
}

/*
 * More CPU-bound job processes (each wanting a CPU 90% of the time or
 * more) than CPUs in one batch: said once, on the batch's first job. Jobs
 * that sleep on I/O do not count, however long another program kept them
 * waiting for a CPU.
 */
static bool chk_cpu_over(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_evidence *ev = c->ev, *all = c->res->evidence;
	unsigned int i, busy = 0;
	double p;

	if (!ev->cpus || ev->batch_jobs <= ev->cpus)
		return false;
	for (i = 0; i < c->res->nr_jobs; i++) {
		if (!all[i].valid || all[i].batch != ev->batch)
			continue;
		if (i < c->idx)
			return false;
		busy += cpu_bound(&c->res->stats[i], &all[i], &p);
	}
	if (busy <= ev->cpus)
		return false;
	ib_check_msg(h, "%u job processes wanted a CPU all along and %u CPUs were allowed: the jobs competed for CPU time",
		     busy, ev->cpus);
	ib_check_ev_add(h, "jobs", ev->batch_jobs, true);
	ib_check_ev_add(h, "cpu_bound_jobs", busy, true);
	ib_check_ev_add(h, "cpus", ev->cpus, true);
	return true;
}

/* Achieved depth well below iodepth. */
static bool chk_depth_low(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_job_stats *s = ST(c);
	unsigned int depth = JOB(c)->iodepth, b, i;
	uint64_t total = ib_rep_total_ios(s), full = 0;

	/* paced I/O (rate, think time, a timed replay) keeps few in flight by
	 * design, and verify_only counts the writes it lists as issued */
	if (depth < 2 || c->ev->sync_engine || c->ev->paced || c->ev->verify_only ||
	    total < 8ull * depth)
		return false;
	b = ib_depth_bucket(depth);
	for (i = b; i < IB_DEPTH_NR; i++)
		full += s->depth[i];
	if (full * 2 >= total)
		return false;
	ib_check_msg(h, "iodepth=%u was asked, but only %.1f%% of the I/Os were submitted at that depth",
		     depth, pct(full, total));
	ib_check_ev_add(h, "iodepth", depth, true);
	ib_check_ev_add(h, "percent_at_depth", pct(full, total), false);
	return true;
}

static bool chk_sync_depth(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	unsigned int depth = JOB(c)->iodepth;

	if (!c->ev->sync_engine || depth < 2)
		return false;
	ib_check_msg(h, "ioengine=%s is synchronous: iodepth=%u is effectively 1",
		     ST(c)->ioengine, depth);
	ib_check_ev_add(h, "iodepth", depth, true);
	ib_check_ev_add(h, "effective_depth", 1, true);
	return true;
}

/* iodepth_batch_submit=N, and no submit call ever reached N's bucket. */
static bool chk_batch(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	static const unsigned int upto[IB_DEPTH_NR] = { 0, 4, 8, 16, 32, 64, 65 };
	const struct ib_job_stats *s = ST(c);
	unsigned int n = c->ev->iodepth_batch, b, i, top = 0;

	if (n < 2 || !s->total_submit_calls || ib_batch_bucket(n) == ib_batch_bucket(1))
		return false;
	b = ib_batch_bucket(n);
	for (i = 0; i < IB_DEPTH_NR; i++)
		if (s->submit[i])
			top = i;
	if (top >= b)
		return false;
	ib_check_msg(h, "iodepth_batch_submit=%u, but no submit call carried more than %u I/Os",
		     n, upto[top]);
	ib_check_ev_add(h, "iodepth_batch_submit", n, true);
	ib_check_ev_add(h, "max_per_submit", upto[top], true);
	return true;
}

/* A latency beyond the histogram's exact range. */
static bool chk_hist_range(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_job_stats *s = ST(c);
	uint64_t limit = ib_hist_value(IB_HIST_NR - 1), max = 0;
	unsigned int d, k;

	for (d = 0; d < IB_DDIR_RWT; d++)
		for (k = 0; k < IB_LAT_NR; k++)
			if (s->dir[d].lat[k].n && s->dir[d].lat[k].max > max)
				max = s->dir[d].lat[k].max;
	if (max <= limit)
		return false;
	ib_check_msg(h, "a latency of %.1f s is beyond the histogram's range (%.1f s): its percentiles are clamped",
		     (double)max / 1e9, (double)limit / 1e9);
	ib_check_ev_add(h, "max_ns", (double)max, true);
	ib_check_ev_add(h, "limit_ns", (double)limit, true);
	return true;
}

/* The highest percentile shown (below 100) needs more samples than there are. */
static bool chk_short_run(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_res_job *j = JOB(c);
	const struct ib_job_stats *s = ST(c);
	unsigned int k = j->lat_percentiles ? IB_LAT_TLAT : IB_LAT_CLAT, i, d;
	double p = 0, need;

	if (!c->ev->percentiles_given)
		return false;
	for (i = 0; i < j->nr_percentiles; i++)
		if (j->percentiles[i] < 100.0 && j->percentiles[i] > p)
			p = j->percentiles[i];
	if (p <= 0)
		return false;
	need = ceil(1.0 / (1.0 - p / 100.0) - 1e-9);
	for (d = 0; d < IB_DDIR_RWT; d++) {
		uint64_t n = s->dir[d].lat[k].n;

		if (!n || (double)n >= need)
			continue;
		ib_check_msg(h, "the %gth percentile needs %.0f samples, the %s latencies have %llu: it is the maximum, not a percentile",
			     p, need, d == 0 ? "read" : d == 1 ? "write" : "trim",
			     (unsigned long long)n);
		ib_check_ev_add(h, "percentile", p, false);
		ib_check_ev_add(h, "samples", (double)n, true);
		ib_check_ev_add(h, "samples_needed", need, true);
		return true;
	}
	return false;
}

/* time_based ended far from runtime=. */
static bool chk_runtime(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_evidence *ev = c->ev;
	const struct ib_job_stats *s = ST(c);
	uint64_t got = s->job_runtime_ms * 1000, want = ev->runtime_us;

	if (!ev->time_based || !want || s->error || s->ss.attained)
		return false;	/* a steady state attained ends it early (fio) */
	if (got * 10 >= want * 9 && got <= want + want / 10 + 1000000)
		return false;
	ib_check_msg(h, "time_based: the job ran %.3f s of runtime=%.3f s",
		     (double)got / 1e6, (double)want / 1e6);
	ib_check_ev_add(h, "runtime_ms", (double)s->job_runtime_ms, true);
	ib_check_ev_add(h, "runtime_asked_ms", (double)(want / 1000), true);
	return true;
}

/* Writes, no fsync, to a device whose write cache is on. */
static bool chk_write_cache(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_evidence *ev = c->ev;

	/* a loop or zram device's "write back" is no volatile device cache */
	if (!ST(c)->dir[1].io_bytes || ev->fsyncs || ev->write_cache != 1 ||
	    ev->loop || ev->zram || !ev->disk[0] || memory_fs(ev->fstype))
		return false;
	ib_check_msg(h, "%s has its write cache on and the job fsyncs nothing: writes may be counted when they reach the cache",
		     ev->disk);
	ib_check_ev_add(h, "write_cache", 1, true);
	ib_check_ev_add(h, "fsync", 0, true);
	return true;
}

/* Latency run (iodepth=1) without the performance governor. */
static bool chk_governor(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const char *g = c->ev->governor;

	if (JOB(c)->iodepth != 1 || !g[0] || !strcmp(g, "none") || !strcmp(g, "performance"))
		return false;
	ib_check_msg(h, "the CPU frequency governor is %s, not performance: latencies at iodepth=1 include frequency changes",
		     g);
	ib_check_ev_add(h, "performance", 0, true);
	return true;
}

/* A clock read costs more than it should (said on the first job). */
static bool chk_clock(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	if (c->idx || !c->ev->calibrated || c->ev->clock_ns <= 100.0)
		return false;
	ib_check_msg(h, "reading the clock costs %.0f ns: each I/O reads it several times", c->ev->clock_ns);
	ib_check_ev_add(h, "clock_ns", c->ev->clock_ns, false);
	return true;
}

/*
 * The job's rate reached half of iobench's own ceiling or more. The
 * ceiling is per CPU: a job that got only part of a CPU (schedstat) is
 * judged by the share of its CPU time iobench's own work took.
 */
static bool chk_tool_bound(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	const struct ib_job_stats *s = ST(c);
	const struct ib_evidence *ev = c->ev;
	double iops = 0, ios = 0, ceiling, share;
	unsigned int d;

	if (!ev->calibrated || ev->tool_ns_per_io <= 0)
		return false;
	ceiling = 1e9 / ev->tool_ns_per_io;
	for (d = 0; d < IB_DDIR_RWT; d++) {
		iops += ib_rep_iops(&s->dir[d]);
		ios += (double)ib_rep_ios(&s->dir[d]);
	}
	if (ev->sched_ok && ev->sched_run_ns)
		share = ios * ev->tool_ns_per_io / (double)ev->sched_run_ns;
	else
		share = iops / ceiling;
	if (share < 0.5)
		return false;
	ib_check_msg(h, "iobench's own work (%.0f ns per I/O, a ceiling of %.0f IOPS per job) took %.0f%% of the job's CPU time: the tool may be the limit",
		     ev->tool_ns_per_io, ceiling, 100.0 * (share > 1 ? 1 : share));
	ib_check_ev_add(h, "iops", iops, false);
	ib_check_ev_add(h, "ceiling_iops", ceiling, false);
	ib_check_ev_add(h, "tool_cpu_share", share, false);
	return true;
}

/* --- the rate series: warm-up, step, trend ------------------------------ */

#define SERIES_MIN 4

/*
 * The job's rate per interval (IOPS), without the last interval (the job
 * may have ended inside it). Returns how many, 0 if too few to judge.
 */
static unsigned int rates(const struct ib_evidence *ev, double *v)
{
	unsigned int i, n = ev->series_n ? ev->series_n - 1 : 0;

	if (n < SERIES_MIN || !ev->series_ms)
		return 0;
	for (i = 0; i < n; i++)
		v[i] = (double)ev->series[i] * 1000.0 / ev->series_ms;
	return n;
}

static double median(const double *v, unsigned int n)
{
	double s[IB_EV_SERIES];

	memcpy(s, v, n * sizeof(*v));
	return ib_median_sort(s, n);
}

static double mean(const double *v, unsigned int n)
{
	double s = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

/* No ramp (ramp_time, ramp_size), and the first interval under 25% of the steady end's rate. */
static bool chk_warmup(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	double v[IB_EV_SERIES], steady;
	unsigned int n = rates(c->ev, v);

	if (!n || c->ev->ramp_time_us || c->ev->ramp_size)
		return false;
	steady = median(v + n / 2, n - n / 2);
	if (steady <= 0 || v[0] >= 0.25 * steady)
		return false;
	ib_check_msg(h, "the first %g s ran at %.0f IOPS, the end at %.0f: a warm-up transient the numbers include (ramp_time= leaves it out)",
		     c->ev->series_ms / 1000.0, v[0], steady);
	ib_check_ev_add(h, "first_iops", v[0], false);
	ib_check_ev_add(h, "steady_iops", steady, false);
	ib_check_ev_add(h, "interval_ms", c->ev->series_ms, true);
	return true;
}

/*
 * The split with the largest drop that stays (the mean after under 20% of
 * the mean before, no interval after above 35% of it): *at, or false.
 */
static bool find_step(const double *v, unsigned int n, unsigned int *at,
		      double *before, double *after)
{
	unsigned int k, i;
	double best = 0;

	for (k = 2; k + 2 <= n; k++) {
		double b = mean(v, k), a = mean(v + k, n - k), mx = 0;

		for (i = k; i < n; i++)
			mx = v[i] > mx ? v[i] : mx;
		if (a >= 0.2 * b || mx >= 0.35 * b || b - a <= best)
			continue;
		best = b - a;
		*at = k;
		*before = b;
		*after = a;
	}
	return best > 0;
}

/* A large drop of the rate that stays (burst credits running out). */
static bool chk_step(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	double v[IB_EV_SERIES], b = 0, a = 0;
	unsigned int n = rates(c->ev, v), k = 0;

	if (n < SERIES_MIN + 1 || !find_step(v, n, &k, &b, &a))
		return false;
	ib_check_msg(h, "the rate dropped from %.0f to %.0f IOPS at %g s and stayed there (burst credits or a cache running out?)",
		     b, a, k * c->ev->series_ms / 1000.0);
	ib_check_ev_add(h, "at_s", k * c->ev->series_ms / 1000.0, false);
	ib_check_ev_add(h, "before_iops", b, false);
	ib_check_ev_add(h, "after_iops", a, false);
	return true;
}

/* Least squares over v[0..n): the relative change over the span, and r^2. */
static void fit(const double *v, unsigned int n, double *change, double *r2)
{
	double mx = (n - 1) / 2.0, my = mean(v, n), sxy = 0, sxx = 0, syy = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sxy += (i - mx) * (v[i] - my);
		sxx += (i - mx) * (i - mx);
		syy += (v[i] - my) * (v[i] - my);
	}
	*change = my > 0 && sxx > 0 ? sxy / sxx * (n - 1) / my : 0;
	*r2 = sxx > 0 && syy > 0 ? sxy * sxy / (sxx * syy) : 0;
}

/* Still trending at the end: the last half of the series on a clear slope. */
static bool chk_trend(const struct ib_check_ctx *c, struct ib_check_hit *h)
{
	double v[IB_EV_SERIES], change, r2, b, a;
	unsigned int n = rates(c->ev, v), m, k;

	if (n < 2 * SERIES_MIN || find_step(v, n, &k, &b, &a))
		return false;
	m = n - n / 2;
	fit(v + n / 2, m, &change, &r2);
	if (fabs(change) < 0.25 || r2 < 0.6)
		return false;
	ib_check_msg(h, "still trending at the end: the rate %s by %.0f%% over the last %g s: not a steady state",
		     change > 0 ? "rose" : "fell", 100.0 * fabs(change),
		     m * c->ev->series_ms / 1000.0);
	ib_check_ev_add(h, "change", change, false);
	ib_check_ev_add(h, "r2", r2, false);
	ib_check_ev_add(h, "span_s", m * c->ev->series_ms / 1000.0, false);
	return true;
}

const struct ib_check ib_checks[] = {
	{ "page-cache", IB_SEV_WARNING, chk_page_cache, "buffered reads served from the page cache" },
	{ "buffered-device", IB_SEV_WARNING, chk_buffered_device, "direct=0 on a block device" },
	{ "unwritten", IB_SEV_WARNING, chk_unwritten, "reads of holes or never-written regions (files, loop, zram)" },
	{ "compressible", IB_SEV_WARNING, chk_compressible, "data that compresses, or a compressing target (zram)" },
	{ "cpu-bound", IB_SEV_WARNING, chk_cpu_bound, "a job process near 100% of a CPU" },
	{ "cpu-oversubscribed", IB_SEV_WARNING, chk_cpu_over, "more busy job processes than CPUs" },
	{ "depth-low", IB_SEV_WARNING, chk_depth_low, "achieved depth below iodepth" },
	{ "sync-depth", IB_SEV_WARNING, chk_sync_depth, "a synchronous engine with iodepth > 1" },
	{ "batch-unfilled", IB_SEV_INFO, chk_batch, "submission batches that never fill" },
	{ "hist-range", IB_SEV_WARNING, chk_hist_range, "latencies beyond the histogram's range" },
	{ "short-run", IB_SEV_WARNING, chk_short_run, "fewer samples than the highest percentile needs" },
	{ "runtime-off", IB_SEV_WARNING, chk_runtime, "a time_based job that ended far from runtime=" },
	{ "write-cache", IB_SEV_WARNING, chk_write_cache, "device write cache on, no fsync" },
	{ "governor", IB_SEV_INFO, chk_governor, "CPU governor not performance at iodepth=1" },
	{ "clock-cost", IB_SEV_WARNING, chk_clock, "a clock read above 100 ns" },
	{ "tool-bound", IB_SEV_WARNING, chk_tool_bound, "a job at half of iobench's own ceiling or more" },
	{ "warm-up", IB_SEV_WARNING, chk_warmup, "no ramp_time and a slow first interval" },
	{ "step", IB_SEV_WARNING, chk_step, "a large rate drop that stays" },
	{ "trend", IB_SEV_WARNING, chk_trend, "the rate still trending at the end" },
};

const unsigned int ib_nr_checks = sizeof(ib_checks) / sizeof(ib_checks[0]);

unsigned int ib_checks_run(const struct ib_results *res, unsigned int idx,
			   uint64_t mask, struct ib_check_hit *out, unsigned int max)
{
	struct ib_check_ctx c = { res, idx, NULL };
	unsigned int i, n = 0;

	if (!res->evidence || !res->stats || idx >= res->nr_jobs ||
	    !res->evidence[idx].valid)
		return 0;
	c.ev = &res->evidence[idx];
	for (i = 0; i < ib_nr_checks && n < max; i++) {
		if (!(mask & (1ull << i)))
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		out[n].id = ib_checks[i].id;
		out[n].sev = ib_checks[i].sev;
		if (ib_checks[i].fn(&c, &out[n]))
			n++;
	}
	return n;
}
