// SPDX-License-Identifier: GPL-2.0-only
/*
 * Terminal latency histogram and CDF with text bars (see texthist.h).
 */
#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <string.h>
#include <strings.h>
#include "iobench/chart.h"
#include "texthist.h"

/*
 * Range k is [edge(k), edge(k+1)): 0, then ten steps a decade from 1 ns
 * (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^d, a rounded geometric series
 * whose labels stay short); the last range, from 1000 s, is open so that
 * every label fits 5 characters.
 */
#define PER_DEC 10
#define NRANGE (2 + 12 * PER_DEC)
#define MAX_PCT 16
/* range(11) count(9) pct(6) cum(6) and the five separating blanks */
#define FIXED_COLS 37

static double edge(unsigned int k)
{
	static const double m[PER_DEC] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 };

	if (k == 0)
		return 0;
	return m[(k - 1) % PER_DEC] * pow(10, (double)((k - 1) / PER_DEC));
}

static unsigned int range_of(uint64_t v)
{
	unsigned int k = 1;

	while (k < NRANGE - 1 && (double)v >= edge(k + 1))
		k++;
	return v < 1 ? 0 : k;
}

bool ib_texthist_codeset_utf8(const char *codeset)
{
	return codeset && (!strcasecmp(codeset, "UTF-8") ||
			   !strcasecmp(codeset, "utf8"));
}

bool ib_texthist_locale_utf8(void)
{
	return ib_texthist_codeset_utf8(nl_langinfo(CODESET));
}

/* A bar of frac (0..1) of width cells, padded with blanks to width. */
static void bar(FILE *f, double frac, unsigned int width, bool nonzero,
		bool utf8, char ascii)
{
	static const char *const part[] = {
		"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589",
	};
	unsigned int unit = utf8 ? 8 : 1, i, used;
	unsigned int n = (unsigned int)lround(frac * width * unit);

	if (nonzero && n == 0)
		n = utf8 ? 1 : 0;
	for (i = 0; i < n / unit; i++)
		fputs(utf8 ? "\u2588" : (char[]){ ascii, 0 }, f);
	used = n / unit;
	if (utf8 && n % unit) {
		fputs(part[n % unit], f);
		used++;
	} else if (!utf8 && nonzero && n == 0) {
		fputc('.', f);
		used++;
	}
	for (; used < width; used++)
		fputc(' ', f);
}

struct rows {
	uint64_t c[NRANGE];
	uint64_t n, top;
	unsigned int first, last;
};

static void fill_rows(const struct ib_hist *h, struct rows *r)
{
	unsigned int i, k;

	memset(r, 0, sizeof(*r));
	r->first = NRANGE;
	for (i = 0; i < IB_HIST_NR; i++) {
		if (!h->count[i])
			continue;
		k = range_of(ib_hist_value(i));
		r->c[k] += h->count[i];
		r->n += h->count[i];
		r->first = k < r->first ? k : r->first;
		r->last = k;
	}
	for (k = 0; k < NRANGE; k++)
		r->top = r->c[k] > r->top ? r->c[k] : r->top;
}

/* The row of ranges k..end (end > k: a run of empty ranges). */
static void row(FILE *f, const struct rows *r, unsigned int k, unsigned int end,
		uint64_t cum, unsigned int hw, unsigned int cw, bool utf8)
{
	char lo[16], hi[16];

	ib_chart_fmt_ns(lo, sizeof(lo), edge(k));
	ib_chart_fmt_ns(hi, sizeof(hi), edge(end + 1));
	if (end == NRANGE - 1)
		hi[0] = '\0';
	fprintf(f, "%5s-%-5s %9llu %5.1f%% ", k ? lo : "", hi,
		(unsigned long long)r->c[k], 100.0 * (double)r->c[k] / (double)r->n);
	bar(f, (double)r->c[k] / (double)r->top, hw, r->c[k] > 0, utf8, '#');
	fputc(' ', f);
	bar(f, (double)cum / (double)r->n, cw, cum > 0, utf8, '=');
	fprintf(f, " %5.1f%%\n", 100.0 * (double)cum / (double)r->n);
}

static void pct_line(FILE *f, const struct ib_hist *h, uint64_t n,
		     const double *pct, unsigned int npct, unsigned int cols)
{
	uint64_t v[MAX_PCT];
	unsigned int j, used = 0;
	char item[48], t[16];

	if (!npct || ib_hist_percentiles(h, n, pct, npct, v))
		return;
	for (j = 0; j < npct; j++) {
		int len = snprintf(item, sizeof(item), "p%g %s", pct[j],
				   ib_chart_fmt_ns(t, sizeof(t), (double)v[j]));

		if (used && used + 2 + (unsigned int)len > cols) {
			fputc('\n', f);
			used = 0;
		}
		fprintf(f, "%s%s", used ? "  " : "", item);
		used += (used ? 2 : 0) + (unsigned int)len;
	}
	fputc('\n', f);
}

int ib_texthist_print(FILE *f, const struct ib_hist *h, const double *pct,
		      unsigned int npct, unsigned int cols, bool utf8,
		      struct ib_diag *d)
{
	unsigned int k, end, hw, cw;
	struct rows r;
	uint64_t cum = 0;

	if (cols < 60 || cols > 200)
		return ib_diag_set(d, EINVAL, "histogram: %u columns (60..200)", cols);
	fill_rows(h, &r);
	if (!r.n)
		return ib_diag_set(d, EINVAL, "histogram: no samples");
	cw = (cols - FIXED_COLS) / 3;
	hw = cols - FIXED_COLS - cw;
	fprintf(f, "%-11s %9s %6s %-*s %-*s %6s\n", "latency", "count", "%",
		(int)hw, "histogram", (int)cw, "cdf", "cum");
	for (k = r.first; k <= r.last; k = end + 1) {
		end = k;
		while (!r.c[k] && !r.c[end + 1])
			end++;		/* r.c[r.last] > 0 bounds the run */
		cum += r.c[k];
		row(f, &r, k, end, cum, hw, cw, utf8);
	}
	pct_line(f, h, r.n, pct, npct > MAX_PCT ? MAX_PCT : npct, cols);
	return 0;
}
