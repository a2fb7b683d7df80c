// SPDX-License-Identifier: GPL-2.0-only
/*
 * One job object of a JSON report (iobench's own, fio 3.33's json or
 * json+) read back into the results document: see results_read.c for what
 * comes back exactly and what as counts that print the same percentages.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "iobench/checks.h"
#include "iobench/options.h"
#include "iobench/plan.h"
#include "results_priv.h"

#define CALLS_TOTAL 100000000ull	/* submit/complete: p% as p * 1e6 calls */

static const char *const ddir_key[IB_DDIR_RWT] = { "read", "write", "trim" };
static const char *const lat_key[IB_LAT_NR] = { "slat_ns", "clat_ns", "lat_ns" };

static void lat_from(struct ib_lat_stat *s, uint64_t n, uint64_t mn, uint64_t mx,
		     double mean, double dev)
{
	s->n = n;
	s->min = mn;
	s->max = mx;
	s->mean = mean;
	s->m2 = n > 1 ? dev * dev * (double)(n - 1) : 0.0;
}

/* "key\0value\0...\0" from an object of strings; returns the length used */
unsigned int results_opts_from(char *dst, size_t cap, const struct ib_jv *o)
{
	const struct ib_jv *e;
	size_t used = 0, kl, vl;

	for (e = o && o->type == IB_JV_OBJ ? o->child : NULL; e; e = e->next) {
		if (e->type != IB_JV_STR || !e->key[0] || memchr(e->str, '\0', e->len))
			continue;
		kl = strlen(e->key) + 1;
		vl = e->len + 1;
		if (used + kl + vl + 1 > cap)
			break;
		memcpy(dst + used, e->key, kl);
		memcpy(dst + used + kl, e->str, vl);
		used += kl + vl;
	}
	dst[used] = '\0';
	return (unsigned int)used;
}

/* The value of `key` in a "key\0value\0..." text, or NULL. */
static const char *opt_value(const char *text, unsigned int len, const char *key)
{
	const char *p = text, *end = text + len;

	while (p < end && *p) {
		const char *k = p;

		p += strlen(p) + 1;
		if (p >= end)
			break;
		if (!strcmp(k, key))
			return p;
		p += strlen(p) + 1;
	}
	return NULL;
}

static void pct_list(struct ib_res_job *j, const struct ib_jv *pct)
{
	const struct ib_jv *e;

	if (j->nr_percentiles || !pct || pct->type != IB_JV_OBJ)
		return;
	for (e = pct->child; e && j->nr_percentiles < IB_MAX_PERCENTILES; e = e->next)
		j->percentiles[j->nr_percentiles++] = strtod(e->key, NULL);
}

static void bins_into(struct ib_hist *h, const struct ib_jv *bins)
{
	const struct ib_jv *e;
	char *end;

	for (e = bins && bins->type == IB_JV_OBJ ? bins->child : NULL; e; e = e->next) {
		uint64_t v = strtoull(e->key, &end, 10), n = 0;

		if (*end || end == e->key || !ib_jv_u64(e, &n))
			continue;
		h->count[ib_hist_index(v)] += n;
	}
}

/*
 * Plain JSON has percentiles but no bins: a histogram with the fewest
 * samples at each percentile's value (the rest at max) gives the same
 * percentiles again by ib_hist_percentiles' rule, and no more than that.
 */
static void hist_from_pct(struct ib_hist *h, const struct ib_jv *pct, uint64_t n,
			  uint64_t max)
{
	const struct ib_jv *e;
	uint64_t below = 0, want, v;
	double p, t;

	for (e = pct->child; e; e = e->next) {
		p = strtod(e->key, NULL);
		if (!ib_jv_u64(e, &v) || !(p >= 0.0 && p <= 100.0))
			continue;
		t = ceil(p / 100.0 * (double)n);
		want = t < (double)n ? (uint64_t)t : n;
		if (want > below) {
			h->count[ib_hist_index(v)] += want - below;
			below = want;
		}
	}
	if (n > below)
		h->count[ib_hist_index(max)] += n - below;
}

