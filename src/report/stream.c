// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-interval stream (stream.h): which interval is due, each job's
 * snapshot for it, the differences, the group sums.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/liveview.h"
#include "iobench/stream.h"
#include "stream_priv.h"

struct sjob {
	bool seen;		/* has had a line */
	bool retired;		/* its final line is written */
	uint64_t base_t_ns;	/* when base was taken (0: none yet) */
	struct ib_iv_snap base;	/* the cumulative numbers already written */
};

struct ib_stream {
	const struct ib_plan *run;
	FILE *f;			/* the NDJSON lines, or NULL */
	struct ib_liveview *lv;		/* the live view, or NULL */
	uint64_t ival_ns;
	uint64_t next_k;	/* the next interval to write */
	uint64_t last_end_ns;	/* the previous interval's end */
	struct sjob *jobs;
	struct ib_iv_snap cur;	/* scratch: a job's snapshot */
	struct sline line;	/* scratch: a job's line */
	struct sline *groups;	/* per job index: the group's line, when its first */
};

int ib_stream_new(struct ib_stream **out, const struct ib_plan *run, FILE *f,
		  struct ib_liveview *lv)
{
	struct ib_stream *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->run = run;
	s->f = f;
	s->lv = lv;
	s->ival_ns = run->interval_ms * 1000000ull;
	s->next_k = 1;
	s->jobs = calloc(run->nr_jobs ? run->nr_jobs : 1, sizeof(*s->jobs));
	s->groups = calloc(run->nr_jobs ? run->nr_jobs : 1, sizeof(*s->groups));
	if (!s->jobs || !s->groups) {
		ib_stream_free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

void ib_stream_free(struct ib_stream *s)
{
	if (!s)
		return;
	free(s->jobs);
	free(s->groups);
	free(s);
}

/* Has job i's newest snapshot reached interval k (or its end)? */
static bool job_ready(const struct ib_iv_ring *r, uint64_t k)
{
	uint64_t n = __atomic_load_n(&r->published, __ATOMIC_ACQUIRE);
	const struct ib_iv_snap *e;

	if (!n)
		return true; /* nothing yet (ramp, setup): not waited for */
	e = &r->e[(n - 1) % IB_IV_RING];
	return __atomic_load_n(&e->final, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&e->k, __ATOMIC_RELAXED) >= k;
}

static bool all_ready(const struct ib_stream *s, const struct ib_run_view *v, uint64_t k)
{
	unsigned int i;

	for (i = 0; i < s->run->nr_jobs; i++)
		if (v->started[i] && !v->reaped[i] && !s->jobs[i].retired &&
		    !job_ready(&v->rings[i], k))
			return false;
	return true;
}

/*
 * Job i's cumulative numbers for the interval ending at end_ns (index k):
 * its snapshot, or its final slot when it ended without one (killed).
 * false: nothing new.
 */
static bool job_cur(struct ib_stream *s, const struct ib_run_view *v, unsigned int i,
		    uint64_t k, uint64_t end_ns, bool last)
{
	const struct ib_iv_ring *r = &v->rings[i];
	const struct sjob *sj = &s->jobs[i];
	uint64_t n = __atomic_load_n(&r->published, __ATOMIC_ACQUIRE);
	bool dead = v->reaped[i] &&
		    (!n || !__atomic_load_n(&r->e[(n - 1) % IB_IV_RING].final,
					    __ATOMIC_ACQUIRE));

	if (!dead)
		return ib_iv_read_upto(r, last ? UINT64_MAX : k,
				       last ? UINT64_MAX : end_ns, &s->cur) &&
		       s->cur.t_ns != sj->base_t_ns;
	/* ended without its final snapshot (killed): the slot is final */
	ib_iv_from_stats(&s->cur, &v->stats[i], ib_iv_kind(&v->run->jobs[i]), end_ns);
	s->cur.gen = sj->base.gen;
	s->cur.measure_ns = sj->base_t_ns ? sj->base_t_ns : v->start_ns;
	return true;
}

/* Job i's line for the interval ending at end_ns; false: none. */
static bool job_line(struct ib_stream *s, const struct ib_run_view *v,
		     unsigned int i, uint64_t k, uint64_t end_ns, bool last)
{
	struct sjob *sj = &s->jobs[i];
	struct sline *l = &s->line;
	const struct ib_job *job = &v->run->jobs[i];
	bool fresh, restart;
	uint64_t from;
	unsigned int d;

	if (!job->stats || sj->retired || (!v->started[i] && !v->reaped[i]))
		return false; /* stats=0: in no report */
	fresh = job_cur(s, v, i, k, end_ns, last);
	if (!fresh && !sj->seen)
		return false;
	if (sj->seen && sj->base.final)
		return false;
	if (!fresh) { /* nothing new: an empty line */
		s->cur = sj->base;
		s->cur.inflight = 0;
	}
	restart = fresh && (!sj->seen || s->cur.gen != sj->base.gen);
	memset(l, 0, sizeof(*l));
	sline_from(l, &s->cur, &sj->base, restart);
	l->job = job;
	l->kind = ib_iv_kind(job);
	l->time_ms = (end_ns - v->start_ns) / 1000000;
	from = restart ? s->cur.measure_ns : sj->base_t_ns;
	if (!fresh)
		from = s->last_end_ns, s->cur.t_ns = end_ns;
	l->span_ns = s->cur.t_ns > from ? s->cur.t_ns - from : 0;
	for (d = 0; d < IB_DDIR_RWT; d++)
		if (ib_job_dir_active(job, (int)d) || l->dir[d].ios)
			l->dirs |= 1u << d;
	l->restart = restart && sj->seen;
	sj->seen = true;
	sj->retired = l->final;
	if (fresh) {
		sj->base = s->cur;
		sj->base_t_ns = s->cur.t_ns;
	}
	return true;
}

/* The group_reporting group of job i (which has stats): its first grouped
 * job's index that has stats, as the final report names the group. */
static unsigned int group_head(const struct ib_plan *run, unsigned int i)
{
	while (i > 0 && run->jobs[i - 1].groupid == run->jobs[i].groupid &&
	       run->jobs[i - 1].group_reporting)
		i--;
	while (!run->jobs[i].stats)
		i++;
	return i;
}

static void put(struct ib_stream *s, const struct sline *l)
{
	if (s->f)
		sline_write(s->f, l);
	if (s->lv)
		liveview_line(s->lv, l);
}

static void write_groups(struct ib_stream *s, const bool *used)
{
	unsigned int i;

	for (i = 0; i < s->run->nr_jobs; i++)
		if (used[i])
			put(s, &s->groups[i]);
}

static void write_interval(struct ib_stream *s, const struct ib_run_view *v,
			   uint64_t k, uint64_t end_ns, bool last)
{
	const struct ib_plan *run = s->run;
	bool *used = calloc(run->nr_jobs ? run->nr_jobs : 1, sizeof(bool));
	unsigned int i, g;

	for (i = 0; i < run->nr_jobs; i++) {
		if (!job_line(s, v, i, k, end_ns, last))
			continue;
		put(s, &s->line);
		if (!run->jobs[i].group_reporting || !used)
			continue;
		g = group_head(run, i);
		if (!used[g]) {
			memset(&s->groups[g], 0, sizeof(s->groups[g]));
			s->groups[g].job = &run->jobs[g];
			s->groups[g].group = true;
			s->groups[g].kind = s->line.kind;
			s->groups[g].time_ms = s->line.time_ms;
			s->groups[g].final = true;
			used[g] = true;
		}
		sline_add(&s->groups[g], &s->line);
		s->groups[g].final &= s->line.final;
	}
	if (used)
		write_groups(s, used);
	free(used);
	s->last_end_ns = end_ns;
	if (s->f)
		fflush(s->f);
}

void ib_stream_poll(struct ib_stream *s, const struct ib_run_view *v)
{
	uint64_t grace = s->ival_ns / 4, end, k0 = s->next_k;

	if (!v->rings)
		return;
	if (!s->last_end_ns)
		s->last_end_ns = v->start_ns;
	for (;;) {
		end = v->start_ns + s->next_k * s->ival_ns;
		if (v->now_ns < end || (!v->final && v->now_ns < end + grace &&
					!all_ready(s, v, s->next_k)))
			break;
		write_interval(s, v, s->next_k, end, false);
		s->next_k++;
	}
	if (v->final && v->now_ns > s->last_end_ns)
		write_interval(s, v, s->next_k, v->now_ns, true);
	if (s->lv && (s->next_k != k0 || v->final))
		ib_liveview_draw(s->lv, v);
}
