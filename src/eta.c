// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER until the stats branch lands. */
#include <stdio.h>
#include "iobench/eta.h"

size_t ib_eta_format(char *buf, size_t len, const struct ib_run *run,
		     const struct ib_job_stats *stats, uint64_t now_ns,
		     uint64_t run_start_ns, struct ib_eta_state *es)
{
	(void)stats; (void)now_ns; (void)run_start_ns; (void)es;
	return (size_t)snprintf(buf, len, "Jobs: %u", run->nr_jobs);
}
