// SPDX-License-Identifier: GPL-2.0-only
/*
 * The process options (procopts.c), each in a child process of its own:
 * cpus_allowed's exact CPU set, cpus_allowed_policy=split's one CPU by the
 * job's number, nice's increment, prio/prioclass as ioprio_get reads them
 * back, and numa_cpu_nodes' error for a node that does not exist.
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job.h"
#include "src/io/procopts.h"

/* What a child saw after ib_proc_setup. */
struct seen {
	int rc;
	int ncpus;
	int first_cpu;
	int nice_before, nice_after;
	int ioprio;
	char msg[sizeof(((struct ib_diag *)0)->msg)];
};

static struct seen in_child(const struct ib_job *job)
{
	struct seen s;
	int pfd[2];
	pid_t pid;

	memset(&s, 0, sizeof(s));
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ib_diag d = { { 0 } };
		cpu_set_t set;

		close(pfd[0]);
		errno = 0;
		s.nice_before = getpriority(PRIO_PROCESS, 0);
		s.rc = ib_proc_setup(job, &d);
		s.nice_after = getpriority(PRIO_PROCESS, 0);
		CPU_ZERO(&set);
		sched_getaffinity(0, sizeof(set), &set);
		s.ncpus = CPU_COUNT(&set);
		for (s.first_cpu = 0; s.first_cpu < CPU_SETSIZE &&
		     !CPU_ISSET(s.first_cpu, &set); s.first_cpu++)
			;
		s.ioprio = (int)syscall(SYS_ioprio_get, 1 /* WHO_PROCESS */, 0);
		snprintf(s.msg, sizeof(s.msg), "%s", d.msg);
		_exit(write(pfd[1], &s, sizeof(s)) == sizeof(s) ? 0 : 1);
	}
	close(pfd[1]);
	assert_int_equal(read(pfd[0], &s, sizeof(s)), sizeof(s));
	close(pfd[0]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	return s;
}

static void set_cpu(struct ib_job *job, unsigned int cpu)
{
	job->proc.cpus_set = true;
	job->proc.cpus[cpu / 64] |= 1ull << (cpu % 64);
}

static int last_cpu(void)
{
	cpu_set_t set;
	int i, last = 0;

	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			last = i;
	return last;
}

static void nothing_asked(void **state)
{
	struct ib_job job;
	struct seen s;

	(void)state;
	memset(&job, 0, sizeof(job));
	s = in_child(&job);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.nice_after, s.nice_before);
	assert_string_equal(s.msg, "");
}

static void cpus_allowed_exact(void **state)
{
	struct ib_job job;
	struct seen s;

	(void)state;
	memset(&job, 0, sizeof(job));
	set_cpu(&job, (unsigned int)last_cpu());
	s = in_child(&job);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.ncpus, 1);
	assert_int_equal(s.first_cpu, last_cpu());
}

/* split: job number N runs on the set's (N-1)th CPU, wrapping */
static void cpus_split(void **state)
{
	struct ib_job job;
	struct seen s;
	int last = last_cpu();

	(void)state;
	if (last == 0)
		skip();
	memset(&job, 0, sizeof(job));
	set_cpu(&job, 0);
	set_cpu(&job, (unsigned int)last);
	job.proc.cpus_policy = IB_CPUS_SPLIT;
	job.number = 2;
	s = in_child(&job);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.ncpus, 1);
	assert_int_equal(s.first_cpu, last);
	job.number = 3;	/* wraps to the first */
	s = in_child(&job);
	assert_int_equal(s.ncpus, 1);
	assert_int_equal(s.first_cpu, 0);
}

static void nice_increment(void **state)
{
	struct ib_job job;
	struct seen s;

	(void)state;
	memset(&job, 0, sizeof(job));
	job.proc.nice = 3;
	s = in_child(&job);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.nice_after, s.nice_before + 3 > 19 ? 19 : s.nice_before + 3);
}

/* prio without a class is best-effort (2); ioprio_get reads it back */
static void ioprio(void **state)
{
	struct ib_job job;
	struct seen s;

	(void)state;
	memset(&job, 0, sizeof(job));
	job.proc.ioprio_given = true;
	job.proc.ioprio = 5;
	s = in_child(&job);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.ioprio, 2 << 13 | 5);
	job.proc.ioprio_class = 3;	/* idle */
	job.proc.ioprio = 0;
	s = in_child(&job);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.ioprio, 3 << 13);
}

static void numa_node_missing(void **state)
{
	struct ib_job job;
	struct seen s;

	(void)state;
	memset(&job, 0, sizeof(job));
	job.proc.numa_nodes = 1ull << 63;
	s = in_child(&job);
	assert_int_equal(s.rc, -ENOENT);
	assert_string_equal(s.msg, "numa_cpu_nodes: node 63 does not exist");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_asked),
		cmocka_unit_test(cpus_allowed_exact),
		cmocka_unit_test(cpus_split),
		cmocka_unit_test(nice_increment),
		cmocka_unit_test(ioprio),
		cmocka_unit_test(numa_node_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
