// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job's process name, CPU placement, memory policy, nice value and I/O
 * priority (procopts.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mempolicy.h>
#include "procopts.h"

#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_HINT_SHIFT 3
#define IOPRIO_CLASS_BE 2

/* A sysfs list file ("0-3,8") into buf; false where it cannot be read. */
static bool read_list(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	return true;
}

/* The range of a sysfs list at p into lo..hi: what follows, NULL at the end. */
static const char *next_range(const char *p, unsigned long *lo, unsigned long *hi)
{
	char *end;

	if (*p < '0' || *p > '9')
		return NULL;
	*lo = *hi = strtoul(p, &end, 10);
	if (*end == '-')
		*hi = strtoul(end + 1, &end, 10);
	return *end == ',' ? end + 1 : end;
}

/* Add the CPUs of NUMA node `node` (sysfs cpulist "0-3,8") to set. */
static int node_cpus(unsigned int node, cpu_set_t *set, struct ib_diag *d)
{
	char path[96], list[4096];
	const char *p = list;
	unsigned long lo, hi;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", node);
	if (!read_list(path, list, sizeof(list)))
		return ib_diag_set(d, ENOENT, "numa_cpu_nodes: node %u does not exist", node);
	while ((p = next_range(p, &lo, &hi)))
		for (; lo <= hi && lo < CPU_SETSIZE; lo++)
			CPU_SET(lo, set);
	return 0;
}

/* split: keep only the index-th CPU of the set (wrapping). */
static void split(cpu_set_t *set, unsigned int index)
{
	unsigned int n = (unsigned int)CPU_COUNT(set), i, k = 0;

	if (!n)
		return;
	index %= n;
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, set))
			continue;
		if (k++ != index)
			CPU_CLR(i, set);
	}
}

static int affinity(const struct ib_job *job, struct ib_diag *d)
{
	const char *what = job->proc.numa_nodes ? "numa_cpu_nodes" : "cpus_allowed";
	cpu_set_t set;
	unsigned int i;
	int rc;

	CPU_ZERO(&set);
	for (i = 0; job->proc.cpus_set && i < IB_MAX_CPUS && i < CPU_SETSIZE; i++)
		if (job->proc.cpus[i / 64] & (1ull << (i % 64)))
			CPU_SET(i, &set);
	if (job->proc.numa_nodes) { /* like fio, the nodes' CPUs replace the list */
		CPU_ZERO(&set);
		for (i = 0; i < 64; i++)
			if ((job->proc.numa_nodes & (1ull << i)) && (rc = node_cpus(i, &set, d)))
				return rc;
	}
	if (job->proc.cpus_policy == IB_CPUS_SPLIT)
		split(&set, job->number ? job->number - 1 : 0);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return ib_diag_set(d, errno, "%s: cannot run on those CPUs: %s", what,
				   strerror(errno));
	return 0;
}

unsigned int ib_proc_ioprio(const struct ib_job *job)
{
	unsigned int cls;

	if (!job->proc.ioprio_given)
		return 0;
	cls = job->proc.ioprio_class ? job->proc.ioprio_class : IOPRIO_CLASS_BE;
	return cls << IOPRIO_CLASS_SHIFT | job->proc.ioprio_hint << IOPRIO_HINT_SHIFT |
	       job->proc.ioprio;
}

/* The online NUMA nodes (sysfs "0-1,3") as bits, nodes 0..63. */
static uint64_t online_nodes(void)
{
	char list[256];
	const char *p = list;
	unsigned long lo, hi;
	uint64_t bits = 0;

	if (!read_list("/sys/devices/system/node/online", list, sizeof(list)))
		return 1;	/* no NUMA in sysfs: node 0 */
	while ((p = next_range(p, &lo, &hi)))
		for (; lo <= hi && lo < 64; lo++)
			bits |= 1ull << lo;
	return bits ? bits : 1;
}

/* numa_mem_policy: the job's memory policy, before its buffers exist. */
static int mem_policy(const struct ib_job *job, struct ib_diag *d)
{
	int mode = (int)job->proc.mem_mode - 1;
	unsigned long mask = (unsigned long)(job->proc.mem_all ? online_nodes() :
					     job->proc.mem_nodes);
	bool nodes = mode != MPOL_DEFAULT && mode != MPOL_LOCAL;

	if (syscall(SYS_set_mempolicy, mode, nodes ? &mask : NULL,
		    nodes ? 8 * sizeof(mask) + 1 : 0) < 0)
		return ib_diag_set(d, errno, "numa_mem_policy: set_mempolicy: %s",
				   strerror(errno));
	return 0;
}

int ib_proc_setup(const struct ib_job *job, struct ib_diag *d)
{
	unsigned int cls;
	int rc;

	if (job->proc.comm && job->proc.comm[0] &&
	    prctl(PR_SET_NAME, job->proc.comm, 0, 0, 0) < 0)
		return ib_diag_set(d, errno, "comm: prctl PR_SET_NAME: %s",
				   strerror(errno));
	if (job->proc.cpus_set || job->proc.numa_nodes) {
		rc = affinity(job, d);
		if (rc)
			return rc;
	}
	if (job->proc.mem_mode) {
		rc = mem_policy(job, d);
		if (rc)
			return rc;
	}
	if (job->proc.nice) {
		errno = 0;
		if (nice(job->proc.nice) == -1 && errno)
			return ib_diag_set(d, errno, "nice: %s", strerror(errno));
	}
	if (job->proc.ioprio_given) {
		cls = job->proc.ioprio_class ? job->proc.ioprio_class : IOPRIO_CLASS_BE;
		if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
			    (int)ib_proc_ioprio(job)) < 0)
			return ib_diag_set(d, errno, "prio: ioprio_set class %u level %u "
					   "hint %u: %s", cls, job->proc.ioprio,
					   job->proc.ioprio_hint, strerror(errno));
	}
	return 0;
}
