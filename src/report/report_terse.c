// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's terse (minimal) output, versions 2-5 (doc/fio-compat.md §3): one line of
 * ';'-separated fields per job or group_reporting group.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "iobench/disk.h"
#include "report_common.h"

static void terse_lat(FILE *f, const struct ib_lat_stat *s)
{
	fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(s->n ? s->min / 1000 : 0),
		(unsigned long long)(s->max / 1000), s->mean / 1000.0,
		ib_lat_stat_stddev(s) / 1000.0);
}

/*
 * The percentile fields: total latency's with lat_percentiles=1, else
 * completion latency's (fio's terse puts either there, lat first).
 */
static void terse_pct(FILE *f, const struct ib_res_job *job, const struct ib_dir_stats *ds)
{
	uint64_t val[IB_MAX_PERCENTILES] = { 0 };
	unsigned int nr = job->nr_percentiles < IB_MAX_PERCENTILES ?
			  job->nr_percentiles : IB_MAX_PERCENTILES, i;
	enum ib_lat_kind k = ib_rep_pct_enabled(job, IB_LAT_TLAT) ? IB_LAT_TLAT : IB_LAT_CLAT;
	const struct ib_lat_stat *s = &ds->lat[k];

	if (ib_rep_pct_enabled(job, k) && s->n)
		ib_rep_percentiles(job, &ds->hist[k], s->n, val);
	else if (!ib_rep_pct_enabled(job, k))
		nr = 0;
	for (i = 0; i < IB_MAX_PERCENTILES; i++) {
		if (i < nr)
			fprintf(f, ";%f%%=%llu", job->percentiles[i],
				(unsigned long long)(val[i] / 1000));
		else
			fputs(";0%=0", f);
	}
}

/* One direction's fields; d picks the group aggregate (the mixed ones: 0) */
static void terse_ddir(FILE *f, const struct ib_rep *r, const struct ib_rep_entry *e,
		       const struct ib_dir_stats *ds, unsigned int d, unsigned int ver)
{
	const struct ib_lat_stat *bw = &ds->bw_samples, *io = &ds->iops_samples;
	uint64_t ms = ib_rep_runtime_ms(ds);

	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)(ds->io_bytes >> 10),
		(unsigned long long)(ib_rep_bw(ds) / 1024),
		(unsigned long long)(ms ? ib_rep_ios(ds) * 1000 / ms : 0),
		(unsigned long long)ms);
	terse_lat(f, &ds->lat[IB_LAT_SLAT]);
	terse_lat(f, &ds->lat[IB_LAT_CLAT]);
	terse_pct(f, e->job, ds);
	terse_lat(f, &ds->lat[IB_LAT_TLAT]);
	fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)bw->min,
		(unsigned long long)bw->max, ib_rep_bw_per(r, e, ds, d, true), bw->mean,
		ib_lat_stat_stddev(bw));
	if (ver == 5)
		fprintf(f, ";%llu;%llu;%llu;%f;%f;%llu", (unsigned long long)bw->n,
			(unsigned long long)io->min, (unsigned long long)io->max, io->mean,
			ib_lat_stat_stddev(io), (unsigned long long)io->n);
}

static void terse_dist(FILE *f, const uint64_t *cnt, unsigned int nr, uint64_t total,
		       const char *fmt, double floor)
{
	unsigned int i;
	double p;

	for (i = 0; i < nr; i++) {
		p = ib_rep_pct(cnt[i], total);
		if (cnt[i] && p < floor)
			p = floor;
		fprintf(f, fmt, p);
	}
}

static void terse_tail(FILE *f, const struct ib_job_stats *s)
{
	uint64_t rt = s->job_runtime_ms, total = ib_rep_total_ios(s), lat_u[IB_LAT_U_NR];
	unsigned int i;

	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu",
		rt ? (double)s->usr_us / 10.0 / (double)rt : 0.0,
		rt ? (double)s->sys_us / 10.0 / (double)rt : 0.0,
		(unsigned long long)s->ctx, (unsigned long long)s->majf,
		(unsigned long long)s->minf);
	terse_dist(f, s->depth, IB_DEPTH_NR, total, ";%3.1f%%", 0.1);
	memcpy(lat_u, s->lat_u, sizeof(lat_u));
	for (i = 0; i < IB_LAT_N_NR; i++) /* ns buckets fold into "2 us" */
		lat_u[0] += s->lat_n[i];
	terse_dist(f, lat_u, IB_LAT_U_NR, total, ";%3.2f%%", 0.01);
	terse_dist(f, s->lat_m, IB_LAT_M_NR, total, ";%3.2f%%", 0.01);
}

static void terse_disk(FILE *f, const struct ib_disk_util *u)
{
	fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", u->name,
		(unsigned long long)u->ios[0], (unsigned long long)u->ios[1],
		(unsigned long long)u->merges[0], (unsigned long long)u->merges[1],
		(unsigned long long)u->ticks[0], (unsigned long long)u->ticks[1],
		(unsigned long long)u->in_queue, u->util);
	if (u->nr_slaves)
		fprintf(f, ";slaves;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
			(unsigned long long)u->aggr_ios[0], (unsigned long long)u->aggr_ios[1],
			(unsigned long long)u->aggr_merges[0],
			(unsigned long long)u->aggr_merges[1],
			(unsigned long long)u->aggr_ticks[0],
			(unsigned long long)u->aggr_ticks[1],
			(unsigned long long)u->aggr_in_queue, u->aggr_util);
}

static void terse_entry(FILE *f, const struct ib_results *res, const struct ib_rep *r,
			const struct ib_rep_entry *e, unsigned int ver)
{
	const struct ib_res_job *j = e->job;
	const char *where;
	int err = ib_rep_error(e, &where);
	unsigned int d, i;

	if (ver == 2)
		fprintf(f, "2;%s;%u;%d", j->name, j->groupid, err);
	else
		fprintf(f, "%u;%s;%s;%u;%d", ver, ib_fio_version_str(res->fio_version),
			j->name, j->groupid, err);
	/* unified_rw_reporting=mixed: only the folded (read) slot */
	for (d = 0; d < IB_DDIR_RWT; d++)
		if ((d != IB_DDIR_TRIM || ver != 3) &&
		    (d == IB_DDIR_READ || j->unified_rw_rep != IB_UNIFIED_MIXED))
			terse_ddir(f, r, e, &e->st->dir[d], d, ver);
	if (e->mixed)
		terse_ddir(f, r, e, e->mixed, IB_DDIR_READ, ver);
	terse_tail(f, e->st);
	if (ver >= 3)
		for (i = 0; i < res->nr_disks; i++)
			terse_disk(f, &res->disks[i].util);
	if (j->continue_on_error)
		fprintf(f, ";%llu;%d", (unsigned long long)e->st->total_err,
			e->st->first_error);
	if (j->description[0])
		fprintf(f, ver == 2 ? "\n%s" : ";%s", j->description);
	fputc('\n', f);
}

int ib_report_terse(FILE *f, const struct ib_results *res)
{
	unsigned int ver = res->terse_version ? res->terse_version : 3, i;
	struct ib_rep r;
	int ret;

	if (ver < 2 || ver > 5)
		return -EINVAL;
	ret = ib_rep_build(&r, res);
	if (ret)
		return ret;
	for (i = 0; i < r.nr_ent; i++)
		terse_entry(f, res, &r, &r.ent[i], ver);
	ib_rep_free(&r);
	return ferror(f) ? -EIO : 0;
}
