// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobench: argv -> the subcommand's driver (cmd.h; fio's syntax, `run`, by
 * default). The drivers print and pick the exit status: a run's is
 * cmd/run_main.c's, `iobench ping` keeps ioping's (ping.h).
 */
#include "iobench/cli.h"
#include "iobench/cmd.h"

static int cmd_run(int argc, char **argv);

/*
 * Subcommands: `iobench NAME ...` (argv[1] exactly). Anything else, options
 * or job files, is the default front end, fio's syntax (cmd_run).
 */
static const struct ib_subcmd commands[] = {
	{ "run", cmd_run, "fio-style jobs, the default (same as no command)" },
	{ "ping", ib_ping_main, "ioping 1.3's latency probe on iobench's engines" },
	{ "curve", ib_curve_cmd, "latency vs load: max IOPS, then 10%..100% of it, open loop" },
	{ "compare", ib_cmd_compare, "compare JSON results (iobench, fio) with a noise test" },
	{ "plot", ib_cmd_plot, "SVG/HTML charts from JSON results and fio logs" },
	{ "report", ib_cmd_report, "a self-contained HTML report of JSON results" },
	{ "suite", ib_cmd_suite, "named test suites: cloud, desktop, SNIA PTS (--list)" },
	{ NULL, NULL, NULL },
};

static int cmd_run(int argc, char **argv)
{
	return ib_cmd_run(argc, argv, commands);
}

int main(int argc, char **argv)
{
	const struct ib_subcmd *c = ib_subcmd_find(commands, argc, argv);

	return c ? c->fn(argc - 1, argv + 1) : cmd_run(argc, argv);
}
