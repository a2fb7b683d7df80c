/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * log_group (group_reporting): after the run, one log per group and kind,
 * PREFIX_KIND.groupG.log, made from the group's job logs: averaged bw/iops
 * logs (log_avg_msec) summed per window (t / log_avg_msec) and direction,
 * every other log (per-I/O entries, averaged latency) merged by time.
 */
#ifndef IOBENCH_GROUPLOG_H
#define IOBENCH_GROUPLOG_H

#include "iobench/diag.h"
#include "iobench/plan.h"

int ib_grouplogs_write(const struct ib_plan *run, struct ib_diag *d);

#endif
