// SPDX-License-Identifier: GPL-2.0-only
/*
 * The plan (struct ib_plan): what one invocation will run. Every front end
 * (fio's argv and job files today) describes its jobs as a jobset and calls
 * ib_plan_build(), which fixes up, validates and expands each wanted job into
 * run->jobs, so all front ends produce the same validated plan.
 */
#include <errno.h>
#include <string.h>
#include "iobench/jobfile.h"
#include "iobench/job.h"
#include "iobench/job_setup.h"
#include "iobench/replay.h"
#include "iobench/plan.h"
#include "iobench/shm.h"

void ib_plan_init(struct ib_plan *r)
{
	memset(r, 0, sizeof(*r));
	r->output_format = IB_OUT_NORMAL;
	r->terse_version = 3;
	r->fio_version = IB_FIO_VERSION_DEFAULT;
	r->eta = IB_ETA_AUTO;
	r->eta_interval_ms = 1000;
	r->interval_ms = 1000;
	r->checks_mask = ~(uint64_t)0;	/* IB_CHECKS_ALL */
}

void ib_plan_free(struct ib_plan *r)
{
	ib_shm_free(r->jobs, (size_t)r->jobs_cap * sizeof(*r->jobs));
	ib_strtab_free(&r->strs);
	r->jobs = NULL;
	r->nr_jobs = 0;
	r->jobs_cap = 0;
}

/*
 * Room for `need` jobs. The array is a MAP_SHARED mapping, not heap memory:
 * fork() copies the page tables of private memory, and each job is ~33 KiB,
 * so with a private array starting N job processes cost O(N^2) page-table
 * copies (numjobs=4096 took a minute to start). Shared pages are not copied.
 */
