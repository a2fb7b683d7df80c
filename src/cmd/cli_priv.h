/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CLI_PRIV_H
#define IOBENCH_CLI_PRIV_H

/*
 * The run command line being read (cli.c: the argv walk, job options and
 * job files; cli_opts.c: the run-level options). Private to src/cmd/.
 */
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/jobfile.h"
#include "iobench/plan.h"

#define MAX_JOBFILES 64

enum cli_id {
	C_OUTPUT, C_OUTFMT, C_JSONOUT, C_TERSEVER, C_FIOVER, C_MINIMAL, C_ETA, C_ETANL,
	C_ETAINT, C_READONLY, C_PARSEONLY, C_SHOWCMD, C_SECTION, C_VERSION,
	C_HELP, C_CMDHELP, C_ENGHELP, C_MAXJOBS, C_WARNINGS, C_ENV, C_NOCALIB,
	C_PLOT, C_REPORT, C_HIST, C_REPEAT, C_STATINT, C_IVJSON, C_IVAL,
};

enum cli_arg { A_NONE, A_REQ, A_OPT };	/* A_OPT: only as --opt=value */

struct cli_opt {
	const char *name;
	enum cli_id id;
	enum cli_arg arg;
};

struct cli_state {
	struct ib_plan *run;
	struct ib_jobset set;
	struct ib_section *cur;
	const char *files[MAX_JOBFILES];
	unsigned int nr_files;
	FILE *out;
	bool job_opts;		/* any job option given */
	struct ib_jobfile_env env;	/* $ncpus... for values, includes */
	char value[4096];	/* a value after substitution */
};

/* cli_opts.c: the run-level option called name, or NULL */
const struct cli_opt *cli_find(const char *name);
/* set c's value v: 0, IB_CLI_DONE/IB_CLI_HELP (stop) or -errno */
int cli_run_opt(struct cli_state *st, const struct cli_opt *c, const char *v,
		struct ib_diag *d);

#endif
