// SPDX-License-Identifier: GPL-2.0-only
/*
 * The comparison table as text (compare.h): 80 columns, a block per job and
 * direction, a line per metric, then a summary line.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/compare.h"

static const char *const ddir_name[3] = { "read", "write", "trim" };

char *ib_cmp_fmt(char *buf, size_t len, enum ib_cmp_metric m, double v)
{
	if (m != IB_CMP_IOPS && m != IB_CMP_BW)
		return ib_chart_fmt_ns(buf, len, v);
	if (v >= 9999.5)
		return ib_chart_fmt_num(buf, len, v);
	snprintf(buf, len, v >= 99.5 ? "%.0f" : "%.3g", v);
	return buf;
}

/* "+-3.1%", "+-153%", ">999%": a band within 7 columns */
static const char *band_fmt(char *buf, size_t len, double v)
{
	if (v >= 999.5)
		snprintf(buf, len, ">999%%");
	else if (v >= 99.95)
		snprintf(buf, len, "+-%.0f%%", v);
	else
		snprintf(buf, len, "+-%.1f%%", v);
	return buf;
}

/* Half the min..max range over the median; "-" for one run. */
static const char *range(char *buf, size_t len, double med, double lo,
			 double hi, unsigned int runs)
{
	if (runs < 2 || med == 0)
		return "-";
	return band_fmt(buf, len, (hi - lo) / 2.0 / fabs(med) * 100.0);
}

static void print_cell(FILE *f, const struct ib_cmp_cell *cl,
		       enum ib_cmp_metric m, unsigned int nb, unsigned int nn)
{
	char b[32], n[32], rb[32], rn[32], ch[32], bd[32];

	if (!cl->valid) {
		fprintf(f, "  %-8s %s\n", ib_cmp_metric_name(m), "(not in both runs)");
		return;
	}
	if (isnan(cl->change))
		snprintf(ch, sizeof(ch), "n/a");
	else if (fabs(cl->change) >= 999.95)
		snprintf(ch, sizeof(ch), "%+.0f%%", cl->change);
	else
		snprintf(ch, sizeof(ch), "%+.1f%%", cl->change);
	if (cl->band < 0)
		snprintf(bd, sizeof(bd), "-");
	else
		band_fmt(bd, sizeof(bd), cl->band);
	fprintf(f, "  %-8s %10s %7s %10s %7s %8s %8s  %s\n", ib_cmp_metric_name(m),
		ib_cmp_fmt(b, sizeof(b), m, cl->base),
		range(rb, sizeof(rb), cl->base, cl->base_lo, cl->base_hi, nb),
		ib_cmp_fmt(n, sizeof(n), m, cl->new_),
		range(rn, sizeof(rn), cl->new_, cl->new_lo, cl->new_hi, nn),
		ch, bd, ib_cmp_verdict_name(cl->verdict));
}

/* "  note: the jobs differ: ..." wrapped after a comma at 80 columns */
static void print_note(FILE *f, const char *note)
{
	const char *p = note, *cut;
	size_t col = 24, w;

	fputs("  note: the jobs differ:", f);
	while (*p) {
		cut = strstr(p, ", ");
		w = cut ? (size_t)(cut - p) : strlen(p);
		if (col + 1 + w > 79) {
			fputs("\n   ", f);
			col = 3;
		}
		fprintf(f, " %.*s%s", (int)w, p, cut ? "," : "");
		col += w + 2;
		p = cut ? cut + 2 : p + w;
	}
	fputc('\n', f);
}

static void print_row(FILE *f, const struct ib_cmp_row *row, unsigned int cnt[4])
{
	unsigned int m;

	fprintf(f, "\njob '%s'", row->job);
	if (row->occurrence)
		fprintf(f, " #%u", row->occurrence + 1);
	fprintf(f, " %s", ddir_name[row->ddir % 3]);
	if (row->side != IB_CMP_BOTH) {
		fprintf(f, ": only in %s, not compared\n",
			row->side == IB_CMP_ONLY_BASE ? "base" : "new");
		return;
	}
	fprintf(f, " (runs: %u base, %u new)\n", row->nbase, row->nnew);
	if (row->note[0])
		print_note(f, row->note);
	if (row->mean_clat)
		fputs("  mean: completion latency (a run without total latency)\n", f);
	fprintf(f, "  %-8s %10s %7s %10s %7s %8s %8s  %s\n", "metric", "base",
		"range", "new", "range", "change", "noise", "verdict");
	for (m = 0; m < IB_CMP_NR; m++) {
		print_cell(f, &row->m[m], (enum ib_cmp_metric)m, row->nbase, row->nnew);
		if (row->m[m].valid)
			cnt[row->m[m].verdict]++;
		if (row->m[m].valid && row->m[m].band < 0)
			cnt[3]++;
	}
	ib_cmp_iv_print(f, &row->iv);
}

void ib_cmp_print(FILE *f, const struct ib_cmp *c, const char *base_name,
		  const char *new_name)
{
	unsigned int i, cnt[4] = { 0 }, only = 0;

	fprintf(f, "base: %s (%u run%s)\nnew:  %s (%u run%s)\n", base_name,
		c->nbase, c->nbase == 1 ? "" : "s", new_name, c->nnew,
		c->nnew == 1 ? "" : "s");
	fprintf(f, "noise: Welch t-test at %g%% on %s, floor %g%%\n",
		c->alpha * 100.0, c->nbase > 1 || c->nnew > 1 ? "the runs' values" :
		"the per-interval iops/bw samples", c->floor_pct);
	fprintf(f, "units: iops/s, bw KiB/s, latencies (completion; mean: total)\n");
	for (i = 0; i < c->nr_rows; i++) {
		print_row(f, &c->rows[i], cnt);
		only += c->rows[i].side != IB_CMP_BOTH;
	}
	fprintf(f, "\nsummary: %u compared, %u faster, %u slower, %u within noise",
		ib_cmp_matched(c), cnt[IB_CMP_FASTER], cnt[IB_CMP_SLOWER],
		cnt[IB_CMP_NOISE]);
	if (only)
		fprintf(f, "; %u on one side only (different jobs)", only);
	fputc('\n', f);
	if (cnt[3])
		fprintf(f, "noise '-': no estimate (fewer than two samples or runs a "
			"side): only the floor\n");
}
