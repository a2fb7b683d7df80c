/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_ETA_H
#define IOBENCH_ETA_H

#include <stddef.h>
#include <stdint.h>
#include "iobench/run.h"
#include "iobench/stats.h"

struct ib_eta_state {
	uint64_t last_ns;
};

size_t ib_eta_format(char *buf, size_t len, const struct ib_run *run,
		     const struct ib_job_stats *stats, uint64_t now_ns,
		     uint64_t run_start_ns, struct ib_eta_state *es);

#endif
