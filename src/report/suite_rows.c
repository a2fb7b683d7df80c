// SPDX-License-Identifier: GPL-2.0-only
/*
 * A suite's summary rows from its results document, the verdicts against
 * --expect and the PTS window averages (suite_out.h). Pure: no output.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/checks.h"
#include "iobench/hist.h"
#include "iobench/suite_out.h"
#include "report_common.h"

static const char *const steady_ids[] = { "warm-up", "step", "trend", NULL };
static const char *const length_ids[] = { "short-run", "runtime-off", NULL };

static bool in_list(const char *id, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(*list, id))
			return true;
	return false;
}

static uint64_t mask_of(void)
{
	uint64_t m = 0;
	unsigned int i;

	for (i = 0; i < ib_nr_checks; i++)
		if (in_list(ib_checks[i].id, steady_ids) || in_list(ib_checks[i].id, length_ids))
			m |= 1ull << i;
	return m;
}

static void add_why(struct ib_suite_row *row, const char *id)
{
	size_t len = strlen(row->why);

	if (strstr(row->why, id))
		return;
	snprintf(row->why + len, sizeof(row->why) - len, "%s%s", len ? "," : "", id);
}

/* The checks over every job of the test (its numjobs clones). */
static void judge_trust(const struct ib_results *r, struct ib_suite_row *row)
{
	struct ib_check_hit hits[8];
	bool unsteady = false, cut = false, short_series = !r->evidence;
	unsigned int i, k, n;

	for (i = 0; i < r->nr_jobs && r->evidence; i++) {
		if (strcmp(r->jobs[i].name, row->name))
			continue;
		if (r->evidence[i].series_n < IB_SUITE_STEADY_MIN + 1)
			short_series = true;
		n = ib_checks_run(r, i, mask_of(), hits, 8);
		for (k = 0; k < n; k++) {
			bool s = in_list(hits[k].id, steady_ids);

			unsteady |= s;
			cut |= !s;
			add_why(row, hits[k].id);
		}
	}
	row->steady = unsteady ? IB_STEADY_NO :
		      short_series ? IB_STEADY_UNKNOWN : IB_STEADY_YES;
	row->long_enough = !cut && !short_series;
}

static void fill_numbers(struct ib_suite_row *row, const struct ib_job_stats *st,
			 struct ib_hist *h)
{
	static const double pct[3] = { 50.0, 99.0, 99.9 };
	uint64_t out[3] = { 0 }, n = 0;
	double sum = 0;
	unsigned int d;

	memset(h, 0, sizeof(*h));
	for (d = 0; d < IB_DDIR_RWT; d++) {
		const struct ib_dir_stats *ds = &st->dir[d];

		row->iops += ib_rep_iops(ds);
		row->bw += (double)ib_rep_bw(ds);
		row->ios += ib_rep_ios(ds);
		ib_hist_merge(h, &ds->hist[IB_LAT_CLAT]);
		n += ds->lat[IB_LAT_CLAT].n;
		sum += ds->lat[IB_LAT_CLAT].mean * (double)ds->lat[IB_LAT_CLAT].n;
	}
	if (n && !ib_hist_percentiles(h, n, pct, 3, out)) {
		row->p50 = out[0];
		row->p99 = out[1];
		row->p999 = out[2];
		row->mean_ns = sum / (double)n;
	}
}

static void row_from(struct ib_suite_row *row, const struct ib_suite_item *t)
{
	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "%s", t->name);
	snprintf(row->row, sizeof(row->row), "%s", t->row);
	snprintf(row->col, sizeof(row->col), "%s", t->col);
	row->judge = t->judge;
	row->failed = true;
}

