// SPDX-License-Identifier: GPL-2.0-only
/*
 * The validity findings (checks.h) on the HTML page: a verdict line saying
 * at a glance whether the numbers can be trusted, a row per finding shaded
 * by its severity, and per job what replays it (its seeds) and what the
 * tool itself costs. Shown only for a document with the run's evidence.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/checks.h"
#include "iobench/results.h"
#include "page_priv.h"

#define MAX_HITS 32

static const char *sev_name(enum ib_check_sev s)
{
	return s == IB_SEV_WARNING ? "warning" : "info";
}

/* "range_bytes=16777216, data_bytes=0" */
static void evidence_text(char *buf, size_t len, const struct ib_check_hit *h)
{
	unsigned int k;
	size_t n = 0;

	buf[0] = '\0';
	for (k = 0; k < h->nr_ev && n < len; k++) {
		if (h->ev[k].is_int)
			snprintf(buf + n, len - n, "%s%s=%.0f", k ? ", " : "", h->ev[k].key,
				 h->ev[k].val);
		else
			snprintf(buf + n, len - n, "%s%s=%.4g", k ? ", " : "", h->ev[k].key,
				 h->ev[k].val);
		n = strlen(buf);
	}
}

static void verdict(FILE *f, unsigned int warn, unsigned int info,
		    unsigned int jobs_hit, unsigned int jobs)
{
	char b[256], on[64] = "";

	if (jobs > 1)
		snprintf(on, sizeof(on), " on %u of %u jobs", jobs_hit, jobs);
	if (warn && info)
		snprintf(b, sizeof(b), "%u warning%s and %u note%s%s: read them before "
			 "trusting the numbers.", warn, warn > 1 ? "s" : "", info,
			 info > 1 ? "s" : "", on);
	else if (warn)
		snprintf(b, sizeof(b), "%u warning%s%s: read %s before trusting the "
			 "numbers.", warn, warn > 1 ? "s" : "", on, warn > 1 ? "them" : "it");
	else if (info)
		snprintf(b, sizeof(b), "No warnings; %u note%s%s.", info, info > 1 ? "s" : "", on);
	else if (jobs > 1)
		snprintf(b, sizeof(b), "No findings: every check passed on each of the %u "
			 "jobs.", jobs);
	else
		snprintf(b, sizeof(b), "No findings: every check passed.");
	ib_html_para(f, warn ? "verdict warning" : info ? "verdict info" : "verdict ok", b);
}

/* The findings of r's jobs with evidence; h has MAX_HITS entries. */
static unsigned int job_hits(const struct ib_results *r, unsigned int i,
			     struct ib_check_hit *h)
{
	return r->evidence[i].valid ? ib_checks_run(r, i, r->checks_mask, h, MAX_HITS) : 0;
}

static void hit_row(struct page_table *t, const char **cls, const char *job,
		    const struct ib_check_hit *h)
{
	char ev[PAGE_CELL];

	cls[t->used / 5] = sev_name(h->sev);
	evidence_text(ev, sizeof(ev), h);
	ib_page_cell(t, "%s", job);
	ib_page_cell(t, "%s", sev_name(h->sev));
	ib_page_cell(t, "%s", h->id);
	ib_page_cell(t, "%s", h->msg);
	ib_page_cell(t, "%s", ev);
}

/* Every finding of r's jobs as a table, and the verdict above it. */
static int hits_table(FILE *f, const struct ib_results *r, unsigned int jobs,
		      struct ib_check_hit *h)
{
	static const char *const head[5] = { "job", "severity", "check", "finding",
					     "evidence" };
	struct page_table t = { 0 };
	const char **cls;
	unsigned int i, k, n, total = 0, warn = 0, hit_jobs = 0;

	for (i = 0; i < r->nr_jobs; i++) {
		n = job_hits(r, i, h);
		total += n;
		hit_jobs += n > 0;
		for (k = 0; k < n; k++)
			warn += h[k].sev == IB_SEV_WARNING;
	}
	verdict(f, warn, total - warn, hit_jobs, jobs);
	if (!total)
		return 0;
	cls = calloc(total + 1, sizeof(*cls));
	if (!cls || ib_page_table_init(&t, total + 1, 5) < 0) {
		free(cls);
		return -ENOMEM;
	}
	for (k = 0; k < 5; k++)
		ib_page_cell(&t, "%s", head[k]);
	for (i = 0; i < r->nr_jobs; i++)
		for (n = job_hits(r, i, h), k = 0; k < n; k++)
			hit_row(&t, cls, r->jobs[i].name, &h[k]);
	ib_html_table_cls(f, NULL, t.cell, t.rows, 5, cls);
	ib_page_table_free(&t);
	free(cls);
	return 0;
}

/* Per job: the option that replays its random streams, the tool's cost. */
static int replay_table(FILE *f, const struct ib_results *r, unsigned int jobs)
{
	static const char *const head[4] = { "job", "replay with", "tool cost per I/O",
					     "tool ceiling (IOPS per job)" };
	struct page_table t;
	unsigned int i;
	char b[32];

	if (ib_page_table_init(&t, jobs + 1, 4) < 0)
		return -ENOMEM;
	for (i = 0; i < 4; i++)
		ib_page_cell(&t, "%s", head[i]);
	for (i = 0; i < r->nr_jobs; i++) {
		const struct ib_evidence *ev = &r->evidence[i];
		bool cal = ev->calibrated && ev->tool_ns_per_io > 0;

		if (!ev->valid)
			continue;
		ib_page_cell(&t, "%s", r->jobs[i].name);
		if (ev->seed_source == IB_SEED_REPEAT)
			ib_page_cell(&t, "randrepeat=1");
		else
			ib_page_cell(&t, "randseed=%llu", (unsigned long long)ev->seed);
		ib_page_cell(&t, "%s", cal ? ib_chart_fmt_ns(b, sizeof(b), ev->tool_ns_per_io) : "");
		ib_page_cell(&t, "%s", cal ? ib_chart_fmt_num(b, sizeof(b),
							       1e9 / ev->tool_ns_per_io) : "");
	}
	ib_html_table(f, "Reproducing the run", t.cell, t.rows, 4);
	ib_page_table_free(&t);
	return 0;
}

int ib_page_findings(FILE *f, const struct ib_results *r, struct ib_diag *d)
{
	struct ib_check_hit *h;
	unsigned int i, jobs = 0;
	int ret;

	for (i = 0; r->evidence && i < r->nr_jobs; i++)
		jobs += r->evidence[i].valid;
	if (!jobs)
		return 0;
	ib_html_subheading(f, "Validity findings");
	if (!r->checks_mask) {
		ib_html_para(f, "verdict info", "The validity checks were turned off "
			     "(--warnings=none).");
		ret = 0;
	} else if (!(h = calloc(MAX_HITS, sizeof(*h)))) {
		ret = -ENOMEM;
	} else {
		ret = hits_table(f, r, jobs, h);
		free(h);
	}
	if (!ret)
		ret = replay_table(f, r, jobs);
	return ret ? ib_diag_set(d, ENOMEM, "out of memory") : 0;
}
