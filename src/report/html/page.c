// SPDX-License-Identifier: GPL-2.0-only
/*
 * Charts and the HTML report of results documents (plotcmd.h): the summary
 * table, a latency histogram per job and direction, the CDFs, and with
 * several documents the comparison of each with the first.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/plotcmd.h"
#include "src/report/texthist.h"
#include "page_priv.h"

const double ib_page_pct[PAGE_NPCT] = { 50.0, 90.0, 99.0, 99.9 };
const char *const ib_page_ddir[3] = { "read", "write", "trim" };

int ib_page_table_init(struct page_table *t, unsigned int rows, unsigned int cols)
{
	size_t n = (size_t)rows * cols;

	t->text = calloc(n ? n : 1, sizeof(*t->text));
	t->cell = calloc(n ? n : 1, sizeof(*t->cell));
	t->rows = rows;
	t->cols = cols;
	t->used = 0;
	if (t->text && t->cell)
		return 0;
	ib_page_table_free(t);
	return -ENOMEM;
}

void ib_page_cell(struct page_table *t, const char *fmt, ...)
{
	va_list ap;

	if (t->used >= t->rows * t->cols)
		return;
	va_start(ap, fmt);
	vsnprintf(t->text[t->used], PAGE_CELL, fmt, ap);
	va_end(ap);
	t->cell[t->used] = t->text[t->used];
	t->used++;
}

void ib_page_table_compact(struct page_table *t)
{
	unsigned int r, c, k = 0, nc = 0, rows = t->used / (t->cols ? t->cols : 1);
	bool keep[64];

	if (t->cols > 64 || rows < 2)
		return;
	for (c = 0; c < t->cols; c++) {
		keep[c] = false;
		for (r = 1; r < rows; r++)
			keep[c] |= t->cell[r * t->cols + c][0] != '\0';
		nc += keep[c];
	}
	for (r = 0; r < rows; r++)
		for (c = 0; c < t->cols; c++)
			if (keep[c])
				t->cell[k++] = t->cell[r * t->cols + c];
	t->rows = rows;
	t->cols = nc;
	t->used = k;
}

void ib_page_table_free(struct page_table *t)
{
	free(t->text);
	free(t->cell);
	t->text = NULL;
	t->cell = NULL;
}

const struct ib_hist *ib_page_hist(const struct ib_job_stats *s,
				   unsigned int ddir, uint64_t *n)
{
	const struct ib_hist *h = &s->dir[ddir].hist[IB_LAT_CLAT];
	unsigned int i, k;

	for (k = 0; k < 2; k++, h = &s->dir[ddir].hist[IB_LAT_TLAT]) {
		*n = 0;
		for (i = 0; i < IB_HIST_NR; i++)
			*n += h->count[i];
		if (*n)
			return h;
	}
	return NULL;
}

/* Job and direction pairs of r with samples: count, and the k-th. */
static unsigned int nr_dirs(const struct ib_results *r)
{
	unsigned int j, dd, n = 0;
	uint64_t c;

	for (j = 0; j < r->nr_jobs; j++)
		for (dd = 0; dd < IB_DDIR_RWT; dd++)
			n += ib_page_hist(&r->stats[j], dd, &c) != NULL;
	return n;
}

/* A job option as given (key, or its alias), else fio's default. */
static const char *opt_or(const struct ib_res_job *j, const char *key,
			  const char *alias, const char *def)
{
	const char *v = ib_cmp_job_opt(j, key);

	if (!v && alias)
		v = ib_cmp_job_opt(j, alias);
	return v ? v : def;
}

static void summary_row(struct page_table *t, const struct ib_results *r,
			unsigned int j, unsigned int dd)
{
	const struct ib_dir_stats *ds = &r->stats[j].dir[dd];
	double secs = (double)ds->runtime_us / 1e6;
	const struct ib_lat_stat *l = ds->lat[IB_LAT_TLAT].n ?
		&ds->lat[IB_LAT_TLAT] : &ds->lat[IB_LAT_CLAT];
	char b[4][32];
	uint64_t n, v[PAGE_NPCT] = { 0 };
	const struct ib_hist *h = ib_page_hist(&r->stats[j], dd, &n);
	unsigned int i;

	if (h)
		ib_hist_percentiles(h, n, ib_page_pct, PAGE_NPCT, v);
	ib_page_cell(t, "%s", r->jobs[j].name);
	ib_page_cell(t, "%s", ib_page_ddir[dd]);
	ib_page_cell(t, "%s", opt_or(&r->jobs[j], "rw", "readwrite", "read"));
	ib_page_cell(t, "%s", opt_or(&r->jobs[j], "bs", "blocksize", "4k"));
	ib_page_cell(t, "%s", opt_or(&r->jobs[j], "iodepth", NULL, "1"));
	ib_page_cell(t, "%s", ib_cmp_fmt(b[0], 32, IB_CMP_IOPS,
					 secs > 0 ? (double)ds->total_ios / secs : 0));
	ib_page_cell(t, "%s", ib_cmp_fmt(b[1], 32, IB_CMP_BW,
					 secs > 0 ? (double)ds->io_bytes / 1024 / secs : 0));
	ib_page_cell(t, "%s", ib_chart_fmt_ns(b[2], 32, l->mean));
	for (i = 0; i < PAGE_NPCT; i++)
		ib_page_cell(t, "%s", h ? ib_chart_fmt_ns(b[3], 32, (double)v[i]) : "");
}

