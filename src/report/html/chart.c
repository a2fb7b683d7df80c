// SPDX-License-Identifier: GPL-2.0-only
/*
 * Charts of plain numbers: lines (time series), curves with point markers
 * (latency versus load) and grouped bars (compare).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "iobench/median.h"
#include "chart_priv.h"

#define MAX_SERIES IB_CHART_MAX_SERIES
#define HEADROOM IB_CHART_HEADROOM

int ib_chart_extent(const struct ib_chart_series *s, unsigned int ns,
		    bool logy, struct ib_chart_extent *e, struct ib_diag *d)
{
	unsigned int k;
	size_t i;

	if (!ns || ns > MAX_SERIES)
		return ib_diag_set(d, EINVAL, "chart: %u series (1..%d)", ns,
				   MAX_SERIES);
	*e = (struct ib_chart_extent){ INFINITY, -INFINITY, logy ? INFINITY : 0, 0 };
	for (k = 0; k < ns; k++) {
		if (!s[k].n)
			return ib_diag_set(d, EINVAL, "chart: series '%s' has no points",
					   s[k].name ? s[k].name : "");
		for (i = 0; i < s[k].n; i++) {
			double x = s[k].x[i], y = s[k].y[i];

			if (!isfinite(x) || !isfinite(y) || (logy && !(y > 0)))
				return ib_diag_set(d, EINVAL, "chart: series '%s' point %zu: "
						   "bad value", s[k].name ? s[k].name : "", i);
			e->xlo = fmin(e->xlo, x);
			e->xhi = fmax(e->xhi, x);
			e->ylo = fmin(e->ylo, y);
			e->yhi = fmax(e->yhi, y);
		}
	}
	return 0;
}

void ib_chart_path(struct ib_chart_frame *fr, const struct ib_chart_series *s,
		   unsigned int k)
{
	size_t i;

	ib_svg_tag(&fr->svg, "path");
	ib_svg_str(&fr->svg, "class", "line");
	ib_svg_d_begin(&fr->svg);
	for (i = 0; i < s->n; i++)
		ib_svg_d_pt(&fr->svg, i ? 'L' : 'M', ib_chart_px(fr, s->x[i]),
			    ib_chart_py(fr, s->y[i]));
	ib_svg_d_end(&fr->svg);
	ib_svg_str(&fr->svg, "fill", "none");
	ib_svg_str(&fr->svg, "stroke", ib_chart_color(k));
	ib_svg_num(&fr->svg, "stroke-width", 1.5);
	if (k % 2)	/* as the legend shows it */
		ib_svg_str(&fr->svg, "stroke-dasharray", "6 3");
	ib_svg_empty(&fr->svg);
}

void ib_chart_dots(struct ib_chart_frame *fr, const struct ib_chart_series *s,
		   unsigned int k)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		ib_svg_tag(&fr->svg, "circle");
		ib_svg_str(&fr->svg, "class", "point");
		ib_svg_num(&fr->svg, "cx", ib_chart_px(fr, s->x[i]));
		ib_svg_num(&fr->svg, "cy", ib_chart_py(fr, s->y[i]));
		ib_svg_num(&fr->svg, "r", 3.5);
		ib_svg_str(&fr->svg, "fill", ib_chart_color(k));
		ib_svg_empty(&fr->svg);
	}
}

/*
 * A gap: no point for more than IB_CHART_GAP times the series' median step
 * (and more than 2 pixels): the line breaks there instead of joining the
 * points across the time nothing was logged (no I/O completed).
 */
static double gap_dx(const struct ib_chart_series *s)
{
	double *dx, med;
	size_t i, n = 0;

	if (s->n < 3 || !(dx = malloc((s->n - 1) * sizeof(*dx))))
		return INFINITY;
	for (i = 1; i < s->n; i++)
		if (s->x[i] > s->x[i - 1])
			dx[n++] = s->x[i] - s->x[i - 1];
	med = n ? ib_median_sort(dx, n) : INFINITY;
	free(dx);
	return med * IB_CHART_GAP;
}

/* One pixel column's points: the first, lowest, highest and last (their
 * values and their indices in the series). */