/* One latency object: its statistics, histogram; whether it had percentiles */
static bool lat_into(struct ib_res_job *j, struct ib_lat_stat *s, struct ib_hist *h,
		     const struct ib_jv *o)
{
	const struct ib_jv *pct = ib_jv_get(o, "percentile");

	lat_from(s, get_u64(o, "N"), get_u64(o, "min"), get_u64(o, "max"),
		 get_double(o, "mean"), get_double(o, "stddev"));
	if (ib_jv_get(o, "bins"))
		bins_into(h, ib_jv_get(o, "bins"));
	else if (pct && pct->type == IB_JV_OBJ && s->n) {
		hist_from_pct(h, pct, s->n, s->max);
		j->hist_from_pct = true;
	}
	pct_list(j, pct);
	return pct != NULL;
}

/* The lateness distribution of "late" (json+ bins, else percentiles). */
static void late_into(struct ib_dir_stats *ds, const struct ib_jv *late)
{
	const struct ib_jv *pct = ib_jv_get(late, "percentile");

	if (ib_jv_get(late, "bins"))
		bins_into(&ds->late_hist, ib_jv_get(late, "bins"));
	else if (pct && pct->type == IB_JV_OBJ)
		hist_from_pct(&ds->late_hist, pct, get_u64(late, "started"),
			      ds->late_max_ns);
}

/* iobench's own, with a rate: colat_ns and the late starts. Whether found. */
static bool colat_into(struct ib_res_job *j, struct ib_dir_stats *ds,
		       const struct ib_jv *o)
{
	const struct ib_jv *late = ib_jv_get(o, "late");
	bool pct = j->clat_percentiles;

	if (!ib_jv_get(o, "colat_ns"))
		return false;
	lat_into(j, &ds->colat, &ds->colat_hist, ib_jv_get(o, "colat_ns"));
	j->clat_percentiles = pct; /* colat's own percentiles change nothing */
	ds->late_ios = get_u64(late, "ios");
	ds->late_sum_ns = get_u64(late, "total_ns");
	ds->late_max_ns = get_u64(late, "max_ns");
	ds->backlog_max = get_u64(late, "backlog_max");
	ds->unstarted = get_u64(late, "unstarted");
	late_into(ds, late);
	return true;
}

static bool dir_into(struct ib_res_job *j, struct ib_dir_stats *ds, const struct ib_jv *o)
{
	bool *pct_on[IB_LAT_NR] = {
		&j->slat_percentiles, &j->clat_percentiles, &j->lat_percentiles,
	};
	unsigned int k;

	ds->io_bytes = get_u64(o, "io_bytes");
	ds->runtime_us = get_u64(o, "runtime") * 1000;
	ds->total_ios = ds->issued = get_u64(o, "total_ios");
	ds->short_ios = get_u64(o, "short_ios");
	ds->drop_ios = get_u64(o, "drop_ios");
	for (k = 0; k < IB_LAT_NR; k++)
		if (lat_into(j, &ds->lat[k], &ds->hist[k], ib_jv_get(o, lat_key[k])))
			*pct_on[k] = true;
	lat_from(&ds->bw_samples, get_u64(o, "bw_samples"), get_u64(o, "bw_min"),
		 get_u64(o, "bw_max"), get_double(o, "bw_mean"), get_double(o, "bw_dev"));
	lat_from(&ds->iops_samples, get_u64(o, "iops_samples"), get_u64(o, "iops_min"),
		 get_u64(o, "iops_max"), get_double(o, "iops_mean"),
		 get_double(o, "iops_stddev"));
	return colat_into(j, ds, o);
}

/*
 * The count printed as p% of total. fio prints a share under its floor
 * (0.01% for latencies, 0.1% for depths) as the floor: when the rounded
 * count would not print p again, it was such a share, taken as 1.
 */
static uint64_t pct_count(double p, uint64_t total)
{
	uint64_t c = (uint64_t)llround(p * (double)total / 100.0);

	if (c > 1 && (fabs(p - 0.01) < 1e-9 || fabs(p - 0.1) < 1e-9) &&
	    fabs((double)c * 100.0 / (double)total - p) > 5e-7)
		return 1;
	return c;
}

