// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building report entries (group_reporting merge) and group aggregates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/disk.h"
#include "report_common.h"

/* A single job's entry points at its stats; copies are made only to merge */
static void add_entry(struct ib_rep *r, const struct ib_res_job *job,
		      const struct ib_job_stats *st)
{
	struct ib_rep_entry *e = &r->ent[r->nr_ent++];

	e->st = st;
	e->job = job;
	e->last_job = job;
	e->nr_jobs = 1;
}

static int merge_into(struct ib_rep_entry *e, const struct ib_res_job *j,
		      const struct ib_job_stats *st)
{
	if (!e->merged) {
		e->merged = calloc(1, sizeof(*e->merged));
		if (!e->merged)
			return -ENOMEM;
		ib_stats_merge(e->merged, e->st);
		e->st = e->merged;
	}
	ib_stats_merge(e->merged, st);
	e->last_job = j;
	e->nr_jobs++;
	return 0;
}

static int build_entries(struct ib_rep *r, const struct ib_results *res)
{
	unsigned int i;
	int ret;

	for (i = 0; i < res->nr_jobs; i++) {
		const struct ib_res_job *j = &res->jobs[i];
		struct ib_rep_entry *last = r->nr_ent ? &r->ent[r->nr_ent - 1] : NULL;

		/* never across hosts: each host's report stands alone */
		if (j->group_reporting && last && last->job->groupid == j->groupid &&
		    last->job->host == j->host) {
			ret = merge_into(last, j, &res->stats[i]);
			if (ret)
				return ret;
			continue;
		}
		add_entry(r, j, &res->stats[i]);
	}
	return 0;
}

/* All of st's directions summed into *out (zeroed first). */
static void fold_dirs(struct ib_dir_stats *out, const struct ib_job_stats *st)
{
	unsigned int d;

	memset(out, 0, sizeof(*out));
	for (d = 0; d < IB_DDIR_RWT; d++)
		ib_stats_merge_dir(out, &st->dir[d]);
}

/* unified_rw_reporting: mixed folds the entry's stats, both adds the fold */
static int unify(struct ib_rep_entry *e)
{
	unsigned int mode = e->job->unified_rw_rep;

	if (mode != IB_UNIFIED_MIXED && mode != IB_UNIFIED_BOTH)
		return 0;
	if (mode == IB_UNIFIED_BOTH) {
		e->mixed = malloc(sizeof(*e->mixed));
		if (!e->mixed)
			return -ENOMEM;
		fold_dirs(e->mixed, e->st);
		return 0;
	}
	if (!e->merged) {
		e->merged = calloc(1, sizeof(*e->merged));
		if (!e->merged)
			return -ENOMEM;
		*e->merged = *e->st;
		e->st = e->merged;
	}
	/* mixed: the other directions folded into the read slot, in place */
	ib_stats_merge_dir(&e->merged->dir[0], &e->merged->dir[1]);
	ib_stats_merge_dir(&e->merged->dir[0], &e->merged->dir[2]);
	memset(&e->merged->dir[1], 0, 2 * sizeof(e->merged->dir[1]));
	return 0;
}

static struct ib_rep_group *find_or_add_group(struct ib_rep *r, const struct ib_res_job *j)
{
	struct ib_rep_group *g;
	unsigned int i, d;

	for (i = 0; i < r->nr_grp; i++)
		if (r->grp[i].groupid == j->groupid)
			return &r->grp[i];
	g = &r->grp[r->nr_grp++];
	memset(g, 0, sizeof(*g));
	g->groupid = j->groupid;
	g->job = j;
	for (d = 0; d < IB_DDIR_RWT; d++) {
		g->min_bw[d] = UINT64_MAX;
		g->min_run[d] = UINT64_MAX;
	}
	return g;
}

static void account_group(struct ib_rep_group *g, const struct ib_job_stats *s)
{
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		const struct ib_dir_stats *ds = &s->dir[d];
		uint64_t ms = ib_rep_runtime_ms(ds), bw;

		g->io_bytes[d] += ds->io_bytes;
		if (!ms)
			continue;
		bw = ds->io_bytes * 1000 / ms;
		if (bw < g->min_bw[d])
			g->min_bw[d] = bw;
		if (bw > g->max_bw[d])
			g->max_bw[d] = bw;
		if (ms < g->min_run[d])
			g->min_run[d] = ms;
		if (ms > g->max_run[d])
			g->max_run[d] = ms;
	}
}

static void finish_group(struct ib_rep_group *g)
{
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		if (g->min_bw[d] == UINT64_MAX)
			g->min_bw[d] = 0;
		if (g->min_run[d] == UINT64_MAX)
			g->min_run[d] = 0;
		g->agg_bw[d] = g->max_run[d] ? g->io_bytes[d] * 1000 / g->max_run[d] : 0;
	}
}

