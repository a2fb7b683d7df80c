// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobench: argv -> validated jobs -> runner -> reports. The only place that
 * decides the exit status.
 */
#include <stdio.h>
#include "iobench/cli.h"
#include "iobench/run.h"

int main(int argc, char **argv)
{
	struct ib_diag d = { { 0 } };
	struct ib_run run;
	int rc;

	ib_run_init(&run);
	rc = ib_cli_parse(argc, argv, &run, stdout, &d);
	if (rc == 1) {
		ib_run_free(&run);
		return 0;
	}
	if (rc < 0) {
		fprintf(stderr, "iobench: %s\n", d.msg);
		ib_run_free(&run);
		return 1;
	}
	ib_run_free(&run);
	return 0;
}
