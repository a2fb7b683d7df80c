/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_RUN_H
#define IOBENCH_RUN_H

#include <stdbool.h>
#include "iobench/diag.h"
#include "iobench/job.h"

/*
 * What one invocation asks for: process-wide settings (not job options) and
 * the expanded job clones in run order. Built by ib_cli_parse() (cli.c with
 * jobfile.c): each job fixed up and checked by ib_job_validate(), then
 * expanded by ib_run_add_job(); read-only after that.
 */
/*
 * One bit per report format; the formats themselves (names, printers,
 * streams) are the table in report.h / src/report/formats.c.
 */
enum ib_output_fmt {
	IB_OUT_NORMAL = 1u << 0,
	IB_OUT_JSON = 1u << 1,
	IB_OUT_JSONPLUS = 1u << 2,
	IB_OUT_TERSE = 1u << 3,
};

#define IB_MAX_SECTION_FILTERS 16
#define IB_MAX_JOBS 4096	/* clones in one run, after numjobs expansion */

enum ib_eta_mode { IB_ETA_AUTO = 0, IB_ETA_ALWAYS, IB_ETA_NEVER };

struct ib_run {
	unsigned int output_format;	/* IB_OUT_* bits (ib_format_find); default NORMAL */
	char output[PATH_MAX];		/* --output=FILE ("" = stdout) */
	char json_output[PATH_MAX];	/* --json-output=FILE: JSON to its own file */
	unsigned int terse_version;	/* 2..5, default 3 */
	enum ib_eta_mode eta;
	uint64_t eta_newline_ms;	/* 0: never */
	uint64_t eta_interval_ms;	/* default 1000, min 250 */
	bool readonly;
	bool parse_only;
	bool showcmd;
	/* --section=NAME (repeatable): run only these job sections */
	char sections[IB_MAX_SECTION_FILTERS][IB_NAME_MAX];
	unsigned int nr_sections;

	unsigned int nr_jobs;		/* clones, after numjobs expansion */
	/*
	 * nr_jobs entries, owned: a MAP_SHARED mapping of jobs_cap entries
	 * made by ib_run_add_job() (see there why), freed by ib_run_free().
	 */
	struct ib_job *jobs;
	unsigned int jobs_cap;

	/*
	 * Options set in [global] sections / before the first --name, for the
	 * JSON "global options" object; same "key\0value\0...\0" format as
	 * ib_job.opts_text.
	 */
	char global_opts_text[IB_OPTS_TEXT_MAX];
	unsigned int global_opts_len;
};

void ib_run_init(struct ib_run *r);
void ib_run_free(struct ib_run *r);

/*
 * fio's option fix-ups, in place: batch/low depths default to iodepth,
 * complete_max to complete_min, blockalign to the minimum bs, gtod_reduce
 * turns latency measurements and percentiles off.
 */
void ib_job_fixup(struct ib_job *j);

/*
 * Check a fixed-up job; `readonly` is --readonly. Returns 0 or -EINVAL with
 * one line naming the option ("bs: 1000 is not a multiple of 512, required
 * by direct=1").
 */
int ib_job_validate(const struct ib_job *j, bool readonly, struct ib_diag *d);

/*
 * Append j's numjobs clones to r->jobs: clone index, 1-based run-wide
 * number, groupid (stonewall/new_group start a new group once there are
 * jobs before; only the first clone can). Returns 0, -ENOMEM, or -E2BIG
 * beyond IB_MAX_JOBS.
 */
int ib_run_add_job(struct ib_run *r, const struct ib_job *j, struct ib_diag *d);

#endif
