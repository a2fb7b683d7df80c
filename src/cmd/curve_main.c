// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench curve`: run the job unpaced for its maximum, then once per step
 * at a fraction of it, open loop, and print the curve (curve.h); with
 * --plot or --report, draw it too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/cmd.h"
#include "iobench/cli.h"
#include "iobench/curve.h"
#include "iobench/curve_out.h"
#include "iobench/parse.h"
#include "iobench/plotcmd.h"
#include "iobench/runner.h"
#include "iobench/safe_open.h"

/* --steps=N and --slo=TIME are the curve's; the rest is fio's syntax. */
static int curve_args(struct ib_curve *c, int argc, char **argv, char **av,
		      int *ac, struct ib_diag *d)
{
	uint64_t v;
	int i;

	*ac = 0;
	av[(*ac)++] = argv[0];
	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--steps=", 8)) {
			if (ib_parse_uint(argv[i] + 8, &v, d) < 0 || !v ||
			    v > IB_CURVE_MAX_STEPS)
				return ib_diag_set(d, EINVAL, "--steps=%s: a number from 1 to %u",
						   argv[i] + 8, IB_CURVE_MAX_STEPS);
			c->steps = (unsigned int)v;
		} else if (!strncmp(argv[i], "--slo=", 6)) {
			if (ib_parse_time_us(argv[i] + 6, 1, &v, d) < 0 || !v)
				return ib_diag_set(d, EINVAL, "--slo=%s: a time above 0 (1ms, 500us)",
						   argv[i] + 6);
			c->slo_ns = v * 1000;
		} else {
			av[(*ac)++] = argv[i];
		}
	}
	av[*ac] = NULL;
	return 0;
}

static void curve_usage(FILE *f)
{
	fprintf(f,
		"usage: iobench curve [--steps=N] [--slo=TIME] [options] [job options] [jobfile ...]\n"
		"\n"
		"The latency-vs-load curve of the jobs: one unpaced run for their maximum\n"
		"IOPS, then one run per step at 1/N, 2/N, ... N/N of it, paced in open\n"
		"loop, each as long as the job's runtime= (which every job needs). Prints\n"
		"a line per step (target and achieved IOPS, co-free p50/p99/p99.9, late\n"
		"starts) and the highest step that kept its rate with p99 under the SLO.\n"
		"\n"
		"  --steps=N              paced steps, 1 to %u (default %u)\n"
		"  --slo=TIME             the p99 latency target (default 1ms)\n"
		"\n"
		"Job and run options are iobench's (iobench --help), but the rates\n"
		"(rate=, rate_iops=, ...), which the curve sets itself; --output-format=json\n"
		"prints the curve as one JSON document, --plot=FILE.svg|.html and\n"
		"--report=FILE.html draw it.\n",
		IB_CURVE_MAX_STEPS, IB_CURVE_STEPS);
}

/*
 * Every job needs a runtime: it is how long each step runs. A rate the job
 * was given would cap the unpaced run, taken for the maximum.
 */
static int check_jobs(const struct ib_plan *run, struct ib_diag *d)
{
	unsigned int i;
	const char *opt;

	for (i = 0; i < run->nr_jobs; i++) {
		if (!run->jobs[i].runtime_us)
			return ib_diag_set(d, EINVAL,
					   "curve: job '%s' needs runtime= (each step runs that long)",
					   run->jobs[i].name);
		opt = ib_curve_paced_option(&run->jobs[i]);
		if (opt)
			return ib_diag_set(d, EINVAL,
					   "curve: job '%s': %s would cap the unpaced run the steps are scaled from; the curve sets each step's rate itself",
					   run->jobs[i].name, opt);
	}
	return 0;
}

/* The steps are fractions of the unpaced run: say when it was uneven. */
static void warn_noisy(const struct ib_curve_point *max)
{
	if (!ib_curve_noisy(max))
		return;
	fprintf(stderr,
		"iobench: curve: warning: the unpaced run's IOPS per interval went from %llu to %llu (mean %.0f, deviation %.0f%% of it): every step is a fraction of its mean; run again, or longer, if the target was disturbed\n",
		(unsigned long long)max->iv_min, (unsigned long long)max->iv_max,
		max->iv_mean, max->iv_dev_pct);
}

