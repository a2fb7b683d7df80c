// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench suite NAME TARGET [options]`: a suite's table (suite.h) as a
 * job file, parsed and run like any job file (same parser, plan, safety
 * checks and runner), then its summary table, verdicts and reports
 * (suite_out.h). PTS suites run in rounds (suite_pts.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "iobench/jobfile.h"
#include "iobench/purge.h"
#include "iobench/safe_open.h"
#include "suite_priv.h"

static void usage(FILE *f)
{
	fputs("usage: iobench suite --list\n"
	      "       iobench suite NAME TARGET [--print-jobs] [--size=SIZE] [--runtime=TIME]\n"
	      "             [--ramp=TIME] [--pause=TIME] [--iodepth=N] [--numjobs=N]\n"
	      "             [--expect=iops=N,bw=SIZE/s,lat=TIME] [--readonly]\n"
	      "             [--capacity=SIZE] [--io-size=SIZE] [--only=TEST,...]\n"
	      "             [--set=TEST:KEY=VALUE] [--rounds=N]\n"
	      "             [--output-format=normal|json] [--json-output=FILE]\n"
	      "             [--report=FILE.html] [--no-calibrate]\n"
	      "             [--KEY=VALUE (a job option for every test)]\n", f);
}

static void list(FILE *f)
{
	struct ib_suite_item it[IB_SUITE_MAX_TESTS];
	struct ib_suite_opts o = { 0 };
	struct ib_diag d;
	unsigned int i;
	int n, k;

	for (i = 0; i < ib_nr_suites; i++) {
		fprintf(f, "%-15s %s\n", ib_suites[i].name, ib_suites[i].what);
		n = ib_suite_items(&ib_suites[i], &o, it, IB_SUITE_MAX_TESTS, &d);
		fprintf(f, "%-15s", "");
		for (k = 0; k < n; k++)
			fprintf(f, "%s%s", k ? ", " : " tests: ", it[k].name);
		fputc('\n', f);
	}
}

static int job_text(struct suite_run *sr, bool precond, bool tests,
		    char **buf, size_t *len)
{
	FILE *m = open_memstream(buf, len);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = ib_suite_jobtext(m, sr->a->suite, &sr->a->o, sr->it, sr->n,
			       precond, tests);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	return ret;
}

int suite_plan(struct suite_run *sr, struct ib_plan *plan, bool precond,
	       bool tests, struct ib_diag *d)
{
	struct ib_jobfile_env env = { .ncpus = 1, .pagesize = 4096 };
	struct ib_jobset set;
	char name[64], *buf = NULL;
	size_t len = 0;
	int ret;

	ret = job_text(sr, precond, tests, &buf, &len);
	if (ret) {
		free(buf);
		return ib_diag_set(d, -ret, "suite: out of memory");
	}
	snprintf(name, sizeof(name), "suite %s", sr->a->suite->name);
	plan->readonly = sr->a->o.readonly;
	plan->eta = IB_ETA_NEVER;
	plan->no_calibrate = sr->a->no_calibrate;
	ib_jobset_init(&set);
	ret = ib_jobfile_parse(&set, buf, len, name, 1, &env, d);
	if (!ret)
		ret = ib_plan_build(plan, &set, d);
	ib_jobset_free(&set);
	free(buf);
	return ret;
}

static int64_t now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void drop_results(struct suite_run *sr)
{
	if (!sr->have_res)
		return;
	ib_results_free(&sr->rs);
	ib_result_free(sr->res_plan, &sr->res);
	sr->have_res = false;
}

static int failures(const struct ib_plan *plan, const struct ib_result *res)
{
	unsigned int i;

	if (res->interrupted)
		return IB_EXIT_INTERRUPTED;
	for (i = 0; i < plan->nr_jobs; i++)
		if (res->stats[i].error)
			fprintf(stderr, "iobench: suite: test '%s' failed: %s\n",
				plan->jobs[i].name, res->stats[i].error_where[0] ?
				res->stats[i].error_where : strerror(res->stats[i].error));
	return res->failed_jobs ? 1 : 0;
}

int suite_run_plan(struct suite_run *sr, const struct ib_plan *plan,
		   int (*pre)(struct suite_run *sr, struct ib_diag *d),
		   struct ib_diag *d)
{
	struct ib_runner *r;

	drop_results(sr);
	memset(&sr->res, 0, sizeof(sr->res));
	if (ib_runner_check(plan, sr->msg, &sr->res, &r, d) < 0) {
		ib_result_free(plan, &sr->res);
		return 1;
	}
	if (pre && pre(sr, d) < 0) {
		ib_runner_abort(r);
		ib_result_free(plan, &sr->res);
		return 1;
	}
	if (ib_runner_go(r, sr->msg, NULL, d) < 0) {
		ib_result_free(plan, &sr->res);
		return 1;
	}
	sr->have_res = true;
	sr->res_plan = plan;
	if (ib_results_from_run(&sr->rs, plan, &sr->res, now_ms()) < 0) {
		memset(&sr->rs, 0, sizeof(sr->rs));
		ib_diag_set(d, ENOMEM, "suite: out of memory");
		return 1;
	}
	return failures(plan, &sr->res);
}

static int json_file(struct suite_run *sr, struct ib_diag *d)
{
	const char *path = sr->a->json_output;
	struct ib_out_id id;
	FILE *f = ib_safety_open_output("--json-output", path, d);
	int ret;

	if (!f)
		return -EINVAL;
	ret = ib_suite_json(f, &sr->rs, &sr->rep);
	ib_safety_out_id(f, &id);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (ret) {
		ib_safety_remove_output(path, &id);
		return ib_diag_set(d, -ret, "cannot write report to %s: %s", path, strerror(-ret));
	}
	return 0;
}

/* The summary (or the JSON document) on stdout, --json-output, --report. */
static int outputs(struct suite_run *sr, struct ib_diag *d)
{
	int ret = 0;

	if (sr->a->json)
		ret = ib_suite_json(stdout, &sr->rs, &sr->rep);
	else
		ib_suite_print(stdout, &sr->rep);
	if (fflush(stdout) || ferror(stdout))
		ret = ib_diag_set(d, EIO, "cannot write report to stdout: %s", strerror(errno));
	if (!ret && sr->a->json_output)
		ret = json_file(sr, d);
	if (!ret && sr->a->report)
		ret = ib_page_suite_out(sr->a->report, &sr->rep, &sr->rs, d);
	return ret;
}

static int run_plain(struct suite_run *sr, struct ib_diag *d)
{
	int rc;

	if (suite_plan(sr, &sr->plan, false, true, d) < 0)
		return 1;
	rc = suite_run_plan(sr, &sr->plan, NULL, d);
	if (!sr->have_res)
		return rc ? rc : 1;
	if (ib_suite_rows(&sr->rs, sr->it, sr->n, sr->rep.rows) < 0) {
		ib_diag_set(d, ENOMEM, "suite: out of memory");
		return 1;
	}
	sr->rep.nr = sr->n;
	return rc;
}

/*
 * O_DIRECT I/O smaller than the target's logical block fails: such tests
 * (PTS's 512-byte ones on a 4 KiB-sector device) are left out, and the
 * report says so.
 */
static int skip_small(struct suite_run *sr, int n, struct ib_diag *d)
{
	struct ib_suite_opts *o = &sr->a->o;
	int k;

	sr->n = (unsigned int)n;
	o->min_bs = ib_blk_lbs(o->target);
	if (o->min_bs <= 512)
		return 0;
	k = ib_suite_items(sr->a->suite, o, sr->it, IB_SUITE_MAX_TESTS, d);
	if (k < 0)
		return k;
	if (k < n)
		snprintf(sr->rep.note, sizeof(sr->rep.note),
			 "%d tests of blocks below %llu bytes left out: the logical block size of %s",
			 n - k, (unsigned long long)o->min_bs, o->target);
	sr->n = (unsigned int)k;
	return 0;
}

/* Tests, then the run; the outputs of whatever ran. */
static int suite_go(struct suite_run *sr, struct ib_diag *d)
{
	struct ib_suite_args *a = sr->a;
	bool pts = a->suite->kind == IB_SUITE_PTS;
	int n, rc;

	n = ib_suite_items(a->suite, &a->o, sr->it, IB_SUITE_MAX_TESTS, d);
	if (n < 0)
		return 1;
	if (skip_small(sr, n, d) < 0)
		return 1;
	n = (int)sr->n;
	if (!n) {
		ib_diag_set(d, EINVAL, "suite %s: no test left to run (--readonly, or the target's block size)", a->suite->name);
		return 1;
	}
	sr->n = (unsigned int)n;
	if (a->print_jobs)
		return ib_suite_jobtext(stdout, a->suite, &a->o, sr->it, sr->n, pts, true) ? 1 : 0;
	sr->rep.suite = a->suite;
	snprintf(sr->rep.target, sizeof(sr->rep.target), "%s", a->target);
	sr->rep.expect = a->o.expect;
	sr->msg = a->json ? stderr : stdout;
	rc = pts ? suite_pts(sr, d) : run_plain(sr, d);
	if (!sr->have_res || !sr->rep.nr)
		return rc ? rc : 1;
	ib_suite_judge(&sr->rep);
	if (outputs(sr, d) < 0)
		return 1;
	if (!rc && !ib_suite_all_met(&sr->rep))
		rc = IB_SUITE_EXIT_UNMET;
	return rc;
}

int ib_cmd_suite(int argc, char **argv)
{
	struct ib_suite_args a;
	struct ib_diag d = { { 0 } };
	struct suite_run *sr;
	int rc;

	if (ib_suite_parse(argc, argv, &a, &d) < 0) {
		fprintf(stderr, "iobench: %s\n", d.msg);
		return 1;
	}
	if (a.help || a.list) {
		a.help ? usage(stdout) : list(stdout);
		return 0;
	}
	sr = calloc(1, sizeof(*sr));
	if (!sr) {
		fprintf(stderr, "iobench: suite: out of memory\n");
		return 1;
	}
	sr->a = &a;
	ib_plan_init(&sr->plan);
	ib_plan_init(&sr->pre);
	signal(SIGPIPE, SIG_IGN);
	rc = suite_go(sr, &d);
	if (rc == 1 && d.msg[0])
		fprintf(stderr, "iobench: %s\n", d.msg);
	if (rc == IB_EXIT_INTERRUPTED)
		fprintf(stderr, "iobench: interrupted: the report covers the I/O done until then\n");
	drop_results(sr);
	ib_plan_free(&sr->plan);
	ib_plan_free(&sr->pre);
	free(sr);
	return rc;
}
