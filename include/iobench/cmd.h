/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CMD_H
#define IOBENCH_CMD_H

#include <stddef.h>
#include "iobench/cli.h"
#include "iobench/diag.h"
#include "iobench/plotcmd.h"
#include "iobench/suite.h"

/*
 * The subcommands' drivers (src/cmd/), main.c's dispatch table: each takes
 * the subcommand's argv (argv[0] its name), prints to stdout and stderr,
 * and returns the process's exit status. No other code prints to the
 * terminal or picks an exit status.
 */

/*
 * `iobench [run] FIO-ARGS...` (cmd/run_main.c): fio's syntax; argv[0] is the
 * program. commands: the table `iobench --help` lists. 0, 1 (bad input or
 * a job failed), 130 (interrupted).
 */
int ib_cmd_run(int argc, char **argv, const struct ib_subcmd *commands);
/* `iobench ping` (cmd/ping_main.c): ioping's statuses (ping.h: 0, 1 usage, 2
 * preparation, 3 runtime, 4 a second SIGINT). */
int ib_ping_main(int argc, char **argv);
/* `iobench curve [--steps=N] [--slo=TIME] FIO-ARGS...` (cmd/curve_main.c):
 * statuses as for a run. */
int ib_curve_cmd(int argc, char **argv);
/* `iobench compare` (cmd/compare_main.c), `plot` and `report`
 * (cmd/plot_main.c). */
int ib_cmd_compare(int argc, char **argv);
int ib_cmd_plot(int argc, char **argv);
int ib_cmd_report(int argc, char **argv);

/*
 * The command lines of compare, plot and report (cmd/compare_cli.c, pure):
 * argv[0] is the subcommand's name. 0 or -EINVAL with d's line.
 */
int ib_compare_parse(int argc, char **argv, struct ib_cmd_args *a,
		     struct ib_diag *d);
int ib_plot_parse(int argc, char **argv, struct ib_cmd_args *a,
		  struct ib_diag *d);

/*
 * `iobench suite NAME TARGET [options]` (cmd/suite_main.c): 0, 1 (bad
 * input, a test failed), 2 (an --expect not met), 130 (interrupted).
 */
int ib_cmd_suite(int argc, char **argv);

struct ib_suite_args {
	bool list, print_jobs, help, json;
	bool no_calibrate;		/* as the run's --no-calibrate */
	unsigned int max_rounds;	/* PTS: --rounds (default and at most 25) */
	const char *name, *target;
	const struct ib_suite *suite;
	struct ib_suite_opts o;		/* the suite's defaults applied */
	const char *json_output, *report;	/* NULL: none */
};
#define IB_SUITE_EXIT_UNMET 2

/* The command line of suite (cmd/suite_cli.c, pure). 0 or -EINVAL. */
int ib_suite_parse(int argc, char **argv, struct ib_suite_args *a,
		   struct ib_diag *d);

/*
 * --repeat: run k's name for a report file: "a.json" -> "a.3.json",
 * "out" -> "out.3" ("" stays ""). 0 or -ENAMETOOLONG.
 */
int ib_repeat_path(char *dst, size_t len, const char *path, unsigned int k);

#endif
