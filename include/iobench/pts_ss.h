/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PTS_SS_H
#define IOBENCH_PTS_SS_H

#include <stdbool.h>

/*
 * SNIA PTS steady state (Solid State Storage Performance Test
 * Specification, enterprise 2.0): the test matrix runs in rounds, and after
 * each round the tracking variable (one value per round: the 4 KiB random
 * write IOPS, the 1 MiB sequential write bandwidth, the 4 KiB random write
 * mean latency) is judged over a measurement window of the last
 * IB_PTS_WINDOW rounds. Steady state holds when, over the window,
 *   max - min <= IB_PTS_RANGE_PCT % of the average, and
 *   the least-squares line's rise across the window (|slope| times
 *   window - 1 rounds) <= IB_PTS_RISE_PCT % of the average;
 * both limits inclusive, an average of 0 never steady. A run that has
 * not reached it after IB_PTS_MAX_ROUNDS rounds stops: "steady state not
 * reached". Unlike fio's ss= (steadystate.h), which judges per-second
 * samples inside one job, this judges whole rounds.
 */
#define IB_PTS_WINDOW 5
#define IB_PTS_MAX_ROUNDS 25
#define IB_PTS_RANGE_PCT 20.0
#define IB_PTS_RISE_PCT 10.0

struct ib_pts_ss {
	bool met;
	unsigned int first;	/* the window's first round, 0-based */
	unsigned int rounds;	/* rounds judged (the window ends at rounds - 1) */
	double avg, min, max;
	double slope;		/* per round */
	double range_pct;	/* (max - min) / avg, % */
	double rise_pct;	/* |slope| * (window - 1) / avg, % */
};

/*
 * Judge the window of the last IB_PTS_WINDOW values of v[0..n): fills o
 * and returns o->met. With n < IB_PTS_WINDOW nothing is judged: false,
 * o->rounds = n and the rest zero.
 */
bool ib_pts_ss_judge(const double *v, unsigned int n, struct ib_pts_ss *o);

/*
 * What the round loop does with a scripted series: judge after each of
 * rounds 1..min(n, IB_PTS_MAX_ROUNDS) and stop at the first window that
 * is steady. Returns the number of rounds run (o the last judgement,
 * o->met false when steady state was not reached).
 */
unsigned int ib_pts_ss_scan(const double *v, unsigned int n, struct ib_pts_ss *o);

#endif
