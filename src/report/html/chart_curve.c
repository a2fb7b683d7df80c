// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency-versus-load chart (chart.h: ib_chart_latload): percentile
 * lines over achieved IOPS, log latency axis, reference lines (the SLO, the
 * unpaced maximum) and the knee the curve's answer names.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "chart_priv.h"

#define MAX_REFS 8

static int refs_check(const struct ib_chart_ref *ref, unsigned int nref,
		      const struct ib_chart_knee *k, struct ib_diag *d)
{
	unsigned int i;

	if (nref > MAX_REFS)
		return ib_diag_set(d, EINVAL, "chart: %u reference lines (at most %d)",
				   nref, MAX_REFS);
	for (i = 0; i < nref; i++)
		if (!isfinite(ref[i].v) || (!ref[i].vertical && !(ref[i].v > 0)))
			return ib_diag_set(d, EINVAL, "chart: reference line %u: bad value", i);
	if (k && (!isfinite(k->x) || !isfinite(k->y) || !(k->y > 0)))
		return ib_diag_set(d, EINVAL, "chart: the knee: bad value");
	return 0;
}

/* Widen the data's bounds to hold the lines and the knee. */
static void refs_extent(struct ib_chart_extent *e, const struct ib_chart_ref *ref,
			unsigned int nref, const struct ib_chart_knee *k)
{
	unsigned int i;

	for (i = 0; i < nref; i++) {
		if (ref[i].vertical) {
			e->xlo = fmin(e->xlo, ref[i].v);
			e->xhi = fmax(e->xhi, ref[i].v);
		} else {
			e->ylo = fmin(e->ylo, ref[i].v);
			e->yhi = fmax(e->yhi, ref[i].v);
		}
	}
	if (k) {
		e->xhi = fmax(e->xhi, k->x);
		e->ylo = fmin(e->ylo, k->y);
		e->yhi = fmax(e->yhi, k->y);
	}
}

static void group_open(struct ib_svg *s, const char *cls, const char *key,
		       double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.10g", v);
	ib_svg_tag(s, "g");
	ib_svg_str(s, "class", cls);
	ib_svg_str(s, key, buf);
}

static void draw_ref(struct ib_chart_frame *fr, const struct ib_chart_ref *r)
{
	struct ib_svg *s = &fr->svg;
	char cls[64];
	double x = ib_chart_px(fr, r->v), y = ib_chart_py(fr, r->v);
	bool left = x > fr->x1 - 160;

	snprintf(cls, sizeof(cls), "ref %s", r->cls ? r->cls : "");
	group_open(s, cls, "data-v", r->v);
	ib_svg_open(s);
	ib_svg_tag(s, "line");
	ib_svg_num(s, "x1", r->vertical ? x : fr->x0);
	ib_svg_num(s, "y1", r->vertical ? fr->y0 : y);
	ib_svg_num(s, "x2", r->vertical ? x : fr->x1);
	ib_svg_num(s, "y2", r->vertical ? fr->y1 : y);
	ib_svg_str(s, "stroke", "#555555");
	ib_svg_str(s, "stroke-dasharray", "6 4");
	ib_svg_empty(s);
	if (r->label && r->vertical)
		ib_chart_halo_label(s, left ? x - 4 : x + 4, fr->y1 + 14, left, r->label);
	else if (r->label)
		ib_chart_halo_label(s, fr->x1 - 4, y - 5, true, r->label);
	ib_svg_close(s);
}

static void draw_knee(struct ib_chart_frame *fr, const struct ib_chart_knee *k)
{
	struct ib_svg *s = &fr->svg;
	char buf[40];
	double x = ib_chart_px(fr, k->x), y = ib_chart_py(fr, k->y);
	bool left = x > (fr->x0 + fr->x1) / 2;

	group_open(s, "knee", "data-x", k->x);
	snprintf(buf, sizeof(buf), "%.10g", k->y);
	ib_svg_str(s, "data-y", buf);
	ib_svg_open(s);
	ib_svg_tag(s, "circle");
	ib_svg_num(s, "cx", x);
	ib_svg_num(s, "cy", y);
	ib_svg_num(s, "r", 8);
	ib_svg_str(s, "fill", "none");
	ib_svg_str(s, "stroke", "#000000");
	ib_svg_num(s, "stroke-width", 2);
	ib_svg_empty(s);
	if (k->label)
		ib_chart_halo_label(s, left ? x - 12 : x + 12, y + 22, left, k->label);
	ib_svg_close(s);
}

/* Series k's points: filled dots, rings where hollow says so. */
static void dots(struct ib_chart_frame *fr, const struct ib_chart_series *s,
		 unsigned int k, const bool *hollow)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		bool ring = hollow && hollow[i];

		ib_svg_tag(&fr->svg, "circle");
		ib_svg_str(&fr->svg, "class", ring ? "point hollow" : "point");
		ib_svg_num(&fr->svg, "cx", ib_chart_px(fr, s->x[i]));
		ib_svg_num(&fr->svg, "cy", ib_chart_py(fr, s->y[i]));
		ib_svg_num(&fr->svg, "r", 3.5);
		ib_svg_str(&fr->svg, "fill", ring ? "#ffffff" : ib_chart_color(k));
		if (ring) {
			ib_svg_str(&fr->svg, "stroke", ib_chart_color(k));
			ib_svg_num(&fr->svg, "stroke-width", 1.5);
		}
		ib_svg_empty(&fr->svg);
	}
}

int ib_chart_latload(FILE *f, const struct ib_chart_opts *o,
		     const struct ib_chart_series *s, unsigned int ns,
		     const struct ib_chart_ref *ref, unsigned int nref,
		     const struct ib_chart_knee *knee, const bool *const *hollow,
		     struct ib_diag *d)
{
	const char *names[IB_CHART_MAX_SERIES];
	struct ib_chart_frame fr;
	struct ib_chart_extent e = { 0, 0, 0, 0 };
	unsigned int k;

	if (ib_chart_extent(s, ns, true, &e, d) || refs_check(ref, nref, knee, d))
		return -EINVAL;
	refs_extent(&e, ref, nref, knee);
	ib_chart_range_lin(&fr.x, fmin(0, e.xlo), e.xhi * (1 + IB_CHART_HEADROOM));
	ib_chart_range_log(&fr.y, e.ylo, e.yhi);
	fr.y.unit = IB_CHART_NS;
	for (k = 0; k < ns; k++)
		names[k] = s[k].name;
	ib_chart_begin(&fr, f, o, names, ns);
	ib_chart_axes(&fr, o->xlabel ? o->xlabel : "achieved IOPS",
		      o->ylabel ? o->ylabel : "latency");
	for (k = 0; k < nref; k++)
		draw_ref(&fr, &ref[k]);
	for (k = 0; k < ns; k++) {
		ib_chart_series_open(&fr, s[k].name);
		ib_chart_path(&fr, &s[k], k);
		dots(&fr, &s[k], k, hollow ? hollow[k] : NULL);
		ib_svg_close(&fr.svg);
	}
	if (knee)
		draw_knee(&fr, knee);
	ib_chart_legend(&fr, names, ns, true);
	ib_chart_end(&fr);
	return 0;
}
