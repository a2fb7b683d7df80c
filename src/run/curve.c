// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency-vs-load curve: rates, points, the answer and the output.
 * The driver is curve_cmd.c. Contract in curve.h.
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
static const char *lat_str(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	return buf;
}

/* The SLO as typed: "1ms", "500us", "2s". */
static const char *slo_str(uint64_t ns, char *buf, size_t len)
{
	if (ns % 1000000000 == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000));
	else if (ns % 1000000 == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000));
	else if (ns % 1000 == 0)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}

void ib_curve_print_head(FILE *f, const struct ib_curve *c)
{
	char mx[32];

	fprintf(f, "%s: max %s IOPS (unpaced, %.0f IOPS)\n", c->job,
		ib_num2str((uint64_t)(c->max.achieved + 0.5), 4, 1, false, "", mx,
			   sizeof(mx)), c->max.achieved);
	fprintf(f, "%5s %12s %14s %10s %10s %10s %8s  (co-free latency)\n",
		"step", "target IOPS", "achieved IOPS", "p50", "p99", "p99.9",
		"late");
}

void ib_curve_print_step(FILE *f, const struct ib_curve_point *p)
{
	char a[32], b[32], c[32];

	fprintf(f, "%4u%% %12llu %14.1f %10s %10s %10s %8llu\n", p->pct,
		(unsigned long long)p->target, p->achieved,
		lat_str(p->p50, a, sizeof(a)), lat_str(p->p99, b, sizeof(b)),
		lat_str(p->p999, c, sizeof(c)), (unsigned long long)p->late);
}

void ib_curve_print_answer(FILE *f, const struct ib_curve *c)
{
	const struct ib_curve_point *p = ib_curve_answer(c);
	char slo[32], v[32];

	if (p)
		fprintf(f, "max IOPS at p99 < %s: %s\n", slo_str(c->slo_ns, slo, sizeof(slo)),
			ib_num2str((uint64_t)(p->achieved + 0.5), 4, 1, false, "", v,
				   sizeof(v)));
	else
		fprintf(f, "max IOPS at p99 < %s: none (no step met it)\n",
			slo_str(c->slo_ns, slo, sizeof(slo)));
}

static void json_point(struct ib_json *j, const char *key,
		       const struct ib_curve_point *p)
{
	ib_json_obj_open(j, key);
	ib_json_uint(j, "pct", p->pct);
	ib_json_uint(j, "target_iops", p->target);
	ib_json_float(j, "achieved_iops", p->achieved);
	ib_json_uint(j, "total_ios", p->ios);
	ib_json_uint(j, "late_ios", p->late);
	ib_json_obj_open(j, "colat_ns");
	ib_json_uint(j, "p50", p->p50);
	ib_json_uint(j, "p99", p->p99);
	ib_json_uint(j, "p99.9", p->p999);
	ib_json_obj_close(j);
	ib_json_obj_close(j);
}

void ib_curve_print_json(FILE *f, const struct ib_curve *c)
{
	const struct ib_curve_point *p = ib_curve_answer(c);
	struct ib_json j;
	unsigned int i;

	ib_json_begin(&j, f);
	ib_json_obj_open(&j, "curve");
	ib_json_str(&j, "job", c->job);
	ib_json_uint(&j, "steps", c->steps);
	ib_json_uint(&j, "slo_p99_ns", c->slo_ns);
	ib_json_uint(&j, "sustain_pct", IB_CURVE_SUSTAIN_PCT);
	json_point(&j, "max", &c->max);
	ib_json_arr_open(&j, "points");
	for (i = 0; i < c->nr; i++)
		json_point(&j, NULL, &c->pt[i]);
	ib_json_arr_close(&j);
	ib_json_float(&j, "max_iops_at_slo", p ? p->achieved : 0.0);
	ib_json_uint(&j, "max_target_at_slo", p ? p->target : 0);
	ib_json_obj_close(&j);
	ib_json_end(&j);
}
