// SPDX-License-Identifier: GPL-2.0-only
/* cli.c: argv forms, run-level options, globals, jobs, errors, help. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "config.h"
#include "iobench/cli.h"
#include "iobench/options.h"

#define MAX_ARGS 32

/* One parse: argv built from a NULL-terminated list, output captured. */
struct res {
	struct ib_plan run;
	struct ib_diag d;
	int rc;
	char *out;
	size_t out_len;
};

static struct res *parse(const char *first, ...)
{
	struct res *r = calloc(1, sizeof(*r));
	char *argv[MAX_ARGS + 2];
	const char *a;
	int argc = 1;
	va_list ap;
	FILE *f;

	assert_non_null(r);
	argv[0] = (char *)"iobench";
	va_start(ap, first);
	for (a = first; a && argc <= MAX_ARGS; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	f = open_memstream(&r->out, &r->out_len);
	assert_non_null(f);
	ib_plan_init(&r->run);
	r->rc = ib_cli_parse(argc, argv, &r->run, f, &r->d);
	fclose(f);
	return r;
}

static void done(struct res *r)
{
	ib_plan_free(&r->run);
	free(r->out);
	free(r);
}

static struct res *parse_ok(struct res *r)
{
	if (r->rc != 0)
		fail_msg("rc %d: %s", r->rc, r->d.msg);
	return r;
}

static void parse_err(struct res *r, int err, const char *msg)
{
	assert_int_equal(r->rc, -err);
	assert_string_equal(r->d.msg, msg);
	done(r);
}

static void test_four_forms(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--bs=8k", "-iodepth=4", "--rw", "randread", "-size",
			   "1m", "--time_based", "-thread", "--runtime=2", NULL));
	assert_int_equal(r->run.nr_jobs, 1);
	assert_string_equal(r->run.jobs[0].name, "job");
	assert_int_equal(r->run.jobs[0].bs.min[IB_DDIR_READ], 8192);
	assert_int_equal(r->run.jobs[0].iodepth, 4);
	assert_int_equal(r->run.jobs[0].rw, IB_RW_READ | IB_RW_RAND);
	assert_int_equal(r->run.jobs[0].size, 1048576);
	assert_true(r->run.jobs[0].time_based);
	assert_true(r->run.jobs[0].thread);
	done(r);
}

static void test_flag_value_only_with_equals(void **state)
{
	struct res *r;

	(void)state;
	/* "--direct 0": the 0 is not the flag's value but a job file */
	r = parse("--direct", "/nonexistent/0", NULL);
	assert_int_equal(r->rc, -ENOENT);
	assert_string_equal(r->d.msg, "/nonexistent/0: No such file or directory");
	done(r);
	r = parse("--size=1m", "--", "--bs=4k", NULL);
	assert_int_equal(r->rc, -ENOENT);
	assert_string_equal(r->d.msg, "--bs=4k: No such file or directory");
	done(r);
	r = parse_ok(parse("--direct=0", "--bs=1000", NULL));
	assert_false(r->run.jobs[0].direct);
	done(r);
}

static void test_value_starting_with_dash_is_not_a_value(void **state)
{
	(void)state;
	parse_err(parse("--bs", "--iodepth=2", NULL), EINVAL, "bs: needs a value");
	parse_err(parse("--output", NULL), EINVAL, "--output: needs a value");
}

static void test_no_name_one_job(void **state)
{
	struct res *r;
	const struct ib_job *j;

	(void)state;
	r = parse_ok(parse("--rw=randrw", "--bs=4k", "--filename=/dev/x", NULL));
	assert_int_equal(r->run.nr_jobs, 1);
	j = &r->run.jobs[0];
	assert_string_equal(j->name, "job");
	assert_string_equal(j->filename, "/dev/x");
	assert_string_equal(ib_opts_text_get(j->opts_text, j->opts_len, "rw"), "randrw");
	assert_string_equal(ib_opts_text_get(j->opts_text, j->opts_len, "bs"), "4k");
	assert_int_equal(r->run.global_opts_len, 0);
	assert_int_equal(j->number, 1);
	assert_int_equal(j->groupid, 0);
	done(r);
}

