// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live view (liveview.h): the last interval's numbers per job or
 * group, drawn as a table in place on the terminal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/liveview.h"
#include "iobench/num2str.h"
#include "stream_priv.h"

struct row {
	bool have;
	uint64_t ios[2], bytes[2], p99[2];
	uint64_t span_ns, errors;
};

struct ib_liveview {
	const struct ib_plan *run;
	FILE *tty;
	struct row *rows;	/* per job index (a group's: its first job) */
	unsigned int drawn;	/* lines of the table on the screen */
	/* a host's line (MPI): the interval's rows' histograms merged */
	struct ib_live_host *host;
	struct ib_hist *hh;	/* [2], or NULL */
	uint64_t hh_ms;		/* their interval */
};

static const double p99 = 99.0;

int ib_liveview_new(struct ib_liveview **out, const struct ib_plan *run, FILE *tty)
{
	struct ib_liveview *lv = calloc(1, sizeof(*lv));

	*out = NULL;
	if (!lv)
		return -ENOMEM;
	lv->rows = calloc(run->nr_jobs ? run->nr_jobs : 1, sizeof(*lv->rows));
	if (!lv->rows) {
		free(lv);
		return -ENOMEM;
	}
	lv->run = run;
	lv->tty = tty;
	*out = lv;
	return 0;
}

int ib_liveview_new_host(struct ib_liveview **out, const struct ib_plan *run,
			 struct ib_live_host *dst)
{
	int ret = ib_liveview_new(out, run, NULL);

