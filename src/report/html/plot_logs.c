// SPDX-License-Identifier: GPL-2.0-only
/*
 * The charts of fio-format logs for `iobench plot` and a run's report
 * (page_priv.h): bw, iops, lat, clat, slat logs told by their names
 * (PREFIX_bw.N.log...), a line per log and direction over time (values
 * averaged over windows, or per-I/O bw/iops logs as rates); histogram logs
 * (*_hist.*) as their CDF and p99 over time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "src/report/results/fiohist.h"
#include "iobench/fiolog.h"
#include "src/report/results/logseries.h"
#include "iobench/plotcmd.h"
#include "page_priv.h"

#define MAX_POINTS 2000000
#define CHUNK 65536

enum kind { K_JSON, K_LAT, K_CLAT, K_SLAT, K_BW, K_IOPS, K_HIST, K_STREAM, K_NR };
static const char *const kind_title[K_NR] = { "", "Latency over time",
	"Completion latency over time", "Submission latency over time",
	"Bandwidth over time", "IOPS over time", "", "" };
static const char *const kind_unit[K_NR] = { "", "latency", "latency", "latency",
	"KiB/s", "IOPS", "", "" };

static enum kind kind_of(const char *path)
{
	const char *b = strrchr(path, '/');
	FILE *f = fopen(path, "r");
	int c = ' ';

	while (f && (c == ' ' || c == '\n' || c == '\t' || c == '\r'))
		c = fgetc(f);
	if (f)
		fclose(f);
	if (c == '{')
		return ib_plot_is_stream(path) ? K_STREAM : K_JSON;
	b = b ? b + 1 : path;
	if (strstr(b, "_hist."))
		return K_HIST;
	if (strstr(b, "_bw."))
		return K_BW;
	if (strstr(b, "_iops."))
		return K_IOPS;
	if (strstr(b, "_clat."))
		return K_CLAT;
	if (strstr(b, "_slat."))
		return K_SLAT;
	return K_LAT;
}


static bool want(struct ib_plot_out *o)
{
	if (o->html)
		ib_html_figure_open(o->f);
	return o->html || !o->drawn;
}

static void done(struct ib_plot_out *o, const char *caption)
{
	if (o->html)
		ib_html_figure_close(o->f, caption);
	o->drawn = true;
}

/* Feed a log file to cb(arg); the caller closes its windows. */
bool ib_plot_is_json(const char *path)
{
	return kind_of(path) == K_JSON;
}

static int read_log(const char *path, ib_fiolog_cb cb, void *arg, struct ib_diag *d)
{
	struct ib_fiolog p;
	char *buf = malloc(CHUNK);
	FILE *f = fopen(path, "r");
	size_t n;
	int ret = 0;

	if (!f || !buf) {
		ret = ib_diag_set(d, f ? ENOMEM : errno, "%s: %s", path,
				  strerror(f ? ENOMEM : errno));
		goto out;
	}
	ib_fiolog_init(&p);
	while (!ret && (n = fread(buf, 1, CHUNK, f)) > 0)
		ret = ib_fiolog_feed(&p, buf, n, cb, arg, d);
	if (!ret)
		ret = ib_fiolog_end(&p, cb, arg, d);
	if (ret && d->msg[0])
		ib_diag_prefix(d, "%s", path);
	else if (ret)
		ib_diag_set(d, -ret, "%s: %s", path, strerror(-ret));
out:
	if (f)
		fclose(f);
	free(buf);
	return ret;
}

/*
 * Per-I/O bw and iops logs (no log_avg_msec) hold one record per I/O: the
 * rate over a window is the bytes (KiB) or records it holds over its
 * length, not the mean of the values. Windows without a record are rate 0.
 */
struct rateseries {
	unsigned int win_ms;
	bool bw;
	double *x[3], *y[3];
	size_t n[3], cap[3];
	uint64_t cur[3];
	double acc[3];
	bool open[3];
};

static int rate_point(struct rateseries *rs, unsigned int dd, double x, double y)
{
	if (rs->n[dd] == MAX_POINTS)
		return -E2BIG;
	if (rs->n[dd] == rs->cap[dd]) {
		size_t cap = rs->cap[dd] ? rs->cap[dd] * 2 : 256;
		double *nx = realloc(rs->x[dd], cap * sizeof(double)), *ny;

		if (nx)
			rs->x[dd] = nx;
		ny = nx ? realloc(rs->y[dd], cap * sizeof(double)) : NULL;
		if (!ny)
			return -ENOMEM;
		rs->y[dd] = ny;
		rs->cap[dd] = cap;
	}
	rs->x[dd][rs->n[dd]] = x;
	rs->y[dd][rs->n[dd]++] = y;
	return 0;
}

