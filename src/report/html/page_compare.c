// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare's charts and HTML section (plotcmd.h): the table, the notes, the
 * bars of IOPS, bandwidth and p99 per job and direction, and each row's two
 * latency CDFs (a side's runs merged bucket by bucket).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/plotcmd.h"
#include "page_priv.h"

#define MAX_BARS 64

static void table_row(struct page_table *t, const struct ib_cmp_row *row,
		      enum ib_cmp_metric m)
{
	const struct ib_cmp_cell *cl = &row->m[m];
	char b[2][32];

	ib_page_cell(t, "%s", row->job);
	ib_page_cell(t, "%s", ib_page_ddir[row->ddir % 3]);
	ib_page_cell(t, "%s", ib_cmp_metric_name(m));
	ib_page_cell(t, "%s", ib_cmp_fmt(b[0], 32, m, cl->base));
	ib_page_cell(t, "%s", ib_cmp_fmt(b[1], 32, m, cl->new_));
	if (isnan(cl->change))
		ib_page_cell(t, "n/a");
	else
		ib_page_cell(t, "%+.1f%%", cl->change);
	if (cl->band < 0)
		ib_page_cell(t, "-");
	else if (cl->band >= 1000)
		ib_page_cell(t, ">999%%");
	else
		ib_page_cell(t, "±%.1f%%", cl->band);
	ib_page_cell(t, "%s", ib_cmp_verdict_name(cl->verdict));
}

static bool any_unbanded(const struct ib_cmp *c)
{
	unsigned int i, m;

	for (i = 0; i < c->nr_rows; i++)
		for (m = 0; m < IB_CMP_NR; m++)
			if (c->rows[i].side == IB_CMP_BOTH && c->rows[i].m[m].valid &&
			    c->rows[i].m[m].band < 0)
				return true;
	return false;
}

static int cmp_sides(FILE *f, const struct ib_cmp *c, const char *bname,
		     const char *nname)
{
	struct page_table t;
	const char *items[2];
	char test[200];

	if (ib_page_table_init(&t, 3, 3) < 0)
		return -ENOMEM;
	ib_page_cell(&t, "side");
	ib_page_cell(&t, "files");
	ib_page_cell(&t, "runs");
	ib_page_cell(&t, "base");
	ib_page_cell(&t, "%s", bname);
	ib_page_cell(&t, "%u", c->nbase);
	ib_page_cell(&t, "new");
	ib_page_cell(&t, "%s", nname);
	ib_page_cell(&t, "%u", c->nnew);
	ib_html_table(f, "Runs compared", t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	snprintf(test, sizeof(test), "Noise: Welch t-test at %g%% on %s; a change "
		 "under %g%% is within noise", c->alpha * 100.0,
		 c->nbase > 1 || c->nnew > 1 ? "the runs' values" :
		 "the per-interval iops/bw samples", c->floor_pct);
	items[0] = test;
	items[1] = "noise '-': no estimate (fewer than two samples or runs a "
		"side), only the floor applies";
	ib_html_list(f, items, any_unbanded(c) ? 2 : 1);
	return 0;
}

static int cmp_table(FILE *f, const struct ib_cmp *c)
{
	static const char *const head[] = { "job", "dir", "metric", "base", "new",
		"change", "noise", "verdict" };
	struct page_table t;
	unsigned int i, m, n = 0;

	for (i = 0; i < c->nr_rows; i++)
		for (m = 0; m < IB_CMP_NR; m++)
			n += c->rows[i].side == IB_CMP_BOTH && c->rows[i].m[m].valid;
	if (ib_page_table_init(&t, n + 1, 8) < 0)
		return -ENOMEM;
	for (i = 0; i < 8; i++)
		ib_page_cell(&t, "%s", head[i]);
	for (i = 0; i < c->nr_rows; i++)
		for (m = 0; m < IB_CMP_NR; m++)
			if (c->rows[i].side == IB_CMP_BOTH && c->rows[i].m[m].valid)
				table_row(&t, &c->rows[i], (enum ib_cmp_metric)m);
	ib_html_table(f, "Comparison (latencies: completion; mean: total)",
		      t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	return 0;
}

static void iv_side(struct page_table *t, const struct ib_cmp_row *r, bool is_new)
{
	const struct ib_cmp_iv *s = is_new ? &r->iv.new_ : &r->iv.base;
	char b[5][32];

	ib_page_cell(t, "%s", r->job);
	ib_page_cell(t, "%s", ib_page_ddir[r->ddir % 3]);
	ib_page_cell(t, "%s", is_new ? "new" : "base");
	ib_page_cell(t, "%u", s->nr);
	ib_page_cell(t, "%s", s->nr ? ib_cmp_fmt(b[0], 32, IB_CMP_IOPS, s->iops_med) : "-");
	ib_page_cell(t, "%s", s->nr ? ib_cmp_fmt(b[1], 32, IB_CMP_IOPS, s->iops_lo) : "-");
	ib_page_cell(t, "%s", s->nr ? ib_cmp_fmt(b[2], 32, IB_CMP_IOPS, s->iops_hi) : "-");
	ib_page_cell(t, "%s", s->np99 ? ib_chart_fmt_ns(b[3], 32, s->p99_med) : "-");
	ib_page_cell(t, "%s", s->np99 ? ib_chart_fmt_ns(b[4], 32, s->p99_hi) : "-");
	if (is_new && r->iv.base.nr && s->nr)
		ib_page_cell(t, "iops %u, p99 %u", r->iv.out_iops, r->iv.out_p99);
	else
		ib_page_cell(t, "-");
}

/* The over-time view, when a side was a per-interval stream. */
static int cmp_iv_table(FILE *f, const struct ib_cmp *c)
{
	static const char *const head[] = { "job", "dir", "side", "intervals",
		"iops med", "min", "max", "p99 med", "worst", "outside base's range" };
	struct page_table t;
	unsigned int i, n = 0;

	for (i = 0; i < c->nr_rows; i++)
		n += c->rows[i].side == IB_CMP_BOTH && c->rows[i].iv.any;
	if (!n)
		return 0;
	if (ib_page_table_init(&t, n * 2 + 1, 10) < 0)
		return -ENOMEM;
	for (i = 0; i < 10; i++)
		ib_page_cell(&t, "%s", head[i]);
	for (i = 0; i < c->nr_rows; i++)
		if (c->rows[i].side == IB_CMP_BOTH && c->rows[i].iv.any) {
			iv_side(&t, &c->rows[i], false);
			iv_side(&t, &c->rows[i], true);
		}
	ib_html_table(f, "Over time: the intervals of the streams",
		      t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	return 0;
}

/* Notes: differing jobs, rows on one side only. */
static int cmp_notes(FILE *f, const struct ib_cmp *c)
{
	struct page_table t;
	unsigned int i, n = 0;

	for (i = 0; i < c->nr_rows; i++)
		n += c->rows[i].side != IB_CMP_BOTH || c->rows[i].note[0];
	if (!n)
		return 0;
	if (ib_page_table_init(&t, n, 1) < 0)
		return -ENOMEM;
	for (i = 0; i < c->nr_rows; i++) {
		const struct ib_cmp_row *r = &c->rows[i];

		if (r->side != IB_CMP_BOTH)
			ib_page_cell(&t, "job '%.40s' %s: only in %s, not compared", r->job,
				     ib_page_ddir[r->ddir % 3],
				     r->side == IB_CMP_ONLY_BASE ? "base" : "new");
		else if (r->note[0])
			ib_page_cell(&t, "job '%.40s' %s: the jobs differ: %.250s", r->job,
				     ib_page_ddir[r->ddir % 3], r->note);
	}
	ib_html_list(f, t.cell, t.used);
	ib_page_table_free(&t);
	return 0;
}

struct bars {
	const char *labels[MAX_BARS];
	char text[MAX_BARS][IB_NAME_MAX + 8];
	double v[MAX_BARS * 2];
	unsigned int n;
};

/* The bars of metric m (latencies in us), base and new per row. */
static int cmp_bars(FILE *f, const struct ib_cmp *c, enum ib_cmp_metric m,
		    struct bars *b, struct ib_diag *d)
{
	static const char *const series[] = { "base", "new" };
	struct ib_chart_opts o = { NULL, "job, direction", NULL, 0, 0, false };
	double scale = m == IB_CMP_IOPS || m == IB_CMP_BW ? 1.0 : 1e-3;
	char title[64];
	unsigned int i;

	b->n = 0;
	for (i = 0; i < c->nr_rows && b->n < MAX_BARS; i++) {
		const struct ib_cmp_row *r = &c->rows[i];

		if (r->side != IB_CMP_BOTH || !r->m[m].valid)
			continue;
		snprintf(b->text[b->n], sizeof(b->text[0]), "%s %s", r->job,
			 ib_page_ddir[r->ddir % 3]);
		b->labels[b->n] = b->text[b->n];
		b->v[b->n * 2] = r->m[m].base * scale;
		b->v[b->n * 2 + 1] = r->m[m].new_ * scale;
		b->n++;
	}
	if (!b->n)
		return ib_diag_set(d, EINVAL, "no job and direction in common");
	snprintf(title, sizeof(title), "%s: base versus new", ib_cmp_metric_name(m));
	o.title = title;
	o.ylabel = m == IB_CMP_IOPS ? "IOPS" : m == IB_CMP_BW ? "KiB/s" : "latency (us)";
	return ib_chart_bars(f, &o, b->labels, b->n, series, 2, b->v, d);
}

/* Merge the histograms of row's job and direction over a side's runs. */
static uint64_t side_hist(struct ib_hist *h, const struct ib_results *const *docs,
			  unsigned int n, const struct ib_cmp_row *row)
{
	const struct ib_hist *src;
	unsigned int i, j, k;
	uint64_t c, total = 0;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < n; i++)
		for (j = 0, k = 0; j < docs[i]->nr_jobs; j++) {
			if (strcmp(docs[i]->jobs[j].name, row->job) || k++ != row->occurrence)
				continue;
			src = ib_page_hist(&docs[i]->stats[j], row->ddir, &c);
			if (src)
				ib_hist_merge(h, src);
			total += src ? c : 0;
		}
	return total;
}

static int row_cdf(FILE *f, const struct ib_cmp_row *row, struct ib_hist *h,
		   const struct ib_results *const *base, unsigned int nb,
		   const struct ib_results *const *nw, unsigned int nn,
		   struct ib_diag *d)
{
	static const char *const names[] = { "base", "new" };
	const struct ib_hist *hs[] = { &h[0], &h[1] };
	struct ib_chart_opts o = { NULL, NULL, NULL, 0, 0, false };
	char title[IB_NAME_MAX + 64];
	int ret;

	if (!side_hist(&h[0], base, nb, row) || !side_hist(&h[1], nw, nn, row))
		return 0;
	snprintf(title, sizeof(title), "Latency CDF: %s %s, base versus new",
		 row->job, ib_page_ddir[row->ddir % 3]);
	o.title = title;
	ib_html_figure_open(f);
	ret = ib_chart_cdf(f, &o, hs, names, 2, ib_page_pct, PAGE_NPCT, d);
	ib_html_figure_close(f, NULL);	/* the chart's title says it */
	return ret;
}

int ib_page_compare_body(FILE *f, const struct ib_cmp *c, const char *bname,
			 const char *nname,
			 const struct ib_results *const *base, unsigned int nb,
			 const struct ib_results *const *nw, unsigned int nn,
			 struct ib_diag *d)
{
	static const enum ib_cmp_metric bar_m[] = { IB_CMP_IOPS, IB_CMP_BW, IB_CMP_P99 };
	struct ib_hist *h = malloc(2 * sizeof(*h));
	struct bars *b = malloc(sizeof(*b));
	unsigned int i;
	int ret = !h || !b ? -ENOMEM : 0;

	if (!ret)
		ret = cmp_sides(f, c, bname, nname);
	if (!ret)
		ret = cmp_table(f, c);
	if (!ret)
		ret = cmp_iv_table(f, c);
	if (!ret)
		ret = cmp_notes(f, c);
	for (i = 0; i < 3 && !ret && ib_cmp_matched(c); i++) {
		ib_html_figure_open(f);
		ret = cmp_bars(f, c, bar_m[i], b, d);
		ib_html_figure_close(f, NULL);
	}
	for (i = 0; i < c->nr_rows && !ret; i++)
		if (c->rows[i].side == IB_CMP_BOTH)
			ret = row_cdf(f, &c->rows[i], h, base, nb, nw, nn, d);
	free(h);
	free(b);
	if (ret == -ENOMEM && !d->msg[0])
		ib_diag_set(d, ENOMEM, "out of memory");
	return ret;
}

int ib_page_compare(FILE *f, bool html, const struct ib_cmp *c,
		    const char *bname, const char *nname,
		    const struct ib_results *const *base, unsigned int nb,
		    const struct ib_results *const *nw, unsigned int nn,
		    struct ib_diag *d)
{
	struct bars *b;
	int ret;

	if (html) {
		ib_html_begin(f, "iobench compare");
		ret = ib_page_compare_body(f, c, bname, nname, base, nb, nw, nn, d);
		ib_html_end(f);
		return ret;
	}
	b = malloc(sizeof(*b));
	if (!b)
		return ib_diag_set(d, ENOMEM, "out of memory");
	ret = cmp_bars(f, c, IB_CMP_IOPS, b, d);
	free(b);
	return ret;
}
