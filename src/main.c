// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobench: argv -> the subcommand's driver (cmd.h; fio's syntax, `run`, by
 * default). The drivers print and pick the exit status: a run's is
 * cmd/run_main.c's, `iobench ping` keeps ioping's (ping.h).
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "iobench/cli.h"
#include "iobench/cmd.h"
#include "iobench/fdout.h"

static int cmd_run(int argc, char **argv);
static int cmd_help(int argc, char **argv);

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
	{ "help", cmd_help, "this text; help COMMAND: that command's --help" },
	{ NULL, NULL, NULL },
};

/*
 * `iobench help [COMMAND]`: the usage (as --help), or COMMAND's own --help.
 * Without it, "help" would be taken for a job file that does not exist.
 */
static int cmd_help(int argc, char **argv)
{
	char opt[] = "--help";
	const struct ib_subcmd *c = ib_subcmd_find(commands, argc, argv);

	if (argc > 2 || (argc == 2 && !c)) {
		fprintf(stderr, "iobench help: %s: not a command (iobench help lists them)\n",
			argv[argc - 1]);
		return 1;
	}
	if (!c || c->fn == cmd_help) {
		ib_cli_usage(stdout, commands);
		return 0;
	}
	char *sub[] = { argv[1], opt, NULL };
	return c->fn(2, sub);
}

static int cmd_run(int argc, char **argv)
{
	return ib_cmd_run(argc, argv, commands);
}

/*
 * compare, plot and report print to stdout and end: a reader gone (| head
 * -1) is one line and exit 1, as for a run (run_main.c), not a silent
 * death by SIGPIPE (141). ping keeps ioping's SIGPIPE (it would otherwise
 * go on probing for no reader), curve its runner's handling.
 */
static bool prints_and_ends(const struct ib_subcmd *c)
{
	return !strcmp(c->name, "compare") || !strcmp(c->name, "plot") ||
	       !strcmp(c->name, "report");
}

/* The subcommand's status, or 1 and one line if its stdout failed unseen. */
static int stdout_done(const char *name, int rc)
{
	int err = ib_stream_flush_err(stdout);

	if (!err || rc)
		return rc; /* a failing subcommand said why */
	fprintf(stderr, "iobench: %s: cannot write to stdout: %s\n", name,
		strerror(-err));
	return 1;
}

int main(int argc, char **argv)
{
	const struct ib_subcmd *c = ib_subcmd_find(commands, argc, argv);

	if (!c)
		return cmd_run(argc, argv);
	if (!prints_and_ends(c))
		return c->fn(argc - 1, argv + 1);
	signal(SIGPIPE, SIG_IGN);
	return stdout_done(c->name, c->fn(argc - 1, argv + 1));
}