	if (ret)
		return ret;
	(*out)->hh = calloc(2, sizeof(*(*out)->hh));
	if (!(*out)->hh) {
		ib_liveview_free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	(*out)->host = dst;
	return 0;
}

void ib_liveview_free(struct ib_liveview *lv)
{
	if (!lv)
		return;
	free(lv->hh);
	free(lv->rows);
	free(lv);
}

static unsigned int index_of(const struct ib_plan *run, const struct ib_job *j)
{
	return (unsigned int)(j - run->jobs);
}

void liveview_line(struct ib_liveview *lv, const struct sline *l)
{
	struct row *r;
	unsigned int d;

	if (l->job->group_reporting != l->group)
		return; /* a grouped job shows as its group */
	r = &lv->rows[index_of(lv->run, l->job)];
	r->have = true;
	r->span_ns = l->span_ns;
	r->errors = l->errors;
	if (lv->hh && l->time_ms != lv->hh_ms) {	/* a new interval */
		memset(lv->hh, 0, 2 * sizeof(*lv->hh));
		lv->hh_ms = l->time_ms;
	}
	for (d = 0; d < 2; d++) {
		r->ios[d] = l->dir[d].ios;
		r->bytes[d] = l->dir[d].bytes;
		r->p99[d] = 0;
		if (l->dir[d].n)
			ib_hist_percentiles(&l->dir[d].hist, l->dir[d].n, &p99, 1, &r->p99[d]);
		if (lv->hh && l->dir[d].n)
			ib_hist_merge(&lv->hh[d], &l->dir[d].hist);
	}
}

void ib_liveview_lat(char *b, size_t len, uint64_t ns)
{
	if (!ns)
		snprintf(b, len, "-");
	else if (ns < 10000)
		snprintf(b, len, "%lluns", (unsigned long long)ns);
	else if (ns < 10000000)
		snprintf(b, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 10000000000ull)
		snprintf(b, len, "%.1fms", (double)ns / 1e6);
	else
		snprintf(b, len, "%.2fs", (double)ns / 1e9);
}

/* Per second over the row's span, as an integer. */
static uint64_t per_s(uint64_t v, uint64_t span_ns)
{
	return span_ns ? (uint64_t)((double)v * 1e9 / (double)span_ns + 0.5) : 0;
}

static void dir_cells(FILE *f, const struct row *r, unsigned int d)
{
	char iops[32], bw[32], lat[32];

	ib_num2str(per_s(r->ios[d], r->span_ns), 4, 1, false, "", iops, sizeof(iops));
	ib_num2str(per_s(r->bytes[d], r->span_ns) / 1024, 4, 1024, true, "B/s", bw, sizeof(bw));
	ib_liveview_lat(lat, sizeof(lat), r->p99[d]);
	fprintf(f, " %7s %10s %9s", iops, bw, lat);
}

/* Done, in percent: by time for a timed job, else by bytes. */
static unsigned int progress(const struct ib_job *j, const struct ib_job_stats *s,
			     uint64_t now)
{
	uint64_t start = __atomic_load_n(&s->live.start_ns, __ATOMIC_RELAXED), done = 0;
	uint64_t total = ib_live_plan(&s->live, j);
	uint32_t st = __atomic_load_n(&s->live.state, __ATOMIC_RELAXED);
	double f = 0.0;
	unsigned int d;

	if (st == IB_ST_DONE || st == IB_ST_EXITED)
		return 100;
	if (!start || now <= start)
		return 0;
	for (d = 0; d < IB_DDIR_RWT; d++)
		done += __atomic_load_n(&s->live.io_bytes[d], __ATOMIC_RELAXED);
	if (j->runtime_us)
		f = (double)(now - start) / 1e3 / (double)(j->runtime_us + j->ramp_time_us);
	if (!j->time_based && total && (double)done / (double)total > f)
		f = (double)done / (double)total;
	return f >= 1.0 ? 100 : (unsigned int)(f * 100.0);
}

static char state_of(const struct ib_job_stats *s)
{
	uint32_t v = __atomic_load_n(&s->live.state, __ATOMIC_RELAXED);

	return v ? (char)v : (char)IB_ST_NOT_STARTED;
}

static void hms(char *b, size_t len, uint64_t s)
{
	snprintf(b, len, "%02llum:%02llus", (unsigned long long)(s / 60),
		 (unsigned long long)(s % 60));
}

/* Seconds left: the slowest running job's, from its progress so far. */
static uint64_t eta_s(const struct ib_plan *run, const struct ib_run_view *v,
		      unsigned int *running)
{
	uint64_t eta = 0, el, e, start;
	unsigned int i, pct;

	*running = 0;
	for (i = 0; i < run->nr_jobs; i++) {
		if (!v->started[i] || v->reaped[i])
			continue;
		(*running)++;
		start = __atomic_load_n(&v->stats[i].live.start_ns, __ATOMIC_RELAXED);
		pct = progress(&run->jobs[i], &v->stats[i], v->now_ns);
		if (!start || !pct || v->now_ns <= start)
			continue;
		el = (v->now_ns - start) / 1000000000ull;
		e = pct >= 100 ? 0 : el * (100 - pct) / pct;
		eta = e > eta ? e : eta;
	}
	return eta;
}

static void header(struct ib_liveview *lv, const struct ib_run_view *v)
{
	char el[48], eta[48];
	unsigned int running;

	hms(el, sizeof(el), (v->now_ns - v->start_ns) / 1000000000ull);
	hms(eta, sizeof(eta), eta_s(lv->run, v, &running));
	fprintf(lv->tty, "\033[2Kiobench: %s elapsed, eta %s, %u of %u jobs running\n",
		el, eta, running, lv->run->nr_jobs);
	fprintf(lv->tty, "\033[2K%-16s %2s %7s %10s %9s %7s %10s %9s %5s %4s\n", "job",
		"st", "r IOPS", "r BW", "r p99", "w IOPS", "w BW", "w p99", "done", "err");
}

static bool is_row(const struct ib_plan *run, unsigned int i)
{
	return !run->jobs[i].group_reporting || i == 0 ||
	       run->jobs[i - 1].groupid != run->jobs[i].groupid ||
	       !run->jobs[i - 1].group_reporting;
}

static void one_row(struct ib_liveview *lv, const struct ib_run_view *v,
		    unsigned int i, struct row *total)
{
	const struct ib_job *j = &lv->run->jobs[i];
	const struct row *r = &lv->rows[i];
	char name[24];
	unsigned int d;

	if (j->group_reporting)
		snprintf(name, sizeof(name), "group.%u", j->groupid);
	else
		snprintf(name, sizeof(name), "%.12s.%u", j->name, j->number);
	fprintf(lv->tty, "\033[2K%-16s %2c", name, state_of(&v->stats[i]));
	for (d = 0; d < 2; d++)
		dir_cells(lv->tty, r, d);
	fprintf(lv->tty, " %4u%% %4llu\n", progress(j, &v->stats[i], v->now_ns),
		(unsigned long long)r->errors);
	for (d = 0; d < 2 && r->have; d++) {
		total->ios[d] += per_s(r->ios[d], r->span_ns);
		total->bytes[d] += per_s(r->bytes[d], r->span_ns);
	}
	total->errors += r->errors;
}

#define MAX_ROWS 20

void ib_liveview_erase(struct ib_liveview *lv)
{
	unsigned int i;

	if (!lv->drawn)
		return;
	fprintf(lv->tty, "\r\033[%uA", lv->drawn);
	for (i = 0; i < lv->drawn; i++)
		fputs("\033[2K\n", lv->tty);
	fprintf(lv->tty, "\033[%uA", lv->drawn);
	lv->drawn = 0;
	fflush(lv->tty);
}

/* The host's line (MPI): its rows summed, p99 over all its I/Os. */
static void host_line(struct ib_liveview *lv, const struct ib_run_view *v,
		      struct ib_live_host *o)
{
	const struct ib_plan *run = lv->run;
	unsigned int i, d, pct;
	uint64_t n;

