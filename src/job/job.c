// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job description's own functions, which know no option: fio's
 * canonical rw names, where its strings and tables are (for code that
 * copies or hashes jobs by content), and setting one of them in the job's
 * string table. Its defaults come from the option table
 * (front/defaults.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include "iobench/compiler.h"
#include "iobench/job.h"
#include "iobench/strtab.h"

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
	offsetof(struct ib_job, opendir),
	offsetof(struct ib_job, logs.iolog),
	offsetof(struct ib_job, logs.bw),
	offsetof(struct ib_job, logs.iops),
	offsetof(struct ib_job, logs.lat),
	offsetof(struct ib_job, logs.hist),
	offsetof(struct ib_job, replay.iolog),
	offsetof(struct ib_job, replay.redirect),
	offsetof(struct ib_job, replay.merge_file),
	offsetof(struct ib_job, name),
	offsetof(struct ib_job, section),
	offsetof(struct ib_job, description),
	offsetof(struct ib_job, wait_for),
	offsetof(struct ib_job, filename_format),
	offsetof(struct ib_job, ioengine),
	offsetof(struct ib_job, buffer_pattern),
	offsetof(struct ib_job, iomem_file),
	offsetof(struct ib_job, proc.ioscheduler),
	offsetof(struct ib_job, proc.exec_prerun),
	offsetof(struct ib_job, proc.exec_postrun),
	offsetof(struct ib_job, proc.comm),
	offsetof(struct ib_job, verify.pattern),
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
