// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results document (results.h): built from a live run, allocated for
 * a reader, freed.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "iobench/results.h"
#include "iobench/evidence.h"
#include "iobench/plan.h"
#include "iobench/runner.h"

void ib_res_job_from(struct ib_res_job *dst, const struct ib_job *j)
{
	memset(dst, 0, sizeof(*dst));
	snprintf(dst->name, sizeof(dst->name), "%s", j->name);
	snprintf(dst->description, sizeof(dst->description), "%s", j->description);
	dst->clone = j->clone;
	dst->groupid = j->groupid;
	dst->group_reporting = j->group_reporting;
	dst->thread = j->thread;
	dst->rw = j->rw;
	dst->bs = j->bs;
	snprintf(dst->ioengine, sizeof(dst->ioengine), "%s", j->ioengine);
	dst->iodepth = j->iodepth;
	dst->direct = j->direct;
	dst->continue_on_error = j->continue_on_error;
	dst->gtod_reduce = j->gtod_reduce;
	dst->disable_lat = j->disable_lat;
	dst->disable_clat = j->disable_clat;
	dst->disable_slat = j->disable_slat;
	dst->clat_percentiles = j->clat_percentiles;
	dst->lat_percentiles = j->lat_percentiles;
	dst->slat_percentiles = j->slat_percentiles;
	dst->nr_percentiles = j->nr_percentiles;
	memcpy(dst->percentiles, j->percentiles, sizeof(dst->percentiles));
	dst->percentile_precision = j->percentile_precision;
	dst->kb_base = j->kb_base;
	dst->unit_base = j->unit_base;
	dst->significant_figures = j->significant_figures;
	dst->unified_rw_rep = j->unified_rw_rep;
	/* as the JSON writer always did: a job without a length has a full text */
	dst->opts_len = j->opts_len ? j->opts_len : (unsigned int)sizeof(dst->opts_text);
	memcpy(dst->opts_text, j->opts_text, j->opts_len);
}

int ib_results_alloc(struct ib_results *r, unsigned int nr_hosts,
		     unsigned int nr_jobs, unsigned int nr_disks)
{
	memset(r, 0, sizeof(*r));
	r->hosts = calloc(nr_hosts ? nr_hosts : 1, sizeof(*r->hosts));
	r->jobs = calloc(nr_jobs ? nr_jobs : 1, sizeof(*r->jobs));
	r->own_stats = calloc(nr_jobs ? nr_jobs : 1, sizeof(*r->own_stats));
	r->disks = calloc(nr_disks ? nr_disks : 1, sizeof(*r->disks));
	if (!r->hosts || !r->jobs || !r->own_stats || !r->disks) {
		ib_results_free(r);
		return -ENOMEM;
	}
	r->stats = r->own_stats;
	r->nr_hosts = nr_hosts;
	r->nr_jobs = nr_jobs;
	r->nr_disks = nr_disks;
	r->terse_version = 3;
	r->fio_version = IB_FIO_VERSION_DEFAULT;
	return 0;
}

static int alloc_live(struct ib_results *r, const struct ib_plan *run,
		      unsigned int nr_disks)
{
	memset(r, 0, sizeof(*r));
	r->hosts = calloc(1, sizeof(*r->hosts));
	r->jobs = calloc(run->nr_jobs ? run->nr_jobs : 1, sizeof(*r->jobs));
	r->disks = calloc(nr_disks ? nr_disks : 1, sizeof(*r->disks));
	if (!r->hosts || !r->jobs || !r->disks) {
		ib_results_free(r);
		return -ENOMEM;
	}
	r->nr_hosts = 1;
	r->nr_jobs = run->nr_jobs;
	r->nr_disks = nr_disks;
	return 0;
}

int ib_results_from_run(struct ib_results *r, const struct ib_plan *run,
			const struct ib_result *res, int64_t timestamp_ms)
{
	unsigned int nr_disks = res && res->disks ? res->nr_disks : 0, i;

	if (alloc_live(r, run, nr_disks) < 0)
		return -ENOMEM;
	if (gethostname(r->hosts[0].name, sizeof(r->hosts[0].name) - 1) < 0)
		r->hosts[0].name[0] = '\0';
	for (i = 0; i < run->nr_jobs; i++)
		ib_res_job_from(&r->jobs[i], &run->jobs[i]);
	r->stats = res ? res->stats : NULL;
	for (i = 0; i < nr_disks; i++)
		r->disks[i].util = res->disks[i];
	r->timestamp_ms = timestamp_ms;
	r->terse_version = run->terse_version ? run->terse_version : 3;
	r->fio_version = run->fio_version ? run->fio_version : IB_FIO_VERSION_DEFAULT;
	r->global_opts_len = run->global_opts_len;
	r->evidence = res ? res->evidence : NULL;
	r->env = res ? res->env : NULL;
	r->checks_mask = run->checks_mask;
	r->show_env = run->show_env;
	memcpy(r->global_opts_text, run->global_opts_text, sizeof(r->global_opts_text));
	return 0;
}

/* A copy of src's slots of the jobs with stats, in order; NULL: no memory. */
static void *keep_slots(const void *src, size_t size, const struct ib_plan *run)
{
	unsigned int i, n = 0;
	char *out = calloc(run->nr_jobs ? run->nr_jobs : 1, size);

	for (i = 0; out && i < run->nr_jobs; i++)
		if (run->jobs[i].stats)
			memcpy(out + (size_t)n++ * size, (const char *)src + (size_t)i * size, size);
	return out;
}

int ib_results_drop_nostats(struct ib_results *r, const struct ib_plan *run)
{
	unsigned int i, n = 0;

	for (i = 0; i < run->nr_jobs && run->jobs[i].stats; i++)
		;
	if (i == run->nr_jobs || r->nr_jobs != run->nr_jobs)
		return 0;
	if (r->stats && !r->own_stats &&
	    !(r->own_stats = keep_slots(r->stats, sizeof(*r->stats), run)))
		return -ENOMEM;
	if (r->own_stats)
		r->stats = r->own_stats;
	if (r->evidence && !r->own_evidence &&
	    !(r->own_evidence = keep_slots(r->evidence, sizeof(*r->evidence), run)))
		return -ENOMEM;
	if (r->own_evidence)
		r->evidence = r->own_evidence;
	for (i = 0; i < run->nr_jobs; i++)
		if (run->jobs[i].stats)
			r->jobs[n++] = r->jobs[i];
	r->nr_jobs = n;
	return 0;
}

void ib_results_free(struct ib_results *r)
{
	unsigned int i;

	for (i = 0; r->series && i < r->nr_jobs; i++)
		free(r->series[i].iv);
	free(r->series);
	free(r->hosts);
	free(r->jobs);
	free(r->own_stats);
	free(r->disks);
	free(r->own_evidence);
	free(r->own_env);
	memset(r, 0, sizeof(*r));
}
