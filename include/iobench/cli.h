/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CLI_H
#define IOBENCH_CLI_H

#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/run.h"

/*
 * Turn argv into a validated struct ib_run (jobs expanded, read-only after).
 * Returns 0: run it; 1: nothing to run, exit 0 (--help/--version/--cmdhelp
 * printed to `out`); -errno: one line in d ("bs: invalid size '4q'"), exit 1.
 */
int ib_cli_parse(int argc, char **argv, struct ib_run *run, FILE *out,
		 struct ib_diag *d);

#endif
