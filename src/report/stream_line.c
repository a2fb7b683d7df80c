// SPDX-License-Identifier: GPL-2.0-only
/*
 * One line of the per-interval stream (stream.h): a job's interval from
 * two cumulative snapshots, a group's as the sum of its jobs', and the
 * line's JSON.
 */
#include <string.h>
#include "iobench/json.h"
#include "stream_priv.h"

static const char *const dir_name[IB_DDIR_RWT] = { "read", "write", "trim" };
static const char *const kind_name[IB_LAT_NR + 1] = { "slat", "clat", "lat", "" };

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * The interval's smallest and largest latency: exact when the job's
 * overall minimum (maximum) moved during the interval (then the interval
 * holds it), otherwise the value of the lowest (highest) bucket with a
 * sample, within the bucket's 0.78%, kept inside the overall range.
 */
static void min_max(struct sdir *o, const struct ib_lat_stat *cur,
		    const struct ib_lat_stat *base)
{
	unsigned int lo = 0, hi = IB_HIST_NR - 1;

	while (lo < IB_HIST_NR && !o->hist.count[lo])
		lo++;
	while (hi > 0 && !o->hist.count[hi])
		hi--;
	if (lo == IB_HIST_NR)
		return;
	o->min = clamp(ib_hist_value(lo), cur->min, cur->max);
	o->max = clamp(ib_hist_value(hi), cur->min, cur->max);
	if (!base->n || cur->min < base->min)
		o->min = cur->min;
	if (!base->n || cur->max > base->max)
		o->max = cur->max;
}

static void dir_from(struct sdir *o, const struct ib_iv_dir *cur,
		     const struct ib_iv_dir *base)
{
	unsigned int i;

	memset(o, 0, sizeof(*o));
	o->ios = cur->ios - base->ios;
	o->bytes = cur->io_bytes - base->io_bytes;
	for (i = 0; i < IB_HIST_NR; i++) {
		o->hist.count[i] = cur->hist.count[i] - base->hist.count[i];
		o->n += o->hist.count[i];
	}
	o->sum = cur->lat.mean * (double)cur->lat.n -
		 base->lat.mean * (double)base->lat.n;
	min_max(o, &cur->lat, &base->lat);
}

void sline_from(struct sline *l, const struct ib_iv_snap *cur,
		const struct ib_iv_snap *base, bool restart)
{
	static const struct ib_iv_dir zero;
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		dir_from(&l->dir[d], &cur->dir[d], restart ? &zero : &base->dir[d]);
	l->restart = restart;
	l->final = cur->final;
	l->depth = cur->inflight;
	l->errors = cur->errors - (restart ? 0 : base->errors);
}

static void dir_add(struct sdir *dst, const struct sdir *src)
{
	unsigned int i;

	if (src->n && (!dst->n || src->min < dst->min))
		dst->min = src->min;
	if (src->n && src->max > dst->max)
		dst->max = src->max;
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->n += src->n;
	dst->sum += src->sum;
	for (i = 0; i < IB_HIST_NR; i++)
		dst->hist.count[i] += src->hist.count[i];
}

void sline_add(struct sline *dst, const struct sline *src)
{
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		dir_add(&dst->dir[d], &src->dir[d]);
	dst->dirs |= src->dirs;
	dst->nr_jobs++;
	dst->depth += src->depth;
	dst->errors += src->errors;
	dst->restart |= src->restart;
	if (src->span_ns > dst->span_ns)
		dst->span_ns = src->span_ns;
}

static void write_bins(FILE *f, const struct ib_hist *h)
{
	unsigned int i, n = 0;

	fputs(",\"bins\":{", f);
	for (i = 0; i < IB_HIST_NR; i++)
		if (h->count[i])
			fprintf(f, "%s\"%llu\":%llu", n++ ? "," : "",
				(unsigned long long)ib_hist_value(i),
				(unsigned long long)h->count[i]);
	fputc('}', f);
}

static void write_lat(FILE *f, const struct sline *l, const struct sdir *o)
{
	const struct ib_job *j = l->job;
	uint64_t val[IB_MAX_PERCENTILES];
	unsigned int i, nr = j->nr_percentiles;

	if (nr > IB_MAX_PERCENTILES)
		nr = IB_MAX_PERCENTILES;
	fprintf(f, ",\"lat_ns\":{\"kind\":\"%s\",\"n\":%llu,\"min\":%llu,\"max\":%llu,\"mean\":%.2f",
		kind_name[l->kind], (unsigned long long)o->n,
		(unsigned long long)o->min, (unsigned long long)o->max,
		o->n ? o->sum / (double)o->n : 0.0);
	fputs(",\"percentile\":{", f);
	if (o->n && nr && !ib_hist_percentiles(&o->hist, o->n, j->percentiles, nr, val))
		for (i = 0; i < nr; i++)
			fprintf(f, "%s\"%f\":%llu", i ? "," : "", j->percentiles[i],
				(unsigned long long)val[i]);
	fputc('}', f);
	write_bins(f, &o->hist);
	fputc('}', f);
}

static void write_dir(FILE *f, const struct sline *l, unsigned int d)
{
	const struct sdir *o = &l->dir[d];
	double s = l->span_ns ? (double)l->span_ns / 1e9 : 0.0;

	fprintf(f, ",\"%s\":{\"ios\":%llu,\"bytes\":%llu,\"iops\":%.3f,\"bw_bytes\":%.0f",
		dir_name[d], (unsigned long long)o->ios, (unsigned long long)o->bytes,
		s > 0 ? (double)o->ios / s : 0.0, s > 0 ? (double)o->bytes / s : 0.0);
	if (l->kind != IB_LAT_NR)
		write_lat(f, l, o);
	fputc('}', f);
}

void sline_write(FILE *f, const struct sline *l)
{
	unsigned int d;

	fprintf(f, "{\"type\":\"%s\",\"time_ms\":%llu,\"span_ms\":%.3f,",
		l->group ? "group" : "job", (unsigned long long)l->time_ms,
		(double)l->span_ns / 1e6);
	if (l->group) {
		fprintf(f, "\"groupid\":%u,\"jobs\":%u", l->job->groupid, l->nr_jobs);
	} else {
		fputs("\"jobname\":", f);
		ib_json_quote(f, l->job->name);
		fprintf(f, ",\"job\":%u,\"groupid\":%u", l->job->number, l->job->groupid);
	}
	fprintf(f, ",\"restart\":%s,\"final\":%s", l->restart ? "true" : "false",
		l->final ? "true" : "false");
	for (d = 0; d < IB_DDIR_RWT; d++)
		if (l->dirs & (1u << d))
			write_dir(f, l, d);
	fprintf(f, ",\"depth\":%llu,\"errors\":%llu}\n", (unsigned long long)l->depth,
		(unsigned long long)l->errors);
}