/* Counts that print the object's percentages again (of total) */
static void dist_into(uint64_t *cnt, unsigned int nr, const struct ib_jv *o, uint64_t total)
{
	const struct ib_jv *e;
	unsigned int i = 0;
	double p;

	for (e = o && o->type == IB_JV_OBJ ? o->child : NULL; e && i < nr; e = e->next, i++)
		if (ib_jv_double(e, &p) && p > 0 && p < 1e6 &&	/* fio's may pass 100% */
		    p * (double)total < 9e20)
			cnt[i] = pct_count(p, total);
}

/* CPU time in µs from its % of the runtime (ms), as the reports print it */
static uint64_t cpu_us(double pct, uint64_t rt_ms)
{
	double us = pct * 10.0 * (double)rt_ms;

	return us > 0 && us < 9e18 ? (uint64_t)llround(us) : 0;
}

static void tail_into(struct ib_job_stats *s, const struct ib_jv *o)
{
	uint64_t rt = get_u64(o, "job_runtime"), total = 0;
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		total += s->dir[d].issued;
	s->job_runtime_ms = rt;
	s->usr_us = cpu_us(get_double(o, "usr_cpu"), rt);
	s->sys_us = cpu_us(get_double(o, "sys_cpu"), rt);
	s->ctx = get_u64(o, "ctx");
	s->majf = get_u64(o, "majf");
	s->minf = get_u64(o, "minf");
	s->total_submit_calls = s->total_complete_calls = CALLS_TOTAL;
	dist_into(s->depth, IB_DEPTH_NR, ib_jv_get(o, "iodepth_level"), total);
	dist_into(s->submit, IB_DEPTH_NR, ib_jv_get(o, "iodepth_submit"), CALLS_TOTAL);
	dist_into(s->complete, IB_DEPTH_NR, ib_jv_get(o, "iodepth_complete"), CALLS_TOTAL);
	dist_into(s->lat_n, IB_LAT_N_NR, ib_jv_get(o, "latency_ns"), total);
	dist_into(s->lat_u, IB_LAT_U_NR, ib_jv_get(o, "latency_us"), total);
	dist_into(s->lat_m, IB_LAT_M_NR, ib_jv_get(o, "latency_ms"), total);
	s->total_err = get_u64(o, "total_err");
	s->first_error = (int)(get_u64(o, "first_error") & 0xffff);
}

/* The display options a report needs, from the job's options or the global ones */
static unsigned int opt_uint(const struct ib_res_job *j, const struct ib_results *r,
			     const char *key, unsigned int dflt)
{
	const char *v = opt_value(j->opts_text, j->opts_len, key);

	if (!v)
		v = opt_value(r->global_opts_text, r->global_opts_len, key);
	return v && *v ? (unsigned int)strtoul(v, NULL, 10) : dflt;
}

static unsigned int list_precision(const char *list)
{
	unsigned int prec = 0, n;
	const char *p = list;

	while (p && *p) {
		const char *dot = strpbrk(p, ".:");

		if (dot && *dot == '.') {
			n = (unsigned int)strcspn(dot + 1, ":");
			prec = n > prec ? n : prec;
		}
		p = strchr(p, ':');
		p = p ? p + 1 : NULL;
	}
	return prec;
}

static void display_opts(struct ib_res_job *j, const struct ib_results *r)
{
	const char *list = opt_value(j->opts_text, j->opts_len, "percentile_list");
	const char *eng = opt_value(j->opts_text, j->opts_len, "ioengine");

	if (!list)
		list = opt_value(r->global_opts_text, r->global_opts_len, "percentile_list");
	j->percentile_precision = list ? list_precision(list) : 2;
	j->kb_base = opt_uint(j, r, "kb_base", 1024);
	j->unit_base = opt_uint(j, r, "unit_base", 8);
	j->significant_figures = opt_uint(j, r, "significant_figures", 4);
	if (j->kb_base != 1000)
		j->kb_base = 1024;
	if (j->unit_base != 1)
		j->unit_base = 8;
	if (j->significant_figures < 1 || j->significant_figures > 10)
		j->significant_figures = 4;
	snprintf(j->ioengine, sizeof(j->ioengine), "%s", eng ? eng : "");
}

