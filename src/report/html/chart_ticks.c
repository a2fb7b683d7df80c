// SPDX-License-Identifier: GPL-2.0-only
/*
 * Axes of a chart frame: ticks (with their grid lines and labels), axis
 * titles, the legend and the series group.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "chart_priv.h"

#define MAX_TICKS 64

static void tick_label(const struct ib_chart_axis *a, double v, char *buf,
		       size_t len)
{
	if (a->unit == IB_CHART_CAT) {
		unsigned int i = (unsigned int)v;

		snprintf(buf, len, "%s", i < a->ncat && a->cat[i] ? a->cat[i] : "");
	} else if (a->unit == IB_CHART_NS) {
		ib_chart_fmt_ns(buf, len, v);
	} else {
		ib_chart_fmt_num(buf, len, v);
	}
}

/* The tick values of an axis into t[]; returns how many. */
static unsigned int tick_values(const struct ib_chart_axis *a, double *t)
{
	static const double sub[] = { 1, 2, 5 };
	unsigned int n = 0, i;
	double dec, k;

	if (a->unit == IB_CHART_CAT) {
		for (i = 0; i < a->ncat && n < MAX_TICKS; i++)
			t[n++] = i;
		return n;
	}
	if (a->nines) {	/* 0, 50, 90, 99, 99.9 ... up to the axis's end */
		t[n++] = 0;
		t[n++] = 50;
		for (k = 1; n < MAX_TICKS; k++) {
			double v = 100.0 * (1.0 - pow(10, -k));

			if (v > a->hi * (1 + 1e-12))
				break;
			t[n++] = v;
		}
		return n;
	}
	if (!a->log) {
		for (k = 0; n < MAX_TICKS; k++) {
			double v = a->lo + k * a->step;

			if (v > a->hi + a->step * 1e-6)
				break;
			t[n++] = fabs(v) < a->step * 1e-9 ? 0 : v;
		}
		return n;
	}
	/* log: 1-2-5 in each decade when the axis spans at most three, else
	 * the decades; only those within the range */
	for (dec = pow(10, floor(log10(a->lo) + 1e-9));
	     dec <= a->hi * 1.0001 && n < MAX_TICKS; dec *= 10) {
		for (i = 0; i < 3 && n < MAX_TICKS; i++) {
			double v = dec * sub[i];

			if (i && a->hi / a->lo > 1000.5)
				break;
			if (v >= a->lo * 0.9999 && v <= a->hi * 1.0001)
				t[n++] = v;
		}
	}
	return n;
}

static void tick_open(struct ib_svg *s, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.10g", v);
	ib_svg_tag(s, "g");
	ib_svg_str(s, "class", "tick");
	ib_svg_str(s, "data-v", buf);
	ib_svg_open(s);
}

static void line(struct ib_svg *s, double x1, double y1, double x2, double y2,
		 const char *stroke)
{
	ib_svg_tag(s, "line");
	ib_svg_num(s, "x1", x1);
	ib_svg_num(s, "y1", y1);
	ib_svg_num(s, "x2", x2);
	ib_svg_num(s, "y2", y2);
	ib_svg_str(s, "stroke", stroke);
	ib_svg_empty(s);
}

static void axis_open(struct ib_svg *s, const char *cls,
		      const struct ib_chart_axis *a)
{
	ib_svg_tag(s, "g");
	ib_svg_str(s, "class", cls);
	ib_svg_str(s, "data-scale", a->unit == IB_CHART_CAT ? "cat" :
		   a->nines ? "nines" : a->log ? "log" : "lin");
	ib_svg_open(s);
}

static void x_ticks(struct ib_chart_frame *fr)
{
	double t[MAX_TICKS];
	unsigned int i, n = tick_values(&fr->x, t);
	char buf[64];

	axis_open(&fr->svg, "axis x", &fr->x);
	for (i = 0; i < n; i++) {
		double v = fr->x.unit == IB_CHART_CAT ? t[i] + 0.5 : t[i];
		double px = ib_chart_px(fr, v);

		tick_open(&fr->svg, t[i]);
		if (fr->x.unit == IB_CHART_CAT)
			line(&fr->svg, px, fr->y0, px, fr->y0 + 5, "#444444");
		else
			line(&fr->svg, px, fr->y0 + 5, px, fr->y1, "#dddddd");
		tick_label(&fr->x, t[i], buf, sizeof(buf));
		ib_svg_label(&fr->svg, px, fr->y0 + 18, "middle", NULL, buf);
		ib_svg_close(&fr->svg);
	}
	ib_svg_close(&fr->svg);
}

