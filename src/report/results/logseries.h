/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_LOGSERIES_H
#define IOBENCH_LOGSERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/chart.h"
#include "iobench/fiolog.h"

/*
 * fio log records -> chart points, one series per direction (read, write,
 * trim): x = time in seconds, y = the logged value. Feed it as the
 * ib_fiolog_feed() callback (arg = the struct ib_logseries).
 *
 * avg_ms = 0 keeps every record as a point. avg_ms > 0 averages the values
 * of each direction over windows of avg_ms (window k holds the records with
 * k * avg_ms <= time_ms < (k + 1) * avg_ms; its point is at the window's end
 * and the mean of its values), so a per-I/O log of millions of lines draws
 * as a path of runtime / avg_ms points. A record older than the window in
 * progress counts in that window (logs are time-ordered; this only bounds
 * the damage of one that is not). Call ib_logseries_finish() after the last
 * record to close the open windows.
 *
 * max_points (0: no limit) bounds each direction: one more point fails the
 * callback with -E2BIG. Arrays grow by doubling (-ENOMEM if they cannot).
 */
struct ib_logseries {
	unsigned int avg_ms;
	size_t max_points;
	double *x[3], *y[3];
	size_t n[3], cap[3];
	uint64_t win[3];	/* window in progress */
	double sum[3];
	uint64_t cnt[3];	/* records in it (0: none open) */
};

void ib_logseries_init(struct ib_logseries *ls, unsigned int avg_ms,
		       size_t max_points);
/* An ib_fiolog_cb: 0, -ENOMEM or -E2BIG. */
int ib_logseries_add(void *arg, const struct ib_fiolog_rec *r);
/* Close the open windows (avg_ms > 0); 0, -ENOMEM or -E2BIG. */
int ib_logseries_finish(struct ib_logseries *ls);
/* Direction ddir's points as a series called name (n = 0 when none). */
struct ib_chart_series ib_logseries_get(const struct ib_logseries *ls,
					unsigned int ddir, const char *name);
void ib_logseries_free(struct ib_logseries *ls);

#endif
