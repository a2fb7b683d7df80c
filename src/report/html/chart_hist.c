// SPDX-License-Identifier: GPL-2.0-only
/*
 * Charts of latency histograms: the histogram itself (bars of 8 adjacent
 * buckets on a log latency axis) and the CDF of one or more histograms,
 * both with percentile markers.
 */
#include <errno.h>
#include <stdio.h>
#include "chart_priv.h"

#define BIN 8			/* buckets per bar */
#define MAX_PCT 16

/* Lower edge of bucket i (i == IB_HIST_NR: the top of the last bucket). */
static double bucket_lo(unsigned int i)
{
	unsigned int e, k;

	if (i < 2 * IB_HIST_VAL)
		return i;
	e = (i >> IB_HIST_BITS) - 1;
	k = i & (IB_HIST_VAL - 1);
	return (double)((1ull << (e + IB_HIST_BITS)) + ((uint64_t)k << e));
}

static uint64_t total(const struct ib_hist *h)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < IB_HIST_NR; i++)
		n += h->count[i];
	return n;
}

static uint64_t bin_count(const struct ib_hist *h, unsigned int b)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = b * BIN; i < (b + 1) * BIN; i++)
		n += h->count[i];
	return n;
}

static double at_least_1(double v)
{
	return v < 1 ? 1 : v;
}

static void pct_name(char *buf, size_t len, double p, uint64_t v)
{
	char t[32];

	snprintf(buf, len, "p%g %s", p, ib_chart_fmt_ns(t, sizeof(t), (double)v));
}

static void marker_open(struct ib_svg *s, double p, uint64_t v)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%g", p);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	ib_svg_tag(s, "g");
	ib_svg_str(s, "class", "marker");
	ib_svg_str(s, "data-p", a);
	ib_svg_str(s, "data-v", b);
	ib_svg_open(s);
}

/* A marker's label, with a white outline so that it reads over lines
 * (paint-order: the stroke is drawn under the fill). */
void ib_chart_halo_label(struct ib_svg *s, double x, double y, bool end,
			 const char *text)
{
	ib_svg_tag(s, "text");
	ib_svg_num(s, "x", x);
	ib_svg_num(s, "y", y);
	if (end)
		ib_svg_str(s, "text-anchor", "end");
	ib_svg_str(s, "stroke", "#ffffff");
	ib_svg_num(s, "stroke-width", 3);
	ib_svg_str(s, "paint-order", "stroke");
	ib_svg_open(s);
	ib_svg_text(s, text);
	ib_svg_close(s);
}

/* Vertical dashed lines at the percentiles, labels staggered downwards. */
static void hist_markers(struct ib_chart_frame *fr, const double *pct,
			 const uint64_t *v, unsigned int np)
{
	struct ib_svg *s = &fr->svg;
	unsigned int j;
	char buf[64];

	for (j = 0; j < np; j++) {
		double x = ib_chart_px(fr, at_least_1((double)v[j]));

		marker_open(s, pct[j], v[j]);
		ib_svg_tag(s, "line");
		ib_svg_num(s, "x1", x);
		ib_svg_num(s, "y1", fr->y0);
		ib_svg_num(s, "x2", x);
		ib_svg_num(s, "y2", fr->y1);
		ib_svg_str(s, "stroke", "#555555");
		ib_svg_str(s, "stroke-dasharray", "4 3");
		ib_svg_empty(s);
		pct_name(buf, sizeof(buf), pct[j], v[j]);
		if (x > fr->x1 - 90)	/* near the right edge: text to the left */
			ib_chart_halo_label(s, x - 3, fr->y1 + 12 + 13 * j, true, buf);
		else
			ib_chart_halo_label(s, x + 3, fr->y1 + 12 + 13 * j, false, buf);
		ib_svg_close(s);
	}
}

static void hist_bars(struct ib_chart_frame *fr, const struct ib_hist *h,
		      uint64_t n)
{
	unsigned int b;

	for (b = 0; b < IB_HIST_NR / BIN; b++) {
		uint64_t c = bin_count(h, b);
		double x, x2, y;

		if (!c)
			continue;
		x = ib_chart_px(fr, at_least_1(bucket_lo(b * BIN)));
		x2 = ib_chart_px(fr, bucket_lo((b + 1) * BIN));
		y = ib_chart_py(fr, 100.0 * (double)c / (double)n);
		ib_svg_tag(&fr->svg, "rect");
		ib_svg_str(&fr->svg, "class", "bar");
		ib_svg_num(&fr->svg, "x", x);
		ib_svg_num(&fr->svg, "y", y);
		ib_svg_num(&fr->svg, "width", x2 - x);
		ib_svg_num(&fr->svg, "height", fr->y0 - y);
		ib_svg_str(&fr->svg, "fill", ib_chart_color(0));
		ib_svg_empty(&fr->svg);
	}
}

/* Latency range and tallest bar of h. */
static void hist_extent(const struct ib_hist *h, double *lo, double *hi,
			uint64_t *top)
{
	unsigned int b;

	*lo = 0;
	*hi = 1;
	*top = 0;
	for (b = 0; b < IB_HIST_NR / BIN; b++) {
		uint64_t c = bin_count(h, b);

		if (!c)
			continue;
		if (*top == 0)
			*lo = at_least_1(bucket_lo(b * BIN));
		*hi = bucket_lo((b + 1) * BIN);
		if (c > *top)
			*top = c;
	}
}

