// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/options.h"
#include "iobench/run.h"
#include "iobench/shm.h"

static const double default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

const char *ib_rw_name(unsigned int rw)
{
	bool rnd = rw & IB_RW_RAND;

	switch (rw & ~IB_RW_RAND) {
	case IB_RW_READ:
		return rnd ? "randread" : "read";
	case IB_RW_WRITE:
		return rnd ? "randwrite" : "write";
	case IB_RW_TRIM:
		return rnd ? "randtrim" : "trim";
	case IB_RW_READ | IB_RW_WRITE:
		return rnd ? "randrw" : "rw";
	case IB_RW_TRIM | IB_RW_WRITE:
		return rnd ? "randtrimwrite" : "trimwrite";
	}
	return "unknown";
}

void ib_job_defaults(struct ib_job *j)
{
	unsigned int i;

	memset(j, 0, sizeof(*j));
	j->rw = IB_RW_READ;
	j->rwmixread = 50;
	for (i = 0; i < IB_DDIR_RWT; i++) {
		j->bs.min[i] = 4096;
		j->bs.max[i] = 4096;
		j->bs.align[i] = 0; /* 0: follow min bs */
	}
	j->nrfiles = 1;
	j->loops = 1;
	j->numjobs = 1;
	j->randrepeat = true;
	j->randseed = 0x89;
	/* iobench's own defaults (enum ib_defaults); defaults=fio: psync, buffered */
	strcpy(j->ioengine, "io_uring");
	j->direct = true;
	j->iodepth = 1;
	j->iodepth_batch_submit = 1;
	j->iodepth_batch_complete_min = 1;
	j->iodepth_batch_complete_max = 0; /* 0: = complete_min */
	j->iodepth_low = 0;		   /* 0: = iodepth */
	j->sqthread_poll_cpu = -1;
	j->nonvectored = -1;
	j->clat_percentiles = true;
	j->nr_percentiles = (unsigned int)(sizeof(default_percentiles) /
					   sizeof(default_percentiles[0]));
	memcpy(j->percentiles, default_percentiles, sizeof(default_percentiles));
	j->percentile_precision = 2;
	j->bwavgtime_ms = 500;
	j->iopsavgtime_ms = 500;
	j->kb_base = 1024;
	j->unit_base = 8;
	j->significant_figures = 4;
}

void ib_run_init(struct ib_run *r)
{
	memset(r, 0, sizeof(*r));
	r->output_format = IB_OUT_NORMAL;
	r->terse_version = 3;
	r->eta = IB_ETA_AUTO;
	r->eta_interval_ms = 1000;
}

void ib_run_free(struct ib_run *r)
{
	ib_shm_free(r->jobs, (size_t)r->jobs_cap * sizeof(*r->jobs));
	r->jobs = NULL;
	r->nr_jobs = 0;
	r->jobs_cap = 0;
}

/* ---- fix-ups ------------------------------------------------------------ */

static unsigned int depth_default(unsigned int v, unsigned int iodepth)
{
	return v == 0 || v > iodepth ? iodepth : v;
}

/* Fields are PATH_MAX and names IB_NAME_MAX, so the name always fits. */
static void fix_log_name(char *field, const char *name)
{
	if (!strcmp(field, IB_LOG_JOBNAME))
		snprintf(field, PATH_MAX, "%s", name);
}

void ib_job_fixup(struct ib_job *j)
{
	unsigned int i;

	j->iodepth_batch_submit = depth_default(j->iodepth_batch_submit, j->iodepth);
	j->iodepth_low = depth_default(j->iodepth_low, j->iodepth);
	if (j->iodepth_batch_complete_max == 0)
		j->iodepth_batch_complete_max = j->iodepth_batch_complete_min;
	for (i = 0; i < IB_DDIR_RWT; i++)
		if (j->bs.align[i] == 0)
			j->bs.align[i] = j->bs.min[i];
	fix_log_name(j->write_bw_log, j->name);
	fix_log_name(j->write_iops_log, j->name);
	fix_log_name(j->write_lat_log, j->name);
	if (j->gtod_reduce) {
		j->disable_lat = j->disable_clat = j->disable_slat = true;
		j->clat_percentiles = j->lat_percentiles = false;
		j->slat_percentiles = false;
	}
}

/* ---- validation --------------------------------------------------------- */

