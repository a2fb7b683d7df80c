// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test program for the chart, HTML and text-histogram renderers
 * (tests/integration/test_plots.py). Renders every chart type from known
 * data (the same formulas are in the test, which checks the drawing against
 * them) and from fio-format logs:
 *
 *   plot_demo demo OUTDIR [FIOLOG...] [--hist HISTLOG]
 *     OUTDIR/{hist,cdf,lines,curve,bars}.svg from the known data; with logs
 *     also fio_{lat,bw,iops}.svg (one line per log of that kind, told by
 *     its name, and direction: x = time in s, y = value; ib_logseries)
 *     and fio_hist.svg + fio_cdf.svg (the first log's values as
 *     latencies in ns); with a fio histogram log fio_histlog_cdf.svg (the
 *     CDF of all its rows, one series per direction) and
 *     fio_histlog_pct.svg (p50 and p99 of each read row against time).
 *     OUTDIR/report.html holds them all.
 *   plot_demo text utf8|ascii [COLS]
 *     the known histogram A in the terminal format, on stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "src/report/results/fiohist.h"
#include "iobench/fiolog.h"
#include "src/report/html/html.h"
#include "src/report/results/logseries.h"
#include "src/report/texthist.h"

#define NSAMP 10000
#define MAXLOG 8
#define MAXPTS 200000

static const double pct[] = { 50, 90, 99, 99.9 };
#define NPCT 4

/* Histograms A and B of the known data (test_plots.py: known_values) */
static void known_hist(struct ib_hist *h, int which)
{
	uint64_t i, v;

	for (i = 0; i < NSAMP; i++) {
		if (which == 0)
			v = i % 100 == 0 ? 1000000 + i * 100 : 20000 + (i * 7919) % 30000;
		else
			v = i % 50 == 0 ? 500000 + i * 50 : 15000 + (i * 104729) % 60000;
		ib_hist_add(h, v);
	}
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		perror(path);
	return f;
}

/* Run one chart builder into OUTDIR/name and into the page. */
#define BOTH(page, dir, name, cap, call) do { \
	FILE *f_ = open_out(dir, name); \
	if (!f_) return 1; \
	{ FILE *f = f_; if (call) { fprintf(stderr, "%s: %s\n", name, d.msg); return 1; } } \
	fclose(f_); \
	ib_html_figure_open(page); \
	{ FILE *f = page; if (call) return 1; } \
	ib_html_figure_close(page, cap); \
} while (0)

struct known {
	struct ib_hist *a, *b;
	double t[60], r[60], w[60];
	double load[5], lat1[5], lat2[5];
	double bars[8];
};

static void known_series(struct known *k)
{
	static const double load[] = { 10000, 20000, 40000, 80000, 120000 };
	static const double lat1[] = { 80, 85, 95, 140, 400 };
	static const double lat2[] = { 60, 62, 70, 90, 180 };
	static const double bars[] = { 1200, 1500, 800, 700, 3100, 3000, 2500, 2600 };
	unsigned int i;

	for (i = 0; i < 60; i++) {
		k->t[i] = i;
		k->r[i] = 1000 + (i * 37) % 200;
		k->w[i] = 500 + (i * 53) % 150;
	}
	memcpy(k->load, load, sizeof(load));
	memcpy(k->lat1, lat1, sizeof(lat1));
	memcpy(k->lat2, lat2, sizeof(lat2));
	memcpy(k->bars, bars, sizeof(bars));
}

