/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PROCOPTS_H
#define IOBENCH_PROCOPTS_H

#include "iobench/diag.h"
#include "iobench/job.h"

/*
 * In the job's own process or thread, before its files are opened:
 * cpus_allowed/cpumask (split: the job's one CPU of the set, by its number
 * in the run, as fio), numa_cpu_nodes (the nodes' CPUs from sysfs), nice
 * (an increment, like nice(2)) and prio/prioclass (ioprio_set; a prio
 * without a class is best-effort). Returns 0 or -errno with d naming the
 * option.
 */
int ib_proc_setup(const struct ib_job *job, struct ib_diag *d);

#define IB_IOPRIO_CLASS_SHIFT 13
/*
 * The job's I/O priority as ioprio_set(2) takes it (class << 13 | hint
 * << 3 | level, the class best-effort when only a level or hint is
 * given), 0 when none was given.
 */
unsigned int ib_proc_ioprio(const struct ib_job *job);

#endif
