/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_COMPARE_H
#define IOBENCH_COMPARE_H

#include <stdbool.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/job.h"
#include "iobench/results.h"

/*
 * Comparing runs (`iobench compare`): two sides, base and new, each one or
 * more results documents (results.h; iobench JSON, fio json/json+ alike),
 * reduced to one row per job and direction with, per metric, the two
 * values, the relative change, a noise band and a verdict. Pure: no I/O
 * but the text formatter's FILE.
 *
 * Jobs are matched by name (the k-th job of a name on one side with the
 * k-th of that name on the other: numjobs clones), directions by having
 * completed I/O. A job or direction on one side only is a row of its own
 * (only_base / only_new), never compared; a pair whose job options differ
 * (the "job options" of the JSON) is compared and its note lists them.
 *
 * The noise test (why this one: compare.c, noise_*):
 *  - one run per side: Welch's t-test on the per-interval bw / iops samples
 *    of the two runs (the stats slot keeps their count, mean and stddev);
 *    latency metrics take the IOPS test's relative band (Little's law);
 *  - two or more runs on a side: Welch's t-test over the per-run values of
 *    the metric (with one run on the other side, that run's variance is
 *    taken to be the repeated side's).
 * A change is "within noise" unless the test rejects equal means (p <
 * alpha; for latencies with one run a side, which have no test of their
 * own: the change is outside the band) and the change is at least
 * floor_pct; otherwise "faster" or "slower" by the sign of the change (of
 * the medians) and the metric's sense (IOPS, bandwidth: higher is faster).
 */
enum ib_cmp_metric {
	IB_CMP_IOPS = 0,
	IB_CMP_BW,		/* KiB/s */
	IB_CMP_MEAN,		/* mean latency, ns (total lat, else clat) */
	IB_CMP_P50,		/* completion latency percentiles, ns */
	IB_CMP_P90,
	IB_CMP_P99,
	IB_CMP_P999,
	IB_CMP_NR
};

enum ib_cmp_verdict { IB_CMP_NOISE = 0, IB_CMP_FASTER, IB_CMP_SLOWER };

/* Name ("iops", "bw", "mean", "p50", "p90", "p99", "p99.9") and label. */
const char *ib_cmp_metric_name(enum ib_cmp_metric m);
const char *ib_cmp_verdict_name(enum ib_cmp_verdict v);

struct ib_cmp_cell {
	bool valid;		/* both sides have the metric */
	double base, new_;	/* median over the side's runs */
	double base_lo, base_hi, new_lo, new_hi;	/* min, max over runs */
	double change;		/* (new - base) / base, percent */
	double band;		/* noise half-width, percent of base; <0: none */
	double p;		/* two-sided p-value; <0: no test of its own */
	enum ib_cmp_verdict verdict;
};

enum ib_cmp_side { IB_CMP_BOTH = 0, IB_CMP_ONLY_BASE, IB_CMP_ONLY_NEW };

/*
 * The over-time view of a row when a side was read from a per-interval
 * stream (results.h: series; compare_iv.c): over the side's intervals
 * (every run's), their count, IOPS median/min/max and p99 median/min/worst
 * (the intervals with a latency); for the new side, how many intervals
 * fall outside the base's min..max (IOPS; p99) and the times of the first
 * IB_CMP_IV_AT of them (ms from the run's start).
 */
#define IB_CMP_IV_AT 8
struct ib_cmp_iv {
	unsigned int nr;	/* 0: none (a report) */
	double iops_med, iops_lo, iops_hi;
	unsigned int np99;
	double p99_med, p99_lo, p99_hi;
};
struct ib_cmp_ivs {
	bool any;		/* either side has intervals */
	struct ib_cmp_iv base, new_;
	unsigned int out_iops, out_p99, out_any;	/* both sides have intervals */
	unsigned int nr_at;
	uint64_t at_ms[IB_CMP_IV_AT];
};