struct column {
	double px, first, lo, hi, last;
	size_t ifirst, ilo, ihi, ilast;
	bool open;
};

static void column_flush(struct ib_chart_frame *fr, struct column *c, bool *pen)
{
	/* the column's distinct data, in the order they came: never more
	 * points than data */
	size_t ia = c->ilo < c->ihi ? c->ilo : c->ihi;
	size_t ib = c->ilo < c->ihi ? c->ihi : c->ilo;
	double ya = c->ilo < c->ihi ? c->lo : c->hi;
	double yb = c->ilo < c->ihi ? c->hi : c->lo;

	if (!c->open)
		return;
	ib_svg_d_pt(&fr->svg, *pen ? 'L' : 'M', c->px, c->first);
	if (ia != c->ifirst)
		ib_svg_d_pt(&fr->svg, 'L', c->px, ya);
	if (ib != c->ifirst && ib != ia)
		ib_svg_d_pt(&fr->svg, 'L', c->px, yb);
	if (c->ilast != c->ifirst && c->ilast != ia && c->ilast != ib)
		ib_svg_d_pt(&fr->svg, 'L', c->px, c->last);
	*pen = true;
	c->open = false;
}

/*
 * A time series as a line reduced to the pixels it fills: each pixel column
 * holds at most four points (first, min, max, last), so a per-I/O log of
 * millions of points is a path of a few thousand; broken at gaps. Series 1,
 * 3, ... (write after read) dashed, so that directions drawn over each
 * other stay apart without colour.
 */
static void line_path(struct ib_chart_frame *fr, const struct ib_chart_series *s,
		      unsigned int k)
{
	double gap = gap_dx(s), gap_px = 2.0;
	struct column c = { 0, 0, 0, 0, 0, 0, 0, 0, 0, false };
	bool pen = false, reduce;
	size_t i;

	ib_svg_tag(&fr->svg, "path");
	ib_svg_str(&fr->svg, "class", "line");
	ib_svg_d_begin(&fr->svg);
	/* fewer points than two per pixel column: each drawn where it is */
	reduce = (double)s->n > 2.0 * (fr->x1 - fr->x0);

	for (i = 0; i < s->n; i++) {
		double px = reduce ? floor(ib_chart_px(fr, s->x[i])) + 0.5 :
				     ib_chart_px(fr, s->x[i]);
		double py = ib_chart_py(fr, s->y[i]);
		bool broken = i && s->x[i] - s->x[i - 1] > gap &&
			      ib_chart_px(fr, s->x[i]) - ib_chart_px(fr, s->x[i - 1]) > gap_px;

		if (c.open && (px != c.px || broken || !reduce)) {
			column_flush(fr, &c, &pen);
			if (broken)
				pen = false;
		}
		if (!c.open) {
			c = (struct column){ px, py, py, py, py, i, i, i, i, true };
			continue;
		}
		if (py < c.lo) {
			c.lo = py;
			c.ilo = i;
		}
		if (py > c.hi) {
			c.hi = py;
			c.ihi = i;
		}
		c.last = py;
		c.ilast = i;
	}
	column_flush(fr, &c, &pen);
	ib_svg_d_end(&fr->svg);
	ib_svg_str(&fr->svg, "fill", "none");
	ib_svg_str(&fr->svg, "stroke", ib_chart_color(k));
	ib_svg_num(&fr->svg, "stroke-width", 1.5);
	if (k % 2)
		ib_svg_str(&fr->svg, "stroke-dasharray", "6 3");
	ib_svg_empty(&fr->svg);
}

