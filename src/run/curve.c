// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency-vs-load curve: rates, points and the answer (curve.h). The
 * output is report/curve_out.c, the driver cmd/curve_main.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/curve.h"
#include "iobench/json.h"
#include "iobench/num2str.h"

uint64_t ib_curve_target(uint64_t max, unsigned int k, unsigned int steps)
{
	uint64_t t = steps ? max * k / steps : max;

	return t ? t : 1;
}

void ib_curve_set_rate(struct ib_job *job, uint64_t iops, unsigned int nclones)
{
	uint64_t per = iops / (nclones ? nclones : 1);
	bool r = job->rw & IB_RW_READ, w = job->rw & IB_RW_WRITE;
	unsigned int mix = r && w ? job->rwmixread : r ? 100 : 0;

	if (!per)
		per = 1;
	memset(job->rate.bps, 0, sizeof(job->rate.bps));
	memset(job->rate.iops, 0, sizeof(job->rate.iops));
	job->rate.mode = 0; /* open */
	if (job->rw & IB_RW_TRIM) {
		job->rate.iops[IB_DDIR_TRIM] = per;
		return;
	}
	job->rate.iops[IB_DDIR_READ] = per * mix / 100;
	job->rate.iops[IB_DDIR_WRITE] = per - per * mix / 100;
}

/* The job and direction whose IOPS per interval deviate the most. */
static void interval_spread(const struct ib_job_stats *st, unsigned int n,
			    struct ib_curve_point *p)
{
	unsigned int i, d;

	p->iv_min = p->iv_max = 0;
	p->iv_mean = p->iv_dev_pct = 0;
	for (i = 0; i < n; i++)
		for (d = 0; d < IB_DDIR_RWT; d++) {
			const struct ib_lat_stat *s = &st[i].dir[d].iops_samples;
			double dev;

			if (s->n < 3 || s->mean <= 0)
				continue;
			dev = ib_lat_stat_stddev(s) * 100.0 / s->mean;
			if (dev <= p->iv_dev_pct)
				continue;
			p->iv_dev_pct = dev;
			p->iv_min = s->min;
			p->iv_max = s->max;
			p->iv_mean = s->mean;
		}
}

bool ib_curve_noisy(const struct ib_curve_point *p)
{
	return p->iv_dev_pct > IB_CURVE_NOISY_PCT;
}

const char *ib_curve_paced_option(const struct ib_job *job)
{
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		if (job->rate.iops[d])
			return "rate_iops";
		if (job->rate.bps[d])
			return "rate";
		if (job->rate.min_iops[d])
			return "rate_iops_min";
		if (job->rate.min_bps[d])
			return "rate_min";
	}
	return NULL;
}

int ib_curve_measure(const struct ib_job_stats *st, unsigned int n,
		     struct ib_curve_point *p)
{
	static const double pct[3] = { 50.0, 99.0, 99.9 };
	struct ib_hist *h = calloc(1, sizeof(*h));
	uint64_t out[3], cnt = 0;
	unsigned int i, d;
	char num[64];

	if (!h)
		return -ENOMEM;
	interval_spread(st, n, p);
	p->achieved = 0;
	p->ios = p->late = 0;
	for (i = 0; i < n; i++)
		for (d = 0; d < IB_DDIR_RWT; d++) {
			const struct ib_dir_stats *ds = &st[i].dir[d];

			if (ds->runtime_us)
				p->achieved += (double)ds->total_ios * 1e6 /
					       (double)ds->runtime_us;
			p->ios += ds->total_ios;
			p->late += ds->late_ios;
			cnt += ds->colat.n;
			ib_hist_merge(h, &ds->colat_hist);
		}
	/* the value the JSON document carries (ib_json_float's "%f", read
	 * back with strtod): a curve drawn now (--plot, --report) and the
	 * same curve drawn from its JSON (iobench plot, report) are then the
	 * same, to the last digit of the chart's "%.10g" */
	snprintf(num, sizeof(num), "%f", p->achieved);
	p->achieved = strtod(num, NULL);
	p->p50 = p->p99 = p->p999 = 0;
	if (cnt && !ib_hist_percentiles(h, cnt, pct, 3, out)) {
		p->p50 = out[0];
		p->p99 = out[1];
		p->p999 = out[2];
	}
	free(h);
	return 0;
}

bool ib_curve_meets(const struct ib_curve *c, const struct ib_curve_point *p)
{
	return p->target && p->ios &&
	       p->achieved * 100.0 >= (double)p->target * IB_CURVE_SUSTAIN_PCT &&
	       p->p99 < c->slo_ns;
}

const struct ib_curve_point *ib_curve_answer(const struct ib_curve *c)
{
	const struct ib_curve_point *best = NULL;
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		if (ib_curve_meets(c, &c->pt[i]))
			best = &c->pt[i];
	return best;
}

/* A latency in ns as "850ns", "85.2us", "12.3ms", "1.20s". */