struct ib_cmp_row {
	char job[IB_NAME_MAX];
	unsigned int occurrence;	/* k-th job of that name */
	unsigned int ddir;
	enum ib_cmp_side side;
	unsigned int nbase, nnew;	/* runs that had this row */
	char note[256];			/* "iodepth 16 vs 1", or "" */
	bool mean_clat;			/* a run without total latency (a
					 * stream): mean is completion's */
	struct ib_cmp_cell m[IB_CMP_NR];
	struct ib_cmp_ivs iv;
};

struct ib_cmp_opts {
	double alpha;		/* 0: 0.05 */
	double floor_pct;	/* smallest change that counts; <0: 5 */
};

struct ib_cmp {
	struct ib_cmp_row *rows;
	unsigned int nr_rows;
	unsigned int nbase, nnew;	/* documents per side */
	double alpha, floor_pct;
};

/* Median, min and max of v[0..n), n > 0 (v sorted in place). */
void ib_cmp_spread(double *v, unsigned int n, double *med, double *lo, double *hi);

/*
 * Compare nb base documents with nn new ones (nb, nn >= 1). Returns 0
 * or -ENOMEM / -EINVAL (no document on a side).
 */
int ib_cmp_build(struct ib_cmp *c, const struct ib_results *const *base,
		 unsigned int nb, const struct ib_results *const *nw,
		 unsigned int nn, const struct ib_cmp_opts *o, struct ib_diag *d);
void ib_cmp_free(struct ib_cmp *c);
/* The row's over-time view from both sides' documents (compare_iv.c). */
int ib_cmp_iv_fill(struct ib_cmp_row *row, const struct ib_results *const *base,
		   unsigned int nb, const struct ib_results *const *nw,
		   unsigned int nn);
/* Its text lines, after the row's metrics (compare_text.c's layout). */
void ib_cmp_iv_print(FILE *f, const struct ib_cmp_ivs *iv);
/* Rows compared (side BOTH), and rows on one side only. */
unsigned int ib_cmp_matched(const struct ib_cmp *c);

/* A metric's value for the table: latencies as "12.3us", IOPS and KiB/s
 * as "950", "12.5", "12.5k", "1.25M" (three significant digits, whole
 * numbers from 100). buf has at least 32 bytes. Returns buf. */
char *ib_cmp_fmt(char *buf, size_t len, enum ib_cmp_metric m, double v);

/* The table as text, 80 columns: per row a heading and a line per metric,
 * then a one-line summary. */
void ib_cmp_print(FILE *f, const struct ib_cmp *c, const char *base_name,
		  const char *new_name);

/*
 * The regression gate (--fail-if): comma-separated rules METRIC OP PCT%,
 * e.g. "p99>+10%,iops<-5%": METRIC one of ib_cmp_metric_name() (or "lat"
 * for mean), OP '>' or '<', PCT a signed decimal percent. A rule fires on
 * a compared cell outside the noise (verdict not NOISE) whose change is
 * above (>) or below (<) PCT. Blanks around tokens are allowed.
 */
#define IB_GATE_MAX 16
struct ib_gate_rule {
	enum ib_cmp_metric metric;
	int op;			/* '>' or '<' */
	double pct;
};
struct ib_gate {
	struct ib_gate_rule r[IB_GATE_MAX];
	unsigned int n;
};

/* Returns 0, or -EINVAL with the reason and position in d. */
int ib_gate_parse(struct ib_gate *g, const char *spec, struct ib_diag *d);
/*
 * Print one line per fired rule (and per base row missing on the new side:
 * a gate cannot pass on a job it did not see) to f (may be NULL); returns
 * how many.
 */
unsigned int ib_gate_check(const struct ib_gate *g, const struct ib_cmp *c,
			   FILE *f);

/* The value of job option key in j's options text, or NULL. */
const char *ib_cmp_job_opt(const struct ib_res_job *j, const char *key);

/* Statistics used by the test, exposed for the unit tests. */
/* Two-sided p-value of Student's t with df degrees of freedom (df > 0). */
double ib_cmp_t_p(double t, double df);
/* The t with ib_cmp_t_p(t, df) == alpha. */
double ib_cmp_t_crit(double alpha, double df);

#endif