static int summary(FILE *f, const struct ib_results *r)
{
	static const char *const head[] = { "job", "dir", "rw", "bs", "iodepth",
		"IOPS", "bw KiB/s", "lat mean", "p50", "p90", "p99", "p99.9" };
	struct page_table t;
	unsigned int j, dd, i;
	uint64_t n;

	if (ib_page_table_init(&t, nr_dirs(r) + 1, 12) < 0)
		return -ENOMEM;
	for (i = 0; i < 12; i++)
		ib_page_cell(&t, "%s", head[i]);
	for (j = 0; j < r->nr_jobs; j++)
		for (dd = 0; dd < IB_DDIR_RWT; dd++)
			if (ib_page_hist(&r->stats[j], dd, &n))
				summary_row(&t, r, j, dd);
	ib_html_table(f, "Summary (latencies: completion; mean: total)",
		      t.cell, t.rows, t.cols);
	ib_page_table_free(&t);
	return 0;
}

#define MAX_CDF 64

struct cdf_set {
	const struct ib_hist *h[MAX_CDF];
	const char *names[MAX_CDF];
	struct ib_chart_pcts from_pct[MAX_CDF];	/* reports without bins */
	char text[MAX_CDF][IB_NAME_MAX + 80];
	unsigned int n;
};

/* Every job and direction of docs[0..n) as CDF series (at most 64); a job
 * read from plain JSON drawn from its percentile list only. */
static void cdf_collect(struct cdf_set *s, const struct ib_results *const *docs,
			const char *const *names, unsigned int n)
{
	unsigned int k, j, dd;
	uint64_t c;

	s->n = 0;
	for (k = 0; k < n; k++)
		for (j = 0; j < docs[k]->nr_jobs; j++)
			for (dd = 0; dd < IB_DDIR_RWT && s->n < MAX_CDF; dd++) {
				s->h[s->n] = ib_page_hist(&docs[k]->stats[j], dd, &c);
				if (!s->h[s->n])
					continue;
				snprintf(s->text[s->n], sizeof(s->text[0]), "%s%s%s %s",
					 n > 1 ? names[k] : "", n > 1 ? ": " : "",
					 docs[k]->jobs[j].name, ib_page_ddir[dd]);
				s->names[s->n] = s->text[s->n];
				s->from_pct[s->n] = (struct ib_chart_pcts){
					docs[k]->jobs[j].percentiles,
					docs[k]->jobs[j].hist_from_pct ?
					docs[k]->jobs[j].nr_percentiles : 0 };
				s->n++;
			}
}

int ib_page_svg(FILE *f, const struct ib_results *const *docs,
		const char *const *names, unsigned int n, struct ib_diag *d)
{
	struct ib_chart_opts o = { "Completion latency CDF", NULL, NULL, 0, 0, false };
	struct cdf_set *s = malloc(sizeof(*s));
	int ret;

	if (!s)
		return ib_diag_set(d, ENOMEM, "out of memory");
	cdf_collect(s, docs, names, n);
	if (!s->n)
		ret = ib_diag_set(d, EINVAL, "no latency samples to plot");
	else {
		ret = ib_chart_cdf_from(f, &o, s->h, s->names, s->n, s->from_pct,
					ib_page_pct, PAGE_NPCT, d);
	}
	free(s);
	return ret;
}

/* What a job holds instead of a histogram when its report had percentiles
 * only: bars made up from a percentile list would be a shape nobody
 * measured. */
#define PCT_ONLY_NOTE "No latency histogram for this job: the JSON report " \
	"holds percentiles only (json+ holds the histogram's bins)."

/* Job j's histogram in direction dd (NULL: none); *pct_only when the
 * report's percentiles are all there is to draw from. */
