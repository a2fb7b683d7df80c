/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TEXTHIST_H
#define IOBENCH_TEXTHIST_H

#include <stdbool.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/hist.h"

/*
 * A latency histogram and CDF for the terminal, for people who would rather
 * look than read. One row per latency range, ten a decade (1, 1.2, 1.5, 2,
 * 2.5, 3, 4, 5, 6, 8 x 10^d ns; a bucket counts in the range holding its
 * representative value), from the first non-empty range to the last, a run
 * of empty ranges sharing one row:
 *
 *   RANGE  COUNT  PERCENT  HISTOGRAM-BAR  CDF-BAR  CUMULATIVE-PERCENT
 *
 * then one line of percentiles (pct[0..npct), ascending, as "p99 1.23ms"),
 * wrapped. The histogram bar is scaled to the fullest row, the CDF bar to
 * 100%. No line is wider than cols display columns (cols 60..200; 80 is
 * the usual). With utf8 the bars use the block elements U+2588..U+258F
 * (eighths of a column); without, plain ASCII ('#' and '=', and '.' for
 * a non-empty row too small to show). Output is deterministic.
 *
 * Returns 0, or -EINVAL (d says why): no samples, cols out of range.
 */
int ib_texthist_print(FILE *f, const struct ib_hist *h, const double *pct,
		      unsigned int npct, unsigned int cols, bool utf8,
		      struct ib_diag *d);

/* Whether a codeset name (nl_langinfo(CODESET)) is UTF-8: "UTF-8", "utf8"
 * in any case. NULL is not. */
bool ib_texthist_codeset_utf8(const char *codeset);
/* ib_texthist_codeset_utf8(nl_langinfo(CODESET)): the caller must have
 * called setlocale(LC_CTYPE, "") for the environment's locale to count. */
bool ib_texthist_locale_utf8(void);

#endif