/*
 * unified_rw_reporting from the job options (else [global]'s): the reports
 * of the document read back show the same sections ("mixed" is recomputed
 * from the directions under both).
 */
static void unified_into(struct ib_res_job *j, const struct ib_results *r)
{
	const struct ib_opt *o = ib_opt_find("unified_rw_reporting");
	const char *v = opt_value(j->opts_text, j->opts_len, "unified_rw_reporting");
	unsigned int i;

	if (!v)
		v = opt_value(r->global_opts_text, r->global_opts_len, "unified_rw_reporting");
	j->unified_rw_rep = IB_UNIFIED_NONE;
	for (i = 0; o && v && o->vals[i].name; i++)
		if (!strcasecmp(o->vals[i].name, v))
			j->unified_rw_rep = o->vals[i].val;
}

/* iobench's "effective options" (absent in fio's JSON): what the job ran with */
static void effective_into(struct ib_res_job *j, struct ib_job_stats *s,
			   const struct ib_jv *o)
{
	const char *eng = ib_jv_str(ib_jv_get(o, "ioengine"));
	const char *why;

	if (!o || o->type != IB_JV_OBJ)
		return;
	snprintf(s->ioengine, sizeof(s->ioengine), "%s", eng ? eng : "");
	s->direct = get_u64(o, "direct") != 0;
	j->direct = get_u64(o, "direct_requested") != 0;
	s->direct_requested = j->direct;
	why = ib_jv_str(ib_jv_get(o, "ioengine_fallback"));
	snprintf(s->ioengine_fallback, sizeof(s->ioengine_fallback), "%s", why ? why : "");
	why = ib_jv_str(ib_jv_get(o, "direct_fallback"));
	snprintf(s->direct_fallback, sizeof(s->direct_fallback), "%s", why ? why : "");
	why = ib_jv_str(ib_jv_get(o, "clocksource"));
	snprintf(s->clocksource, sizeof(s->clocksource), "%s", why ? why : "");
	why = ib_jv_str(ib_jv_get(o, "engine_setup"));
	snprintf(s->engine_setup, sizeof(s->engine_setup), "%s", why ? why : "");
	s->noatime_files = (unsigned int)get_u64(o, "noatime_files");
	s->read_buffers_apart = get_u64(o, "read_buffers_apart") != 0;
	s->batch_adaptive = ib_jv_get(o, "batch_probes_won_batched") != NULL;
	s->batch_won[0] = (unsigned int)get_u64(o, "batch_probes_won_batched");
	s->batch_won[1] = (unsigned int)get_u64(o, "batch_probes_won_per_io");
	s->batch_spin_won[1] = (unsigned int)get_u64(o, "batch_probes_won_spin");
	s->batch_spin_won[0] = (unsigned int)get_u64(o, "batch_probes_won_no_spin");
}

/* iobench's "iobench evidence" (checks.h): the checks run again on it */
static int evidence_into(struct ib_results *r, unsigned int i, const struct ib_jv *o,
			 struct ib_diag *d)
{
	if (!o)
		return 0;
	if (!r->own_evidence) {
		r->own_evidence = calloc(r->nr_jobs, sizeof(*r->own_evidence));
		if (!r->own_evidence)
			return ib_diag_set(d, ENOMEM, "out of memory");
	}
	ib_evidence_from_json(&r->own_evidence[i], o);
	return 0;
}

static uint32_t series_into(uint64_t *v, uint32_t max, const struct ib_jv *arr)
{
	const struct ib_jv *e;
	uint32_t n = 0;

	for (e = arr && arr->type == IB_JV_ARR ? arr->child : NULL; e && n < max; e = e->next)
		if (ib_jv_u64(e, &v[n]))
			n++;
	return n;
}