	o->done_pct = 100;
	o->state = state_of(&v->stats[0]);
	for (i = 0; i < run->nr_jobs; i++) {
		const struct row *r = &lv->rows[i];

		o->jobs++;
		if (v->started[i] && !v->reaped[i] && !o->running++)
			o->state = state_of(&v->stats[i]);
		if (!is_row(run, i))
			continue;
		pct = progress(&run->jobs[i], &v->stats[i], v->now_ns);
		o->done_pct = pct < o->done_pct ? pct : o->done_pct;
		for (d = 0; d < 2 && r->have; d++) {
			o->iops[d] += per_s(r->ios[d], r->span_ns);
			o->bw[d] += per_s(r->bytes[d], r->span_ns);
		}
		o->errors += r->errors;
	}
	for (d = 0; d < 2; d++) {
		for (n = 0, i = 0; i < IB_HIST_NR; i++)
			n += lv->hh[d].count[i];
		if (n)
			ib_hist_percentiles(&lv->hh[d], n, &p99, 1, &o->p99[d]);
	}
}

/* Publish it: odd sequence while the line changes, even when done. */
static void host_publish(struct ib_liveview *lv, const struct ib_run_view *v)
{
	struct ib_live_host line = { 0 };
	uint64_t seq = __atomic_load_n(&lv->host->seq, __ATOMIC_RELAXED);

	host_line(lv, v, &line);
	__atomic_store_n(&lv->host->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(lv->host->iops, line.iops, sizeof(line.iops));
	memcpy(lv->host->bw, line.bw, sizeof(line.bw));
	memcpy(lv->host->p99, line.p99, sizeof(line.p99));
	lv->host->errors = line.errors;
	lv->host->jobs = line.jobs;
	lv->host->running = line.running;
	lv->host->done_pct = line.done_pct;
	lv->host->state = line.state;
	__atomic_store_n(&lv->host->seq, seq + 2, __ATOMIC_RELEASE);
}

bool ib_live_host_read(const struct ib_live_host *src, struct ib_live_host *dst)
{
	uint64_t s1 = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE), s2;

	memcpy(dst, src, sizeof(*dst));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	s2 = __atomic_load_n(&src->seq, __ATOMIC_RELAXED);
	dst->seq = s1;
	return s1 == s2 && !(s1 & 1);
}

void ib_liveview_draw(struct ib_liveview *lv, const struct ib_run_view *v)
{
	struct row total = { .have = true, .span_ns = 1000000000ull };
	unsigned int i, n = 0, d;

	if (lv->host) {
		host_publish(lv, v);
		return;
	}
	if (v->final) {
		ib_liveview_erase(lv);
		return;
	}
	if (lv->drawn)
		fprintf(lv->tty, "\r\033[%uA", lv->drawn);
	header(lv, v);
	for (i = 0; i < lv->run->nr_jobs; i++) {
		if (!is_row(lv->run, i))
			continue;
		if (n++ < MAX_ROWS)
			one_row(lv, v, i, &total);
	}
	if (n > MAX_ROWS)
		fprintf(lv->tty, "\033[2K(%u more)\n", n - MAX_ROWS);
	fprintf(lv->tty, "\033[2K%-16s %2s", "total", "");
	for (d = 0; d < 2; d++)
		dir_cells(lv->tty, &total, d);
	fprintf(lv->tty, " %5s %4llu\n", "", (unsigned long long)total.errors);
	lv->drawn = 3 + (n < MAX_ROWS ? n : MAX_ROWS) + (n > MAX_ROWS);
	fflush(lv->tty);
}
