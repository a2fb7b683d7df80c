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
	ib_chart_halo_label_fill(s, x, y, end, text, NULL);
}

void ib_chart_halo_label_fill(struct ib_svg *s, double x, double y, bool end,
			      const char *text, const char *fill)
{
	ib_svg_tag(s, "text");
	ib_svg_num(s, "x", x);
	ib_svg_num(s, "y", y);
	if (end)
		ib_svg_str(s, "text-anchor", "end");
	if (fill)
		ib_svg_str(s, "fill", fill);
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

static void cdf_path_open(struct ib_svg *s)
{
	ib_svg_tag(s, "path");
	ib_svg_str(s, "class", "line");
	ib_svg_d_begin(s);
}

static void cdf_path_close(struct ib_svg *s, unsigned int k)
{
	ib_svg_d_end(s);
	ib_svg_str(s, "fill", "none");
	ib_svg_str(s, "stroke", ib_chart_color(k));
	ib_svg_num(s, "stroke-width", 2);
	if (k % 2)	/* the second direction (write) dashed as well */
		ib_svg_str(s, "stroke-dasharray", "6 3");
	ib_svg_empty(s);
}

/* The CDF as HdrHistogram draws it: the latency (y, log) at each
 * percentile (x, on the nines scale); a point per non-empty bucket, at the
 * share of samples at or below it (100% at the axis's end). */
static void cdf_path(struct ib_chart_frame *fr, const struct ib_hist *h,
		     uint64_t n, unsigned int k)
{
	uint64_t cum = 0;
	unsigned int i;

	cdf_path_open(&fr->svg);
	for (i = 0; i < IB_HIST_NR; i++) {
		if (!h->count[i])
			continue;
		cum += h->count[i];
		ib_svg_d_pt(&fr->svg, cum == h->count[i] ? 'M' : 'L',
			    ib_chart_px(fr, 100.0 * (double)cum / (double)n),
			    ib_chart_py(fr, at_least_1((double)ib_hist_value(i))));
	}
	cdf_path_close(&fr->svg, k);
}

#define MAX_LIST 32

/* The percentile list of a report without bins, sorted (at most MAX_LIST);
 * returns how many. */
static unsigned int pct_sorted(const struct ib_chart_pcts *l, double *p)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < l->n && n < MAX_LIST; i++) {
		if (!(l->p[i] > 0 && l->p[i] <= 100))
			continue;
		for (j = n; j > 0 && p[j - 1] > l->p[i]; j--)
			p[j] = p[j - 1];
		p[j] = l->p[i];
		n++;
	}
	return n;
}

/* A series from a percentile list: what the list says and nothing more, a
 * step up to each listed percentile's latency at the one before it (no
 * more than that share of samples took longer), ending at the highest. */
static void cdf_steps(struct ib_chart_frame *fr, const struct ib_hist *h,
		      uint64_t n, unsigned int k, const struct ib_chart_pcts *l)
{
	double p[MAX_LIST], x = 0, y;
	uint64_t v[MAX_LIST];
	unsigned int i, np = pct_sorted(l, p);

	if (!np || ib_hist_percentiles(h, n, p, np, v))
		return;
	cdf_path_open(&fr->svg);
	for (i = 0; i < np; i++) {
		y = ib_chart_py(fr, at_least_1((double)v[i]));
		if (i)
			ib_svg_d_pt(&fr->svg, 'L', x, y);
		x = ib_chart_px(fr, p[i]);
		ib_svg_d_pt(&fr->svg, i ? 'L' : 'M', x, y);
	}
	cdf_path_close(&fr->svg, k);
}

static double list_top(const struct ib_chart_pcts *l)
{
	double top = 0;
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->p[i] > top && l->p[i] <= 100)
			top = l->p[i];
	return top;
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
	const uint64_t *v[2];	/* the labelled series' values at pct[] */
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