static void test_globals_before_name(void **state)
{
	struct res *r;
	const struct ib_job *a, *b;

	(void)state;
	r = parse_ok(parse("--bs=8k", "--iodepth=2", "--name=a", "--rw=write",
			   "--name=b", "--bs=16k", "--numjobs=2", NULL));
	assert_int_equal(r->run.nr_jobs, 3);
	a = &r->run.jobs[0];
	b = &r->run.jobs[1];
	assert_string_equal(a->name, "a");
	assert_int_equal(a->bs.min[0], 8192);
	assert_int_equal(a->iodepth, 2);
	assert_int_equal(a->rw, IB_RW_WRITE);
	assert_string_equal(b->name, "b");
	assert_int_equal(b->bs.min[0], 16384);
	assert_int_equal(b->iodepth, 2);
	assert_int_equal(b->rw, IB_RW_READ);
	assert_string_equal(r->run.jobs[2].name, "b");
	assert_int_equal(r->run.jobs[2].clone, 1);
	assert_int_equal(r->run.jobs[2].number, 3);
	/* JSON: job options are the job's own; global options separate */
	assert_string_equal(ib_opts_text_get(a->opts_text, a->opts_len, "name"), "a");
	assert_null(ib_opts_text_get(a->opts_text, a->opts_len, "bs"));
	assert_string_equal(ib_opts_text_get(r->run.global_opts_text,
					     r->run.global_opts_len, "bs"), "8k");
	assert_string_equal(ib_opts_text_get(r->run.global_opts_text,
					     r->run.global_opts_len, "iodepth"), "2");
	done(r);
}

static void test_kb_base_order(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--size=1m", "--kb_base=1000", "--name=a", "--bs=2k", NULL));
	assert_int_equal(r->run.jobs[0].size, 1000000);
	assert_int_equal(r->run.jobs[0].bs.min[0], 2000);
	done(r);
}

static void test_keywords(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--numjobs=$ncpus", "--size=2*$pagesize", NULL));
	assert_int_equal(r->run.jobs[0].numjobs, (unsigned int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(r->run.jobs[0].size, 2 * sysconf(_SC_PAGESIZE));
	done(r);
	parse_err(parse("--filename=${X", NULL), EINVAL,
		  "filename: invalid variable reference '${X'");
}

static void test_name_global_section(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--name=a", "--name=global", "--bs=64k", "--name=b", NULL));
	assert_int_equal(r->run.nr_jobs, 2);
	assert_int_equal(r->run.jobs[0].bs.min[0], 4096);
	assert_int_equal(r->run.jobs[1].bs.min[0], 65536);
	assert_string_equal(ib_opts_text_get(r->run.global_opts_text,
					     r->run.global_opts_len, "bs"), "64k");
	done(r);
}

static void test_groups(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--name=a", "--name=b", "--stonewall", "--name=c",
			   "--new_group", "--numjobs=2", "--name=d", NULL));
	assert_int_equal(r->run.nr_jobs, 5);
	assert_int_equal(r->run.jobs[0].groupid, 0);
	assert_int_equal(r->run.jobs[1].groupid, 1);
	assert_int_equal(r->run.jobs[2].groupid, 2);
	assert_int_equal(r->run.jobs[3].groupid, 2);
	assert_int_equal(r->run.jobs[4].groupid, 2);
	done(r);
}

static void test_did_you_mean(void **state)
{
	(void)state;
	parse_err(parse("--iodeph=4", NULL), EINVAL,
		  "unknown option 'iodeph' (did you mean --iodepth?)");
	parse_err(parse("--output-fromat=json", NULL), EINVAL,
		  "unknown option 'output-fromat' (did you mean --output-format?)");
	parse_err(parse("--write_barrier=1", NULL), ENOTSUP,
		  "--write_barrier: fio option not supported by iobench");
	parse_err(parse("--client=host", NULL), ENOTSUP,
		  "--client: fio option not supported by iobench");
}

/* A value may always be the next word, never taken for a job file. */
static void test_next_word_values(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--name=a", "--size=64k", "--write_lat_log", "/results/fio",
			   "--write_bw_log", "bwlog", "--direct", "1", "--bs", "8k",
			   NULL));
	assert_int_equal(r->run.nr_jobs, 1);
	assert_string_equal(r->run.jobs[0].logs.lat, "/results/fio");
	assert_string_equal(r->run.jobs[0].logs.bw, "bwlog");
	assert_true(r->run.jobs[0].direct);
	assert_int_equal(r->run.jobs[0].bs.min[0], 8192);
	done(r);
	/* a bare log option before another option still names the job's logs */
	r = parse_ok(parse("--name=a", "--size=64k", "--write_iops_log", "--bs=8k",
			   NULL));
	assert_string_equal(r->run.jobs[0].logs.iops, "a");
	done(r);
	/* a boolean takes the next word only when it reads as one */
	parse_err(parse("--name=a", "--size=64k", "--thread", "nosuch.fio", NULL),
		  ENOENT, "nosuch.fio: No such file or directory");
	parse_err(parse("--write_barrier", "1", NULL), ENOTSUP,
		  "--write_barrier: fio option not supported by iobench");
	parse_err(parse("--rbdname", "img", NULL), ENOTSUP,
		  "--rbdname: option of fio's rbd engine, not supported by iobench");
}

