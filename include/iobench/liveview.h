/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_LIVEVIEW_H
#define IOBENCH_LIVEVIEW_H

#include <stdint.h>
#include <stdio.h>
#include "iobench/plan.h"
#include "iobench/runner.h"

/*
 * The live view (doc/live-statistics.md): on a terminal, a table redrawn
 * in place once per interval, one row per job (per group with
 * group_reporting) and a total: IOPS, bandwidth and p99 latency of the
 * last interval per direction, progress, errors; a heading with the
 * elapsed time and the ETA. Its numbers are the per-interval stream's
 * (stream.h), which feeds it. Drawn with ANSI cursor moves: the previous
 * table is overwritten, and erased at the end, before the report.
 */
struct ib_liveview;

int ib_liveview_new(struct ib_liveview **out, const struct ib_plan *run, FILE *tty);
void ib_liveview_free(struct ib_liveview *lv);

/*
 * The stream (stream.h) hands it each interval's lines, then calls
 * ib_liveview_draw(): the table is drawn (v->final: erased).
 */
void ib_liveview_draw(struct ib_liveview *lv, const struct ib_run_view *v);
/* Erase the table (before a status report prints where it is). */
void ib_liveview_erase(struct ib_liveview *lv);

#endif
