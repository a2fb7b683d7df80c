/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CHART_PRIV_H
#define IOBENCH_CHART_PRIV_H

/*
 * What the chart builders share (chart_axis.c): the frame (canvas, plot box,
 * the two axes and their value -> pixel mapping), ticks, labels, legend.
 */
#include "iobench/chart.h"

enum ib_chart_unit { IB_CHART_NUM, IB_CHART_NS, IB_CHART_CAT };

struct ib_chart_axis {
	double lo, hi;		/* the range drawn (after rounding to ticks) */
	double step;		/* lin: tick step */
	bool log;
	bool nines;		/* percentiles, at -log10(1 - p/100): 0, 50,
				 * 90, 99, 99.9 ... evenly by their nines */
	enum ib_chart_unit unit;
	unsigned int ncat;	/* IB_CHART_CAT: labels at 0..ncat-1 */
	const char *const *cat;
};

struct ib_chart_frame {
	struct ib_svg svg;
	double w, h;
	double x0, x1, y0, y1;	/* plot box: x0 left, y0 bottom (y1 < y0) */
	struct ib_chart_axis x, y;
};

/* Round [min, max] out to "nice" ticks (1, 2, 2.5, 5 x 10^k; lo may be 0). */
void ib_chart_range_lin(struct ib_chart_axis *a, double min, double max);
/* Round [min, max] (min > 0) out to 1-2-5 x 10^k. */
void ib_chart_range_log(struct ib_chart_axis *a, double min, double max);
/* Percentiles 0 .. 100 * (1 - 10^-nines) on the "nines" scale
 * (HdrHistogram's): x = -log10(1 - p/100); nines from 1 to 7. */
void ib_chart_range_nines(struct ib_chart_axis *a, unsigned int nines);
/* The nines a percentile axis needs for n samples: the finest percentile
 * they resolve is 1 - 1/n (at least 2, at most 7). */
unsigned int ib_chart_nines_for(uint64_t n);
/* Categories: cell i is centred at i + 0.5 on a 0..n axis. */
void ib_chart_range_cat(struct ib_chart_axis *a, const char *const *cat,
			unsigned int n);

double ib_chart_px(const struct ib_chart_frame *fr, double v);
double ib_chart_py(const struct ib_chart_frame *fr, double v);

/* Canvas, background and title; ranges must be set already. The legend's
 * rows (names[0..n), only when n > 1) are reserved under the title. */
void ib_chart_begin(struct ib_chart_frame *fr, FILE *f,
		    const struct ib_chart_opts *o, const char *const *names,
		    unsigned int n);
/* Axes with ticks and grid, the axis titles, the plot box border. */
void ib_chart_axes(struct ib_chart_frame *fr, const char *xlabel,
		   const char *ylabel);
/* Legend (only when n > 1): under the title, left to right, wrapped. */
unsigned int ib_chart_legend_rows(const struct ib_chart_frame *fr,
				  const char *const *names, unsigned int n);
/* Draw the legend laid out as ib_chart_legend_rows() counted; lines: each
 * entry shows its series' stroke (colour, and dashed for every second, as
 * ib_chart_path draws them), else a box of its colour (bars). */
void ib_chart_legend(struct ib_chart_frame *fr, const char *const *names,
		     unsigned int n, bool lines);
/* <g class="series" data-name=...> opened; close with ib_svg_close(). */
void ib_chart_series_open(struct ib_chart_frame *fr, const char *name);
void ib_chart_end(struct ib_chart_frame *fr);

#define IB_CHART_MAX_SERIES 64
/* A time series breaks where no point came for this many median steps */
#define IB_CHART_GAP 8.0
/* Room above the highest value, so that a line at the maximum does not run
 * along the frame (the axis then ends at the next tick) */
#define IB_CHART_HEADROOM 0.04

/* The data's bounds over every series (chart.c); y starts at 0 unless logy
 * (then every y must be > 0). 0 or -EINVAL (no series, no points, a
 * non-finite value), d saying which. */
struct ib_chart_extent {
	double xlo, xhi, ylo, yhi;
};
int ib_chart_extent(const struct ib_chart_series *s, unsigned int ns,
		    bool logy, struct ib_chart_extent *e, struct ib_diag *d);
/* Series k as one <path class="line">, and a <circle class="point"> per
 * point, in the frame's mapping and the k-th colour. */
void ib_chart_path(struct ib_chart_frame *fr, const struct ib_chart_series *s,
		   unsigned int k);
void ib_chart_dots(struct ib_chart_frame *fr, const struct ib_chart_series *s,
		   unsigned int k);
/* <text> with a white outline, readable over lines (chart_hist.c). */
void ib_chart_halo_label(struct ib_svg *s, double x, double y, bool end,
			 const char *text);
/* The same in colour fill (NULL: the default black): a series' label in
 * its series' colour, so that read's and write's read apart. */
void ib_chart_halo_label_fill(struct ib_svg *s, double x, double y, bool end,
			      const char *text, const char *fill);

/* The i-th series colour (a fixed palette, cycling). */
const char *ib_chart_color(unsigned int i);

#endif
