// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench suite --report=FILE.html` (suite_out.h): the suite's summary
 * table first, its verdicts and matrix table, a PTS run's rounds and the
 * convergence chart with the measurement window marked, then the run's
 * own sections as `iobench report` draws them (per-job summary, findings,
 * environment, histograms).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/suite_out.h"
#include "page_priv.h"

static const char *steady_cell(const struct ib_suite_row *r)
{
	return r->steady == IB_STEADY_YES ? "yes" :
	       r->steady == IB_STEADY_NO ? "no" : "too short to tell";
}

static int summary_table(FILE *f, const struct ib_suite_report *s)
{
	static const char *const head[] = { "test", "IOPS", "bandwidth (MB/s)",
		"p50", "p99", "p99.9", "steady", "checks" };
	struct page_table t;
	unsigned int i, k;
	char buf[32];

	if (ib_page_table_init(&t, s->nr + 1, 8) < 0)
		return -ENOMEM;
	for (k = 0; k < 8; k++)
		ib_page_cell(&t, "%s", head[k]);
	for (i = 0; i < s->nr; i++) {
		const struct ib_suite_row *r = &s->rows[i];

		ib_page_cell(&t, "%s", r->name);
		if (r->failed)
			ib_page_cell(&t, "failed");
		else
			ib_page_cell(&t, "%.0f", r->iops);
		ib_page_cell(&t, "%.1f", r->bw / 1e6);
		ib_page_cell(&t, "%s", ib_chart_fmt_ns(buf, sizeof(buf), (double)r->p50));
		ib_page_cell(&t, "%s", ib_chart_fmt_ns(buf, sizeof(buf), (double)r->p99));
		ib_page_cell(&t, "%s", ib_chart_fmt_ns(buf, sizeof(buf), (double)r->p999));
		ib_page_cell(&t, "%s", steady_cell(r));
		ib_page_cell(&t, "%s", r->why);
	}
	ib_html_table(f, "Summary: one line per test", t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	return 0;
}

static int verdict_table(FILE *f, const struct ib_suite_report *s)
{
	const char *cls[IB_SUITE_MAX_VERDICTS + 1];
	struct page_table t;
	char line[400];
	unsigned int i;

	if (!s->nv)
		return 0;
	if (ib_page_table_init(&t, s->nv + 1, 3) < 0)
		return -ENOMEM;
	ib_page_cell(&t, "test");
	ib_page_cell(&t, "verdict");
	ib_page_cell(&t, "expectation");
	cls[0] = NULL;
	for (i = 0; i < s->nv; i++) {
		ib_suite_verdict_text(line, sizeof(line), &s->v[i]);
		ib_page_cell(&t, "%s", s->v[i].test);
		ib_page_cell(&t, "%s", s->v[i].met ? "met" : "NOT met");
		ib_page_cell(&t, "%s", line);
		cls[i + 1] = s->v[i].met ? NULL : "warning";
	}
	ib_html_table_cls(f, "Expectations (--expect)", t.cell, t.rows, t.cols, cls);
	ib_page_table_free(&t);
	return 0;
}

static void matrix_cell(struct page_table *t, const struct ib_suite_report *s,
			const char *row, const char *col)
{
	const struct ib_suite_row *c = ib_suite_cell(s, row, col);
	enum ib_suite_metric m = s->suite->table;
	char buf[32];

	if (!c || c->failed)
		ib_page_cell(t, "%s", c ? "failed" : "");
	else if (m == IB_SM_BW)
		ib_page_cell(t, "%.1f", c->bw / 1e6);
	else if (m == IB_SM_LAT)
		ib_page_cell(t, "%s", ib_chart_fmt_ns(buf, sizeof(buf), c->mean_ns));
	else
		ib_page_cell(t, "%.0f", c->iops);
}

static int matrix_table(FILE *f, const struct ib_suite_report *s)
{
	const char *rl[IB_SUITE_MAX_TESTS], *cl[IB_SUITE_MAX_TESTS];
	unsigned int nr = 0, nc = 0, i, k;
	struct page_table t;
	char cap[128];

	for (i = 0; i < s->nr; i++) {
		for (k = 0; k < nr && strcmp(rl[k], s->rows[i].row); k++)
			;
		if (k == nr && s->rows[i].row[0])
			rl[nr++] = s->rows[i].row;
		for (k = 0; k < nc && strcmp(cl[k], s->rows[i].col); k++)
			;
		if (k == nc && s->rows[i].col[0])
			cl[nc++] = s->rows[i].col;
	}
	if (!nr || !nc || s->suite->table == IB_SM_NONE)
		return 0;
	if (ib_page_table_init(&t, nr + 1, nc + 1) < 0)
		return -ENOMEM;
	ib_page_cell(&t, "%s", "");
	for (k = 0; k < nc; k++)
		ib_page_cell(&t, "%s", cl[k]);
	for (i = 0; i < nr; i++) {
		ib_page_cell(&t, "%s", rl[i]);
		for (k = 0; k < nc; k++)
			matrix_cell(&t, s, rl[i], cl[k]);
	}
	snprintf(cap, sizeof(cap), "%s%s", s->suite->table == IB_SM_BW ? "MB/s" :
		 s->suite->table == IB_SM_LAT ? "mean latency" : "IOPS",
		 s->suite->kind == IB_SUITE_PTS ? " (window average)" : "");
	ib_html_table(f, cap, t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	return 0;
}

struct conv {
	double x[IB_PTS_MAX_ROUNDS], y[IB_PTS_MAX_ROUNDS];
	double wx[2], avg[2], hi[2], lo[2];
	struct ib_chart_series s[5];
};

/* The tracking variable per round; the window's rounds again, its
 * average and the average +-10% across it (PTS's plot). */
static int convergence(FILE *f, const struct ib_suite_report *s, struct ib_diag *d)
{
	struct conv c;
	struct ib_chart_opts o = { .title = "Steady-state convergence",
		.xlabel = "round", .ylabel = ib_suite_metric_name(s->suite->track_metric),
		.y_ns = s->suite->track_metric == IB_SM_LAT };
	unsigned int i, ns = 1, w = s->ss.first;
	int ret;

	if (!s->rounds)
		return 0;
	for (i = 0; i < s->rounds; i++) {
		c.x[i] = i + 1;
		c.y[i] = s->track[i];
	}
	c.s[0] = (struct ib_chart_series){ s->suite->track, c.x, c.y, s->rounds };
	if (s->rounds >= IB_PTS_WINDOW) {
		c.wx[0] = w + 1;
		c.wx[1] = w + IB_PTS_WINDOW;
		c.avg[0] = c.avg[1] = s->ss.avg;
		c.hi[0] = c.hi[1] = 1.1 * s->ss.avg;
		c.lo[0] = c.lo[1] = 0.9 * s->ss.avg;
		c.s[ns++] = (struct ib_chart_series){ "measurement window", c.x + w, c.y + w, IB_PTS_WINDOW };
		c.s[ns++] = (struct ib_chart_series){ "window average", c.wx, c.avg, 2 };
		c.s[ns++] = (struct ib_chart_series){ "110% of average", c.wx, c.hi, 2 };
		c.s[ns++] = (struct ib_chart_series){ "90% of average", c.wx, c.lo, 2 };
	}
	ib_html_figure_open(f);
	ret = ib_chart_curve(f, &o, c.s, ns, false, d);
	ib_html_figure_close(f, "The tracking variable per round; the measurement window is the last five rounds");
	return ret;
}

static int rounds_table(FILE *f, const struct ib_suite_report *s)
{
	struct page_table t;
	unsigned int i;
	char buf[32];

	if (!s->rounds)
		return 0;
	if (ib_page_table_init(&t, s->rounds + 1, 3) < 0)
		return -ENOMEM;
	ib_page_cell(&t, "round");
	ib_page_cell(&t, "%s %s", s->suite->track, ib_suite_metric_name(s->suite->track_metric));
	ib_page_cell(&t, "in the window");
	for (i = 0; i < s->rounds; i++) {
		ib_page_cell(&t, "%u", i + 1);
		if (s->suite->track_metric == IB_SM_LAT)
			ib_page_cell(&t, "%s", ib_chart_fmt_ns(buf, sizeof(buf), s->track[i]));
		else
			ib_page_cell(&t, "%.0f", s->track[i]);
		ib_page_cell(&t, "%s", s->rounds >= IB_PTS_WINDOW && i >= s->ss.first ? "yes" : "");
	}
	ib_html_table(f, "Rounds", t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	return 0;
}

static int pts_sections(FILE *f, const struct ib_suite_report *s, struct ib_diag *d)
{
	char buf[400];
	int ret;

	ib_suite_ss_text(buf, sizeof(buf), s);
	ib_html_para(f, s->ss.met ? "verdict ok" : "verdict warning", buf);
	snprintf(buf, sizeof(buf), "Purge: %s. Preconditioning: %s.", s->purge, s->precond);
	ib_html_para(f, NULL, buf);
	ret = convergence(f, s, d);
	return ret ? ret : rounds_table(f, s);
}

int ib_page_suite_doc(FILE *f, const struct ib_suite_report *s,
		      const struct ib_results *r, struct ib_diag *d)
{
	const char *name = "the suite's jobs";
	char head[400];
	int ret;

	snprintf(head, sizeof(head), "iobench suite %s on %s", s->suite->name, s->target);
	ib_html_heading(f, head);
	if (s->note[0])
		ib_html_para(f, "verdict info", s->note);
	ret = summary_table(f, s);
	if (!ret)
		ret = verdict_table(f, s);
	if (!ret)
		ret = matrix_table(f, s);
	if (!ret && s->suite->kind == IB_SUITE_PTS)
		ret = pts_sections(f, s, d);
	if (!ret)
		ret = ib_page_body(f, &r, &name, 1, false, d);
	if (ret == -ENOMEM && !d->msg[0])
		ib_diag_set(d, ENOMEM, "out of memory");
	return ret;
}

struct suite_page {
	const struct ib_suite_report *s;
	const struct ib_results *r;
};

static int suite_file(FILE *f, const char *path, const void *arg, struct ib_diag *d)
{
	const struct suite_page *p = arg;
	char title[128];
	int ret;

	(void)path;
	snprintf(title, sizeof(title), "iobench suite %s", p->s->suite->name);
	ib_html_begin(f, title);
	ret = ib_page_suite_doc(f, p->s, p->r, d);
	ib_html_end(f);
	return ret;
}

int ib_page_suite_out(const char *path, const struct ib_suite_report *s,
		      const struct ib_results *r, struct ib_diag *d)
{
	struct suite_page p = { s, r };

	return ib_page_file("--report", path, suite_file, &p, d);
}