int ib_chart_hist(FILE *f, const struct ib_chart_opts *o, const struct ib_hist *h,
		  const double *pct, unsigned int npct, struct ib_diag *d)
{
	struct ib_chart_frame fr;
	uint64_t n = total(h), top, v[MAX_PCT];
	double lo, hi;

	if (!n)
		return ib_diag_set(d, EINVAL, "histogram: no samples");
	if (npct > MAX_PCT)
		npct = MAX_PCT;
	hist_extent(h, &lo, &hi, &top);
	ib_chart_range_log(&fr.x, lo, hi);
	fr.x.unit = IB_CHART_NS;
	ib_chart_range_lin(&fr.y, 0, 100.0 * (double)top / (double)n);
	ib_chart_begin(&fr, f, o, NULL, 0);
	ib_chart_axes(&fr, o->xlabel ? o->xlabel : "latency",
		      o->ylabel ? o->ylabel : "% of samples");
	ib_chart_series_open(&fr, "histogram");
	hist_bars(&fr, h, n);
	ib_svg_close(&fr.svg);
	if (npct && !ib_hist_percentiles(h, n, pct, npct, v))
		hist_markers(&fr, pct, v, npct);
	ib_chart_end(&fr);
	return 0;
}

static void cdf_path(struct ib_chart_frame *fr, const struct ib_hist *h,
		     uint64_t n, unsigned int k)
{
	uint64_t cum = 0;
	unsigned int i;

	ib_svg_tag(&fr->svg, "path");
	ib_svg_str(&fr->svg, "class", "line");
	ib_svg_d_begin(&fr->svg);
	for (i = 0; i < IB_HIST_NR; i++) {
		if (!h->count[i])
			continue;
		cum += h->count[i];
		ib_svg_d_pt(&fr->svg, cum == h->count[i] ? 'M' : 'L',
			    ib_chart_px(fr, at_least_1((double)ib_hist_value(i))),
			    ib_chart_py(fr, 100.0 * (double)cum / (double)n));
	}
	ib_svg_d_end(&fr->svg);
	ib_svg_str(&fr->svg, "fill", "none");
	ib_svg_str(&fr->svg, "stroke", ib_chart_color(k));
	ib_svg_num(&fr->svg, "stroke-width", 2);
	ib_svg_empty(&fr->svg);
}

static void cdf_markers(struct ib_chart_frame *fr, const double *pct,
			const uint64_t *v, unsigned int np, unsigned int k)
{
	struct ib_svg *s = &fr->svg;
	unsigned int j;
	char buf[64];

	for (j = 0; j < np; j++) {
		double x = ib_chart_px(fr, at_least_1((double)v[j]));
		double y = ib_chart_py(fr, pct[j]);

		marker_open(s, pct[j], v[j]);
		ib_svg_tag(s, "circle");
		ib_svg_num(s, "cx", x);
		ib_svg_num(s, "cy", y);
		ib_svg_num(s, "r", 3.5);
		ib_svg_str(s, "fill", ib_chart_color(k));
		ib_svg_empty(s);
		if (k == 0) {
			bool left = x > fr->x1 - 90;

			pct_name(buf, sizeof(buf), pct[j], v[j]);
			ib_chart_halo_label(s, left ? x - 6 : x + 6, y + 14, left, buf);
		}
		ib_svg_close(s);
	}
}

static int cdf_extent(const struct ib_hist *const *h, unsigned int nh,
		      double *lo, double *hi, struct ib_diag *d)
{
	unsigned int k, i;

	*lo = 0;
	*hi = 0;
	for (k = 0; k < nh; k++) {
		if (!total(h[k]))
			return ib_diag_set(d, EINVAL, "CDF: series %u has no samples", k);
		for (i = 0; i < IB_HIST_NR; i++) {
			double v = at_least_1((double)ib_hist_value(i));

			if (!h[k]->count[i])
				continue;
			if (*lo == 0 || v < *lo)
				*lo = v;
			if (v > *hi)
				*hi = v;
		}
	}
	return 0;
}

int ib_chart_cdf(FILE *f, const struct ib_chart_opts *o,
		 const struct ib_hist *const *h, const char *const *names,
		 unsigned int nh, const double *pct, unsigned int npct,
		 struct ib_diag *d)
{
	struct ib_chart_frame fr;
	uint64_t v[MAX_PCT];
	unsigned int k;
	double lo, hi;

	if (!nh)
		return ib_diag_set(d, EINVAL, "CDF: no series");
	if (cdf_extent(h, nh, &lo, &hi, d))
		return -EINVAL;
	if (npct > MAX_PCT)
		npct = MAX_PCT;
	ib_chart_range_log(&fr.x, lo, hi);
	fr.x.unit = IB_CHART_NS;
	ib_chart_range_lin(&fr.y, 0, 100);
	ib_chart_begin(&fr, f, o, names, names ? nh : 0);
	ib_chart_axes(&fr, o->xlabel ? o->xlabel : "latency",
		      o->ylabel ? o->ylabel : "% of samples at or below");
	for (k = 0; k < nh; k++) {
		uint64_t n = total(h[k]);

		ib_chart_series_open(&fr, names ? names[k] : NULL);
		cdf_path(&fr, h[k], n, k);
		if (npct && !ib_hist_percentiles(h[k], n, pct, npct, v))
			cdf_markers(&fr, pct, v, npct, k);
		ib_svg_close(&fr.svg);
	}
	ib_chart_legend(&fr, names, names ? nh : 0);
	ib_chart_end(&fr);
	return 0;
}
