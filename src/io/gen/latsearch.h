/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_LATSEARCH_H
#define IOBENCH_LATSEARCH_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"

/*
 * latency_target: the search for the highest queue depth whose latency meets
 * the target (fio's latency_target, latency_window, latency_percentile,
 * latency_run). A pure state machine: the worker runs a window of
 * latency_window at ib_latsearch_depth(), counting the I/Os and those whose
 * latency exceeded latency_target, feeds the result to ib_latsearch_window()
 * and does what the returned step says. With latency_percentile=100 the
 * worker may also report the first I/O over the target at once
 * (ib_latsearch_over(), fio ramps down without waiting for the window end).
 *
 * fio's search (io_u.c, 3.33): start at depth 1, the bounds low=1 and
 * high=iodepth. A window passes when (ios - over) / ios * 100 >= percentile
 * (no I/O at all fails). On a pass low=depth; the depth doubles until a
 * window has failed, then bisects between depth and high; capped at iodepth.
 * On a failure high=depth (and low-1 if depth==low), depth=(depth+low)/2,
 * and the I/O in flight is drained; a failure at depth 1 with percentile 100
 * is a job error (ETIMEDOUT, like max_latency). When a pass leaves the depth
 * unchanged it is the answer: one more window runs at it with fresh stats,
 * and when that passes too the job ends (unless latency_run, which keeps
 * adjusting for the whole run; there three passes in a row just below high
 * raise high by one, to probe again).
 *
 * Two deliberate differences, both so the answer is the highest passing
 * depth (tests/unit/test_latsearch.c compares with a brute-force sweep):
 * - fio doubles while high == iodepth, even after iodepth itself failed, so
 *   when the answer is iodepth-1 it swings between iodepth-1 and iodepth for
 *   the whole run (iodepth=24, passing up to 23). Here doubling stops at the
 *   first failure.
 * - fio keeps its "final window" flag after a failure, so the next unchanged
 *   pass ends the job with the stats reset at an earlier depth. Here a
 *   failure clears it: the final window always runs at the found depth.
 */

struct ib_latsearch_cfg {
	unsigned int iodepth;	/* the job's iodepth, the upper bound (>= 1) */
	double percentile;	/* latency_percentile, (0, 100] [100] */
	bool run;		/* latency_run: adjust forever, never done */
};

enum ib_latsearch_step {
	IB_LS_NEXT,	/* run the next window at ib_latsearch_depth() */
	IB_LS_DOWN,	/* depth lowered: drain the I/O in flight, then NEXT */
	IB_LS_FINAL,	/* found: reset the stats, one last window at the depth */
	IB_LS_DONE,	/* the last window passed: end the job; depth = answer */
	IB_LS_FATAL,	/* target missed at depth 1 (percentile 100): ETIMEDOUT */
};

struct ib_latsearch {
	struct ib_latsearch_cfg cfg;
	unsigned int depth;
	unsigned int low, high;
	unsigned int stable;	/* passes in a row just below high */
	bool failed;		/* some window failed: bisect, do not double */
	bool final;		/* the last window at the found depth is running */
	bool done;
	unsigned int windows;	/* windows judged so far */
};

void ib_latsearch_init(struct ib_latsearch *s, const struct ib_latsearch_cfg *c);

static inline unsigned int ib_latsearch_depth(const struct ib_latsearch *s)
{
	return s->depth;
}

/* A window at the current depth ended: ios I/Os, over of them above target. */
enum ib_latsearch_step ib_latsearch_window(struct ib_latsearch *s, uint64_t ios,
					   uint64_t over);
/*
 * The same from the window's latency at the configured percentile: it
 * passes when pct_lat_ns <= target_ns.
 */
enum ib_latsearch_step ib_latsearch_window_lat(struct ib_latsearch *s,
					       uint64_t pct_lat_ns,
					       uint64_t target_ns);
/*
 * Percentile 100: an I/O exceeded the target, which fails the window at once.
 * Below 100 it changes nothing (IB_LS_NEXT): the window's count decides.
 */
enum ib_latsearch_step ib_latsearch_over(struct ib_latsearch *s);

/*
 * max_latency (per direction), and latency_target missed at depth 1: when
 * an I/O's latency lat_ns (the latency the worker records as lat: from issue
 * as fio, from due_ns in open loop) is above max_ns, the job ends with
 * -ETIMEDOUT and fio's line, e.g. "latency of 7452 nsec exceeds specified max
 * (1000 nsec): f.0.0 read 0 4096" (fio 3.33: err=110, func "max latency
 * exceeded"). 0 when lat_ns <= max_ns or max_ns is 0 (no limit).
 */
int ib_lat_max_check(uint64_t lat_ns, uint64_t max_ns, const char *file,
		     const char *ddir, uint64_t offset, uint64_t len,
		     struct ib_diag *d);

#endif