int ib_rep_build(struct ib_rep *r, const struct ib_results *res)
{
	unsigned int n = res->nr_jobs ? res->nr_jobs : 1, i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->fio_version = res->fio_version;
	r->ent = calloc(n, sizeof(*r->ent));
	r->grp = calloc(n, sizeof(*r->grp));
	if (!r->ent || !r->grp) {
		ib_rep_free(r);
		return -ENOMEM;
	}
	ret = build_entries(r, res);
	if (ret) {
		ib_rep_free(r);
		return ret;
	}
	for (i = 0; i < r->nr_ent && !ret; i++)
		ret = unify(&r->ent[i]);
	if (ret) {
		ib_rep_free(r);
		return ret;
	}
	for (i = 0; i < r->nr_ent; i++) {
		struct ib_rep_group *g = find_or_add_group(r, r->ent[i].job);

		g->unified |= r->ent[i].job->unified_rw_rep;
		account_group(g, r->ent[i].st);
	}
	for (i = 0; i < r->nr_grp; i++)
		finish_group(&r->grp[i]);
	return 0;
}

void ib_rep_free(struct ib_rep *r)
{
	unsigned int i;

	if (r->ent)
		for (i = 0; i < r->nr_ent; i++) {
			free(r->ent[i].merged);
			free(r->ent[i].mixed);
		}
	free(r->ent);
	free(r->grp);
	memset(r, 0, sizeof(*r));
}

const struct ib_rep_group *ib_rep_group(const struct ib_rep *r, unsigned int groupid)
{
	unsigned int i;

	for (i = 0; i < r->nr_grp; i++)
		if (r->grp[i].groupid == groupid)
			return &r->grp[i];
	return NULL;
}

double ib_rep_bw_per(const struct ib_rep *r, const struct ib_rep_entry *e,
		     const struct ib_dir_stats *ds, unsigned int ddir, bool terse)
{
	const struct ib_rep_group *g = ib_rep_group(r, e->job->groupid);
	double per;

	if (!g || g->agg_bw[ddir] < 1024 || !ds->bw_samples.n)
		return 0.0;
	if (terse)
		per = ds->bw_samples.mean * 100.0 / (double)(g->agg_bw[ddir] / 1024);
	else
		per = (double)(int)ds->bw_samples.mean * 100.0 /
		      ((double)g->agg_bw[ddir] / 1024.0);
	return per > 100.0 ? 100.0 : per;
}

int ib_rep_error(const struct ib_rep_entry *e, const char **where)
{
	const struct ib_job_stats *s = e->st;

	if (!s->error && e->job->continue_on_error && s->first_error) {
		*where = s->first_error_where;
		return s->first_error;
	}
	*where = s->error_where;
	return s->error;
}

uint64_t ib_rep_total_ios(const struct ib_job_stats *s)
{
	uint64_t issued = 0, done = 0;
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		issued += s->dir[d].issued;
		done += s->dir[d].total_ios;
	}
	return issued ? issued : done;
}

bool ib_rep_pct_enabled(const struct ib_res_job *job, enum ib_lat_kind k)
{
	if (job->gtod_reduce || !job->nr_percentiles)
		return false;
	switch (k) {
	case IB_LAT_SLAT:
		return job->slat_percentiles && !job->disable_slat;
	case IB_LAT_CLAT:
		return job->clat_percentiles && !job->disable_clat;
	default:
		return job->lat_percentiles && !job->disable_lat;
	}
}

unsigned int ib_rep_percentiles(const struct ib_res_job *job, const struct ib_hist *h,
				uint64_t n, uint64_t *out)
{
	unsigned int nr = job->nr_percentiles;

	if (nr > IB_MAX_PERCENTILES)
		nr = IB_MAX_PERCENTILES;
	if (!n || !nr || ib_hist_percentiles(h, n, job->percentiles, nr, out))
		return 0;
	return nr;
}

double ib_rep_pct(uint64_t v, uint64_t total)
{
	return total ? (double)v * 100.0 / (double)total : 0.0;
}

void ib_disk_aggr_sectors(const struct ib_disk_util *u, uint64_t out[2])
{
	unsigned int s, n = u->nr_slaves < IB_DISK_SLAVES_MAX ? u->nr_slaves : IB_DISK_SLAVES_MAX;

	out[0] = out[1] = 0;
	for (s = 0; s < n; s++) {
		out[0] += u->slave[s].sectors[0];
		out[1] += u->slave[s].sectors[1];
	}
	if (u->nr_slaves) {
		out[0] /= u->nr_slaves;
		out[1] /= u->nr_slaves;
	}
}