/* Directions the job's rw uses, as a mask of 1 << IB_DDIR_*. */
static unsigned int used_ddirs(const struct ib_job *j)
{
	unsigned int m = 0;

	if (j->rw & IB_RW_READ)
		m |= 1u << IB_DDIR_READ;
	if (j->rw & IB_RW_WRITE)
		m |= 1u << IB_DDIR_WRITE;
	if (j->rw & IB_RW_TRIM)
		m |= 1u << IB_DDIR_TRIM;
	return m;
}

/*
 * One I/O's length is 32-bit inside the engines, and Linux moves at most
 * 2 GiB - 4 KiB per read/write call anyway: a larger "block" would be
 * several I/Os. Refused rather than silently split or truncated.
 */
#define IB_BS_LIMIT (2ull << 30)

static int check_bs(const struct ib_job *j, struct ib_diag *d)
{
	unsigned int i, used = used_ddirs(j);
	uint64_t smallest = UINT64_MAX;

	for (i = 0; i < IB_DDIR_RWT; i++) {
		if (!(used & (1u << i)))
			continue;
		if (j->bs.min[i] == 0 || j->bs.max[i] == 0)
			return ib_diag_set(d, EINVAL, "bs: block size must not be 0");
		if (j->bs.max[i] > IB_BS_LIMIT)
			return ib_diag_set(d, EINVAL,
					   "bs: %llu is larger than the largest block size, 2g (%llu)",
					   (unsigned long long)j->bs.max[i],
					   (unsigned long long)IB_BS_LIMIT);
		if (j->bs.min[i] > j->bs.max[i])
			return ib_diag_set(d, EINVAL,
					   "bsrange: minimum %llu is larger than maximum %llu",
					   (unsigned long long)j->bs.min[i],
					   (unsigned long long)j->bs.max[i]);
		/* a default direct=1 runs buffered instead (runner) */
		if (j->direct && j->direct_given &&
		    (j->bs.min[i] % 512 || j->bs.max[i] % 512))
			return ib_diag_set(d, EINVAL,
					   "bs: %llu is not a multiple of 512, required by direct=1",
					   (unsigned long long)(j->bs.min[i] % 512 ? j->bs.min[i]
										    : j->bs.max[i]));
		if (j->bs.min[i] < smallest)
			smallest = j->bs.min[i];
	}
	if (j->size && !j->size_pct && j->size < smallest)
		return ib_diag_set(d, EINVAL,
				   "size: %llu is smaller than the block size %llu",
				   (unsigned long long)j->size,
				   (unsigned long long)smallest);
	return 0;
}

static int check_depths(const struct ib_job *j, struct ib_diag *d)
{
	if (j->iodepth == 0)
		return ib_diag_set(d, EINVAL, "iodepth: must be at least 1");
	if (j->fixedbufs && j->iodepth > IB_URING_MAX_FIXEDBUFS &&
	    !strcmp(j->ioengine, "io_uring"))
		return ib_diag_set(d, EINVAL,
				   "fixedbufs: iodepth=%u needs %u registered buffers, io_uring allows %u",
				   j->iodepth, j->iodepth, IB_URING_MAX_FIXEDBUFS);
	if (j->iodepth_batch_complete_max < j->iodepth_batch_complete_min)
		return ib_diag_set(d, EINVAL,
				   "iodepth_batch_complete_max: %u is less than iodepth_batch_complete_min %u",
				   j->iodepth_batch_complete_max,
				   j->iodepth_batch_complete_min);
	return 0;
}

/* "hipri: only valid with ioengine=io_uring or pvsync2" */
static int engine_opt_error(const struct ib_opt *o, struct ib_diag *d)
{
	char list[128] = "";
	const char *p = o->engines, *comma;
	size_t used = 0;

	while (p && *p && used < sizeof(list)) {
		comma = strchr(p, ',');
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%.*s",
					 used == 0 ? "" : comma ? ", " : " or ",
					 comma ? (int)(comma - p) : (int)strlen(p), p);
		p = comma ? comma + 1 : NULL;
	}
	return ib_diag_set(d, EINVAL, "%s: only valid with ioengine=%s", o->name, list);
}

/* Was engine option o given (explicitly, or inherited with a non-default value)? */
static bool engine_opt_used(const struct ib_job *j, const struct ib_job *def,
			    const struct ib_opt *o)
{
	if (ib_opts_text_get(j->opts_text, j->opts_len, o->name))
		return true;
	return memcmp((const char *)j + o->off, (const char *)def + o->off, o->size) != 0;
}

