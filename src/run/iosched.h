/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_IOSCHED_H
#define IOBENCH_IOSCHED_H

#include "iobench/diag.h"

/*
 * ioscheduler=: the I/O scheduler of the block device under a job's file
 * (the disk of a partition), set for the run and restored after it.
 *
 * ib_iosched_check: is `name` one of the schedulers of target's device?
 * ib_iosched_set: remember the device's current scheduler (once per
 * device) and switch it to `name`.
 * ib_iosched_restore: write every remembered scheduler back and forget
 * them. Async-signal-safe (open/write/close only), so the runner's second-
 * SIGINT path calls it too; for that the table of saved schedulers is the
 * module's one static state.
 * check and set return 0 or -errno with d naming the option.
 */
int ib_iosched_check(const char *target, const char *name, struct ib_diag *d);
int ib_iosched_set(const char *target, const char *name, struct ib_diag *d);
void ib_iosched_restore(void);

#endif
