// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobench: argv -> subcommand (fio's syntax by default) -> validated jobs ->
 * runner -> reports. The only place that decides the exit status:
 *   0    every job finished without error
 *   1    bad input, or a job failed (named on stderr)
 *   130  interrupted by SIGINT/SIGTERM (the partial report is still printed)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "iobench/cli.h"
#include "iobench/ioerr.h"
#include "iobench/report.h"
#include "iobench/run.h"
#include "iobench/runner.h"
#include "iobench/safety.h"

struct outputs {
	FILE *main;	/* --output or stdout: every format not sent elsewhere */
	FILE *json;	/* --json-output, or main */
	FILE *msg;	/* job messages (layout): never inside JSON */
	FILE *tty;	/* live status line, or NULL */
};

static FILE *open_out(const char *opt, const char *path, struct ib_diag *d)
{
	FILE *f;

	if (ib_safety_check_output(opt, path, d) < 0)
		return NULL;
	f = fopen(path, "w");
	if (!f)
		ib_diag_set(d, errno, "cannot write %s: %s", path, strerror(errno));
	return f;
}

static bool normal_on_main(const struct ib_run *run)
{
	return (run->output_format & IB_OUT_NORMAL) != 0;
}

static int open_outputs(const struct ib_run *run, struct outputs *o,
			struct ib_diag *d)
{
	bool json_main = (run->output_format & (IB_OUT_JSON | IB_OUT_JSONPLUS)) &&
			 !run->json_output[0];

	o->main = run->output[0] ? open_out("--output", run->output, d) : stdout;
	if (!o->main)
		return -1;
	o->json = run->json_output[0] ? open_out("--json-output", run->json_output, d) : o->main;
	if (!o->json)
		return -1;
	/* messages share the human report's stream unless machine output is there */
	o->msg = normal_on_main(run) && !json_main &&
			 !(run->output_format & IB_OUT_TERSE) ? o->main : stderr;
	o->tty = NULL;
	if (run->eta == IB_ETA_NEVER)
		return 0;
	if (!run->output[0] && normal_on_main(run) && !json_main &&
	    !(run->output_format & IB_OUT_TERSE))
		o->tty = (run->eta == IB_ETA_ALWAYS || isatty(STDOUT_FILENO)) ? stdout : NULL;
	else if (run->eta == IB_ETA_ALWAYS || isatty(STDERR_FILENO))
		o->tty = stderr; /* machine output on stdout stays clean */
	return 0;
}

static void close_outputs(struct outputs *o)
{
	if (o->json && o->json != o->main && o->json != stdout)
		fclose(o->json);
	if (o->main && o->main != stdout)
		fclose(o->main);
}

static int64_t now_epoch_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void report(const struct ib_run *run, const struct ib_result *res,
		   struct outputs *o)
{
	struct ib_report_in in = {
		.run = run,
		.stats = res->stats,
		.disks = res->disks,
		.nr_disks = res->nr_disks,
		.timestamp_ms = now_epoch_ms(),
	};
	unsigned int fmt = run->output_format;

	if (fmt & IB_OUT_TERSE)
		ib_report_terse(o->main, &in);
	/* --json-output=FILE asks for JSON in that file by itself */
	if ((fmt & (IB_OUT_JSON | IB_OUT_JSONPLUS)) || run->json_output[0])
		ib_report_json(o->json, &in, (fmt & IB_OUT_JSONPLUS) != 0);
	if (fmt & IB_OUT_NORMAL)
		ib_report_normal(o->main, &in);
	fflush(o->main);
	fflush(o->json);
}

static void name_failures(const struct ib_run *run, const struct ib_result *res)
{
	unsigned int i;

	for (i = 0; i < run->nr_jobs; i++) {
		const struct ib_job_stats *st = &res->stats[i];
		char named[128];
		const char *why = st->error_where;

		if (!st->error)
			continue;
		if (!why[0])
			why = ib_strerror_named(st->error, named, sizeof(named));
		if (st->pid)
			fprintf(stderr, "iobench: job '%s' (pid %d) failed: %s\n",
				run->jobs[i].name, st->pid, why);
		else /* never started: its files could not be laid out */
			fprintf(stderr, "iobench: job '%s' failed: %s\n",
				run->jobs[i].name, why);
	}
}

static int run_jobs(const struct ib_run *run, struct ib_diag *d)
{
	struct outputs o = { 0 };
	struct ib_result res;
	struct ib_runner *r;
	int rc = 1;

	if (open_outputs(run, &o, d) < 0)
		goto out;
	if (ib_runner_check(run, stderr, &res, &r, d) < 0) {
		ib_result_free(run, &res);
		goto out;
	}
	if (run->output_format & IB_OUT_NORMAL)
		ib_report_header(o.main, run, res.stats);
	fflush(o.main);
	if (ib_runner_go(r, o.msg, o.tty, d) < 0) {
		ib_result_free(run, &res);
		goto out;
	}
	report(run, &res, &o);
	name_failures(run, &res);
	if (res.interrupted) {
		fprintf(stderr, "iobench: interrupted: the report covers the I/O done until then\n");
		rc = IB_EXIT_INTERRUPTED;
	} else {
		rc = res.failed_jobs ? 1 : 0;
	}
	ib_result_free(run, &res);
out:
	close_outputs(&o);
	return rc;
}

static int cmd_run(int argc, char **argv);

/*
 * Subcommands: `iobench NAME ...` (argv[1] exactly). Anything else, options
 * or job files, is the default front end, fio's syntax (cmd_run).
 */
static const struct ib_subcmd commands[] = {
	{ "run", cmd_run, "fio-style jobs, the default (same as no command)" },
	{ NULL, NULL, NULL },
};

/* What the parser's status means for the exit status; prints what it asks. */
static int parse_done(int rc, const struct ib_diag *d)
{
	if (rc == IB_CLI_DONE)
		return 0;
	if (rc == IB_CLI_HELP) {
		ib_cli_usage(stdout, commands);
		return 0;
	}
	if (rc == IB_CLI_NO_JOB)
		ib_cli_usage(stderr, commands);
	fprintf(stderr, "iobench: %s\n", d->msg);
	return 1;
}

static int cmd_run(int argc, char **argv)
{
	struct ib_diag d = { { 0 } };
	struct ib_run run;
	int rc;

	ib_run_init(&run);
	rc = ib_cli_parse(argc, argv, &run, stdout, &d);
	if (rc == IB_CLI_RUN && ib_run_plan_replays(&run, &d) < 0) {
		fprintf(stderr, "iobench: %s\n", d.msg);
		rc = 1;
	} else if (rc == IB_CLI_RUN) {
		d.msg[0] = '\0';
		rc = run_jobs(&run, &d);
		if (d.msg[0])
			fprintf(stderr, "iobench: %s\n", d.msg);
	} else {
		rc = parse_done(rc, &d);
	}
	ib_run_free(&run);
	return rc;
}

int main(int argc, char **argv)
{
	const struct ib_subcmd *c = ib_subcmd_find(commands, argc, argv);

	return c ? c->fn(argc - 1, argv + 1) : cmd_run(argc, argv);
}
