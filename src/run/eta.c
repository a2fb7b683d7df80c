// SPDX-License-Identifier: GPL-2.0-only
/*
 * Live status line (see eta.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "eta.h"
#include "iobench/num2str.h"
#include "iobench/source_paced.h"

struct out {
	char *buf;
	size_t len, pos;
};

static void ap(struct out *o, const char *fmt, ...) ib_printf_fmt(2, 3);
static void ap(struct out *o, const char *fmt, ...)
{
	va_list va;
	int n;

	if (o->pos >= o->len)
		return;
	va_start(va, fmt);
	n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, va);
	va_end(va);
	if (n > 0)
		o->pos += (size_t)n < o->len - o->pos ? (size_t)n : o->len - o->pos - 1;
}

static uint64_t rd(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static char state_of(const struct ib_job_stats *s)
{
	uint32_t v = __atomic_load_n(&s->live.state, __ATOMIC_RELAXED);

	return v ? (char)v : (char)IB_ST_NOT_STARTED;
}

static bool is_running(char c)
{
	return !strchr("PCI_XEK", c);
}

void ib_eta_str(char *buf, size_t len, uint64_t secs)
{
	unsigned long long d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60;
	unsigned long long s = secs % 60;

	if (d)
		snprintf(buf, len, "%02llud:%02lluh:%02llum:%02llus", d, h, m, s);
	else if (h)
		snprintf(buf, len, "%02lluh:%02llum:%02llus", h, m, s);
	else
		snprintf(buf, len, "%02llum:%02llus", m, s);
}

size_t ib_eta_runstr(char *buf, size_t len, const struct ib_plan *run,
		     const struct ib_job_stats *stats)
{
	struct out o = { buf, len, 0 };
	unsigned int i = 0, n;
	char c;

	buf[0] = '\0';
	while (i < run->nr_jobs) {
		c = state_of(&stats[i]);
		for (n = 1; i + n < run->nr_jobs && state_of(&stats[i + n]) == c; n++)
			;
		ap(&o, "%s%c(%u)", i ? "," : "", c, n);
		i += n;
	}
	return o.pos;
}

/* Microseconds left for one job, or -1 if unknown. */
static int64_t job_eta(const struct ib_job *j, const struct ib_job_stats *s, uint64_t now)
{
	uint64_t start = rd(&s->live.start_ns), el, total, done = 0;
	int64_t by_time = -1, by_size = -1;
	unsigned int d;
	char c = state_of(s);

	if (strchr("_XEK", c))
		return 0;
	el = start && now > start ? (now - start) / 1000 : 0;	/* µs */
	if (j->runtime_us) {
		total = j->runtime_us + j->ramp_time_us;
		by_time = el >= total ? 0 : (int64_t)(total - el);
	}
	total = ib_live_plan(&s->live, j);
	for (d = 0; d < IB_DDIR_RWT; d++)
		done += rd(&s->live.io_bytes[d]);
	if (!j->time_based && total && done && el)
		by_size = done >= total ? 0 :
			  (int64_t)((double)el * ((double)total / (double)done - 1.0));
	if (!start)
		return -1;
	if (by_time >= 0 && by_size >= 0)
		return by_time < by_size ? by_time : by_size;
	return by_time >= 0 ? by_time : by_size;
}

/*
 * Microseconds left in the run: the longest remaining among started jobs,
 * plus, for every later group whose jobs have not started, its longest
 * runtime+ramp_time (groups run one after the other).
 */
static int64_t run_eta(const struct ib_plan *run, const struct ib_job_stats *stats,
		       uint64_t now)
{
	int64_t eta = 0, e, group_max = 0;
	unsigned int i, gid = UINT32_MAX, cur = 0;
	bool any = false;

	for (i = 0; i < run->nr_jobs; i++) {
		if (!rd(&stats[i].live.start_ns) && !strchr("_XEK", state_of(&stats[i])))
			continue;
		e = job_eta(&run->jobs[i], &stats[i], now);
		eta = e > eta ? e : eta;
		cur = run->jobs[i].groupid > cur ? run->jobs[i].groupid : cur;
		any = true;
	}
	for (i = 0; i < run->nr_jobs; i++) {
		const struct ib_job *j = &run->jobs[i];

		if (rd(&stats[i].live.start_ns) || strchr("_XEK", state_of(&stats[i])))
			continue;
		e = (int64_t)(j->runtime_us + j->ramp_time_us);
		if (any && j->groupid <= cur) {	/* late starter of the running group */
			eta = e > eta ? e : eta;
			continue;
		}
		if (j->groupid != gid) {	/* a pending group starts */
			eta += group_max;
			group_max = 0;
			gid = j->groupid;
		}
		group_max = e > group_max ? e : group_max;
	}
	return eta + group_max;
}

/*
 * The rates shown are the means over at least IB_ETA_RATE_NS (a status
 * line every 250 ms would otherwise show each burst of a paced job, or of
 * an open loop catching up, as its rate); in between the last ones stay.
 */
static void update_rates(struct ib_eta_state *st, const struct ib_plan *run,
			 const struct ib_job_stats *stats, uint64_t now)
{
	uint64_t bytes[IB_DDIR_RWT] = { 0 }, ios[IB_DDIR_RWT] = { 0 }, dt;
	unsigned int i, d;

	dt = now - st->last_ns;
	if (st->last_ns && dt < IB_ETA_RATE_NS)
		return;
	for (i = 0; i < run->nr_jobs; i++)
		for (d = 0; d < IB_DDIR_RWT; d++) {
			bytes[d] += rd(&stats[i].live.io_bytes[d]);
			ios[d] += rd(&stats[i].live.ios[d]);
		}
	for (d = 0; d < IB_DDIR_RWT; d++) {
		if (st->last_ns && dt) {
			st->bw[d] = (uint64_t)((double)(bytes[d] - st->last_bytes[d]) * 1e9 / (double)dt);
			st->iops[d] = (uint64_t)((double)(ios[d] - st->last_ios[d]) * 1e9 / (double)dt);
		}
		st->last_bytes[d] = bytes[d];
		st->last_ios[d] = ios[d];
	}
	st->last_ns = now;
}

