/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_RUN_H
#define IOBENCH_RUN_H

#include <stdbool.h>
#include "iobench/job.h"

/*
 * What one invocation asks for: process-wide settings (not job options) and
 * the expanded job clones in run order. Built by cli.c (+ jobfile.c), checked
 * by ib_run_validate(), then read-only.
 */
enum ib_output_fmt {
	IB_OUT_NORMAL = 1u << 0,
	IB_OUT_JSON = 1u << 1,
	IB_OUT_JSONPLUS = 1u << 2,
	IB_OUT_TERSE = 1u << 3,
};

enum ib_eta_mode { IB_ETA_AUTO = 0, IB_ETA_ALWAYS, IB_ETA_NEVER };

struct ib_run {
	unsigned int output_format;	/* IB_OUT_* bits; default NORMAL */
	char output[PATH_MAX];		/* --output=FILE ("" = stdout) */
	char json_output[PATH_MAX];	/* --json-output=FILE: JSON to its own file */
	unsigned int terse_version;	/* 2..5, default 3 */
	enum ib_eta_mode eta;
	uint64_t eta_newline_ms;	/* 0: never */
	uint64_t eta_interval_ms;	/* default 1000, min 250 */
	bool readonly;
	bool parse_only;
	bool showcmd;
	char section[IB_NAME_MAX];	/* --section: run only this one */

	unsigned int nr_jobs;		/* clones, after numjobs expansion */
	struct ib_job *jobs;		/* nr_jobs entries, owned */

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

#endif
