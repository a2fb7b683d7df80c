/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_HELP_H
#define IOBENCH_HELP_H

/* Help and --showcmd printers (front/help.c) for the run command line
 * (cmd/cli.c), and its run-level option names (cmd/cli.c). */
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/jobfile.h"

/* Run-level (non-job) option names, NULL-terminated, for did-you-mean. */
extern const char *const ib_cli_names[];

/* --cmdhelp[=name|all]: 0, or -EINVAL for an unknown option (d says so). */
int ib_help_cmdhelp(FILE *f, const char *name, struct ib_diag *d);
/* --enghelp[=engine]: 0, or -EINVAL for an unknown engine. */
int ib_help_enghelp(FILE *f, const char *engine, struct ib_diag *d);
/* --showcmd: the command line equivalent to the sections of s. */
void ib_help_showcmd(FILE *f, const struct ib_jobset *s);

#endif