static void test_max_jobs(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--max-jobs", "3", "--name=a", "--size=64k", "--numjobs=3", NULL));
	assert_int_equal(r->run.max_jobs, 3);
	assert_int_equal(r->run.nr_jobs, 3);
	done(r);
	parse_err(parse("--max-jobs=2", "--name=a", "--size=64k", "--numjobs=3", NULL),
		  E2BIG, "--max-jobs=2: the run has 3 jobs");
	parse_err(parse("--max-jobs=0", "--name=a", NULL), EINVAL,
		  "--max-jobs: invalid value '0' (a number of jobs, at least 1)");
}

static void test_value_errors(void **state)
{
	(void)state;
	parse_err(parse("--bs=4q", NULL), EINVAL, "bs: invalid size '4q'");
	parse_err(parse("--name=a", "--rw=trim:x", NULL), EINVAL,
		  "rw=trim:x: invalid offset modifier 'x'");
	parse_err(parse("--ioengine=foo", NULL), EINVAL, "ioengine: unknown engine 'foo'");
	parse_err(parse("--direct=1", "--bs=1000", NULL), EINVAL,
		  "bs: 1000 is not a multiple of 512, required by direct=1");
	parse_err(parse("--ioengine=psync", "--hipri", NULL), EINVAL,
		  "hipri: only valid with ioengine=io_uring or pvsync2");
	parse_err(parse("--readonly", "--name=x", "--rw=randwrite", NULL), EPERM,
		  "job 'x': rw=randwrite writes, refused by --readonly");
}

/* No job: the parser prints nothing and tells the caller to show the usage. */
static void no_job(struct res *r)
{
	assert_int_equal(r->rc, IB_CLI_NO_JOB);
	assert_string_equal(r->d.msg, "no job given (job options or a job file)");
	assert_int_equal(r->out_len, 0);
	done(r);
}

static void test_nothing_to_do(void **state)
{
	(void)state;
	no_job(parse(NULL));
	no_job(parse("--readonly", NULL));
	no_job(parse("--output-format=json", "--", NULL));
}

static void test_run_options(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--output=/tmp/o", "--output-format=json,normal",
			   "--json-output", "/tmp/j.json", "--terse-version=4",
			   "--eta=never", "--eta-newline=2", "--eta-interval=500ms",
			   "--readonly", "--size=1m", NULL));
	assert_string_equal(r->run.output, "/tmp/o");
	assert_int_equal(r->run.output_format, IB_OUT_JSON | IB_OUT_NORMAL);
	assert_string_equal(r->run.json_output, "/tmp/j.json");
	assert_int_equal(r->run.terse_version, 4);
	assert_int_equal(r->run.eta, IB_ETA_NEVER);
	assert_int_equal(r->run.eta_newline_ms, 2000);
	assert_int_equal(r->run.eta_interval_ms, 500);
	assert_true(r->run.readonly);
	done(r);
	r = parse_ok(parse("--output-format=json+,terse", "--size=1m", NULL));
	assert_int_equal(r->run.output_format, IB_OUT_JSONPLUS | IB_OUT_TERSE);
	done(r);
	r = parse_ok(parse("--output-format=minimal", "--size=1m", NULL));
	assert_int_equal(r->run.output_format, IB_OUT_TERSE);
	done(r);
	r = parse_ok(parse("--output-format=csv", "--size=1m", NULL));
	assert_int_equal(r->run.output_format, IB_OUT_TERSE);
	done(r);
	r = parse_ok(parse("--minimal", "--size=1m", "--eta", "always", NULL));
	assert_int_equal(r->run.output_format, IB_OUT_TERSE);
	assert_int_equal(r->run.eta, IB_ETA_ALWAYS);
	done(r);
}