static const struct ib_hist *page_job_hist(const struct ib_results *r,
					   unsigned int j, unsigned int dd,
					   uint64_t *n, bool *pct_only)
{
	*pct_only = r->jobs[j].hist_from_pct;
	return ib_page_hist(&r->stats[j], dd, n);
}

/* The histogram of each job and direction of r, then their CDF. */
static int doc_charts(FILE *f, const struct ib_results *r, const char *name,
		      struct ib_diag *d)
{
	struct ib_chart_opts o = { NULL, NULL, NULL, 0, 0, false };
	char title[IB_NAME_MAX + 64];
	const struct ib_hist *h;
	unsigned int j, dd;
	bool pct_only;
	uint64_t n;
	int ret;

	for (j = 0; j < r->nr_jobs; j++)
		for (dd = 0; dd < IB_DDIR_RWT; dd++) {
			if (!(h = page_job_hist(r, j, dd, &n, &pct_only)))
				continue;
			if (pct_only) {
				ib_html_para(f, "verdict info", PCT_ONLY_NOTE
					     " The CDF below draws those percentiles, "
					     "nothing between them.");
				break;
			}
			snprintf(title, sizeof(title), "Latency histogram: %s %s",
				 r->jobs[j].name, ib_page_ddir[dd]);
			o.title = title;
			ib_html_figure_open(f);
			ret = ib_chart_hist(f, &o, h, ib_page_pct, PAGE_NPCT, d);
			if (ret)
				return ret;
			ib_html_figure_close(f, NULL);	/* the chart's title says it */
		}
	ib_html_figure_open(f);
	ret = ib_page_svg(f, &r, &name, 1, d);
	ib_html_figure_close(f, r->nr_jobs && r->jobs[0].hist_from_pct ?
			     "Completion latency CDF from the report's percentiles "
			     "(steps at the percentiles: no bins in the JSON)" :
			     NULL);	/* the chart's title and legend say it */
	return ret;
}

int ib_page_doc(FILE *f, const struct ib_results *r, const char *name,
		const char *path, struct ib_diag *d)
{
	int ret;

	ib_html_heading(f, name);
	ret = summary(f, r);
	if (!ret)
		ret = ib_page_findings(f, r, d);
	if (!ret)
		ret = ib_page_env(f, r->env, d);
	if (!ret)
		ret = ib_page_extras(f, path, ib_page_env_known(r->env), d);
	if (!ret && nr_dirs(r))
		ret = doc_charts(f, r, name, d);
	return ret;
}

int ib_page_body(FILE *f, const struct ib_results *const *docs,
		 const char *const *names, unsigned int n, bool files,
		 struct ib_diag *d)
{
	struct ib_cmp c;
	unsigned int k;
	int ret = 0;

	for (k = 0; k < n && !ret; k++)
		ret = ib_page_doc(f, docs[k], names[k], files ? names[k] : NULL, d);
	for (k = 1; k < n && !ret; k++) {
		char head[600];

		snprintf(head, sizeof(head), "%s versus %s", names[k], names[0]);
		ib_html_heading(f, head);
		ret = ib_cmp_build(&c, docs, 1, docs + k, 1, NULL, d);
		if (ret)
			break;
		ret = ib_page_compare_body(f, &c, names[0], names[k], docs, 1,
					   docs + k, 1, d);
		ib_cmp_free(&c);
	}
	if (ret == -ENOMEM && !d->msg[0])
		ib_diag_set(d, ENOMEM, "out of memory");
	return ret;
}

int ib_page_write(FILE *f, const char *title,
		  const struct ib_results *const *docs,
		  const char *const *names, unsigned int n, bool files,
		  struct ib_diag *d)
{
	int ret;

	ib_html_begin(f, title);
	ret = ib_page_body(f, docs, names, n, files, d);
	ib_html_end(f);
	return ret;
}

int ib_page_text(FILE *f, const struct ib_results *r, bool utf8,
		 struct ib_diag *d)
{
	const struct ib_hist *h;
	unsigned int j, dd;
	bool pct_only;
	uint64_t n;
	int ret;

	for (j = 0; j < r->nr_jobs; j++)
		for (dd = 0; dd < IB_DDIR_RWT; dd++) {
			if (!(h = page_job_hist(r, j, dd, &n, &pct_only)))
				continue;
			if (pct_only) {
				fprintf(f, "\n%s: %s\n", r->jobs[j].name,
					PCT_ONLY_NOTE);
				break;
			}
			fprintf(f, "\n%s: %s latency, %llu samples\n", r->jobs[j].name,
				ib_page_ddir[dd], (unsigned long long)n);
			ret = ib_texthist_print(f, h, ib_page_pct, PAGE_NPCT, 80, utf8, d);
			if (ret)
				return ret;
		}
	return 0;
}
