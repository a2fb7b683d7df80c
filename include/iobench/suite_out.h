/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SUITE_OUT_H
#define IOBENCH_SUITE_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/pts_ss.h"
#include "iobench/results.h"
#include "iobench/suite.h"

/*
 * A suite's results (suite.h) as reports: one summary row per test from
 * the run's results document (group_reporting: one entry per test), the
 * verdicts against --expect, and, for PTS suites, the rounds of the
 * tracking variable and their steady state (pts_ss.h). The text tables,
 * the JSON document (the run's own, fio's layout, plus "iobench suite")
 * and the HTML section (page_suite.c) all read this one record.
 *
 * Steady: the validity checks (checks.h) judge each test's rate series;
 * "no" when warm-up, step or trend fired, "?" when the series is too short
 * for them to judge (fewer than IB_SUITE_STEADY_MIN intervals), else
 * "yes". Long enough: neither short-run nor runtime-off fired and the
 * series was long enough to judge.
 */
#define IB_SUITE_STEADY_MIN 8

enum ib_suite_steady { IB_STEADY_UNKNOWN = 0, IB_STEADY_YES, IB_STEADY_NO };

struct ib_suite_row {
	char name[IB_SUITE_NAME];
	char row[32], col[16];
	enum ib_suite_metric judge;
	double iops;		/* every direction */
	double bw;		/* bytes/s, every direction */
	uint64_t p50, p99, p999;	/* completion latency, ns, directions merged */
	double mean_ns;
	uint64_t ios;		/* I/Os issued, every direction and job */
	enum ib_suite_steady steady;
	char why[96];		/* the checks that fired, "" if none */
	bool long_enough;
	bool failed;		/* a job of the test failed, or no entry */
};

struct ib_suite_verdict {
	char test[IB_SUITE_NAME];
	enum ib_suite_metric metric;
	double measured, limit;
	bool met;
	double margin_pct;	/* + better than the limit, - worse */
	bool conclusive;	/* steady and long enough to say so */
	enum ib_suite_steady steady;	/* the row's, and why not */
	char why[96];
};

#define IB_SUITE_MAX_VERDICTS (3 * IB_SUITE_MAX_TESTS)

struct ib_suite_report {
	const struct ib_suite *suite;
	char target[256];
	struct ib_suite_row rows[IB_SUITE_MAX_TESTS];
	unsigned int nr;
	struct ib_suite_expect expect;
	char note[200];		/* tests left out, or "" */
	struct ib_suite_verdict v[IB_SUITE_MAX_VERDICTS];
	unsigned int nv;
	/* PTS */
	char purge[160];	/* what the purge did, or why not */
	char precond[160];
	double track[IB_PTS_MAX_ROUNDS];	/* the tracking variable per round */
	unsigned int rounds;
	struct ib_pts_ss ss;
};

/*
 * The rows of tests it[0..n) from results r (entries matched by name); a
 * test without an entry is a failed row. 0 or -ENOMEM.
 */
int ib_suite_rows(const struct ib_results *r, const struct ib_suite_item *it,
		  unsigned int n, struct ib_suite_row *rows);
/* The value of metric m in a row (IOPS, bytes/s, mean latency ns). */
double ib_suite_metric_of(const struct ib_suite_row *row, enum ib_suite_metric m);
/* "IOPS", "bandwidth", "latency" */
const char *ib_suite_metric_name(enum ib_suite_metric m);

/*
 * The verdicts of s->rows against s->expect: for each row judged by a
 * metric that has an expectation, one verdict. IOPS and bandwidth meet
 * it at or above the limit, latency (the row's p99) at or below it. The
 * margin is (measured - limit) / limit, negated for latency. Sets s->nv.
 */
void ib_suite_judge(struct ib_suite_report *s);
/* Are all verdicts met (true when there are none)? */
bool ib_suite_all_met(const struct ib_suite_report *s);
/*
 * The window average of each row over rounds rr[first..first+k) (k rows
 * arrays of s->nr rows each) into s->rows.
 */
void ib_suite_average(struct ib_suite_report *s, const struct ib_suite_row *rr,
		      unsigned int first, unsigned int k);

/* The row of s at matrix cell (row, col), or NULL. */
const struct ib_suite_row *ib_suite_cell(const struct ib_suite_report *s,
					 const char *row, const char *col);
/* "IOPS 12.3k >= 10k: met by 23.0%, steady and long enough to say so" */
void ib_suite_verdict_text(char *buf, size_t len, const struct ib_suite_verdict *v);
/* "steady state reached at round 7 (window: rounds 3-7, ...)" */
void ib_suite_ss_text(char *buf, size_t len, const struct ib_suite_report *s);

/* The human report: summary table, matrix table, verdicts, PTS rounds. */
void ib_suite_print(FILE *f, const struct ib_suite_report *s);
/*
 * The JSON document: the run's (ib_report_json: one "jobs" entry per
 * test) with an "iobench suite" object added (name, target, summary,
 * verdicts, PTS purge, preconditioning, rounds and steady state), so
 * iobench compare and report read it as any run. 0 or -errno.
 */
int ib_suite_json(FILE *f, const struct ib_results *r,
		  const struct ib_suite_report *s);

/*
 * The HTML report (report/html/page_suite.c): the summary table first,
 * the verdicts, the matrix table, a PTS run's steady state, convergence
 * chart (the window and its average +-10% marked) and rounds, then the
 * run's own sections as `iobench report` draws them. ib_page_suite_doc
 * writes the body, ib_page_suite_out the whole page to path (--report's
 * safety rules; a file not written in full is removed). 0 or -errno.
 */
int ib_page_suite_doc(FILE *f, const struct ib_suite_report *s,
		      const struct ib_results *r, struct ib_diag *d);
int ib_page_suite_out(const char *path, const struct ib_suite_report *s,
		      const struct ib_results *r, struct ib_diag *d);

#endif
