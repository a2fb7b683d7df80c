/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_IOMODE_H
#define IOBENCH_IOMODE_H

#include <stddef.h>
#include "iobench/diag.h"
#include "iobench/engine.h"
#include "iobench/job.h"

/*
 * The engine a job actually runs with, decided in the parent before the
 * header is printed (the O_DIRECT half is in ib_files_prepare, file.h).
 *
 * An engine the job names (ioengine=, or psync under defaults=fio) is used
 * as it is. iobench's default, io_uring, falls back to libaio, then psync:
 * the first one that is built in, accepts the engine options the job sets
 * (hipri, nowait, ...) and whose probe() the kernel does not refuse
 * (ib_engine_unavailable(): io_uring disabled by its sysctl or a seccomp
 * filter, say). Each engine is probed once per cache.
 */
#define IB_IOMODE_PROBES 8

struct ib_iomode_cache {
	const struct ib_engine_ops *ops[IB_IOMODE_PROBES];
	int rc[IB_IOMODE_PROBES];
	unsigned int nr;
};

/*
 * Returns the engine, or NULL with -errno in *err and d set when none can
 * run the job. why (len bytes) gets "" or, when the default fell back, one
 * line: "io_uring is not built into this iobench" / "io_uring: Operation
 * not permitted"; several fallbacks are joined with "; ".
 */
const struct ib_engine_ops *ib_iomode_engine(const struct ib_job *j,
					     struct ib_iomode_cache *c,
					     char *why, size_t len, int *err,
					     struct ib_diag *d);

#endif