static int known_charts(FILE *page, const char *dir, struct known *k)
{
	static const char *const names[] = { "run A", "run B" };
	static const char *const labels[] = { "randread", "randwrite", "read", "write" };
	const struct ib_hist *hs[] = { k->a, k->b };
	struct ib_chart_series ts[] = { { "read", k->t, k->r, 60 },
					{ "write", k->t, k->w, 60 } };
	struct ib_chart_series cs[] = { { "run A", k->load, k->lat1, 5 },
					{ "run B", k->load, k->lat2, 5 } };
	struct ib_chart_opts oh = { "Latency histogram (run A)", NULL, NULL, 0, 0, 0 };
	struct ib_chart_opts oc = { "Latency CDF", NULL, NULL, 0, 0, 0 };
	struct ib_chart_opts ol = { "Bandwidth over time", "time (s)", "KiB/s", 0, 0, 0 };
	struct ib_chart_opts ov = { "Latency versus load", "IOPS", "latency (us)", 0, 0, 0 };
	struct ib_chart_opts ob = { "IOPS by job", NULL, "IOPS", 0, 0, 0 };
	struct ib_diag d = { { 0 } };

	BOTH(page, dir, "hist.svg", "histogram", ib_chart_hist(f, &oh, k->a, pct, NPCT, &d));
	BOTH(page, dir, "cdf.svg", "CDF", ib_chart_cdf(f, &oc, hs, names, 2, pct, NPCT, &d));
	BOTH(page, dir, "lines.svg", "time series", ib_chart_lines(f, &ol, ts, 2, &d));
	BOTH(page, dir, "curve.svg", "latency vs load", ib_chart_curve(f, &ov, cs, 2, false, &d));
	BOTH(page, dir, "bars.svg", "compare", ib_chart_bars(f, &ob, labels, 4, names, 2, k->bars, &d));
	return 0;
}

/* Points of the fio logs: one ib_logseries per log (a series per ddir) */
struct logset {
	struct ib_logseries ser[MAXLOG];
	char names[MAXLOG * 3][64];
	unsigned int cur;	/* the log being read */
	struct ib_hist *h;	/* the first log's values */
};

static int add_rec(void *arg, const struct ib_fiolog_rec *r)
{
	struct logset *ls = arg;

	if (ls->cur == 0)	/* the first log: a latency log */
		ib_hist_add(ls->h, r->value);
	return ib_logseries_add(&ls->ser[ls->cur], r);
}