static void test_run_option_errors(void **state)
{
	(void)state;
	parse_err(parse("--output-format=xml", NULL), EINVAL,
		  "--output-format: unknown format 'xml' (valid: normal, json, json+, terse, minimal, csv)");
	parse_err(parse("--terse-version=6", NULL), EINVAL,
		  "--terse-version: invalid value '6' (valid: 2, 3, 4, 5)");
	parse_err(parse("--eta=sometimes", NULL), EINVAL,
		  "--eta: invalid value 'sometimes' (valid: auto, always, never)");
	parse_err(parse("--eta-interval=100ms", NULL), ERANGE,
		  "--eta-interval: 100ms is below the minimum of 250ms");
	parse_err(parse("--eta-newline=abc", NULL), EINVAL,
		  "--eta-newline: invalid time 'abc'");
	parse_err(parse("--readonly=1", NULL), EINVAL, "--readonly: takes no value");
}

static void test_version_help(void **state)
{
	struct res *r;

	(void)state;
	r = parse("--version", NULL);
	assert_int_equal(r->rc, IB_CLI_DONE);
	assert_string_equal(r->out, "iobench-" IOBENCH_VERSION "\n");
	done(r);
	r = parse("-v", NULL);
	assert_int_equal(r->rc, IB_CLI_DONE);
	assert_string_equal(r->out, "iobench-" IOBENCH_VERSION "\n");
	done(r);
	r = parse("-h", NULL);
	assert_int_equal(r->rc, IB_CLI_HELP);
	assert_int_equal(r->out_len, 0);
	done(r);
	r = parse("--bs=4k", "--help", "--bs=nonsense", NULL);
	assert_int_equal(r->rc, IB_CLI_HELP); /* stops there, as fio does */
	assert_int_equal(r->out_len, 0);
	done(r);
}

static int cmd_a(int argc, char **argv)
{
	return argc + (int)strlen(argv[0]);
}

static const struct ib_subcmd cmds[] = {
	{ "run", cmd_a, "the default" },
	{ "ping", cmd_a, "latency probe" },
	{ NULL, NULL, NULL },
};

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static char *usage_of(const struct ib_subcmd *tab)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ib_cli_usage(f, tab);
	fclose(f);
	return buf;
}

static void test_usage(void **state)
{
	char *with = usage_of(cmds), *without = usage_of(NULL);
	const char *list = "Commands (the first argument only; a job file named like one is\n"
			   "./NAME or -- NAME):\n"
			   "  run                    the default\n"
			   "  ping                   latency probe\n\nOptions:\n";

	(void)state;
	assert_true(starts(with, "usage: iobench [options] [job options] [jobfile ...]\n"
			   "       iobench COMMAND [arguments]\n\nJob options"));
	assert_non_null(strstr(with, list));
	assert_non_null(strstr(with, "  --cmdhelp[=OPT|all]    describe job options\n"));
	/* without subcommands: no COMMAND line, no list, otherwise the same */
	assert_true(starts(without, "usage: iobench [options] [job options] [jobfile ...]\n"
			   "\nJob options"));
	assert_null(strstr(without, "Commands"));
	assert_int_equal(strlen(with), strlen(without) + strlen(list) - strlen("Options:\n") +
			 strlen("       iobench COMMAND [arguments]\n"));
	free(with);
	free(without);
}

static const struct ib_subcmd *find(const char *a1, const char *a2)
{
	char *argv[] = { (char *)"iobench", (char *)a1, (char *)a2, NULL };

	return ib_subcmd_find(cmds, a1 ? (a2 ? 3 : 2) : 1, argv);
}

/* Only argv[1], only an exact name: everything else is fio's syntax. */
static void test_subcmd_find(void **state)
{
	char *argv[] = { (char *)"ping", (char *)"x", NULL };

	(void)state;
	assert_ptr_equal(find("run", NULL), &cmds[0]);
	assert_ptr_equal(find("ping", "run"), &cmds[1]);
	assert_int_equal(find("ping", "run")->fn(2, argv), 2 + 4);
	assert_null(find(NULL, NULL));
	assert_null(find("./run", NULL));	/* a job file named run */
	assert_null(find("--", "run"));		/* likewise */
	assert_null(find("--bs=4k", "run"));
	assert_null(find("runs", NULL));
	assert_null(find("RUN", NULL));
	assert_null(find("", NULL));
	assert_null(ib_subcmd_find(NULL, 2, argv));
}