static int xy_chart(FILE *f, const struct ib_chart_opts *o,
		    const struct ib_chart_series *s, unsigned int ns, bool dots,
		    bool logy, struct ib_diag *d)
{
	const char *names[MAX_SERIES];
	struct ib_chart_frame fr;
	struct ib_chart_extent e = { 0, 0, 0, 0 };
	unsigned int k;

	if (ib_chart_extent(s, ns, logy, &e, d))
		return -EINVAL;
	ib_chart_range_lin(&fr.x, e.xlo, e.xhi);
	if (logy)
		ib_chart_range_log(&fr.y, e.ylo, e.yhi);
	else
		ib_chart_range_lin(&fr.y, e.ylo, e.yhi + HEADROOM * (e.yhi - e.ylo));
	fr.y.unit = o->y_ns ? IB_CHART_NS : IB_CHART_NUM;
	for (k = 0; k < ns; k++)
		names[k] = s[k].name;
	ib_chart_begin(&fr, f, o, names, ns);
	ib_chart_axes(&fr, o->xlabel, o->ylabel);
	for (k = 0; k < ns; k++) {
		ib_chart_series_open(&fr, s[k].name);
		if (dots) {
			ib_chart_path(&fr, &s[k], k);
			ib_chart_dots(&fr, &s[k], k);
		} else {
			line_path(&fr, &s[k], k);
		}
		ib_svg_close(&fr.svg);
	}
	ib_chart_legend(&fr, names, ns, true);
	ib_chart_end(&fr);
	return 0;
}

int ib_chart_lines(FILE *f, const struct ib_chart_opts *o,
		   const struct ib_chart_series *s, unsigned int ns,
		   struct ib_diag *d)
{
	return xy_chart(f, o, s, ns, false, false, d);
}

int ib_chart_curve(FILE *f, const struct ib_chart_opts *o,
		   const struct ib_chart_series *s, unsigned int ns, bool logy,
		   struct ib_diag *d)
{
	return xy_chart(f, o, s, ns, true, logy, d);
}

static int bars_check(unsigned int nl, unsigned int ns, const double *v,
		      double *top, struct ib_diag *d)
{
	size_t i;

	if (!nl || !ns || ns > MAX_SERIES)
		return ib_diag_set(d, EINVAL, "bars: %u labels, %u series", nl, ns);
	*top = 0;
	for (i = 0; i < (size_t)nl * ns; i++) {
		if (!isfinite(v[i]) || v[i] < 0)
			return ib_diag_set(d, EINVAL, "bars: value %zu is not a "
					   "number >= 0", i);
		*top = fmax(*top, v[i]);
	}
	return 0;
}

/* Series j's bars: in each group of width 1, 80% is split between series. */
static void bars_series(struct ib_chart_frame *fr, unsigned int nl,
			unsigned int ns, const double *v, unsigned int j)
{
	double bw = 0.8 / ns;
	unsigned int i;

	for (i = 0; i < nl; i++) {
		double x = ib_chart_px(fr, i + 0.1 + bw * j);
		double y = ib_chart_py(fr, v[(size_t)i * ns + j]);

		ib_svg_tag(&fr->svg, "rect");
		ib_svg_str(&fr->svg, "class", "bar");
		ib_svg_num(&fr->svg, "x", x);
		ib_svg_num(&fr->svg, "y", y);
		ib_svg_num(&fr->svg, "width", ib_chart_px(fr, i + 0.1 + bw * (j + 1)) - x);
		ib_svg_num(&fr->svg, "height", fr->y0 - y);
		ib_svg_str(&fr->svg, "fill", ib_chart_color(j));
		ib_svg_empty(&fr->svg);
	}
}

int ib_chart_bars(FILE *f, const struct ib_chart_opts *o,
		  const char *const *labels, unsigned int nl,
		  const char *const *series, unsigned int ns, const double *v,
		  struct ib_diag *d)
{
	struct ib_chart_frame fr;
	unsigned int j;
	double top = 0;

	if (bars_check(nl, ns, v, &top, d))
		return -EINVAL;
	ib_chart_range_cat(&fr.x, labels, nl);
	ib_chart_range_lin(&fr.y, 0, top * (1 + HEADROOM));
	ib_chart_begin(&fr, f, o, series, ns);
	ib_chart_axes(&fr, o->xlabel, o->ylabel);
	for (j = 0; j < ns; j++) {
		ib_chart_series_open(&fr, series[j]);
		bars_series(&fr, nl, ns, v, j);
		ib_svg_close(&fr.svg);
	}
	ib_chart_legend(&fr, series, ns, false);
	ib_chart_end(&fr);
	return 0;
}