/* fio's "steadystate" object (steadystate.h); absent: dur stays 0. */
static void ss_into(struct ib_ss *ss, const struct ib_jv *o)
{
	const struct ib_jv *data = ib_jv_get(o, "data");
	const char *crit = ib_jv_str(ib_jv_get(o, "criterion"));
	const char *text = ib_jv_str(ib_jv_get(o, "ss"));
	struct ib_diag d;
	uint32_t mode = 0;
	double limit = 0.0;
	uint64_t dur = 0;
	uint32_t n;

	if (!o || !text || !ib_jv_u64(ib_jv_get(o, "duration"), &dur) || !dur ||
	    ib_ss_parse(text, 1024, &mode, &limit, &d) < 0)
		return;
	/* the window's length from its arrays (dur / ss_interval samples) */
	n = series_into(ss->iops, IB_SS_MAX_DUR, ib_jv_get(data, "iops"));
	ib_ss_init(ss, mode, limit, (uint32_t)dur, n && n <= dur ? (uint32_t)(dur / n) : 1);
	ss->attained = get_u64(o, "attained") != 0;
	ss->criterion = crit ? strtod(crit, NULL) : 0.0;
	ib_jv_double(ib_jv_get(o, "max_deviation"), &ss->deviation);
	ib_jv_double(ib_jv_get(o, "slope"), &ss->slope);
	if (!(mode & IB_SS_PCT)) /* the exact value, not the float-rounded text */
		ss->criterion = mode & IB_SS_SLOPE ? ss->slope : ss->deviation;
	ss->n = series_into(ss->iops, ss->len, ib_jv_get(data, "iops"));
	series_into(ss->bw, ss->len, ib_jv_get(data, "bw"));
	series_into(ss->lat, ss->len, ib_jv_get(data, "lat_ns"));
	ss->full = ss->n == ss->len;
}

int results_job_into(struct ib_results *r, unsigned int i, const struct ib_jv *o,
		    struct ib_diag *d)
{
	struct ib_res_job *j = &r->jobs[i];
	struct ib_job_stats *s = &r->own_stats[i];
	const struct ib_jv *sync = ib_jv_get(o, "sync");
	const char *name = ib_jv_str(ib_jv_get(o, "jobname"));
	unsigned int k;

	if (!o || o->type != IB_JV_OBJ)
		return ib_diag_set(d, EINVAL, "jobs[%u]: not an object", i);
	snprintf(j->name, sizeof(j->name), "%s", name ? name : "");
	snprintf(j->description, sizeof(j->description), "%s",
		 ib_jv_str(ib_jv_get(o, "desc")) ? ib_jv_str(ib_jv_get(o, "desc")) : "");
	j->groupid = (unsigned int)get_u64(o, "groupid");
	j->iodepth = (unsigned int)get_u64(o, "latency_depth");
	j->continue_on_error = ib_jv_get(o, "total_err") ? IB_COE_ALL : 0;
	j->opts_len = results_opts_from(j->opts_text, sizeof(j->opts_text), ib_jv_get(o, "job options"));
	display_opts(j, r);
	s->error = (int)(get_u64(o, "error") & 0xffff);
	s->elapsed_s = get_u64(o, "elapsed");
	s->job_start_ms = (int64_t)get_u64(o, "job_start");	/* fio 3.42 */
	unified_into(j, r);
	for (k = 0; k < IB_DDIR_RWT; k++)
		if (dir_into(j, &s->dir[k], ib_jv_get(o, ddir_key[k])))
			s->paced = true;
	/* unified_rw_reporting=mixed: the folded stats are the read slot */
	if (j->unified_rw_rep == IB_UNIFIED_MIXED && !ib_jv_get(o, ddir_key[0]) &&
	    dir_into(j, &s->dir[0], ib_jv_get(o, "mixed")))
		s->paced = true;
	s->sync_ios = get_u64(sync, "total_ios");
	lat_into(j, &s->sync_lat, &s->sync_hist, ib_jv_get(sync, "lat_ns"));
	tail_into(s, o);
	ss_into(&s->ss, ib_jv_get(o, "steadystate"));
	effective_into(j, s, ib_jv_get(o, "effective options"));
	return evidence_into(r, i, ib_jv_get(o, "iobench evidence"), d);
}
