// SPDX-License-Identifier: GPL-2.0-only
/*
 * Charts of latency histograms: the histogram itself (bars of 8 adjacent
 * buckets on a log latency axis) and the CDF of one or more histograms
 * (latency by percentile on the nines scale), both with percentile
 * markers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
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

/* The CDF as HdrHistogram draws it: the latency (y, log) at each
 * percentile (x, on the nines scale); a point per non-empty bucket, at the
 * share of samples at or below it (100% at the axis's end). */
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
			    ib_chart_px(fr, 100.0 * (double)cum / (double)n),
			    ib_chart_py(fr, at_least_1((double)ib_hist_value(i))));
	}
	ib_svg_d_end(&fr->svg);
	ib_svg_str(&fr->svg, "fill", "none");
	ib_svg_str(&fr->svg, "stroke", ib_chart_color(k));
	ib_svg_num(&fr->svg, "stroke-width", 2);
	if (k % 2)	/* the second direction (write) dashed as well */
		ib_svg_str(&fr->svg, "stroke-dasharray", "6 3");
	ib_svg_empty(&fr->svg);
}

/* Labels laid out so that none overlaps another: boxes of GLYPH_W px a
 * character and LABEL_H px high, moved up (then down) a line at a time. */
#define GLYPH_W 6.5
#define LABEL_H 13.0
#define MAX_LABELS (2 * MAX_PCT)

struct label_box {
	double x0, x1, y;	/* y: the baseline; the box is [y - 10, y + 3] */
};

struct label_layout {
	struct label_box b[MAX_LABELS];
	unsigned int n;
};

static bool label_free(const struct label_layout *ll, double x0, double x1,
		       double y)
{
	unsigned int i;

	for (i = 0; i < ll->n; i++)
		if (x0 < ll->b[i].x1 && ll->b[i].x0 < x1 &&
		    fabs(y - ll->b[i].y) < LABEL_H)
			return false;
	return true;
}

/* The baseline for a label over [x0, x1] wanted at y, within the plot box;
 * recorded. */
static double label_place(struct label_layout *ll,
			  const struct ib_chart_frame *fr, double x0,
			  double x1, double y)
{
	double up = y, down = y;
	unsigned int i;

	for (i = 0; i < 64; i++, up -= LABEL_H, down += LABEL_H) {
		if (up - 10 >= fr->y1 && label_free(ll, x0, x1, up)) {
			y = up;
			break;
		}
		if (down + 3 <= fr->y0 && label_free(ll, x0, x1, down)) {
			y = down;
			break;
		}
	}
	if (ll->n < MAX_LABELS)
		ll->b[ll->n++] = (struct label_box){ x0, x1, y };
	return y;
}

static void cdf_markers(struct ib_chart_frame *fr, struct label_layout *ll,
			const double *pct, const uint64_t *v, unsigned int np,
			unsigned int k)
{
	struct ib_svg *s = &fr->svg;
	unsigned int j;
	char buf[64];

	for (j = 0; j < np; j++) {
		double x = ib_chart_px(fr, pct[j]);
		double y = ib_chart_py(fr, at_least_1((double)v[j]));
		double w, x0, x1;
		bool left;

		marker_open(s, pct[j], v[j]);
		ib_svg_tag(s, "circle");
		ib_svg_num(s, "cx", x);
		ib_svg_num(s, "cy", y);
		ib_svg_num(s, "r", 3.5);
		ib_svg_str(s, "fill", ib_chart_color(k));
		ib_svg_empty(s);
		if (ll) {
			pct_name(buf, sizeof(buf), pct[j], v[j]);
			w = GLYPH_W * (double)strlen(buf);
			left = x + 6 + w > fr->x1;
			x0 = left ? x - 6 - w : x + 6;
			x1 = x0 + w;
			ib_chart_halo_label(s, left ? x - 6 : x + 6,
					    label_place(ll, fr, x0, x1, y - 6),
					    left, buf);
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
	struct label_layout ll = { .n = 0 };
	uint64_t v[MAX_PCT], most = 0;
	unsigned int k;
	double lo, hi;

	if (!nh)
		return ib_diag_set(d, EINVAL, "CDF: no series");
	if (cdf_extent(h, nh, &lo, &hi, d))
		return -EINVAL;
	if (npct > MAX_PCT)
		npct = MAX_PCT;
	for (k = 0; k < nh; k++)
		if (total(h[k]) > most)
			most = total(h[k]);
	ib_chart_range_nines(&fr.x, ib_chart_nines_for(most));
	ib_chart_range_log(&fr.y, lo, hi);
	fr.y.unit = IB_CHART_NS;
	ib_chart_begin(&fr, f, o, names, names ? nh : 0);
	ib_chart_axes(&fr, o->xlabel ? o->xlabel : "percentile (%)",
		      o->ylabel ? o->ylabel : "latency at or below");
	for (k = 0; k < nh; k++) {
		uint64_t n = total(h[k]);

		ib_chart_series_open(&fr, names ? names[k] : NULL);
		cdf_path(&fr, h[k], n, k);
		/* labels for up to two series (read and write), markers for all */
		if (npct && !ib_hist_percentiles(h[k], n, pct, npct, v))
			cdf_markers(&fr, k < 2 ? &ll : NULL, pct, v, npct, k);
		ib_svg_close(&fr.svg);
	}
	ib_chart_legend(&fr, names, names ? nh : 0, true);
	ib_chart_end(&fr);
	return 0;
}
