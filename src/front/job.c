// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job description's defaults and names: what a job is before any
 * option is given (fio's defaults), and fio's canonical rw names. Fix-up
 * and validation are validate.c; turning jobs into the run's plan is plan.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include "iobench/compiler.h"
#include "iobench/job.h"
#include "iobench/steadystate.h"
#include "iobench/strtab.h"

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
	/* only a trace replay has these: named by its reads and writes,
	 * as fio names a replay's (it leaves trims out) */
	case IB_RW_TRIM | IB_RW_READ:
		return rnd ? "randread" : "read";
	case IB_RW_TRIM | IB_RW_READ | IB_RW_WRITE:
		return rnd ? "randrw" : "rw";
	}
	return "unknown";
}

const size_t ib_job_str_off[IB_JOB_NR_STRS] = {
	offsetof(struct ib_job, filename),
	offsetof(struct ib_job, directory),
	offsetof(struct ib_job, write_iolog),
	offsetof(struct ib_job, write_bw_log),
	offsetof(struct ib_job, write_iops_log),
	offsetof(struct ib_job, write_lat_log),
	offsetof(struct ib_job, write_hist_log),
	offsetof(struct ib_job, read_iolog),
	offsetof(struct ib_job, replay_redirect),
	offsetof(struct ib_job, merge_blktrace_file),
	offsetof(struct ib_job, name),
	offsetof(struct ib_job, description),
	offsetof(struct ib_job, wait_for),
	offsetof(struct ib_job, filename_format),
	offsetof(struct ib_job, ioengine),
	offsetof(struct ib_job, buffer_pattern),
	offsetof(struct ib_job, iomem_file),
	offsetof(struct ib_job, ioscheduler),
	offsetof(struct ib_job, exec_prerun),
	offsetof(struct ib_job, exec_postrun),
	offsetof(struct ib_job, verify_pattern),
};

const struct ib_zones ib_job_no_zones[IB_DDIR_RWT];
const struct ib_bssplit ib_job_no_bssplit[IB_DDIR_RWT];
const struct ib_err_list ib_job_no_ignore_error[IB_ERR_TYPE_NR];

const struct ib_job_tab ib_job_tabs[IB_JOB_NR_TABS] = {
	{ offsetof(struct ib_job, zones), sizeof(ib_job_no_zones), ib_job_no_zones },
	{ offsetof(struct ib_job, bssplit), sizeof(ib_job_no_bssplit),
	  ib_job_no_bssplit },
	{ offsetof(struct ib_job, ignore_error), sizeof(ib_job_no_ignore_error),
	  ib_job_no_ignore_error },
};

/* The job array is copied whole (clones, shared memory): kept small. */
_Static_assert(sizeof(struct ib_job) <= IB_JOB_SIZE_MAX,
	       "struct ib_job over IB_JOB_SIZE_MAX: put the new table or text in strs");

void *ib_job_tab_copy(struct ib_job *j, const void *cur, size_t size)
{
	void *p = j->strs ? ib_strtab_alloc(j->strs, size) : NULL;

	if (p)
		memcpy(p, cur, size);
	return p;
}

int ib_job_set_str(struct ib_job *j, const char **field, const char *fmt, ...)
{
	const char *p;
	va_list ap;

	if (!j->strs)
		return -ENOMEM;
	va_start(ap, fmt);
	p = ib_strtab_vprintf(j->strs, fmt, ap);
	va_end(ap);
	if (!p)
		return -ENOMEM;
	*field = p;
	return 0;
}

void ib_job_defaults(struct ib_job *j)
{
	unsigned int i;

	memset(j, 0, sizeof(*j));
	for (i = 0; i < IB_JOB_NR_STRS; i++)
		*ib_job_str_at(j, i) = "";
	for (i = 0; i < IB_JOB_NR_TABS; i++)
		*ib_job_tab_at(j, i) = ib_job_tabs[i].none;
	j->opts_text = "";
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
	j->ioengine = "io_uring";
	j->direct = true;
	j->iodepth = 1;
	j->iodepth_batch_submit = 1;	/* fio's; not given: see ib_job_fixup */
	j->iodepth_batch_complete_min = 1;
	j->iodepth_batch_complete_max = 0; /* 0: = complete_min */
	j->iodepth_low = 0;		   /* 0: = iodepth */
	j->sqthread_poll_cpu = -1;
	j->nonvectored = -1;
	j->clat_percentiles = true;
	j->nr_percentiles = (unsigned int)IB_ARRAY_SIZE(default_percentiles);
	memcpy(j->percentiles, default_percentiles, sizeof(default_percentiles));
	j->percentile_precision = 2;
	j->bwavgtime_ms = 500;
	j->iopsavgtime_ms = 500;
	j->kb_base = 1024;
	j->unit_base = 8;
	j->significant_figures = 4;
	/* page cache and file setup: fio's defaults */
	j->invalidate = true;
	j->fadvise_hint = IB_FADV_AUTO;
	j->fallocate = IB_FALLOC_NATIVE;
	j->create_fsync = true;
	j->create_serialize = true;
	j->dedupe_ws_pct = 5;
	j->allow_file_create = true;
	j->do_verify = true;
	j->verify_header_seed = true;
	j->verify_state_save = true;
	j->verify_write_sequence = true;
	j->write_iolog_version = 3;
	j->replay_time_scale = 100;
	j->replay_scale = 1;
	j->rate_cycle_ms = 1000;
	j->rate_late_us = 1000;
	j->thinktime_blocks = 1;
	j->latency_percentile = 100.0;
	j->ss_mode = IB_SS_SLOPE | IB_SS_PCT;	/* fio: iops_slope:0.01% */
	j->ss_limit = 0.01;
	j->compress_chunk = 512;
	j->rand_center = -1;
	for (i = 0; i < IB_DDIR_RWT; i++)
		j->pct_random[i] = 100;
	j->file_service_nr = 1;
	j->disk_util = true;
	j->per_job_logs = true;
}
