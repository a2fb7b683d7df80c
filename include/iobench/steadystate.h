/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_STEADYSTATE_H
#define IOBENCH_STEADYSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/diag.h"

/*
 * fio's steady state (ss=, ss_dur=, ss_ramp=, ss_interval=;
 * doc/fio-compat.md, doc/fio342-options.md): every ss_interval seconds
 * (1 by default), after ss_ramp, the job's IOPS and bytes/s (per second)
 * and mean completion latency (ns) over the last interval go into a window
 * of ss_dur / ss_interval samples. When the window is full the criterion
 * is computed over it and, when below the limit, the job ends
 * ("attained"). The criteria, as fio 3.42 computes them:
 *   iops, bw, lat    max |x - mean| over the window (mean a double);
 *                    with '%' that deviation is 100 * dev / mean
 *   iops_slope, bw_slope, lat_slope  least-squares slope of x over the
 *                    sample numbers 0..n-1; with '%' 100 * slope /
 *                    (sum / n), the integer mean
 * attained when criterion < limit (|criterion| for a slope). A lat limit
 * without '%' is fio's time value read in microseconds (lat:2ms is 2000)
 * and compared, as fio 3.42 does, with the deviation or slope in ns.
 */

#define IB_SS_MAX_DUR 3600	/* the most samples in a window */
#define IB_SS_DEFAULT "iops_slope:0.01%"

enum {
	IB_SS_BW = 1 << 0,	/* bw (bytes/s), else iops */
	IB_SS_SLOPE = 1 << 1,	/* slope, else deviation from the mean */
	IB_SS_PCT = 1 << 2,	/* limit in % of the mean */
	IB_SS_LAT = 1 << 3,	/* mean completion latency (ns), not bw/iops */
};

/*
 * One job's steady state, in the job's stats slot. Filled by the worker,
 * read back from fio's JSON "steadystate" object. dur 0: no steady state.
 * The window holds len = dur / interval samples.
 * While running the window is a ring (head: the oldest once full);
 * ib_ss_finish() puts it in time order, oldest first, zero-padded.
 */
struct ib_ss {
	uint32_t mode;		/* IB_SS_* */
	uint32_t dur;		/* window, seconds (fio's "duration") */
	uint32_t interval;	/* seconds between samples (ss_interval) */
	uint32_t len;		/* samples in a full window: dur / interval */
	double limit;
	bool attained;
	bool full;
	uint32_t n;		/* samples in the window, <= len */
	uint32_t head;		/* next slot to write */
	double criterion;
	double deviation;	/* the deviation criteria's max |x - mean| */
	double slope;		/* the slope criteria's slope */
	uint64_t iops[IB_SS_MAX_DUR];
	uint64_t bw[IB_SS_MAX_DUR];	/* bytes/s */
	uint64_t lat[IB_SS_MAX_DUR];	/* mean clat, ns (0: no I/O completed) */
};

/*
 * Parse fio's criterion "iops:5%", "bw_slope:2M", "iops:30", "lat:50us":
 * the mode, a limit in % (a trailing '%'), else absolute: IOPS as a
 * number, bytes/s as a size with fio's units (kb_base), a latency as a
 * time in microseconds (no unit: us). 0 or -EINVAL (d filled).
 */
int ib_ss_parse(const char *v, unsigned int kb_base, uint32_t *mode,
		double *limit, struct ib_diag *d);

/* "iops", "iops_slope", "bw", "bw_slope", "lat" or "lat_slope". */
const char *ib_ss_mode_name(uint32_t mode);
/* Inverse of ib_ss_mode_name (without IB_SS_PCT); -1 if unknown. */
int ib_ss_mode_from(const char *name, size_t len);

/*
 * Start an empty window of dur seconds sampled every interval seconds
 * (interval >= 1; dur / interval <= IB_SS_MAX_DUR samples).
 */
void ib_ss_init(struct ib_ss *ss, uint32_t mode, double limit, uint32_t dur,
		uint32_t interval);

/*
 * Add one interval's sample (IOPS, bytes/s, mean clat in ns); once the
 * window is full compute the criterion. Returns true (and sets attained)
 * when it is met.
 */
bool ib_ss_add(struct ib_ss *ss, uint64_t iops, uint64_t bw, uint64_t lat);

/* The criterion over a full window (sets criterion, deviation, slope). */
bool ib_ss_evaluate(struct ib_ss *ss);

/* Put the window in time order, oldest first (once, at the job's end). */
void ib_ss_finish(struct ib_ss *ss);

/* Integer means over len (fio: sum / samples, zero padding included). */
uint64_t ib_ss_iops_mean(const struct ib_ss *ss);
uint64_t ib_ss_bw_mean(const struct ib_ss *ss);
uint64_t ib_ss_lat_mean(const struct ib_ss *ss);

/* fio's "ss" text: "iops:5.000000%", "bw_slope:2097152.000000". */
void ib_ss_format(const struct ib_ss *ss, char *buf, size_t len);

#endif