/* The baseline for a label over [x0, x1] wanted at y, within the plot box,
 * moved a line at a time up then down (down then up when down); recorded. */
static double label_place(struct label_layout *ll,
			  const struct ib_chart_frame *fr, double x0,
			  double x1, double y, bool down)
{
	double a = y, b = y, step = down ? LABEL_H : -LABEL_H;
	unsigned int i;

	for (i = 0; i < 64; i++, a += step, b -= step) {
		if (a - 10 >= fr->y1 && a + 3 <= fr->y0 && label_free(ll, x0, x1, a)) {
			y = a;
			break;
		}
		if (b - 10 >= fr->y1 && b + 3 <= fr->y0 && label_free(ll, x0, x1, b)) {
			y = b;
			break;
		}
	}
	if (ll->n < MAX_LABELS)
		ll->b[ll->n++] = (struct label_box){ x0, x1, y };
	return y;
}

/* The label of series k's j-th marker, at (x, y). A CDF climbs to the
 * right: above-left of a point and below-right of it are clear of its own
 * line; the higher of the two labelled series is labelled above-left, the
 * lower below-right, clear of both lines where they do not cross. */
static void marker_label(struct ib_chart_frame *fr, struct label_layout *ll,
			 double p, uint64_t v, double x, double y,
			 unsigned int k, unsigned int j)
{
	const uint64_t *o = ll->v[!k];
	bool above = o && (v > o[j] || (v == o[j] && k == 1)), left;
	char buf[64];
	double w, x0;

	pct_name(buf, sizeof(buf), p, v);
	w = GLYPH_W * (double)strlen(buf);
	left = above ? x - 6 - w >= fr->x0 : x + 6 + w > fr->x1;
	x0 = left ? x - 6 - w : x + 6;
	ib_chart_halo_label_fill(&fr->svg, left ? x - 6 : x + 6,
				 label_place(ll, fr, x0, x0 + w,
					     above ? y - 6 : y + 14, !above),
				 left, buf, ib_chart_color(k));
}

/* Markers (labelled when ll) at pct[0..np), none beyond top (a report's
 * highest percentile; 0: none). */
static void cdf_markers(struct ib_chart_frame *fr, struct label_layout *ll,
			const double *pct, const uint64_t *v, unsigned int np,
			unsigned int k, double top)
{
	struct ib_svg *s = &fr->svg;
	unsigned int j;

	for (j = 0; j < np && (!top || pct[j] <= top); j++) {
		double x = ib_chart_px(fr, pct[j]);
		double y = ib_chart_py(fr, at_least_1((double)v[j]));

		marker_open(s, pct[j], v[j]);
		ib_svg_tag(s, "circle");
		ib_svg_num(s, "cx", x);
		ib_svg_num(s, "cy", y);
		ib_svg_num(s, "r", 3.5);
		ib_svg_str(s, "fill", ib_chart_color(k));
		ib_svg_empty(s);
		if (ll)
			marker_label(fr, ll, pct[j], v[j], x, y, k, j);
		ib_svg_close(s);
	}
}

/* Series k's percentile list (NULL: drawn from bins). */
static const struct ib_chart_pcts *from_list(const struct ib_chart_pcts *fp,
					     unsigned int k)
{
	return fp && fp[k].n && list_top(&fp[k]) > 0 ? &fp[k] : NULL;
}

/* The latency range drawn: every bucket's, or from a percentile list its
 * highest percentile's (the rest at the maximum was never measured). */
