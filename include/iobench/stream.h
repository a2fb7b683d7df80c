/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_STREAM_H
#define IOBENCH_STREAM_H

#include <stdio.h>
#include "iobench/plan.h"
#include "iobench/runner.h"

/*
 * The per-interval stream (--interval-json, doc/live-statistics.md): one
 * JSON object per line per interval, for every job that has started and,
 * for a group_reporting group, for the group. Built from the jobs'
 * interval rings (interval.h) by differences of cumulative snapshots, so
 * that a job's lines (from its last "restart") sum to its final report's
 * totals exactly and its merged "bins" are the final histogram.
 *
 * A line of interval k is written once every job still running has
 * published its snapshot k, or a quarter interval after the boundary
 * whatever they did (a job stalled in one I/O has a line with nothing in
 * it; what it did comes in a later line). The last lines are written at
 * the run's end (final).
 */
struct ib_stream;

struct ib_liveview;

/*
 * A stream writing its lines to f (the caller's, flushed per interval;
 * NULL: none) and handing them to the live view lv (liveview.h; NULL:
 * none). -ENOMEM.
 */
int ib_stream_new(struct ib_stream **out, const struct ib_plan *run, FILE *f,
		  struct ib_liveview *lv);
/* From the runner's watcher (runner.h): write the intervals due. */
void ib_stream_poll(struct ib_stream *s, const struct ib_run_view *v);
void ib_stream_free(struct ib_stream *s);

#endif
