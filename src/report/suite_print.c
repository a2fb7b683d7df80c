// SPDX-License-Identifier: GPL-2.0-only
/*
 * A suite's results as text and JSON (suite_out.h): the summary table
 * (test, IOPS, bandwidth, p50, p99, p99.9, steady), the matrix table of
 * suites that have one, the verdicts, and a PTS run's rounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/json.h"
#include "iobench/report.h"
#include "iobench/suite_out.h"

static const char *steady_name(enum ib_suite_steady s)
{
	return s == IB_STEADY_YES ? "yes" : s == IB_STEADY_NO ? "no" : "?";
}

/* bytes/s as MB/s (10^6, as the guides and CrystalDiskMark quote it) */
static char *fmt_bw(char *buf, size_t len, double bw)
{
	snprintf(buf, len, "%.1fMB/s", bw / 1e6);
	return buf;
}

/* IOPS: whole numbers up to 9999, then 12.3k */
static char *fmt_iops(char *buf, size_t len, double v)
{
	if (v < 10000)
		snprintf(buf, len, "%.0f", v);
	else
		ib_chart_fmt_num(buf, len, v);
	return buf;
}

static char *fmt_metric(char *buf, size_t len, enum ib_suite_metric m, double v)
{
	if (m == IB_SM_BW)
		return fmt_bw(buf, len, v);
	if (m == IB_SM_LAT)
		return ib_chart_fmt_ns(buf, len, v);
	return fmt_iops(buf, len, v);
}

static void print_summary(FILE *f, const struct ib_suite_report *s)
{
	char a[32], b[32], c[32], d[32], e[32];
	unsigned int i;

	fprintf(f, "%-18s %10s %12s %9s %9s %9s  %s\n", "test", "IOPS",
		"bandwidth", "p50", "p99", "p99.9", "steady");
	for (i = 0; i < s->nr; i++) {
		const struct ib_suite_row *r = &s->rows[i];

		if (r->failed) {
			fprintf(f, "%-18s failed\n", r->name);
			continue;
		}
		fprintf(f, "%-18s %10s %12s %9s %9s %9s  %s%s%s%s\n", r->name,
			fmt_iops(a, sizeof(a), r->iops),
			fmt_bw(b, sizeof(b), r->bw),
			ib_chart_fmt_ns(c, sizeof(c), (double)r->p50),
			ib_chart_fmt_ns(d, sizeof(d), (double)r->p99),
			ib_chart_fmt_ns(e, sizeof(e), (double)r->p999),
			steady_name(r->steady), r->why[0] ? " (" : "", r->why,
			r->why[0] ? ")" : "");
	}
}

/* Distinct labels of the rows' row (col) field, in first-seen order. */
static unsigned int labels(const struct ib_suite_report *s, bool col,
			   const char **out, unsigned int max)
{
	unsigned int i, k, n = 0;

	for (i = 0; i < s->nr; i++) {
		const char *l = col ? s->rows[i].col : s->rows[i].row;

		for (k = 0; k < n && strcmp(out[k], l); k++)
			;
		if (k == n && n < max && *l)
			out[n++] = l;
	}
	return n;
}

const struct ib_suite_row *ib_suite_cell(const struct ib_suite_report *s,
					 const char *row, const char *col)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->rows[i].row, row) && !strcmp(s->rows[i].col, col))
			return &s->rows[i];
	return NULL;
}

static void print_matrix(FILE *f, const struct ib_suite_report *s)
{
	const char *rl[IB_SUITE_MAX_TESTS], *cl[IB_SUITE_MAX_TESTS];
	unsigned int nr = labels(s, false, rl, IB_SUITE_MAX_TESTS);
	unsigned int nc = labels(s, true, cl, IB_SUITE_MAX_TESTS), i, k;
	enum ib_suite_metric m = s->suite->table;
	char buf[32];

	if (!nr || !nc || m == IB_SM_NONE)
		return;
	fprintf(f, "\n%s (%s)\n%-12s", ib_suite_metric_name(m),
		m == IB_SM_LAT ? "mean" : s->suite->kind == IB_SUITE_PTS ?
		"window average" : "per test", "");
	for (k = 0; k < nc; k++)
		fprintf(f, " %12s", cl[k]);
	fputc('\n', f);
	for (i = 0; i < nr; i++) {
		fprintf(f, "%-12s", rl[i]);
		for (k = 0; k < nc; k++) {
			const struct ib_suite_row *c = ib_suite_cell(s, rl[i], cl[k]);

			fprintf(f, " %12s", !c ? "" : c->failed ? "failed" :
				fmt_metric(buf, sizeof(buf), m, ib_suite_metric_of(c, m)));
		}
		fputc('\n', f);
	}
}

