// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency-vs-load curve (curve.h) drawn: its chart, its HTML section
 * and `iobench curve`'s --plot and --report files (plotcmd.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/curve.h"
#include "iobench/plotcmd.h"
#include "page_priv.h"

static const char *const lat_name[3] = { "p50", "p99", "p99.9" };

struct curve_series {
	double x[3][IB_CURVE_MAX_STEPS], y[3][IB_CURVE_MAX_STEPS];
	bool short_of[3][IB_CURVE_MAX_STEPS];	/* below 95% of its target */
	const bool *hollow[3];
	struct ib_chart_series s[3];
	unsigned int ns;
};

static bool sustained(const struct ib_curve_point *p)
{
	return p->achieved * 100.0 >= (double)p->target * IB_CURVE_SUSTAIN_PCT;
}

static uint64_t lat_of(const struct ib_curve_point *p, unsigned int k)
{
	return k == 0 ? p->p50 : k == 1 ? p->p99 : p->p999;
}

/* A series per percentile: the steps that have it (a step run without a
 * rate has no co-free latency), in step order. */
static void collect(struct curve_series *cs, const struct ib_curve *c)
{
	unsigned int k, i;
	size_t n;

	cs->ns = 0;
	for (k = 0; k < 3; k++) {
		for (n = 0, i = 0; i < c->nr && i < IB_CURVE_MAX_STEPS; i++) {
			if (!lat_of(&c->pt[i], k))
				continue;
			cs->short_of[k][n] = !sustained(&c->pt[i]);
			cs->x[k][n] = c->pt[i].achieved;
			cs->y[k][n++] = (double)lat_of(&c->pt[i], k);
		}
		if (!n)
			continue;
		cs->hollow[cs->ns] = cs->short_of[k];
		cs->s[cs->ns++] = (struct ib_chart_series){ lat_name[k], cs->x[k], cs->y[k], n };
	}
}

/* "max IOPS at p99 < 1ms: 41.2k" or "...: none (no step met it)" */
static void answer_text(char *buf, size_t len, const struct ib_curve *c)
{
	const struct ib_curve_point *p = ib_curve_answer(c);
	char slo[32], v[32];

	ib_chart_fmt_ns(slo, sizeof(slo), (double)c->slo_ns);
	if (p)
		snprintf(buf, len, "max IOPS at p99 < %s: %s", slo,
			 ib_chart_fmt_num(v, sizeof(v), p->achieved));
	else
		snprintf(buf, len, "max IOPS at p99 < %s: none (no step met it)", slo);
}

int ib_page_curve_svg(FILE *f, const struct ib_curve *c, struct ib_diag *d)
{
	struct curve_series cs;
	const struct ib_curve_point *p = ib_curve_answer(c);
	char title[IB_NAME_MAX + 32], slo[64], mx[64], ans[96], b[32];
	struct ib_chart_opts o = { title, "achieved IOPS", "co-free latency", 0, 0, true };
	struct ib_chart_ref ref[2] = {
		{ "slo", (double)c->slo_ns, false, slo },
		{ "max", c->max.achieved, true, mx },
	};
	struct ib_chart_knee knee;

	collect(&cs, c);
	if (!cs.ns)
		return ib_diag_set(d, EINVAL, "curve '%s': no step with latencies", c->job);
	snprintf(title, sizeof(title), "Latency versus load: %s", c->job);
	snprintf(slo, sizeof(slo), "SLO: p99 < %s", ib_chart_fmt_ns(b, sizeof(b),
								    (double)c->slo_ns));
	snprintf(mx, sizeof(mx), "unpaced max %s IOPS", ib_chart_fmt_num(b, sizeof(b),
									  c->max.achieved));
	answer_text(ans, sizeof(ans), c);
	if (p)
		knee = (struct ib_chart_knee){ p->achieved, (double)p->p99, ans };
	return ib_chart_latload(f, &o, cs.s, cs.ns, ref, c->max.achieved > 0 ? 2 : 1,
				p ? &knee : NULL, cs.hollow, d);
}

static void step_row(struct page_table *t, const struct ib_curve *c,
		     const struct ib_curve_point *p)
{
	char b[32];
	unsigned int k;

	ib_page_cell(t, "%u%%", p->pct);
	ib_page_cell(t, "%llu", (unsigned long long)p->target);
	ib_page_cell(t, "%.1f", p->achieved);
	for (k = 0; k < 3; k++)
		ib_page_cell(t, "%s", lat_of(p, k) ?
			     ib_chart_fmt_ns(b, sizeof(b), (double)lat_of(p, k)) : "-");
	ib_page_cell(t, "%llu", (unsigned long long)p->late);
	ib_page_cell(t, "%s", ib_curve_meets(c, p) ? "yes" : "no");
}

static int steps_table(FILE *f, const struct ib_curve *c)
{
	static const char *const head[] = { "step", "target IOPS", "achieved IOPS",
		"p50", "p99", "p99.9", "late I/Os", "meets SLO" };
	struct page_table t;
	char cap[256], ans[96], mx[32];
	unsigned int i;

	if (ib_page_table_init(&t, c->nr + 1, 8) < 0)
		return -ENOMEM;
	for (i = 0; i < 8; i++)
		ib_page_cell(&t, "%s", head[i]);
	for (i = 0; i < c->nr; i++)
		step_row(&t, c, &c->pt[i]);
	answer_text(ans, sizeof(ans), c);
	snprintf(cap, sizeof(cap), "%s (unpaced maximum %s IOPS; a step meets the SLO "
		 "when it achieves %d%% of its target)", ans,
		 ib_chart_fmt_num(mx, sizeof(mx), c->max.achieved), IB_CURVE_SUSTAIN_PCT);
	ib_html_table(f, cap, t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	return 0;
}

int ib_page_curve_doc(FILE *f, const struct ib_curve *c, const char *name,
		      struct ib_diag *d)
{
	char head[IB_NAME_MAX + 600];
	int ret;

	snprintf(head, sizeof(head), "%s: latency versus load of job %s", name, c->job);
	ib_html_heading(f, head);
	if (steps_table(f, c) < 0)
		return ib_diag_set(d, ENOMEM, "out of memory");
	ib_html_figure_open(f);
	ret = ib_page_curve_svg(f, c, d);
	ib_html_figure_close(f, "Co-free latency percentiles per step over the IOPS it "
			     "achieved (log scale); hollow points: steps that fell short "
			     "of their target rate; the black ring: the highest step "
			     "within the SLO");
	return ret;
}

static int curve_file(FILE *f, const char *path, const void *arg, struct ib_diag *d)
{
	const struct ib_curve *c = arg;
	size_t n = strlen(path);
	int ret;

	if (n < 5 || strcmp(path + n - 5, ".html"))
		return ib_page_curve_svg(f, c, d);
	ib_html_begin(f, "iobench curve");
	ret = ib_page_curve_doc(f, c, "this run", d);
	ib_html_end(f);
	return ret;
}

int ib_page_curve_out(const struct ib_curve *c, const char *plot,
		      const char *report, struct ib_diag *d)
{
	int ret = 0;

	if (plot && plot[0])
		ret = ib_page_file("--plot", plot, curve_file, c, d);
	if (!ret && report && report[0])
		ret = ib_page_file("--report", report, curve_file, c, d);
	return ret;
}