/* One run of every job; its point. 1: failed (d says why), 130: interrupted. */
static int run_once(const struct ib_plan *run, struct ib_curve_point *p,
		    struct ib_diag *d)
{
	struct ib_result res;
	int rc = 0;

	memset(&res, 0, sizeof(res));
	if (ib_runner_run(run, stderr, NULL, &res, d) < 0) {
		ib_result_free(run, &res);
		return 1;
	}
	if (res.interrupted)
		rc = IB_EXIT_INTERRUPTED;
	else if (res.failed_jobs)
		rc = ib_diag_set(d, EIO, "curve: a job failed (%s)",
				 res.stats[0].error_where[0] ? res.stats[0].error_where :
							     "see above") < 0;
	else if (ib_curve_measure(res.stats, run->nr_jobs, p) < 0)
		rc = ib_diag_set(d, ENOMEM, "curve: out of memory") < 0;
	ib_result_free(run, &res);
	return rc;
}

static int run_curve(struct ib_curve *c, struct ib_plan *run, bool json,
		     struct ib_diag *d)
{
	unsigned int k, i;
	uint64_t max;
	int rc;

	snprintf(c->job, sizeof(c->job), "%s", run->jobs[0].name);
	rc = run_once(run, &c->max, d);
	if (rc)
		return rc;
	max = (uint64_t)(c->max.achieved + 0.5);
	if (!max)
		return ib_diag_set(d, EIO, "curve: the unpaced run did no I/O") < 0;
	warn_noisy(&c->max);
	if (!json)
		ib_curve_print_head(stdout, c);
	for (k = 1; k <= c->steps; k++) {
		struct ib_curve_point *p = &c->pt[c->nr];

		p->pct = k * 100 / c->steps;
		p->target = ib_curve_target(max, k, c->steps);
		for (i = 0; i < run->nr_jobs; i++)
			ib_curve_set_rate(&run->jobs[i], p->target, run->nr_jobs);
		rc = run_once(run, p, d);
		if (rc)
			return rc;
		c->nr++;
		if (!json) {
			ib_curve_print_step(stdout, p);
			fflush(stdout);
		}
	}
	if (json)
		ib_curve_print_json(stdout, c);
	else
		ib_curve_print_answer(stdout, c);
	/* --plot, --report: the curve's chart and page (plotcmd.h) */
	return ib_page_curve_out(c, run->plot, run->report, d) < 0;
}

int ib_curve_cmd(int argc, char **argv)
{
	struct ib_curve *c = calloc(1, sizeof(*c));
	char **av = calloc((size_t)argc + 1, sizeof(char *));
	struct ib_diag d = { { 0 } };
	struct ib_plan run;
	int ac, rc = 1;

	ib_plan_init(&run);
	if (!c || !av) {
		ib_diag_set(&d, ENOMEM, "curve: out of memory");
		goto out;
	}
	c->steps = IB_CURVE_STEPS;
	c->slo_ns = IB_CURVE_SLO_NS;
	if (curve_args(c, argc, argv, av, &ac, &d) < 0)
		goto out;
	rc = ib_cli_parse(ac, av, &run, stdout, &d);
	if (rc == IB_CLI_HELP)
		curve_usage(stdout);
	if (rc != IB_CLI_RUN) {
		rc = rc == IB_CLI_DONE || rc == IB_CLI_HELP ? 0 : 1;
		goto out;
	}
	rc = 1;
	if (check_jobs(&run, &d) < 0 ||
	    ib_safety_probe_output("--plot", run.plot, &d) < 0 ||
	    ib_safety_probe_output("--report", run.report, &d) < 0)
		goto out;
	d.msg[0] = '\0';
	rc = run_curve(c, &run, run.output_format & (IB_OUT_JSON | IB_OUT_JSONPLUS), &d);
out:
	if (rc && rc != IB_EXIT_INTERRUPTED && d.msg[0])
		fprintf(stderr, "iobench: %s\n", d.msg);
	if (rc == IB_EXIT_INTERRUPTED)
		fprintf(stderr, "iobench: curve interrupted\n");
	ib_plan_free(&run);
	free(av);
	free(c);
	return rc;
}