/* Close direction dd's windows up to (not including) window w. */
static int rate_flush(struct rateseries *rs, unsigned int dd, uint64_t w)
{
	double secs = rs->win_ms / 1000.0;
	int ret = 0;

	while (rs->open[dd] && rs->cur[dd] < w && !ret) {
		ret = rate_point(rs, dd, (double)(rs->cur[dd] + 1) * secs, rs->acc[dd] / secs);
		rs->acc[dd] = 0;
		rs->cur[dd]++;
	}
	return ret;
}

static int rate_add(void *arg, const struct ib_fiolog_rec *r)
{
	struct rateseries *rs = arg;
	unsigned int dd = r->ddir % 3;
	uint64_t w = r->t_ms / rs->win_ms;
	int ret;

	if (!rs->open[dd]) {
		rs->open[dd] = true;
		rs->cur[dd] = w;
	}
	if ((ret = rate_flush(rs, dd, w)))
		return ret;
	rs->acc[dd] += rs->bw ? (double)r->bs / 1024.0 : 1.0;
	return 0;
}

static void rate_free(struct rateseries *rs)
{
	unsigned int dd;

	for (dd = 0; dd < 3; dd++) {
		free(rs->x[dd]);
		free(rs->y[dd]);
	}
}

struct logset {
	struct ib_logseries ser[IB_CMD_MAX_FILES];
	struct rateseries rate[IB_CMD_MAX_FILES];
	char names[IB_CMD_MAX_FILES * 3][128];
	struct ib_chart_series s[IB_CMD_MAX_FILES * 3];
};

/* Log i's points: averaged values, or rates (a->rate, bw/iops logs). */
static int load_log(struct logset *ls, unsigned int i, const char *path,
		    const struct ib_cmd_args *a, bool rate, struct ib_diag *d)
{
	struct rateseries *rs = &ls->rate[i];
	unsigned int dd;
	int ret;

	ib_logseries_init(&ls->ser[i], a->avg_ms, MAX_POINTS);
	memset(rs, 0, sizeof(*rs));
	if (!rate) {
		ret = read_log(path, ib_logseries_add, &ls->ser[i], d);
		return ret ? ret : ib_logseries_finish(&ls->ser[i]);
	}
	rs->win_ms = a->avg_ms ? a->avg_ms : 1000;
	rs->bw = kind_of(path) == K_BW;
	ret = read_log(path, rate_add, rs, d);
	for (dd = 0; dd < 3 && !ret; dd++)
		ret = rate_flush(rs, dd, rs->cur[dd] + 1);
	return ret;
}

static struct ib_chart_series log_series(const struct logset *ls, unsigned int i,
					 bool rate, unsigned int dd, const char *name)
{
	if (!rate)
		return ib_logseries_get(&ls->ser[i], dd, name);
	return (struct ib_chart_series){ name, ls->rate[i].x[dd], ls->rate[i].y[dd],
					 ls->rate[i].n[dd] };
}

/* One chart of every log of kind k: a line per log and direction. */
static int draw_kind(struct ib_plot_out *o, const struct ib_cmd_args *a, enum kind k,
		     struct logset *ls, struct ib_diag *d)
{
	struct ib_chart_opts co = { kind_title[k], "time (s)", kind_unit[k], 0, 0,
				    k == K_LAT || k == K_CLAT || k == K_SLAT };
	bool rate = a->rate && (k == K_BW || k == K_IOPS);
	unsigned int i, dd, nlog = 0, ns = 0;
	int ret = 0;

	for (i = 0; i < a->nfiles && !ret; i++) {
		const char *b = strrchr(a->files[i], '/');

		if (kind_of(a->files[i]) != k)
			continue;
		ret = load_log(ls, nlog, a->files[i], a, rate, d);
		for (dd = 0; dd < 3 && !ret; dd++) {
			snprintf(ls->names[ns], sizeof(ls->names[0]), "%s %s",
				 b ? b + 1 : a->files[i], ib_page_ddir[dd]);
			ls->s[ns] = log_series(ls, nlog, rate, dd, ls->names[ns]);
			ns += ls->s[ns].n > 0;
		}
		nlog++;
	}
	if (!ret && ns && want(o)) {
		ret = ib_chart_lines(o->f, &co, ls->s, ns, d);
		done(o, NULL);	/* the chart's title says it */
	}
	for (i = 0; i < nlog; i++) {
		ib_logseries_free(&ls->ser[i]);
		rate_free(&ls->rate[i]);
	}
	return ret;
}

#define HL_ROWS 100000

/* A histogram log: its rows merged per direction, and each row's p99. */
struct histlog {
	struct ib_hist h[3];
	uint64_t samples[3];
	double t[3][HL_ROWS], p99[3][HL_ROWS];
	size_t n[3];
};

