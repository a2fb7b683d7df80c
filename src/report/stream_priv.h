// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-interval stream's parts (stream.c: what is due and the
 * differences; stream_line.c: one line). Private to src/report/.
 */
#ifndef IOBENCH_STREAM_PRIV_H
#define IOBENCH_STREAM_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/hist.h"
#include "iobench/interval.h"
#include "iobench/job.h"

/* One direction's numbers over one interval. */
struct sdir {
	uint64_t ios, bytes;
	uint64_t n;		/* latency samples: the histogram's total */
	uint64_t min, max;	/* ns; see sline_from() */
	double sum;		/* of the latencies, ns */
	struct ib_hist hist;
};

/* One line: a job's interval, or a group's (the sum of its jobs' lines). */
struct sline {
	const struct ib_job *job;	/* the job, or the group's first one */
	bool group;
	unsigned int nr_jobs;		/* a group's jobs in this line */
	uint64_t time_ms;		/* interval end, from the run's start */
	uint64_t span_ns;		/* the time the numbers cover */
	bool restart;			/* the job's totals start again here */
	bool final;			/* the job's last line */
	enum ib_lat_kind kind;
	unsigned int dirs;		/* bit d: direction d is written */
	struct sdir dir[IB_DDIR_RWT];
	uint64_t depth;			/* I/Os in flight at the snapshot */
	uint64_t errors;
};

/* The job line of cur - base (restart: base counts as zero). */
void sline_from(struct sline *l, const struct ib_iv_snap *cur,
		const struct ib_iv_snap *base, bool restart);
/* dst += src, for the group's line. */
void sline_add(struct sline *dst, const struct sline *src);
/* Write l as one line of JSON (NDJSON). */
void sline_write(FILE *f, const struct sline *l);

struct ib_liveview;
/* The live view (liveview.h) takes l, a job's or group's, for its table. */
void liveview_line(struct ib_liveview *lv, const struct sline *l);

#endif
