// SPDX-License-Identifier: GPL-2.0-only
/* stub: to be written */
#include <errno.h>
#include "iobench/cli.h"

int ib_cli_parse(int argc, char **argv, struct ib_run *run, FILE *out,
		 struct ib_diag *d)
{
	(void)argc; (void)argv; (void)run; (void)out;
	return ib_diag_set(d, ENOSYS, "command line parsing not implemented yet");
}
