/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CLI_H
#define IOBENCH_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/plan.h"

/*
 * The command line. `iobench [options] [job options] [jobfile ...]` is fio's
 * syntax and the default front end (ib_cli_parse). A first argument that
 * names a subcommand runs that instead (`iobench run ...`); the table of
 * subcommands belongs to main.c, the edge that runs them. Only the first
 * argument is looked up, so a job file named like a subcommand is still
 * reached as ./NAME, after `--`, or after any option.
 */

/* What ib_cli_parse found; it never prints these, the caller does. */
enum ib_cli_status {
	IB_CLI_RUN = 0,		/* run the plan */
	IB_CLI_DONE = 1,	/* nothing to run, exit 0: --version, --cmdhelp,
				 * --enghelp, --showcmd printed to `out`, or
				 * --parse-only checked every job */
	IB_CLI_HELP = 2,	/* --help: print ib_cli_usage() to `out`, exit 0 */
	IB_CLI_NO_JOB = 3,	/* no job option and no job file: print
				 * ib_cli_usage() and then d's line on stderr,
				 * exit 1 */
};

/*
 * Turn argv (argv[0] is skipped) into a validated plan (ib_plan_build: jobs
 * expanded, read-only after). Returns an enum ib_cli_status, or -errno
 * with one line in d ("bs: invalid size '4q'"), exit 1.
 */
int ib_cli_parse(int argc, char **argv, struct ib_plan *run, FILE *out,
		 struct ib_diag *d);

/* A subcommand: `iobench NAME ARGS...` returns fn(argc - 1, argv + 1). */
struct ib_subcmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is NAME; exit status */
	const char *help;			/* one line for --help */
};

/*
 * The row of tab (ended by a NULL name) that argv[1] names exactly, or
 * NULL: run the default front end on the whole argv.
 */
const struct ib_subcmd *ib_subcmd_find(const struct ib_subcmd *tab, int argc,
				       char **argv);

/*
 * A subcommand's option NAME at argv[*i], as "--name=value" or "--name
 * value" (then *i advances past the value): the value, or NULL when
 * argv[*i] is another option or the value is missing (*missing true).
 */
const char *ib_argv_value(int argc, char **argv, int *i, const char *name,
			  bool *missing);

/* The usage text, listing the subcommands of tab (may be NULL). */
void ib_cli_usage(FILE *f, const struct ib_subcmd *tab);

#endif