static void y_ticks(struct ib_chart_frame *fr)
{
	double t[MAX_TICKS];
	unsigned int i, n = tick_values(&fr->y, t);
	char buf[64];

	axis_open(&fr->svg, "axis y", &fr->y);
	for (i = 0; i < n; i++) {
		double py = ib_chart_py(fr, t[i]);

		tick_open(&fr->svg, t[i]);
		line(&fr->svg, fr->x0 - 5, py, fr->x1, py, "#dddddd");
		tick_label(&fr->y, t[i], buf, sizeof(buf));
		ib_svg_label(&fr->svg, fr->x0 - 8, py + 4, "end", NULL, buf);
		ib_svg_close(&fr->svg);
	}
	ib_svg_close(&fr->svg);
}

void ib_chart_axes(struct ib_chart_frame *fr, const char *xlabel,
		   const char *ylabel)
{
	struct ib_svg *s = &fr->svg;
	double cy = (fr->y0 + fr->y1) / 2;
	char rot[64];

	x_ticks(fr);
	y_ticks(fr);
	if (xlabel)
		ib_svg_label(s, (fr->x0 + fr->x1) / 2, fr->h - 12, "middle",
			     "xlabel", xlabel);
	if (!ylabel)
		return;
	snprintf(rot, sizeof(rot), "rotate(-90 16 %.2f)", cy);
	ib_svg_tag(s, "text");
	ib_svg_num(s, "x", 16);
	ib_svg_num(s, "y", cy);
	ib_svg_str(s, "text-anchor", "middle");
	ib_svg_str(s, "class", "ylabel");
	ib_svg_str(s, "transform", rot);
	ib_svg_open(s);
	ib_svg_text(s, ylabel);
	ib_svg_close(s);
}

/* about 7 px a character at font-size 12 */
static double entry_width(const char *name)
{
	return 24 + 7 * (double)strlen(name ? name : "") + 18;
}

/* Where entry i goes: x, and its row in *row. */
static double legend_place(const struct ib_chart_frame *fr,
			   const char *const *names, unsigned int i,
			   unsigned int *row)
{
	double x = fr->x0;
	unsigned int j;

	*row = 0;
	for (j = 0; j <= i; j++) {
		if (j && x + entry_width(names[j]) > fr->x1 + 18) {
			x = fr->x0;
			++*row;
		}
		if (j < i)
			x += entry_width(names[j]);
	}
	return x;
}

unsigned int ib_chart_legend_rows(const struct ib_chart_frame *fr,
				  const char *const *names, unsigned int n)
{
	unsigned int row;

	if (n < 2 || !names)
		return 0;
	legend_place(fr, names, n - 1, &row);
	return row + 1;
}

/* A bar's legend entry: a box of its colour */
static void swatch_box(struct ib_svg *s, double x, double y, unsigned int i)
{
	ib_svg_tag(s, "rect");
	ib_svg_str(s, "class", "swatch");
	ib_svg_num(s, "x", x);
	ib_svg_num(s, "y", y - 9);
	ib_svg_num(s, "width", 18);
	ib_svg_num(s, "height", 10);
	ib_svg_str(s, "fill", ib_chart_color(i));
	ib_svg_empty(s);
}

/* A line's: the series' own stroke, its colour, and every second (write,
 * as the series draw it) dashed */
static void swatch_line(struct ib_svg *s, double x, double y, unsigned int i)
{
	ib_svg_tag(s, "line");
	ib_svg_str(s, "class", "swatch");
	ib_svg_num(s, "x1", x);
	ib_svg_num(s, "y1", y - 4);
	ib_svg_num(s, "x2", x + 18);
	ib_svg_num(s, "y2", y - 4);
	ib_svg_str(s, "stroke", ib_chart_color(i));
	ib_svg_num(s, "stroke-width", 3);
	if (i % 2)
		ib_svg_str(s, "stroke-dasharray", "6 3");
	ib_svg_empty(s);
}

void ib_chart_legend(struct ib_chart_frame *fr, const char *const *names,
		     unsigned int n, bool lines)
{
	struct ib_svg *s = &fr->svg;
	unsigned int i, row;

	if (n < 2 || !names)
		return;
	ib_svg_tag(s, "g");
	ib_svg_str(s, "class", "legend");
	ib_svg_open(s);
	for (i = 0; i < n; i++) {
		double x = legend_place(fr, names, i, &row), y = 46 + 18.0 * row;

		if (lines)
			swatch_line(s, x, y, i);
		else
			swatch_box(s, x, y, i);
		ib_svg_label(s, x + 24, y, NULL, NULL, names[i] ? names[i] : "");
	}
	ib_svg_close(s);
}

void ib_chart_series_open(struct ib_chart_frame *fr, const char *name)
{
	ib_svg_tag(&fr->svg, "g");
	ib_svg_str(&fr->svg, "class", "series");
	ib_svg_str(&fr->svg, "data-name", name ? name : "");
	ib_svg_open(&fr->svg);
}