static int hl_row(void *arg, const struct ib_fiohist_row *r)
{
	static const double p99 = 99.0;
	struct histlog *hl = arg;
	unsigned int dd = r->ddir % 3;
	uint64_t v;

	ib_hist_merge(&hl->h[dd], r->h);
	hl->samples[dd] += r->samples;
	if (!r->samples || hl->n[dd] == HL_ROWS)
		return 0;
	ib_hist_percentiles(r->h, r->samples, &p99, 1, &v);
	hl->t[dd][hl->n[dd]] = (double)r->t_ms / 1000.0;
	hl->p99[dd][hl->n[dd]++] = (double)v;
	return 0;
}

static int read_histlog(struct histlog *hl, const char *path, struct ib_diag *d)
{
	struct ib_fiohist *p = malloc(sizeof(*p));
	char *buf = malloc(CHUNK);
	FILE *f = fopen(path, "r");
	size_t n;
	int ret = 0;

	memset(hl, 0, sizeof(*hl));
	if (!f || !p || !buf) {
		ret = ib_diag_set(d, f ? ENOMEM : errno, "%s: %s", path,
				  strerror(f ? ENOMEM : errno));
		goto out;
	}
	ib_fiohist_init(p);
	while (!ret && (n = fread(buf, 1, CHUNK, f)) > 0)
		ret = ib_fiohist_feed(p, buf, n, hl_row, hl, d);
	if (!ret)
		ret = ib_fiohist_end(p, hl_row, hl, d);
	if (ret)
		ib_diag_prefix(d, "%s", path);
out:
	if (f)
		fclose(f);
	free(p);
	free(buf);
	return ret;
}

/* A histogram log's CDF (a series per direction) and p99 over time. */
static int draw_histlog(struct ib_plot_out *o, const char *path, struct histlog *hl,
			struct ib_diag *d)
{
	struct ib_chart_opts oc = { "Histogram log: latency CDF", NULL, NULL, 0, 0, false };
	struct ib_chart_opts op = { "Histogram log: p99 over time", "time (s)",
				    "latency", 0, 0, true };
	const struct ib_hist *hs[3];
	const char *names[3];
	struct ib_chart_series s[3];
	unsigned int dd, n = 0, ns = 0;
	int ret = read_histlog(hl, path, d);

	for (dd = 0; dd < 3 && !ret; dd++) {
		if (hl->samples[dd]) {
			hs[n] = &hl->h[dd];
			names[n++] = ib_page_ddir[dd];
		}
		if (hl->n[dd])
			s[ns++] = (struct ib_chart_series){ ib_page_ddir[dd], hl->t[dd],
							    hl->p99[dd], hl->n[dd] };
	}
	if (!ret && n && want(o)) {
		ret = ib_chart_cdf(o->f, &oc, hs, names, n, ib_page_pct, PAGE_NPCT, d);
		done(o, path);
	}
	if (!ret && ns && want(o)) {
		ret = ib_chart_lines(o->f, &op, s, ns, d);
		done(o, path);
	}
	return ret;
}

int ib_plot_logs(struct ib_plot_out *o, const struct ib_cmd_args *a,
		 struct ib_diag *d)
{
	struct logset *ls = NULL;
	struct histlog *hl = NULL;
	unsigned int i, k;
	int ret = 0;

	for (k = K_LAT; k <= K_IOPS && !ret; k++) {
		if (!ls && !(ls = malloc(sizeof(*ls))))
			ret = ib_diag_set(d, ENOMEM, "out of memory");
		if (!ret)
			ret = draw_kind(o, a, (enum kind)k, ls, d);
	}
	for (i = 0; i < a->nfiles && !ret; i++) {
		if (kind_of(a->files[i]) != K_HIST)
			continue;
		if (!hl && !(hl = malloc(sizeof(*hl))))
			ret = ib_diag_set(d, ENOMEM, "out of memory");
		if (!ret)
			ret = draw_histlog(o, a->files[i], hl, d);
	}
	for (i = 0; i < a->nfiles && !ret; i++)
		if (kind_of(a->files[i]) == K_STREAM)
			ret = ib_plot_stream(o, a->files[i], d);
	free(ls);
	free(hl);
	return ret;
}

int ib_page_logs(FILE *f, const char *const *files, unsigned int n,
		 unsigned int avg_ms, bool rate, struct ib_diag *d)
{
	struct ib_cmd_args *a = calloc(1, sizeof(*a));
	struct ib_plot_out o = { f, true, false };
	int ret;

	if (!a)
		return ib_diag_set(d, ENOMEM, "out of memory");
	a->nfiles = n < IB_CMD_MAX_FILES ? n : IB_CMD_MAX_FILES;
	memcpy(a->files, files, a->nfiles * sizeof(*files));
	a->avg_ms = avg_ms;
	a->rate = rate;
	ret = ib_plot_logs(&o, a, d);
	free(a);
	return ret;
}
