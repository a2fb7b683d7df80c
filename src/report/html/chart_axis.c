// SPDX-License-Identifier: GPL-2.0-only
/*
 * The chart frame: canvas, plot box, axes (linear, log10, categories),
 * ticks with grid lines, axis titles, legend, palette, number labels.
 */
#include <math.h>
#include <string.h>
#include "chart_priv.h"

#define DEF_W 1340
#define DEF_H 440

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
	"#9467bd", "#8c564b", "#e377c2", "#17becf",
};

const char *ib_chart_color(unsigned int i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

/* v (>= 0) with three significant digits, trailing zeros dropped. */
static void sig3(char *buf, size_t len, double v, const char *unit)
{
	int prec = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
	size_t n = (size_t)snprintf(buf, len, "%.*f", prec, v);

	if (prec && n < len) {
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	snprintf(buf + strlen(buf), len - strlen(buf), "%s", unit);
}

char *ib_chart_fmt_ns(char *buf, size_t len, double ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	unsigned int u = 0;

	if (!isfinite(ns) || ns < 0)
		ns = 0;
	while (u < 3 && ns >= 999.5) {
		ns /= 1000;
		u++;
	}
	sig3(buf, len, ns, unit[u]);
	return buf;
}

char *ib_chart_fmt_num(char *buf, size_t len, double v)
{
	static const char *const unit[] = { "", "k", "M", "G", "T" };
	unsigned int u = 0;
	double a = fabs(v);

	if (!isfinite(v))
		a = v = 0;
	if (a > 9999) {
		while (u < 4 && a >= 999.5) {
			a /= 1000;
			u++;
		}
		buf[0] = '-';
		sig3(buf + (v < 0), len - (v < 0), a, unit[u]);
		return buf;
	}
	/* small values: up to six decimals (ticks such as 0.025), which also
	 * hides the float noise of lo + k * step */
	snprintf(buf, len, "%.6f", v);
	if (strchr(buf, '.')) {
		size_t n = strlen(buf);

		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		if (buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	return buf;
}

static double nice_step(double raw)
{
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;

	if (f <= 1.0001)
		return mag;
	if (f <= 2.0001)
		return 2 * mag;
	if (f <= 2.5001)
		return 2.5 * mag;
	if (f <= 5.0001)
		return 5 * mag;
	return 10 * mag;
}

void ib_chart_range_lin(struct ib_chart_axis *a, double min, double max)
{
	memset(a, 0, sizeof(*a));
	if (!isfinite(min) || !isfinite(max))
		min = max = 0;
	if (max <= min)
		max = min + (min > 0 ? min : 1);
	a->step = nice_step((max - min) / 5);
	a->lo = floor(min / a->step + 1e-9) * a->step;
	a->hi = ceil(max / a->step - 1e-9) * a->step;
	if (a->hi <= a->lo)
		a->hi = a->lo + a->step;
}

/* The largest 1-2-5 x 10^k <= v (up) or the smallest >= v (!up). */
static double round125(double v, bool up)
{
	static const double m[] = { 1, 2, 5, 10 };
	double dec = pow(10, floor(log10(v) + 1e-9));
	int i;

	if (!up) {
		for (i = 3; i > 0 && dec * m[i] > v * (1 + 1e-9); i--)
			;
		return dec * m[i];
	}
	for (i = 0; i < 3 && dec * m[i] < v * (1 - 1e-9); i++)
		;
	return dec * m[i];
}

void ib_chart_range_log(struct ib_chart_axis *a, double min, double max)
{
	memset(a, 0, sizeof(*a));
	a->log = true;
	if (!(min > 0) || !isfinite(min))
		min = 1;
	if (!(max > min) || !isfinite(max))
		max = min;
	a->lo = round125(min, false);
	a->hi = round125(max, true);
	if (a->hi <= a->lo)
		a->hi = round125(a->lo * 1.5, true);
}

void ib_chart_range_nines(struct ib_chart_axis *a, unsigned int nines)
{
	memset(a, 0, sizeof(*a));
	a->nines = true;
	nines = nines < 1 ? 1 : nines > 7 ? 7 : nines;
	a->lo = 0;
	a->hi = 100.0 * (1.0 - pow(10, -(double)nines));
}

unsigned int ib_chart_nines_for(uint64_t n)
{
	unsigned int k = 2;

	while (k < 7 && (double)n > pow(10, k))
		k++;
	return k;
}

void ib_chart_range_cat(struct ib_chart_axis *a, const char *const *cat,
			unsigned int n)
{
	memset(a, 0, sizeof(*a));
	a->unit = IB_CHART_CAT;
	a->cat = cat;
	a->ncat = n;
	a->lo = 0;
	a->hi = n;
}

/* a percentile's nines; 100% and beyond at the axis's end */
static double nines_of(const struct ib_chart_axis *a, double p)
{
	double top = -log10(1.0 - a->hi / 100.0);

	if (!(p > 0))
		return 0;
	if (p >= a->hi)
		return top;
	return -log10(1.0 - p / 100.0);
}

static double frac(const struct ib_chart_axis *a, double v)
{
	if (a->nines)
		return nines_of(a, v) / nines_of(a, a->hi);
	if (!a->log)
		return (v - a->lo) / (a->hi - a->lo);
	if (!(v > 0))
		return 0;
	return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
}

double ib_chart_px(const struct ib_chart_frame *fr, double v)
{
	return fr->x0 + frac(&fr->x, v) * (fr->x1 - fr->x0);
}

double ib_chart_py(const struct ib_chart_frame *fr, double v)
{
	return fr->y0 + frac(&fr->y, v) * (fr->y1 - fr->y0);
}

#define MIN_PLOT_H 100	/* px: the least plot box height */

void ib_chart_begin(struct ib_chart_frame *fr, FILE *f,
		    const struct ib_chart_opts *o, const char *const *names,
		    unsigned int n)
{
	fr->w = o->width ? o->width : DEF_W;
	fr->h = o->height ? o->height : DEF_H;
	fr->x0 = 72;
	fr->x1 = fr->w - 24;
	fr->y1 = 40 + 18.0 * ib_chart_legend_rows(fr, names, n);
	/* a legend of many series (a suite's 49 jobs) makes the chart taller,
	 * never the plot box negative */
	if (fr->h - 52 - fr->y1 < MIN_PLOT_H)
		fr->h = fr->y1 + MIN_PLOT_H + 52;
	fr->y0 = fr->h - 52;
	ib_svg_begin(&fr->svg, f, fr->w, fr->h);
	ib_svg_tag(&fr->svg, "rect");
	ib_svg_num(&fr->svg, "width", fr->w);
	ib_svg_num(&fr->svg, "height", fr->h);
	ib_svg_str(&fr->svg, "fill", "#ffffff");
	ib_svg_empty(&fr->svg);
	if (!o->title)
		return;
	ib_svg_tag(&fr->svg, "text");
	ib_svg_num(&fr->svg, "x", fr->w / 2);
	ib_svg_num(&fr->svg, "y", 22);
	ib_svg_str(&fr->svg, "text-anchor", "middle");
	ib_svg_str(&fr->svg, "class", "title");
	ib_svg_str(&fr->svg, "font-size", "15");
	ib_svg_str(&fr->svg, "font-weight", "bold");
	ib_svg_open(&fr->svg);
	ib_svg_text(&fr->svg, o->title);
	ib_svg_close(&fr->svg);
}

void ib_chart_end(struct ib_chart_frame *fr)
{
	ib_svg_tag(&fr->svg, "rect");
	ib_svg_str(&fr->svg, "class", "frame");
	ib_svg_num(&fr->svg, "x", fr->x0);
	ib_svg_num(&fr->svg, "y", fr->y1);
	ib_svg_num(&fr->svg, "width", fr->x1 - fr->x0);
	ib_svg_num(&fr->svg, "height", fr->y0 - fr->y1);
	ib_svg_str(&fr->svg, "fill", "none");
	ib_svg_str(&fr->svg, "stroke", "#444444");
	ib_svg_empty(&fr->svg);
	ib_svg_end(&fr->svg);
}