static int check_engine(const struct ib_job *j, struct ib_diag *d)
{
	struct ib_job *def;
	const struct ib_opt *tab, *o;
	unsigned int n, i;

	/* a default engine not built in falls back when the job runs (runner) */
	if (!ib_engine_find(j->ioengine) && j->ioengine_given) {
		if (!strcmp(j->ioengine, "libaio") || !strcmp(j->ioengine, "io_uring"))
			return ib_diag_set(d, ENOTSUP,
					   "ioengine=%s: not built into this iobench (%s was not found at build time)",
					   j->ioengine,
					   j->ioengine[0] == 'l' ? "libaio" : "liburing");
		if (ib_engine_known_unbuilt(j->ioengine))
			return ib_diag_set(d, ENOTSUP,
					   "ioengine=%s: fio engine not supported by iobench",
					   j->ioengine);
		return ib_diag_set(d, EINVAL, "ioengine: unknown engine '%s'", j->ioengine);
	}
	def = malloc(sizeof(*def));
	if (!def)
		return ib_diag_set(d, ENOMEM, "out of memory");
	ib_job_defaults(def);
	tab = ib_opt_table(&n);
	for (i = 0; i < n; i++) {
		o = &tab[i];
		if (!o->engines || ib_opt_engine_ok(o, j->ioengine))
			continue;
		if (engine_opt_used(j, def, o)) {
			free(def);
			return engine_opt_error(o, d);
		}
	}
	free(def);
	return 0;
}

static int check_misc(const struct ib_job *j, bool readonly, struct ib_diag *d)
{
	if (j->rwmixread > 100)
		return ib_diag_set(d, EINVAL, "rwmixread: %u is out of range (0..100)",
				   j->rwmixread);
	if (j->numjobs == 0)
		return ib_diag_set(d, EINVAL, "numjobs: must be at least 1");
	if (j->loops == 0)
		return ib_diag_set(d, EINVAL, "loops: must be at least 1");
	if (j->time_based && j->runtime_us == 0)
		return ib_diag_set(d, EINVAL, "runtime: time_based needs a runtime greater than 0");
	if (readonly && ib_job_writes(j))
		return ib_diag_set(d, EPERM, "job '%s': rw=%s writes, refused by --readonly",
				   j->name, ib_rw_name(j->rw));
	return 0;
}

int ib_job_validate(const struct ib_job *j, bool readonly, struct ib_diag *d)
{
	int rc = check_misc(j, readonly, d);

	if (!rc)
		rc = check_depths(j, d);
	if (!rc)
		rc = check_bs(j, d);
	if (!rc)
		rc = check_engine(j, d);
	return rc;
}

/* ---- expansion ---------------------------------------------------------- */

/*
 * Room for `need` jobs. The array is a MAP_SHARED mapping, not heap memory:
 * fork() copies the page tables of private memory, and each job is ~33 KiB,
 * so with a private array starting N job processes cost O(N^2) page-table
 * copies (numjobs=4096 took a minute to start). Shared pages are not copied.
 */
static int jobs_reserve(struct ib_run *r, unsigned int need)
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

int ib_run_add_job(struct ib_run *r, const struct ib_job *j, struct ib_diag *d)
{
	unsigned int i, n = j->numjobs ? j->numjobs : 1, group = 0;
	struct ib_job *jobs, *c;

	if (r->nr_jobs + n > IB_MAX_JOBS)
		return ib_diag_set(d, E2BIG, "job '%s': more than %d jobs in total",
				   j->name, IB_MAX_JOBS);
	if (jobs_reserve(r, r->nr_jobs + n) < 0)
		return ib_diag_set(d, ENOMEM, "job '%s': out of memory", j->name);
	jobs = r->jobs;
	if (r->nr_jobs) {
		group = jobs[r->nr_jobs - 1].groupid;
		if (j->stonewall || j->new_group)
			group++;
	}
	for (i = 0; i < n; i++) {
		c = &jobs[r->nr_jobs];
		*c = *j;
		c->clone = i;
		c->number = r->nr_jobs + 1;
		c->groupid = group;
		if (i > 0)
			c->stonewall = c->new_group = false;
		r->nr_jobs++;
	}
	return 0;
}