static void rates(struct out *o, const struct ib_eta_state *st)
{
	static const char dl[IB_DDIR_RWT] = { 'r', 'w', 't' };
	unsigned int d, n = 0;
	char b[32];

	for (d = 0; d < IB_DDIR_RWT; d++)
		if (st->bw[d] || st->iops[d])
			n++;
	if (!n)
		return;
	ap(o, "[");
	for (d = 0, n = 0; d < IB_DDIR_RWT; d++)
		if (st->bw[d] || st->iops[d])
			ap(o, "%s%c=%s", n++ ? "," : "", dl[d],
			   ib_num2str(st->bw[d] / 1024, 4, 1024, true, "B/s", b, sizeof(b)));
	ap(o, "][");
	for (d = 0, n = 0; d < IB_DDIR_RWT; d++)
		if (st->bw[d] || st->iops[d])
			ap(o, "%s%c=%s", n++ ? "," : "", dl[d],
			   ib_num2str(st->iops[d], 4, 1, false, "", b, sizeof(b)));
	ap(o, " IOPS]");
}

static void progress(struct out *o, const struct ib_plan *run, const struct ib_job_stats *stats,
		     uint64_t now, uint64_t run_start, int64_t eta_us)
{
	double el = (double)(now - run_start) / 1e3;	/* µs */
	unsigned int i;
	bool all_ramp = true;
	char runstr[256];

	for (i = 0; i < run->nr_jobs; i++)
		if (state_of(&stats[i]) != IB_ST_RAMP)
			all_ramp = false;
	ib_eta_runstr(runstr, sizeof(runstr), run, stats);
	ap(o, ": [%s]", runstr);
	if (all_ramp)
		ap(o, "[-.-%%]");
	else
		ap(o, "[%3.1f%%]", el + (double)eta_us > 0 ?
		   el * 100.0 / (el + (double)eta_us) : 100.0);
}

/* Has any job started (or already ended)? Before that there is no line. */
static bool any_started(const struct ib_plan *run, const struct ib_job_stats *stats)
{
	unsigned int i;

	for (i = 0; i < run->nr_jobs; i++)
		if (rd(&stats[i].live.start_ns) || strchr("_XEK", state_of(&stats[i])))
			return true;
	return false;
}

/* fio's ", MIN-MAX" (or "..IOPS") of the rate limits of the jobs doing I/O. */
static void rate_limits(struct out *o, const struct ib_plan *run,
			const struct ib_job_stats *stats)
{
	struct ib_pace_rates sum = { 0, 0, 0, 0 };
	struct ib_pace_cfg c;
	unsigned int i, d, dirs;
	uint32_t state;
	char txt[96];

	for (i = 0; i < run->nr_jobs; i++) {
		state = state_of(&stats[i]);
		if (!is_running(state) || state == IB_ST_RAMP || state == IB_ST_SETUP)
			continue;
		for (d = 0, dirs = 0; d < IB_DDIR_RWT; d++)
			if (ib_job_dir_active(&run->jobs[i], (int)d))
				dirs |= 1u << d;
		ib_pace_cfg_from_job(&c, &run->jobs[i]);
		ib_pace_rates_add(&sum, &c, dirs);
	}
	if (ib_pace_rates_str(&sum, txt, sizeof(txt)))
		ap(o, "%s", txt);
}

size_t ib_eta_format(char *buf, size_t len, const struct ib_plan *run,
		     const struct ib_job_stats *stats, uint64_t now_ns,
		     uint64_t run_start_ns, struct ib_eta_state *st)
{
	struct out o = { buf, len, 0 };
	unsigned int i, n = 0, files = 0;
	uint64_t el = now_ns > run_start_ns ? now_ns - run_start_ns : 0;
	int64_t eta;
	char etas[32];
	size_t content;

	if (!len)
		return 0;
	buf[0] = '\0';
	if (!any_started(run, stats))
		return 0;	/* "Jobs: 0 (f=0)" would say nothing */
	for (i = 0; i < run->nr_jobs; i++) {
		if (!is_running(state_of(&stats[i])))
			continue;
		n++;
		files += __atomic_load_n(&stats[i].live.nr_files_open, __ATOMIC_RELAXED);
	}
	update_rates(st, run, stats, now_ns);
	ap(&o, "Jobs: %u (f=%u)", n, files);
	rate_limits(&o, run, stats);
	if (el >= IB_ETA_RATE_NS) {
		eta = run_eta(run, stats, now_ns);
		progress(&o, run, stats, now_ns, run_start_ns, eta);
		rates(&o, st);
		/* whole seconds, rounded up: "eta 00m:00s" only at the end */
		ib_eta_str(etas, sizeof(etas), (uint64_t)(eta + 999999) / 1000000);
		ap(&o, "[eta %s]", etas);
	}
	content = o.pos;
	while (o.pos < st->last_len && o.pos + 1 < len)
		buf[o.pos++] = ' ';
	buf[o.pos] = '\0';
	st->last_len = content;
	return o.pos;
}