static int read_log(struct logset *ls, const char *path)
{
	struct ib_fiolog p;
	struct ib_diag d = { { 0 } };
	char buf[1000];
	size_t n;
	int ret = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return perror(path), -errno;
	ib_fiolog_init(&p);
	ib_logseries_init(&ls->ser[ls->cur], 0, MAXPTS);
	while (!ret && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		ret = ib_fiolog_feed(&p, buf, n, add_rec, ls, &d);
	if (!ret)
		ret = ib_fiolog_end(&p, add_rec, ls, &d);
	if (!ret)
		ret = ib_logseries_finish(&ls->ser[ls->cur]);
	fclose(f);
	if (ret)
		fprintf(stderr, "%s: %s (%d)\n", path, d.msg, ret);
	return ret;
}

/* Keep the non-empty series, named "BASENAME read|write|trim". */
/* The log's kind from its name: 0 latency (ns), 1 bw (KiB/s), 2 iops. */
static unsigned int kind_of(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strstr(base, "_bw.") ? 1 : strstr(base, "_iops.") ? 2 : 0;
}

/* The non-empty series of the logs of one kind into out[], named
 * "BASENAME read|write|trim". */
static unsigned int pick(struct logset *ls, char **logs, unsigned int kind,
			 struct ib_chart_series *out)
{
	static const char *const dd[] = { "read", "write", "trim" };
	unsigned int k, n = 0;

	for (k = 0; k < MAXLOG * 3; k++) {
		const char *base;

		if (!ls->ser[k / 3].n[k % 3] || kind_of(logs[k / 3]) != kind)
			continue;
		base = strrchr(logs[k / 3], '/');
		snprintf(ls->names[k], sizeof(ls->names[k]), "%s %s",
			 base ? base + 1 : logs[k / 3], dd[k % 3]);
		out[n++] = ib_logseries_get(&ls->ser[k / 3], k % 3, ls->names[k]);
	}
	return n;
}

/* fio_{lat,bw,iops}.svg: one line per log of that kind and direction */
static int log_lines(FILE *page, const char *dir, char **logs, struct logset *ls)
{
	static const char *const file[] = { "fio_lat.svg", "fio_bw.svg", "fio_iops.svg" };
	static const char *const ylab[] = { "latency", "KiB/s", "IOPS" };
	struct ib_chart_series s[MAXLOG * 3];
	struct ib_diag d = { { 0 } };
	unsigned int kind, ns;

	for (kind = 0; kind < 3; kind++) {
		struct ib_chart_opts o = { "fio log over time", "time (s)", ylab[kind],
					   0, 0, kind == 0 };

		ns = pick(ls, logs, kind, s);
		if (ns)
			BOTH(page, dir, file[kind], ylab[kind],
			     ib_chart_lines(f, &o, s, ns, &d));
	}
	return 0;
}

static int log_charts(FILE *page, const char *dir, char **logs, unsigned int nlog,
		      struct logset *ls)
{
	struct ib_chart_opts oh = { "fio log latency histogram", NULL, NULL, 0, 0, 0 };
	struct ib_chart_opts oc = { "fio log latency CDF", NULL, NULL, 0, 0, 0 };
	const struct ib_hist *hs[] = { ls->h };
	const char *const nm[] = { "log 1" };
	struct ib_diag d = { { 0 } };

	for (ls->cur = 0; ls->cur < nlog; ls->cur++)
		if (read_log(ls, logs[ls->cur]))
			return 1;
	ib_html_heading(page, "fio logs");
	if (log_lines(page, dir, logs, ls))
		return 1;
	BOTH(page, dir, "fio_hist.svg", "fio histogram", ib_chart_hist(f, &oh, ls->h, pct, NPCT, &d));
	BOTH(page, dir, "fio_cdf.svg", "fio CDF", ib_chart_cdf(f, &oc, hs, nm, 1, pct, NPCT, &d));
	return 0;
}

/* A histogram log: every row merged per ddir, read rows' p50/p99 */
struct histlog {
	struct ib_hist *h[3];
	double t[MAXPTS], p50[MAXPTS], p99[MAXPTS];
	size_t n;
};

static int add_row(void *arg, const struct ib_fiohist_row *r)
{
	static const double two[] = { 50, 99 };
	struct histlog *hl = arg;
	uint64_t v[2];

	ib_hist_merge(hl->h[r->ddir], r->h);
	if (r->ddir != 0 || !r->samples || hl->n == MAXPTS)
		return 0;
	ib_hist_percentiles(r->h, r->samples, two, 2, v);
	hl->t[hl->n] = (double)r->t_ms / 1000.0;
	hl->p50[hl->n] = (double)v[0];
	hl->p99[hl->n++] = (double)v[1];
	return 0;
}

static int read_histlog(struct histlog *hl, struct ib_fiohist *p, const char *path)
{
	struct ib_diag d = { { 0 } };
	char buf[1000];
	size_t n;
	int ret = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return perror(path), -errno;
	ib_fiohist_init(p);
	while (!ret && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		ret = ib_fiohist_feed(p, buf, n, add_row, hl, &d);
	if (!ret)
		ret = ib_fiohist_end(p, add_row, hl, &d);
	fclose(f);
	if (ret)
		fprintf(stderr, "%s: %s (%d)\n", path, d.msg, ret);
	return ret;
}

static int histlog_draw(FILE *page, const char *dir, struct histlog *hl)
{
	static const char *const dd[] = { "read", "write", "trim" };
	struct ib_chart_opts oc = { "fio histogram log: CDF", NULL, NULL, 0, 0, 0 };
	struct ib_chart_opts op = { "fio histogram log: read percentiles", "time (s)",
				    "latency", 0, 0, 1 };
	struct ib_chart_series s[] = { { "p50", hl->t, hl->p50, hl->n },
				       { "p99", hl->t, hl->p99, hl->n } };
	const struct ib_hist *hs[3];
	const char *names[3];
	struct ib_diag d = { { 0 } };
	unsigned int k, n = 0;

	for (k = 0; k < 3; k++) {
		uint64_t any = 0;

		for (unsigned int i = 0; i < IB_HIST_NR; i++)
			any += hl->h[k]->count[i];
		if (any) {
			hs[n] = hl->h[k];
			names[n++] = dd[k];
		}
	}
	BOTH(page, dir, "fio_histlog_cdf.svg", "histogram log CDF",
	     ib_chart_cdf(f, &oc, hs, names, n, pct, NPCT, &d));
	BOTH(page, dir, "fio_histlog_pct.svg", "histogram log percentiles",
	     ib_chart_lines(f, &op, s, 2, &d));
	return 0;
}

static int histlog_charts(FILE *page, const char *dir, const char *path)
{
	struct histlog *hl = calloc(1, sizeof(*hl));
	struct ib_fiohist *p = malloc(sizeof(*p));
	unsigned int k;
	int ret = 1;

	if (!hl || !p)
		goto out;
	for (k = 0; k < 3; k++)
		if (!(hl->h[k] = calloc(1, sizeof(struct ib_hist))))
			goto out;
	if (!read_histlog(hl, p, path))
		ret = histlog_draw(page, dir, hl);
out:
	for (k = 0; hl && k < 3; k++)
		free(hl->h[k]);
	free(hl);
	free(p);
	return ret;
}

static const char *const summary[] = {
	"job", "rw", "IOPS", "bandwidth", "p99 latency",
	"run A", "randread", "1200", "4.7MiB/s", "1.2ms",
	"run B", "randread", "1500", "5.9MiB/s", "850us",
	"run <&> \"quoted\"", "write", "700", "2.7MiB/s", "3.4ms",
};

static int demo(const char *dir, char **logs, unsigned int nlog,
		const char *histlog)
{
	static const char *const findings[] = { "runtime shorter than 10 s",
						"CPU governor: powersave" };
	struct known k;
	struct logset ls;
	FILE *page = open_out(dir, "report.html");
	int ret = 1;

	memset(&ls, 0, sizeof(ls));
	k.a = calloc(1, sizeof(*k.a));
	k.b = calloc(1, sizeof(*k.b));
	ls.h = calloc(1, sizeof(*ls.h));
	if (!page || !k.a || !k.b || !ls.h || nlog > MAXLOG)
		goto out;
	known_hist(k.a, 0);
	known_hist(k.b, 1);
	known_series(&k);
	ib_html_begin(page, "iobench report: plot_demo");
	ib_html_table(page, "Summary", summary, 4, 5);
	ib_html_heading(page, "Validity");
	ib_html_list(page, findings, 2);
	ib_html_heading(page, "Environment");
	ib_html_pre(page, "kernel 6.1.0\nengine io_uring\n");
	ib_html_heading(page, "Charts");
	ret = known_charts(page, dir, &k);
	if (!ret && nlog)
		ret = log_charts(page, dir, logs, nlog, &ls);
	if (!ret && histlog)
		ret = histlog_charts(page, dir, histlog);
	ib_html_end(page);
out:
	for (unsigned int i = 0; i < MAXLOG; i++)
		ib_logseries_free(&ls.ser[i]);
	free(k.a);
	free(k.b);
	free(ls.h);
	if (page && fclose(page))
		ret = 1;
	return ret;
}

static int text(const char *mode, unsigned int cols)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	struct ib_diag d = { { 0 } };
	int ret;

	if (!h)
		return 1;
	known_hist(h, 0);
	ret = ib_texthist_print(stdout, h, pct, NPCT, cols, !strcmp(mode, "utf8"), &d);
	if (ret)
		fprintf(stderr, "%s\n", d.msg);
	free(h);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "demo") && !strcmp(argv[argc - 2], "--hist"))
		return demo(argv[2], argv + 3, (unsigned int)(argc - 5), argv[argc - 1]);
	if (argc >= 3 && !strcmp(argv[1], "demo"))
		return demo(argv[2], argv + 3, (unsigned int)(argc - 3), NULL);
	if (argc >= 3 && !strcmp(argv[1], "text"))
		return text(argv[2], argc > 3 ? (unsigned int)atoi(argv[3]) : 80);
	fprintf(stderr, "usage: plot_demo demo OUTDIR [FIOLOG...] [--hist HISTLOG] | text utf8|ascii [COLS]\n");
	return 2;
}
