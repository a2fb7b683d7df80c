/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_LOG_H
#define IOBENCH_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/job.h"

/* write_bw_log / write_iops_log / write_lat_log files of one job. */
struct ib_logs {
	bool enabled;	/* any per-I/O latency log open */
};

int ib_logs_open(struct ib_logs *l, const struct ib_job *job, struct ib_diag *d);
void ib_logs_lat(struct ib_logs *l, uint64_t t_ms, enum ib_ddir ddir, uint32_t bs,
		 uint64_t offset, uint64_t slat, uint64_t clat, uint64_t lat);
void ib_logs_close(struct ib_logs *l);

#endif
