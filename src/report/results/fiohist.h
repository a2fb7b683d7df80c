/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_FIOHIST_H
#define IOBENCH_FIOHIST_H

#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/hist.h"

/*
 * Streaming reader of fio's latency histogram logs (write_hist_log with
 * log_hist_msec; fio 3.33 writes PREFIX_clat_hist.N.log). One row per line:
 *
 *   time_ms, ddir, bs, bin_0, ..., bin_(B-1)
 *
 * with the counts of the interval since the previous row (not running
 * totals). B = 1856 >> c for log_hist_coarseness c = 0..6: bin j sums fio's
 * latency buckets [j << c, (j + 1) << c), which are iobench's buckets of the
 * same index (hist.h). Each row is handed over as a struct ib_hist: with
 * c = 0 bin j is bucket j exactly; with c > 0 the whole count of bin j goes
 * to its middle bucket (j << c) + (1 << c) / 2.
 *
 * Fields are unsigned decimal integers; blanks, a trailing '\r' and empty
 * lines are accepted; ddir is 0..2. No line buffer: a row of any length is
 * parsed field by field, memory is this struct. No I/O.
 */
#define IB_FIOHIST_BINS 1856

struct ib_fiohist_row {
	uint64_t t_ms;
	unsigned int ddir;
	uint64_t bs;
	unsigned int coarseness;
	uint64_t samples;		/* the sum of the bins */
	const struct ib_hist *h;	/* valid during the callback */
};

/* Called per row; a non-zero return stops the parse and is returned. */
typedef int (*ib_fiohist_cb)(void *arg, const struct ib_fiohist_row *r);

struct ib_fiohist {
	uint64_t head[3];		/* time, ddir, bs */
	uint64_t bins[IB_FIOHIST_BINS];
	uint64_t cur;			/* the field being read */
	unsigned int nfields;		/* fields completed on this line */
	unsigned int state;		/* where in the field we are */
	unsigned long lineno;		/* lines completed */
	unsigned long rows;
	struct ib_hist row;
};

void ib_fiohist_init(struct ib_fiohist *p);
/* Returns 0, -EINVAL (d: "line N: why") or the callback's non-zero value. */
int ib_fiohist_feed(struct ib_fiohist *p, const char *buf, size_t len,
		    ib_fiohist_cb cb, void *arg, struct ib_diag *d);
/* The last row if it had no newline; same returns. */
int ib_fiohist_end(struct ib_fiohist *p, ib_fiohist_cb cb, void *arg,
		   struct ib_diag *d);

#endif
