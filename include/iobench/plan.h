/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PLAN_H
#define IOBENCH_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/fio_version.h"
#include "iobench/job.h"
#include "iobench/strtab.h"

/*
 * The plan: what one invocation asks for, process-wide settings (not job
 * options) and the expanded job clones in run order. A front end (cli.c
 * with jobfile.c for fio's syntax) fills the settings and describes the
 * jobs as a jobset; ib_plan_build() (plan.c) then fixes up and validates
 * each job (validate.c) and expands it; the plan is read-only after that.
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

#define IB_REPEAT_MAX 1000

enum ib_eta_mode { IB_ETA_AUTO = 0, IB_ETA_ALWAYS, IB_ETA_NEVER };

struct ib_plan {
	unsigned int output_format;	/* IB_OUT_* bits (ib_format_find); default NORMAL */
	char output[PATH_MAX];		/* --output=FILE ("" = stdout) */
	char json_output[PATH_MAX];	/* --json-output=FILE: JSON to its own file */
	char plot[PATH_MAX];		/* --plot=FILE.svg|.html ("" = none) */
	char report[PATH_MAX];		/* --report=FILE.html ("" = none) */
	bool hist;			/* --hist: text latency histograms */
	unsigned int repeat;		/* --repeat=N: the plan N times (0: once) */
	unsigned int terse_version;	/* 2..5, default 3 */
	/* the report format (fio_version.h): --fio-version, else [global]'s
	 * fio-version=, else IB_FIO_VERSION_DEFAULT */
	enum ib_fio_version fio_version;
	bool fio_version_cli;		/* --fio-version given */
	enum ib_eta_mode eta;
	uint64_t eta_newline_ms;	/* 0: never */
	uint64_t eta_interval_ms;	/* default 1000, min 250 */
	bool eta_asked;			/* --eta-newline or --eta-interval given:
					 * fio's status line, not the live view */
	/*
	 * Statistics while the run goes on (doc/live-statistics.md):
	 * --status-interval: a full report of the run so far every so often
	 * (0: only on SIGUSR1); --interval-json=FILE ("-": stdout): the
	 * per-interval stream; --interval: its interval (default 1000 ms).
	 */
	uint64_t status_interval_ms;
	char interval_json[PATH_MAX];
	uint64_t interval_ms;
	bool readonly;
	bool parse_only;
	bool showcmd;
	unsigned int max_jobs;		/* --max-jobs: refuse more jobs (0: no limit) */
	/* --section=NAME (repeatable): run only these job sections */
	char sections[IB_MAX_SECTION_FILTERS][IB_NAME_MAX];
	unsigned int nr_sections;
	/* validity checks (checks.h): --warnings mask, --env, --no-calibrate */
	uint64_t checks_mask;		/* default: every check */
	bool show_env;
	bool no_calibrate;

	unsigned int nr_jobs;		/* clones, after numjobs expansion */
	/*
	 * nr_jobs entries, owned: a MAP_SHARED mapping of jobs_cap entries
	 * made by ib_plan_add_job() (see there why), freed by ib_plan_free().
	 */
	struct ib_job *jobs;
	unsigned int jobs_cap;
	/* the jobs' strings (job.h): ib_plan_add_job() copies them here */
	struct ib_strtab strs;

	/*
	 * Options set in [global] sections / before the first --name, for the
	 * JSON "global options" object; same "key\0value\0...\0" format as
	 * ib_job.opts_text.
	 */
	char global_opts_text[IB_OPTS_TEXT_MAX];
	unsigned int global_opts_len;
};

struct ib_jobset;

/* An empty plan with the run-level defaults (normal output, terse v3...). */
void ib_plan_init(struct ib_plan *r);
/* Release r->jobs; r can be built again after ib_plan_init(). */
void ib_plan_free(struct ib_plan *r);

/*
 * The one way from job descriptions to a plan, for every front end: check
 * that each --section filter (r->sections) names a job section of s, take
 * s's global options for the JSON "global options", then for each job
 * section the filters want, in order: ib_job_fixup() (in place, in s),
 * ib_job_validate() with r->readonly, ib_plan_add_job(). Returns 0, or the
 * first error (-errno, d names the option or the section); r->jobs then
 * holds the jobs before it, for ib_plan_free().
 */
int ib_plan_build(struct ib_plan *r, struct ib_jobset *s, struct ib_diag *d);

/*
 * Trace replay jobs (read_iolog=): ib_replay_plan() (replay.h) reads each
 * trace once, before anything runs, and makes the job describe it; the
 * job is fixed up and validated again. Clones take their first clone's.
 * Not part of parsing: it reads traces, may write merge_blktrace_file and
 * copies standard input. 0, or the first error (-errno, one line in d).
 */
int ib_plan_replays(struct ib_plan *r, struct ib_diag *d);

/*
 * Append j's numjobs clones to r->jobs, with their strings copied into
 * r->strs (shared by the clones): clone index, 1-based run-wide
 * number, groupid (stonewall/new_group start a new group once there are
 * jobs before; only the first clone can). Returns 0, -ENOMEM, or -E2BIG
 * beyond IB_MAX_JOBS.
 */
int ib_plan_add_job(struct ib_plan *r, const struct ib_job *j, struct ib_diag *d);

#endif