/* Why a verdict is not conclusive, in words. */
static const char *trust_text(const struct ib_suite_verdict *v, char *buf, size_t len)
{
	if (v->conclusive)
		return "steady and long enough to say so";
	if (v->steady == IB_STEADY_NO)
		snprintf(buf, len, "not conclusive: not steady (%s)", v->why);
	else if (v->steady == IB_STEADY_UNKNOWN)
		snprintf(buf, len, "not conclusive: too short to tell whether it was steady (%u s of rate samples needed)",
			 IB_SUITE_STEADY_MIN + 2);
	else
		snprintf(buf, len, "not conclusive: the run was too short (%s)", v->why);
	return buf;
}

void ib_suite_verdict_text(char *buf, size_t len, const struct ib_suite_verdict *v)
{
	char a[32], b[32], t[160];
	enum ib_suite_metric m = v->metric;

	snprintf(buf, len, "%s %s %s %s: %s by %.1f%%, %s", ib_suite_metric_name(m),
		 fmt_metric(a, sizeof(a), m == IB_SM_LAT ? IB_SM_LAT : m, v->measured),
		 m == IB_SM_LAT ? "<=" : ">=",
		 fmt_metric(b, sizeof(b), m, v->limit),
		 v->met ? "met" : "NOT met", v->margin_pct < 0 ? -v->margin_pct : v->margin_pct,
		 trust_text(v, t, sizeof(t)));
}

static void print_verdicts(FILE *f, const struct ib_suite_report *s)
{
	char line[400];
	unsigned int i, met = 0;

	if (!s->nv)
		return;
	for (i = 0; i < s->nv; i++)
		met += s->v[i].met;
	fprintf(f, "\nexpectations: %u of %u met\n", met, s->nv);
	for (i = 0; i < s->nv; i++) {
		ib_suite_verdict_text(line, sizeof(line), &s->v[i]);
		fprintf(f, "%-18s %s\n", s->v[i].test, line);
	}
}

void ib_suite_ss_text(char *buf, size_t len, const struct ib_suite_report *s)
{
	const struct ib_pts_ss *ss = &s->ss;

	if (ss->met)
		snprintf(buf, len, "steady state reached at round %u (window: rounds %u-%u, range %.1f%% <= 20%%, rise %.1f%% <= 10%% of the average)",
			 s->rounds, ss->first + 1, ss->first + IB_PTS_WINDOW,
			 ss->range_pct, ss->rise_pct);
	else if (s->rounds >= IB_PTS_WINDOW)
		snprintf(buf, len, "steady state not reached after %u rounds (last window: range %.1f%%, rise %.1f%% of the average)",
			 s->rounds, ss->range_pct, ss->rise_pct);
	else
		snprintf(buf, len, "steady state not reached: %u rounds, a window needs %u",
			 s->rounds, IB_PTS_WINDOW);
}

static void print_pts(FILE *f, const struct ib_suite_report *s)
{
	char buf[300];
	unsigned int i;

	fprintf(f, "purge: %s\npreconditioning: %s\n", s->purge, s->precond);
	fprintf(f, "rounds (%s %s):", s->suite->track,
		ib_suite_metric_name(s->suite->track_metric));
	for (i = 0; i < s->rounds; i++)
		fprintf(f, " %s", fmt_metric(buf, sizeof(buf), s->suite->track_metric,
					       s->track[i]));
	ib_suite_ss_text(buf, sizeof(buf), s);
	fprintf(f, "\n%s\n\n", buf);
}

void ib_suite_print(FILE *f, const struct ib_suite_report *s)
{
	fprintf(f, "\niobench suite %s on %s\n", s->suite->name, s->target);
	if (s->note[0])
		fprintf(f, "note: %s\n", s->note);
	if (s->suite->kind == IB_SUITE_PTS)
		print_pts(f, s);
	print_summary(f, s);
	print_matrix(f, s);
	print_verdicts(f, s);
}
