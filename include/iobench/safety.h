/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SAFETY_H
#define IOBENCH_SAFETY_H

#include "iobench/diag.h"
#include "iobench/file.h"
#include "iobench/run.h"

/*
 * Refuse, before anything is opened for writing, a job that would write to a
 * target holding someone's data (a mounted, swapped-on, held or formatted
 * block device). Called by the runner for every job after its paths are
 * resolved. 0 = go; -errno with one line in d naming the device, the reason
 * and the override.
 */
int ib_safety_check(const struct ib_run *run, const struct ib_job *job,
		    const struct ib_files *fs, struct ib_diag *d);

#endif