static int cdf_extent(const struct ib_chart_pcts *fp,
		      const struct ib_hist *const *h, unsigned int nh,
		      double *lo, double *hi, struct ib_diag *d)
{
	unsigned int k, i;
	uint64_t top = 0, n;

	*lo = 0;
	*hi = 0;
	for (k = 0; k < nh; k++) {
		double p = from_list(fp, k) ? list_top(from_list(fp, k)) : 100;

		if (!(n = total(h[k])))
			return ib_diag_set(d, EINVAL, "CDF: series %u has no samples", k);
		ib_hist_percentiles(h[k], n, &p, 1, &top);
		for (i = 0; i < IB_HIST_NR; i++) {
			double v = at_least_1((double)ib_hist_value(i));

			if (!h[k]->count[i] || ib_hist_value(i) > top)
				continue;
			if (*lo == 0 || v < *lo)
				*lo = v;
			if (v > *hi)
				*hi = v;
		}
	}
	return 0;
}

/* The nines the x axis needs: what the samples resolve, a percentile
 * list's highest. */
static unsigned int cdf_nines(const struct ib_chart_pcts *fp,
			      const struct ib_hist *const *h, unsigned int nh)
{
	unsigned int k, most = 1, nines;

	for (k = 0; k < nh; k++) {
		const struct ib_chart_pcts *l = from_list(fp, k);
		double top = l ? list_top(l) : 0;

		if (!l)
			nines = ib_chart_nines_for(total(h[k]));
		else if (top >= 100)
			nines = 7;
		else
			nines = (unsigned int)ceil(-log10(1 - top / 100) - 1e-9);
		if (nines > most)
			most = nines;
	}
	return most;
}

int ib_chart_cdf(FILE *f, const struct ib_chart_opts *o,
		 const struct ib_hist *const *h, const char *const *names,
		 unsigned int nh, const double *pct, unsigned int npct,
		 struct ib_diag *d)
{
	return ib_chart_cdf_from(f, o, h, names, nh, NULL, pct, npct, d);
}

int ib_chart_cdf_from(FILE *f, const struct ib_chart_opts *o,
		      const struct ib_hist *const *h, const char *const *names,
		      unsigned int nh, const struct ib_chart_pcts *fp,
		      const double *pct, unsigned int npct, struct ib_diag *d)
{
	struct ib_chart_frame fr;
	struct label_layout ll = { .n = 0 };
	uint64_t v[MAX_PCT], lv[2][MAX_PCT];
	unsigned int k;
	double lo, hi;

	if (!nh)
		return ib_diag_set(d, EINVAL, "CDF: no series");
	if (cdf_extent(fp, h, nh, &lo, &hi, d))
		return -EINVAL;
	if (npct > MAX_PCT)
		npct = MAX_PCT;
	for (k = 0; k < 2; k++)	/* labels for read and write: the first two */
		ll.v[k] = k < nh && npct &&
			  !ib_hist_percentiles(h[k], total(h[k]), pct, npct, lv[k]) ?
			  lv[k] : NULL;
	ib_chart_range_nines(&fr.x, cdf_nines(fp, h, nh));
	ib_chart_range_log(&fr.y, lo, hi);
	fr.y.unit = IB_CHART_NS;
	ib_chart_begin(&fr, f, o, names, names ? nh : 0);
	ib_chart_axes(&fr, o->xlabel ? o->xlabel : "percentile (%)",
		      o->ylabel ? o->ylabel : "latency at or below");
	for (k = 0; k < nh; k++) {
		const struct ib_chart_pcts *l = from_list(fp, k);
		uint64_t n = total(h[k]);

		ib_chart_series_open(&fr, names ? names[k] : NULL);
		if (l)
			cdf_steps(&fr, h[k], n, k, l);
		else
			cdf_path(&fr, h[k], n, k);
		if (k < 2 && ll.v[k])
			cdf_markers(&fr, &ll, pct, ll.v[k], npct, k,
				    l ? list_top(l) : 0);
		else if (k >= 2 && npct && !ib_hist_percentiles(h[k], n, pct, npct, v))
			cdf_markers(&fr, NULL, pct, v, npct, k, l ? list_top(l) : 0);
		ib_svg_close(&fr.svg);
	}
	ib_chart_legend(&fr, names, names ? nh : 0, true);
	ib_chart_end(&fr);
	return 0;
}