static void test_cmdhelp(void **state)
{
	struct res *r;

	(void)state;
	r = parse("--cmdhelp=blocksize", NULL);
	assert_int_equal(r->rc, IB_CLI_DONE);
	assert_non_null(strstr(r->out, "bs: Block size, or read,write[,trim] sizes\n"));
	assert_non_null(strstr(r->out, "  alias: blocksize\n"));
	assert_non_null(strstr(r->out, "  default: 4k\n"));
	done(r);
	r = parse("--cmdhelp=iodepth", NULL);
	assert_non_null(strstr(r->out, "  range: 1..65536\n"));
	done(r);
	r = parse("--cmdhelp=hipri", NULL);
	assert_non_null(strstr(r->out, "  engines: io_uring, pvsync2\n"));
	done(r);
	r = parse("--cmdhelp=rw", NULL);
	assert_non_null(strstr(r->out, "    randrw       random mixed reads and writes\n"));
	assert_non_null(strstr(r->out, "    readwrite    (same as rw)\n"));
	done(r);
	r = parse("--cmdhelp", NULL);
	assert_int_equal(r->rc, IB_CLI_DONE);
	assert_non_null(strstr(r->out, "I/O depth:\n"));
	assert_non_null(strstr(r->out, "  iodepth_low "));
	done(r);
	parse_err(parse("--cmdhelp=iodeph", NULL), EINVAL,
		  "--cmdhelp: unknown option 'iodeph' (did you mean iodepth?)");
}

static void test_enghelp(void **state)
{
	struct res *r;

	(void)state;
	r = parse("--enghelp", NULL);
	assert_int_equal(r->rc, IB_CLI_DONE);
	assert_non_null(strstr(r->out, "  psync "));
	assert_non_null(strstr(r->out, "  null "));
	done(r);
	r = parse("--enghelp=pvsync2", NULL);
	assert_int_equal(r->rc, IB_CLI_DONE);
	assert_non_null(strstr(r->out, "  hipri "));
	assert_non_null(strstr(r->out, "  nowait "));
	assert_null(strstr(r->out, "fixedbufs"));
	done(r);
	parse_err(parse("--enghelp=foo", NULL), EINVAL, "--enghelp: unknown engine 'foo'");
	parse_err(parse("--enghelp=solarisaio", NULL), ENOTSUP,
		  "--enghelp: engine 'solarisaio' is not built into this iobench");
}

static void test_section_filter(void **state)
{
	struct res *r;

	(void)state;
	r = parse_ok(parse("--section=b", "--name=a", "--name=b", "--name=c",
			   "--section", "c", NULL));
	assert_int_equal(r->run.nr_jobs, 2);
	assert_string_equal(r->run.jobs[0].name, "b");
	assert_string_equal(r->run.jobs[1].name, "c");
	assert_int_equal(r->run.jobs[0].number, 1);
	done(r);
	parse_err(parse("--section=z", "--name=a", NULL), ENOENT,
		  "--section: no job section named 'z'");
}

static void test_parse_only_and_showcmd(void **state)
{
	struct res *r;

	(void)state;
	r = parse("--parse-only", "--name=a", "--size=1m", NULL);
	assert_int_equal(r->rc, IB_CLI_DONE);
	assert_int_equal(r->run.nr_jobs, 1);
	done(r);
	r = parse("--showcmd", "--bs=4k", "--name=a", "--size=(1+1)m",
		  "--name=global", "--iodepth=2", "--name=b", "--time_based",
		  "--runtime=1", NULL);
	assert_int_equal(r->rc, IB_CLI_DONE);
	assert_string_equal(r->out, "iobench --bs=4k --name=a --size='(1+1)m' "
			    "--name=global --iodepth=2 --name=b --time_based --runtime=1\n");
	done(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_forms),
		cmocka_unit_test(test_flag_value_only_with_equals),
		cmocka_unit_test(test_value_starting_with_dash_is_not_a_value),
		cmocka_unit_test(test_no_name_one_job),
		cmocka_unit_test(test_globals_before_name),
		cmocka_unit_test(test_kb_base_order),
		cmocka_unit_test(test_keywords),
		cmocka_unit_test(test_name_global_section),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_next_word_values),
		cmocka_unit_test(test_max_jobs),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_nothing_to_do),
		cmocka_unit_test(test_run_options),
		cmocka_unit_test(test_run_option_errors),
		cmocka_unit_test(test_version_help),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_subcmd_find),
		cmocka_unit_test(test_cmdhelp),
		cmocka_unit_test(test_enghelp),
		cmocka_unit_test(test_section_filter),
		cmocka_unit_test(test_parse_only_and_showcmd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
