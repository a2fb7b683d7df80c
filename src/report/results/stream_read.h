/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_STREAM_READ_H
#define IOBENCH_STREAM_READ_H

#include <stdbool.h>
#include "iobench/diag.h"
#include "iobench/hist.h"
#include "iobench/results.h"

/*
 * The per-interval stream reader (results_stream.c, results_stream_doc.c):
 * lines in, one at a time, then the results document out.
 */
struct ib_sent {		/* a job's lines, or a group's */
	bool group;
	unsigned int num;	/* the job's number, or the groupid */
	unsigned int groupid;
	char name[IB_NAME_MAX];	/* a job's */
	unsigned int dirs;	/* the directions its lines had */
	unsigned int kind[IB_DDIR_RWT];
	struct ib_job_stats *st;	/* the sums */
	double lat_sum[IB_DDIR_RWT];	/* sum of the lines' mean * n */
	double span_ms;
	struct ib_res_series ser;
};

struct ib_sread {
	const char *name;	/* for messages */
	unsigned int line;	/* lines read */
	struct ib_sent *e;
	unsigned int n, cap;
	struct ib_hist tmp;	/* the line's bins */
};

/* One line (its '\n' or not); a blank line is skipped. 0 or -errno. */
int ib_sread_line(struct ib_sread *s, const char *text, size_t len, struct ib_diag *d);
void ib_sread_free(struct ib_sread *s);

#endif