static int jobs_reserve(struct ib_plan *r, unsigned int need)
{
	unsigned int cap = r->jobs_cap ? r->jobs_cap : 8;
	struct ib_job *p;

	if (need <= r->jobs_cap)
		return 0;
	while (cap < need)
		cap *= 2;
	p = ib_shm_alloc((size_t)cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	if (r->jobs)
		memcpy(p, r->jobs, (size_t)r->nr_jobs * sizeof(*p));
	ib_shm_free(r->jobs, (size_t)r->jobs_cap * sizeof(*p));
	r->jobs = p;
	r->jobs_cap = cap;
	return 0;
}

/* wait_for=NAME: a job of that name comes first (fio: no forward references). */
static int check_waitee(const struct ib_plan *r, const struct ib_job *j,
			struct ib_diag *d)
{
	unsigned int i;

	if (!j->wait_for[0])
		return 0;
	for (i = 0; i < r->nr_jobs; i++)
		if (!strcmp(r->jobs[i].name, j->wait_for))
			return 0;
	return ib_diag_set(d, ENOENT, "job '%s': wait_for=%s: no earlier job named '%s'",
			   j->name, j->wait_for, j->wait_for);
}

/*
 * The plan's own copy of j's strings and tables (job.h), once for all its
 * clones: the plan outlives the jobset (and may be freed before it).
 */
static int own_strings(struct ib_plan *r, struct ib_job *j)
{
	unsigned int i;

	for (i = 0; i < IB_JOB_NR_STRS; i++) {
		const char **s = ib_job_str_at(j, i);

		*s = **s ? ib_strtab_add(&r->strs, *s, strlen(*s)) : "";
		if (!*s)
			return -ENOMEM;
	}
	j->opts_text = ib_strtab_add(&r->strs, j->opts_text, j->opts_len);
	if (!j->opts_text)
		return -ENOMEM;
	j->strs = &r->strs;
	for (i = 0; i < IB_JOB_NR_TABS; i++) {
		const void **t = ib_job_tab_at(j, i);

		if (*t == ib_job_tabs[i].none)
			continue;
		*t = ib_job_tab_copy(j, *t, ib_job_tabs[i].size);
		if (!*t)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The ramp_size of a group_reporting group ends on the group's bytes
 * (runner_wait.c): its jobs must agree on it (fio rejects the job too).
 */
static int check_group_ramp(const struct ib_plan *r, const struct ib_job *j,
			    struct ib_diag *d)
{
	const struct ib_job *prev;

	if (!r->nr_jobs || j->stonewall || j->new_group || !j->group_reporting)
		return 0;
	prev = &r->jobs[r->nr_jobs - 1];
	if (j->ramp_size == prev->ramp_size)
		return 0;
	return ib_diag_set(d, EINVAL,
			   "job '%s': ramp_size differs from the rest of its group_reporting group (one ramp for the group)",
			   j->name);
}

int ib_plan_add_job(struct ib_plan *r, const struct ib_job *j, struct ib_diag *d)
{
	unsigned int i, n = j->numjobs ? j->numjobs : 1, group = 0;
	struct ib_job *jobs, *c, own = *j;

	if (check_waitee(r, j, d))
		return -ENOENT;
	if (check_group_ramp(r, j, d))
		return -EINVAL;
	if (r->nr_jobs + n > IB_MAX_JOBS)
		return ib_diag_set(d, E2BIG, "job '%s': more than %d jobs in total",
				   j->name, IB_MAX_JOBS);
	if (jobs_reserve(r, r->nr_jobs + n) < 0 || own_strings(r, &own) < 0)
		return ib_diag_set(d, ENOMEM, "job '%s': out of memory", j->name);
	jobs = r->jobs;
	if (r->nr_jobs) {
		group = jobs[r->nr_jobs - 1].groupid;
		if (j->stonewall || j->new_group)
			group++;
	}
	for (i = 0; i < n; i++) {
		c = &jobs[r->nr_jobs];
		*c = own;
		c->clone = i;
		c->number = r->nr_jobs + 1;
		c->groupid = group;
		if (i > 0)
			c->stonewall = c->new_group = false;
		r->nr_jobs++;
	}
	return 0;
}

static bool section_wanted(const struct ib_plan *r, const char *name)
{
	unsigned int i;

	if (!r->nr_sections)
		return true;
	for (i = 0; i < r->nr_sections; i++)
		if (!strcmp(r->sections[i], name))
			return true;
	return false;
}

static int check_filters(const struct ib_plan *r, const struct ib_jobset *s,
			 struct ib_diag *d)
{
	unsigned int i, k;

	for (i = 0; i < r->nr_sections; i++) {
		for (k = 0; k < s->nr; k++)
			if (!s->secs[k].is_global && !strcmp(s->secs[k].job.name, r->sections[i]))
				break;
		if (k == s->nr)
			return ib_diag_set(d, ENOENT, "--section: no job section named '%s'",
					   r->sections[i]);
	}
	return 0;
}

int ib_plan_build(struct ib_plan *r, struct ib_jobset *s, struct ib_diag *d)
{
	struct ib_job *j;
	unsigned int i;
	int rc = check_filters(r, s, d);

	memset(r->global_opts_text, 0, sizeof(r->global_opts_text));
	memcpy(r->global_opts_text, s->global.opts_text, s->global.opts_len);
	r->global_opts_len = s->global.opts_len;
	if (s->fio_version && !r->fio_version_cli)
		r->fio_version = s->fio_version;
	for (i = 0; !rc && i < s->nr; i++) {
		j = &s->secs[i].job;
		if (s->secs[i].is_global || !section_wanted(r, j->name))
			continue;
		j->verify.hdr_ver = (unsigned int)r->fio_version;
		j->fio_ver = (unsigned int)r->fio_version;
		rc = ib_job_fixup(j);
		if (rc)
			rc = ib_diag_set(d, -rc, "job '%s': no memory", j->name);
		else
			rc = ib_job_validate(j, r->readonly, d);
		if (!rc)
			rc = ib_plan_add_job(r, j, d);
	}
	if (!rc && r->max_jobs && r->nr_jobs > r->max_jobs)
		rc = ib_diag_set(d, E2BIG, "--max-jobs=%u: the run has %u jobs",
				 r->max_jobs, r->nr_jobs);
	return rc;
}

/* A clone of a replay job takes what the plan made of its first clone. */
static void copy_replay(struct ib_job *j, const struct ib_job *first)
{
	j->replay.iolog = first->replay.iolog;
	j->filename = first->filename;
	j->rw = first->rw;
	j->bs = first->bs;
	j->size = first->size;
}

int ib_plan_replays(struct ib_plan *r, struct ib_diag *d)
{
	struct ib_job *j;
	unsigned int i;
	int rc;

	for (i = 0; i < r->nr_jobs; i++) {
		j = &r->jobs[i];
		if (!j->replay.iolog[0])
			continue;
		rc = ib_replay_per_clone(j);
		if (rc < 0)
			return ib_diag_set(d, -rc, "job '%s': no memory", j->name);
		if (!rc && j->clone > 0) {
			/* one trace: its first clone is the job before */
			copy_replay(j, &r->jobs[i - 1]);
			continue;
		}
		rc = ib_replay_plan(j, r->readonly, d);
		if (!rc && ib_job_fixup(j))
			rc = ib_diag_set(d, ENOMEM, "job '%s': no memory", j->name);
		if (!rc)
			rc = ib_job_validate(j, r->readonly, d);
		if (rc)
			return rc;
	}
	return 0;
}
