/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CHART_H
#define IOBENCH_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/hist.h"
#include "iobench/svg.h"

/*
 * Charts as SVG from plain inputs: no results document, no files. Each
 * builder writes one complete <svg> element to f and returns 0, or -EINVAL
 * (with the reason in d, nothing written) for input it cannot draw (no
 * series, no points, a non-finite value, an empty histogram). The output is deterministic byte for byte and uses
 * no script, no external reference and no CSS beyond presentation
 * attributes, so it reads the same standalone and inlined in HTML.
 *
 * The drawing is machine-checkable (tests/integration/test_plots.py):
 *   <g class="axis x|y" data-scale="lin|log|nines|cat"> holds one
 *     <g class="tick" data-v="VALUE"> per tick: a <line> at the tick's
 *     position (x1 for x, y1 for y) and its <text> label;
 *   <text class="title|xlabel|ylabel">;
 *   <g class="series" data-name="NAME"> per series, holding exactly one
 *     <path class="line"> (lines, CDFs, curves) or one <rect class="bar">
 *     per bar (histogram, grouped bars), then any markers;
 *   <g class="legend"> with one <text> per series when there are several;
 *   <g class="marker" data-p="PCT" data-v="VALUE"> per percentile marker.
 * A value v maps to pixels linearly in v (lin), log10(v) (log) or
 * -log10(1 - v/100) (nines: percentiles, ticked at 0, 50, 90, 99, 99.9 ...)
 * between the ticks, so a reader recovers the data from the coordinates
 * (cat: tick i, labelled with category i, is the middle of group i).
 * Coordinates are printed with two decimals. Log axes span 1-2-5 x 10^k to
 * 1-2-5 x 10^m, ticked at 1, 2, 5 a decade up to three decades, at decades
 * beyond. A time series with more than 2 points a pixel column is drawn
 * reduced to each column's first, lowest, highest and last point.
 */
struct ib_chart_opts {
	const char *title;
	const char *xlabel;	/* NULL: the builder's default */
	const char *ylabel;
	unsigned int width;	/* 0: 720 */
	unsigned int height;	/* 0: 400 */
	bool y_ns;		/* lines/curve: y values are ns (labels 2ms) */
};

/* One line of a time series or curve: n points (x[i], y[i]), x ascending
 * for time series (any order for curves; drawn in the given order). */
struct ib_chart_series {
	const char *name;
	const double *x;
	const double *y;
	size_t n;
};

/* Latency histogram: one bar per 8 adjacent buckets of h (a bar's edges are
 * its buckets' edges, clamped to 1 ns below), height = percent of all
 * samples, log-scale latency axis in ns/us/ms/s; a dashed marker at each
 * percentile of pct[0..npct) (ascending), labelled "p99 1.2ms". */
int ib_chart_hist(FILE *f, const struct ib_chart_opts *o, const struct ib_hist *h,
		  const double *pct, unsigned int npct, struct ib_diag *d);

/* CDF of each histogram (one path per series: a point per non-empty bucket
 * at (cumulative percent, bucket value)), percentile on the nines scale up
 * to what the samples resolve, log latency axis, legend, percentile
 * markers on every series (labelled on the first two). */
int ib_chart_cdf(FILE *f, const struct ib_chart_opts *o,
		 const struct ib_hist *const *h, const char *const *names,
		 unsigned int nh, const double *pct, unsigned int npct,
		 struct ib_diag *d);

/* A report's percentile list: p[0..n). */
struct ib_chart_pcts {
	const double *p;
	unsigned int n;
};

/* ib_chart_cdf, where from_pct[k].n > 0 says histogram k was made from a
 * report's percentile list (plain JSON, no bins): series k is drawn as
 * steps through the listed percentiles only (a step up to each one's
 * latency at the one before it), up to the highest, which ends the x axis
 * and bounds its markers. from_pct NULL: every series from bins. */
int ib_chart_cdf_from(FILE *f, const struct ib_chart_opts *o,
		      const struct ib_hist *const *h, const char *const *names,
		      unsigned int nh, const struct ib_chart_pcts *from_pct,
		      const double *pct, unsigned int npct, struct ib_diag *d);

/* Lines over linear x and y (time series: bw/iops/latency against time). */
int ib_chart_lines(FILE *f, const struct ib_chart_opts *o,
		   const struct ib_chart_series *s, unsigned int ns,
		   struct ib_diag *d);

/* Like ib_chart_lines with a circle marker at every point (latency versus
 * load); logy: log-scale y axis for latencies spanning decades. */
int ib_chart_curve(FILE *f, const struct ib_chart_opts *o,
		   const struct ib_chart_series *s, unsigned int ns, bool logy,
		   struct ib_diag *d);

/*
 * Latency versus load (iobench curve): each series' points joined and
 * dotted as ib_chart_curve draws them, over a linear x axis from 0 and a
 * log-scale latency y axis (y in ns, every y > 0). Then the reference lines
 * ref[0..nref): a dashed line across the plot at y = v (vertical: x = v),
 * inside <g class="ref CLS" data-v="V"> with its label, the axes widened to
 * hold v; and when knee is not NULL the point (x, y) ringed and labelled in
 * <g class="knee" data-x="X" data-y="Y">. hollow (NULL: none): hollow[k][i]
 * draws point i of series k as a ring, <circle class="point hollow"> (a
 * step that fell short of its target rate).
 */
struct ib_chart_ref {
	const char *cls;	/* "slo", "max": the group's second class */
	double v;
	bool vertical;
	const char *label;
};
struct ib_chart_knee {
	double x, y;
	const char *label;
};
int ib_chart_latload(FILE *f, const struct ib_chart_opts *o,
		     const struct ib_chart_series *s, unsigned int ns,
		     const struct ib_chart_ref *ref, unsigned int nref,
		     const struct ib_chart_knee *knee, const bool *const *hollow,
		     struct ib_diag *d);

/* Grouped bars: nl groups (labels) of ns bars (series); value of label i,
 * series j is v[i * ns + j] (>= 0). */
int ib_chart_bars(FILE *f, const struct ib_chart_opts *o,
		  const char *const *labels, unsigned int nl,
		  const char *const *series, unsigned int ns, const double *v,
		  struct ib_diag *d);

/* "950ns", "12.3us", "4.56ms", "1.2s": three significant digits at most,
 * trailing zeros dropped. buf has at least 16 bytes. Returns buf. */
char *ib_chart_fmt_ns(char *buf, size_t len, double ns);
/* A plain number: up to 9999 with up to six decimals, above with k/M/G/T
 * (powers of 1000) and three significant digits; trailing zeros dropped:
 * "750", "0.025", "12.5k", "1.25M". */
char *ib_chart_fmt_num(char *buf, size_t len, double v);

#endif
