/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_ETA_H
#define IOBENCH_ETA_H

#include <stddef.h>
#include <stdint.h>
#include "iobench/plan.h"
#include "iobench/stats.h"

/*
 * The live status line (doc/fio-compat.md §1.11):
 *   Jobs: 2 (f=2): [m(2)][75.0%][r=980MiB/s,w=978MiB/s][r=251k,w=250k IOPS][eta 00m:01s]
 * built from the jobs' `live` counters (read with relaxed atomics). Rates are
 * deltas between two calls, kept in the caller's ib_eta_state (zero it
 * before the first call), over windows of at least IB_ETA_RATE_NS. Before
 * any job has started the line is empty (length 0: nothing to print). The
 * progress and eta start after the first second, the eta rounded up to
 * whole seconds. The text has no line ending: the runner adds \r
 * (or \n for --eta-newline). A line shorter than the previous one is padded
 * with spaces so that \r overwrites it.
 */
/* the rates shown are means over at least this long */
#define IB_ETA_RATE_NS 1000000000ull

struct ib_eta_state {
	uint64_t last_ns;
	uint64_t last_bytes[IB_DDIR_RWT];
	uint64_t last_ios[IB_DDIR_RWT];
	uint64_t bw[IB_DDIR_RWT];	/* B/s over the last interval */
	uint64_t iops[IB_DDIR_RWT];
	size_t last_len;
};

/* Returns the length written (always NUL-terminated, truncated to len-1). */
size_t ib_eta_format(char *buf, size_t len, const struct ib_plan *run,
		     const struct ib_job_stats *stats, uint64_t now_ns,
		     uint64_t run_start_ns, struct ib_eta_state *st);
/* "MMm:SSs", "HHh:MMm:SSs", "DDd:HHh:MMm:SSs" */
void ib_eta_str(char *buf, size_t len, uint64_t secs);
/* Run-length job states: "R(10),W(10)" */
size_t ib_eta_runstr(char *buf, size_t len, const struct ib_plan *run,
		     const struct ib_job_stats *stats);

#endif