int ib_suite_rows(const struct ib_results *r, const struct ib_suite_item *it,
		  unsigned int n, struct ib_suite_row *rows)
{
	struct ib_hist *h = malloc(sizeof(*h));
	struct ib_rep rep;
	unsigned int i, k;

	if (!h || ib_rep_build(&rep, r) < 0) {
		free(h);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		row_from(&rows[i], &it[i]);
		for (k = 0; k < rep.nr_ent; k++) {
			const char *where;

			if (strcmp(rep.ent[k].job->name, it[i].name))
				continue;
			rows[i].failed = ib_rep_error(&rep.ent[k], &where) != 0;
			fill_numbers(&rows[i], rep.ent[k].st, h);
			judge_trust(r, &rows[i]);
			break;
		}
	}
	ib_rep_free(&rep);
	free(h);
	return 0;
}

double ib_suite_metric_of(const struct ib_suite_row *row, enum ib_suite_metric m)
{
	switch (m) {
	case IB_SM_IOPS:
		return row->iops;
	case IB_SM_BW:
		return row->bw;
	case IB_SM_LAT:
		return row->mean_ns;
	default:
		return 0;
	}
}

const char *ib_suite_metric_name(enum ib_suite_metric m)
{
	return m == IB_SM_IOPS ? "IOPS" : m == IB_SM_BW ? "bandwidth" :
	       m == IB_SM_LAT ? "latency" : "";
}

static void verdict(struct ib_suite_report *s, const struct ib_suite_row *row,
		    enum ib_suite_metric m, double measured, double limit)
{
	struct ib_suite_verdict *v = &s->v[s->nv++];

	memset(v, 0, sizeof(*v));
	snprintf(v->test, sizeof(v->test), "%s", row->name);
	v->metric = m;
	v->measured = measured;
	v->limit = limit;
	if (m == IB_SM_LAT) {
		v->met = measured <= limit;
		v->margin_pct = 100.0 * (limit - measured) / limit;
	} else {
		v->met = measured >= limit;
		v->margin_pct = 100.0 * (measured - limit) / limit;
	}
	v->conclusive = !row->failed && row->steady == IB_STEADY_YES && row->long_enough;
	v->steady = row->steady;
	snprintf(v->why, sizeof(v->why), "%s", row->why);
}

void ib_suite_judge(struct ib_suite_report *s)
{
	const struct ib_suite_expect *e = &s->expect;
	unsigned int i;

	s->nv = 0;
	for (i = 0; i < s->nr && s->nv < IB_SUITE_MAX_VERDICTS; i++) {
		const struct ib_suite_row *row = &s->rows[i];

		if (row->judge == IB_SM_IOPS && e->iops > 0)
			verdict(s, row, IB_SM_IOPS, row->iops, e->iops);
		else if (row->judge == IB_SM_BW && e->bw > 0)
			verdict(s, row, IB_SM_BW, row->bw, e->bw);
		else if (row->judge == IB_SM_LAT && e->lat_ns)
			verdict(s, row, IB_SM_LAT, (double)row->p99, (double)e->lat_ns);
	}
}

bool ib_suite_all_met(const struct ib_suite_report *s)
{
	unsigned int i;

	for (i = 0; i < s->nv; i++)
		if (!s->v[i].met)
			return false;
	return true;
}

void ib_suite_average(struct ib_suite_report *s, const struct ib_suite_row *rr,
		      unsigned int first, unsigned int k)
{
	unsigned int i, j;

	for (i = 0; i < s->nr && k; i++) {
		struct ib_suite_row *o = &s->rows[i];
		double p50 = 0, p99 = 0, p999 = 0;

		*o = rr[first * s->nr + i];
		o->iops = o->bw = o->mean_ns = 0;
		o->ios = 0;
		for (j = first; j < first + k; j++) {
			const struct ib_suite_row *x = &rr[j * s->nr + i];

			o->iops += x->iops / k;
			o->bw += x->bw / k;
			o->mean_ns += x->mean_ns / k;
			o->ios += x->ios;
			o->failed |= x->failed;
			p50 += (double)x->p50 / k;
			p99 += (double)x->p99 / k;
			p999 += (double)x->p999 / k;
		}
		o->p50 = (uint64_t)llround(p50);
		o->p99 = (uint64_t)llround(p99);
		o->p999 = (uint64_t)llround(p999);
	}
}
