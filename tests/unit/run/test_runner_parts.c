// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runner's parts on their own (runner_priv.h): runner_signal.c's flags
 * after one and two SIGINTs and in a job process, runner_check.c's
 * warnings (once for clones) and shared-log refusal, runner_wait.c's
 * stop of thread and held slots, runner_start.c's prerun line and
 * runner_evidence.c's drawn seed.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/exec.h"
#include "iobench/plan.h"
#include "iobench/shm.h"
#include "src/run/runner_priv.h"

static void reset_flags(void)
{
	runner_stop_requested = 0;
	runner_sigint_count = 0;
	runner_waiting = 0;
	runner_child_signal = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

/* First SIGINT: stop asked. Second, in the wait loop: counted, no exit. */
static void parent_signals(void **state)
{
	(void)state;
	reset_flags();
	runner_install_handlers();
	raise(SIGINT);
	assert_int_equal(runner_stop_requested, 1);
	assert_int_equal(runner_sigint_count, 1);
	runner_waiting = 1;
	raise(SIGINT);
	assert_int_equal(runner_sigint_count, 2);
	raise(SIGTERM);	/* counts as a stop, not as a SIGINT */
	assert_int_equal(runner_sigint_count, 2);
	reset_flags();
}

/* A job process: any stop signal only sets the flag. */
static void child_signals(void **state)
{
	(void)state;
	reset_flags();
	runner_set_handlers(runner_on_child_signal);
	raise(SIGINT);
	raise(SIGINT);
	raise(SIGINT);
	assert_int_equal(runner_stop_requested, 1);
	assert_int_equal(runner_sigint_count, 0);
	assert_int_equal(runner_child_signal, SIGINT);	/* its exit status: 128 + 2 */
	reset_flags();
}

static struct ib_job *jobs(struct ib_plan *run, unsigned int n, const char *engine)
{
	ib_plan_init(run);
	run->eta = IB_ETA_NEVER;
	run->nr_jobs = n;
	run->jobs = ib_shm_alloc(n * sizeof(*run->jobs));
	run->jobs_cap = n;
	for (unsigned int i = 0; i < n; i++) {
		ib_job_defaults(&run->jobs[i]);
		run->jobs[i].name = "t";
		run->jobs[i].ioengine = engine;
		run->jobs[i].strs = &run->strs;
		run->jobs[i].number = i + 1;
		run->jobs[i].size = 64 << 10;
	}
	run->no_calibrate = true;
	return run->jobs;
}

/* Three clones with the same warning: one line, not three. */
static void check_warns_once(void **state)
{
	char buf[2048] = "";
	FILE *w = fmemopen(buf, sizeof(buf), "w");
	struct ib_plan run;
	struct ib_result res;
	struct ib_runner *r;
	struct ib_diag d = { { 0 } };
	struct ib_job *j = jobs(&run, 3, "null");

	(void)state;
	for (unsigned int i = 0; i < 3; i++) {
		j[i].time_based_dropped = true;
		j[i].clone = i;
	}
	assert_int_equal(ib_runner_check(&run, w, &res, &r, &d), 0);
	fclose(w);
	assert_string_equal(buf, "iobench: warning: job 't': time_based without a runtime, "
			    "the job is size-based (as in fio)\n");
	assert_string_equal(res.stats[0].ioengine, "null");
	assert_int_equal(ib_runner_go(r, NULL, NULL, &d), 0);
	assert_int_equal(res.failed_jobs, 0);
	assert_int_equal(res.stats[2].dir[IB_DDIR_READ].total_ios, 16);
	ib_result_free(&run, &res);
	ib_plan_free(&run);
	reset_flags();
}

/* per_job_logs=0 and one bw log name for two jobs: refused, named */
static void check_shared_logs(void **state)
{
	struct ib_plan run;
	struct ib_result res;
	struct ib_runner *r = (void *)1;
	struct ib_diag d = { { 0 } };
	struct ib_job *j = jobs(&run, 2, "null");

	(void)state;
	j[1].name = "u";
	for (unsigned int i = 0; i < 2; i++) {
		j[i].logs.per_job = false;
		j[i].logs.bw = "bw";
	}
	assert_int_equal(ib_runner_check(&run, NULL, &res, &r, &d), -ENOTSUP);
	assert_null(r);
	assert_string_equal(d.msg, "per_job_logs=0: jobs 't' and 'u' would share a log "
			    "file, not supported by iobench");
	ib_result_free(&run, &res);
	ib_plan_free(&run);
	reset_flags();
}

/* forward_stop: a thread's flag set, a held job never starts */
static void stop_slots(void **state)
{
	struct ib_job job;
	struct slot s[3];
	struct ib_runner r;

	(void)state;
	ib_job_defaults(&job);
	job.thread = true;
	memset(s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	r.slots = s;
	for (unsigned int i = 0; i < 3; i++)
		s[i].args.job = &job;
	s[0].started = true;			/* running thread */
	s[1].held = true;			/* wait_for, not started */
	s[2].started = s[2].reaped = true;	/* ended */
	runner_forward_stop(&r, 0, 3, SIGTERM);
	assert_int_equal(s[0].stop, 1);
	assert_false(s[1].held);
	assert_int_equal(s[1].stop, 0);
	assert_int_equal(s[2].stop, 0);
}

/* fio's prerun line when a job with exec_prerun starts; none without */
static void prerun_line(void **state)
{
	char buf[256] = "";
	struct ib_job job;
	struct ib_job_stats st;
	struct slot s;
	struct ib_runner r;

	(void)state;
	ib_job_defaults(&job);
	job.name = "j";
	memset(&s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	memset(&st, 0, sizeof(st));
	s.args.job = &job;
	s.args.st = &st;
	r.msg = fmemopen(buf, sizeof(buf), "w");
	runner_exec_msg(&r, &s, false);	/* no prerun: nothing */
	job.proc.exec_prerun = "true";
	runner_exec_msg(&r, &s, false);
	runner_exec_msg(&r, &s, true);	/* postrun not run: nothing */
	st.postrun_ran = true;
	runner_exec_msg(&r, &s, true);
	fclose(r.msg);
	assert_string_equal(buf, "j : Saving output of prerun in j.prerun.txt\n"
			    "j : Saving output of postrun in j.postrun.txt\n");
}

/* randrepeat=0 without a seed: the slot's own copy with a drawn seed */
static void own_seed(void **state)
{
	struct ib_job job;
	struct slot s;
	struct ib_diag d = { { 0 } };

	(void)state;
	ib_job_defaults(&job);
	memset(&s, 0, sizeof(s));
	s.args.job = &job;
	assert_int_equal(runner_own_seed(&s, &d), 0);	/* randrepeat=1 */
	assert_null(s.own_job);
	assert_ptr_equal(s.args.job, &job);
	job.randrepeat = false;
	assert_int_equal(runner_own_seed(&s, &d), 0);
	assert_non_null(s.own_job);
	assert_ptr_equal(s.args.job, s.own_job);
	assert_true(s.own_job->randseed_set);
	assert_false(job.randseed_set);
	free(s.own_job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parent_signals),
		cmocka_unit_test(child_signals),
		cmocka_unit_test(check_warns_once),
		cmocka_unit_test(check_shared_logs),
		cmocka_unit_test(stop_slots),
		cmocka_unit_test(prerun_line),
		cmocka_unit_test(own_seed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
