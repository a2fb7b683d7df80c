// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare's over-time view (compare.h: struct ib_cmp_ivs): when a side was
 * read from a per-interval stream, the spread of its intervals' IOPS and
 * p99, and which of the new side's intervals fall outside the base's range.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/compare.h"

/* The series of the k-th job named name in r, or NULL. */
static const struct ib_res_series *series_of(const struct ib_results *r,
					     const char *name, unsigned int k)
{
	unsigned int i;

	for (i = 0; r->series && i < r->nr_jobs; i++)
		if (!strcmp(r->jobs[i].name, name) && k-- == 0)
			return &r->series[i];
	return NULL;
}

static unsigned int count_iv(const struct ib_results *const *docs, unsigned int n,
			     const struct ib_cmp_row *row)
{
	const struct ib_res_series *s;
	unsigned int i, nr = 0;

	for (i = 0; i < n; i++)
		if ((s = series_of(docs[i], row->job, row->occurrence)))
			nr += s->nr;
	return nr;
}

/* One side's intervals of the row: count, IOPS and p99 spreads. */
static void side_iv(struct ib_cmp_iv *o, const struct ib_results *const *docs,
		    unsigned int n, const struct ib_cmp_row *row, double *a, double *b)
{
	const struct ib_res_series *s;
	unsigned int i, k, dd = row->ddir;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < n; i++) {
		if (!(s = series_of(docs[i], row->job, row->occurrence)))
			continue;
		for (k = 0; k < s->nr; k++) {
			if (isnan(s->iv[k].iops[dd]))
				continue;
			a[o->nr++] = s->iv[k].iops[dd];
			if (!isnan(s->iv[k].p99[dd]))
				b[o->np99++] = s->iv[k].p99[dd];
		}
	}
	if (o->nr)
		ib_cmp_spread(a, o->nr, &o->iops_med, &o->iops_lo, &o->iops_hi);
	if (o->np99)
		ib_cmp_spread(b, o->np99, &o->p99_med, &o->p99_lo, &o->p99_hi);
}

static bool outside(double v, double lo, double hi)
{
	return !isnan(v) && (v < lo || v > hi);
}

/* The new side's intervals against the base's ranges, in time order. */
static void outside_all(struct ib_cmp_ivs *iv, const struct ib_results *const *nw,
			unsigned int nn, const struct ib_cmp_row *row)
{
	const struct ib_cmp_iv *b = &iv->base;
	const struct ib_res_series *s;
	unsigned int i, k, dd = row->ddir;
	bool oi, op;

	for (i = 0; i < nn; i++) {
		if (!(s = series_of(nw[i], row->job, row->occurrence)))
			continue;
		for (k = 0; k < s->nr; k++) {
			if (isnan(s->iv[k].iops[dd]))
				continue;
			oi = outside(s->iv[k].iops[dd], b->iops_lo, b->iops_hi);
			op = b->np99 && outside(s->iv[k].p99[dd], b->p99_lo, b->p99_hi);
			iv->out_iops += oi;
			iv->out_p99 += op;
			iv->out_any += oi || op;
			if ((oi || op) && iv->nr_at < IB_CMP_IV_AT)
				iv->at_ms[iv->nr_at++] = s->iv[k].time_ms;
		}
	}
}

int ib_cmp_iv_fill(struct ib_cmp_row *row, const struct ib_results *const *base,
		   unsigned int nb, const struct ib_results *const *nw,
		   unsigned int nn)
{
	unsigned int cb = count_iv(base, nb, row), cn = count_iv(nw, nn, row);
	unsigned int most = cb > cn ? cb : cn;
	double *a, *b;

	memset(&row->iv, 0, sizeof(row->iv));
	if (!most)
		return 0;
	a = malloc(most * sizeof(*a));
	b = malloc(most * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	side_iv(&row->iv.base, base, nb, row, a, b);
	side_iv(&row->iv.new_, nw, nn, row, a, b);
	row->iv.any = row->iv.base.nr || row->iv.new_.nr;
	if (row->iv.base.nr && row->iv.new_.nr)
		outside_all(&row->iv, nw, nn, row);
	free(a);
	free(b);
	return 0;
}

static void side_line(FILE *f, const char *name, const struct ib_cmp_iv *s)
{
	char m[32], lo[32], hi[32], pm[32], pw[32];

	if (!s->nr) {
		fprintf(f, "  %-8s %s\n", name, "(a report: no intervals)");
		return;
	}
	fprintf(f, "  %-8s %9u %10s %8s %8s %10s %10s\n", name, s->nr,
		ib_cmp_fmt(m, sizeof(m), IB_CMP_IOPS, s->iops_med),
		ib_cmp_fmt(lo, sizeof(lo), IB_CMP_IOPS, s->iops_lo),
		ib_cmp_fmt(hi, sizeof(hi), IB_CMP_IOPS, s->iops_hi),
		s->np99 ? ib_chart_fmt_ns(pm, sizeof(pm), s->p99_med) : "-",
		s->np99 ? ib_chart_fmt_ns(pw, sizeof(pw), s->p99_hi) : "-");
}

void ib_cmp_iv_print(FILE *f, const struct ib_cmp_ivs *iv)
{
	unsigned int i;

	if (!iv->any)
		return;
	fprintf(f, "  %-8s %9s %10s %8s %8s %10s %10s\n", "interval", "count",
		"iops med", "min", "max", "p99 med", "worst");
	side_line(f, "base", &iv->base);
	side_line(f, "new", &iv->new_);
	if (!iv->base.nr || !iv->new_.nr)
		return;
	fprintf(f, "  new outside base's range: iops %u of %u, p99 %u of %u",
		iv->out_iops, iv->new_.nr, iv->out_p99, iv->new_.np99);
	for (i = 0; i < iv->nr_at; i++)
		fprintf(f, "%s%gs", i ? " " : "; at ", (double)iv->at_ms[i] / 1000.0);
	if (iv->out_any > iv->nr_at)
		fputs(" ...", f);
	fputc('\n', f);
}
