// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two sets of results documents -> a comparison table (compare.h): job
 * matching, the metrics of a job slot, the noise test and the verdicts.
 *
 * Why Welch's t-test. With one run per side the only measure of noise the
 * documents keep is the per-interval bandwidth and IOPS samples (fio's and
 * ours: count, mean, stddev per direction), so the test must work from
 * those three numbers: Welch's unequal-variance t-test does exactly that,
 * and an interval's mean over hundreds of I/Os is close enough to normal.
 * Latencies have no per-interval samples; at a fixed queue depth Little's
 * law makes mean latency inversely proportional to IOPS, so a latency
 * metric takes the IOPS test's relative band (tails are noisier than that:
 * the floor below covers the rest). With repeated runs the test runs over
 * the per-run values of each metric. A rank test (Mann-Whitney U) was the
 * alternative; its smallest two-sided p-value is 2 / C(n1 + n2, n1), 0.10
 * for 3 runs a side, so it cannot call any change at 5% with fewer than 4
 * runs a side, which is what people repeat; a per-run value averages
 * thousands of I/Os, so the t-test's normality assumption is mild.
 * The floor (5% unless set) keeps a change that is statistically real but
 * too small to matter (or a tail shift the band cannot see) from being
 * called.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/compare.h"
#include "iobench/median.h"

static const char *const metric_names[IB_CMP_NR] = {
	"iops", "bw", "mean", "p50", "p90", "p99", "p99.9",
};
static const double cmp_pct[] = { 50.0, 90.0, 99.0, 99.9 };
#define NR_PCT 4

const char *ib_cmp_metric_name(enum ib_cmp_metric m)
{
	return (unsigned int)m < IB_CMP_NR ? metric_names[m] : "?";
}

const char *ib_cmp_verdict_name(enum ib_cmp_verdict v)
{
	return v == IB_CMP_FASTER ? "faster" : v == IB_CMP_SLOWER ? "slower" :
		"within noise";
}

/* The histogram the percentiles come from: clat, else total latency. */
static const struct ib_hist *pick_hist(const struct ib_dir_stats *ds, uint64_t *n)
{
	const struct ib_hist *h = &ds->hist[IB_LAT_CLAT];
	unsigned int i, k;

	for (k = 0; k < 2; k++, h = &ds->hist[IB_LAT_TLAT]) {
		for (*n = 0, i = 0; i < IB_HIST_NR; i++)
			*n += h->count[i];
		if (*n)
			return h;
	}
	return NULL;
}

/* Every metric of one direction of one job slot; NAN where absent. */
static void slot_metrics(const struct ib_job_stats *s, unsigned int ddir,
			 bool clat, double out[IB_CMP_NR])
{
	const struct ib_dir_stats *ds = &s->dir[ddir];
	const struct ib_lat_stat *l = &ds->lat[IB_LAT_TLAT];
	double secs = (double)ds->runtime_us / 1e6;
	uint64_t n = 0, v[NR_PCT];
	const struct ib_hist *h = pick_hist(ds, &n);
	unsigned int i;

	for (i = 0; i < IB_CMP_NR; i++)
		out[i] = NAN;
	if (secs > 0) {
		out[IB_CMP_IOPS] = (double)ds->total_ios / secs;
		out[IB_CMP_BW] = (double)ds->io_bytes / 1024.0 / secs;
	}
	if (!l->n || clat)
		l = &ds->lat[IB_LAT_CLAT];
	if (l->n)
		out[IB_CMP_MEAN] = l->mean;
	if (h && !ib_hist_percentiles(h, n, cmp_pct, NR_PCT, v))
		for (i = 0; i < NR_PCT; i++)
			out[IB_CMP_P50 + i] = (double)v[i];
}

/*
 * The sampling noise of percentile q of a run, relative to its value: the
 * number of samples below the true q-quantile is binomial (n, q), so the
 * ranks n * q -+ z * sqrt(n q (1 - q)) bound it at the test's level (a
 * distribution-free interval); their values in h, half the gap over the
 * value. Tails with few samples beyond them get wide bands, as they should.
 */
static double pct_noise(const struct ib_dir_stats *ds, double q, double z)
{
	uint64_t n, v[3];
	const struct ib_hist *h = pick_hist(ds, &n);
	double w, p[3];

	if (!h)
		return 0.0;
	q /= 100.0;
	w = z * sqrt(q * (1.0 - q) / (double)n);
	p[0] = fmax(0.0, q - w) * 100.0;
	p[1] = q * 100.0;
	p[2] = fmin(1.0, q + w) * 100.0;
	if (ib_hist_percentiles(h, n, p, 3, v) || !v[1])
		return 0.0;
	return ((double)v[2] - (double)v[0]) / 2.0 / (double)v[1];
}

/* The slot of the k-th job named name in r, or -1. */
static int find_job(const struct ib_results *r, const char *name, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < r->nr_jobs; i++)
		if (!strcmp(r->jobs[i].name, name) && k-- == 0)
			return (int)i;
	return -1;
}

static unsigned int occurrence(const struct ib_results *r, unsigned int i)
{
	unsigned int j, k = 0;

	for (j = 0; j < i; j++)
		k += !strcmp(r->jobs[j].name, r->jobs[i].name);
	return k;
}

static struct ib_cmp_row *find_row(struct ib_cmp *c, const char *name,
				   unsigned int k, unsigned int ddir)
{
	unsigned int i;

	for (i = 0; i < c->nr_rows; i++)
		if (!strcmp(c->rows[i].job, name) && c->rows[i].occurrence == k &&
		    c->rows[i].ddir == ddir)
			return &c->rows[i];
	return NULL;
}

static int add_row(struct ib_cmp *c, const char *name, unsigned int k,
		   unsigned int ddir, bool is_new)
{
	struct ib_cmp_row *row = find_row(c, name, k, ddir), *nr;

	if (!row) {
		nr = realloc(c->rows, (c->nr_rows + 1) * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		c->rows = nr;
		row = &c->rows[c->nr_rows++];
		memset(row, 0, sizeof(*row));
		snprintf(row->job, sizeof(row->job), "%s", name);
		row->occurrence = k;
		row->ddir = ddir;
	}
	if (is_new)
		row->nnew++;
	else
		row->nbase++;
	return 0;
}

static int collect(struct ib_cmp *c, const struct ib_results *const *docs,
		   unsigned int n, bool is_new)
{
	unsigned int i, j, dd;
	int ret;

	for (i = 0; i < n; i++)
		for (j = 0; j < docs[i]->nr_jobs; j++)
			for (dd = 0; dd < IB_DDIR_RWT; dd++) {
				if (!docs[i]->stats[j].dir[dd].total_ios)
					continue;
				ret = add_row(c, docs[i]->jobs[j].name,
					      occurrence(docs[i], j), dd, is_new);
				if (ret)
					return ret;
			}
	return 0;
}

/* The metric's value in each document of a side that has the row. */
static unsigned int side_values(const struct ib_results *const *docs,
				unsigned int n, const struct ib_cmp_row *row,
				enum ib_cmp_metric m, double *out,
				const struct ib_job_stats **first)
{
	double v[IB_CMP_NR];
	unsigned int i, got = 0;
	int j;

	for (i = 0; i < n; i++) {
		j = find_job(docs[i], row->job, row->occurrence);
		if (j < 0 || !docs[i]->stats[j].dir[row->ddir].total_ios)
			continue;
		slot_metrics(&docs[i]->stats[j], row->ddir, row->mean_clat, v);
		if (!got && first)
			*first = &docs[i]->stats[j];
		if (!isnan(v[m]))
			out[got++] = v[m];
	}
	return got;
}

static void mean_sd(const double *v, unsigned int n, double *mean, double *sd)
{
	double s = 0, q = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	for (i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(q / (n - 1)) : 0.0;
}

void ib_cmp_spread(double *v, unsigned int n, double *med, double *lo, double *hi)
{
	*med = ib_median_sort(v, n);
	*lo = v[0];
	*hi = v[n - 1];
}

/*
 * Welch's test of the difference of two means (counts n1, n2): the band
 * (tcrit * standard error, percent of m1) and the two-sided p-value. A side
 * with one value takes the other side's variance. Neither side with two:
 * no band, no p (both -1).
 */
static void welch(double m1, double s1, double n1, double m2, double s2,
		  double n2, double alpha, double *band, double *p)
{
	double v1, v2, se, df;

	*band = -1.0;
	*p = -1.0;
	if ((n1 < 2 && n2 < 2) || m1 == 0.0)
		return;
	if (n1 < 2 || n2 < 2) {
		double s = n1 < 2 ? s2 : s1;

		se = s * sqrt(1.0 / n1 + 1.0 / n2);
		df = (n1 < 2 ? n2 : n1) - 1.0;
	} else {
		v1 = s1 * s1 / n1;
		v2 = s2 * s2 / n2;
		se = sqrt(v1 + v2);
		df = se > 0 ? pow(se, 4) / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1)) : 1.0;
	}
	if (!(se > 0)) {
		*band = 0.0;
		*p = m1 == m2 ? 1.0 : 0.0;
		return;
	}
	*band = ib_cmp_t_crit(alpha, df) * se / fabs(m1) * 100.0;
	*p = ib_cmp_t_p((m2 - m1) / se, df);
}

static bool higher_is_better(enum ib_cmp_metric m)
{
	return m == IB_CMP_IOPS || m == IB_CMP_BW;
}

/*
 * Outside the noise: the test's p-value when the cell has one (the medians
 * shown can move while the means tested do not: a skewed run), else the
 * band; and at least the floor.
 */
static void verdict(struct ib_cmp_cell *cl, enum ib_cmp_metric m, double floor_pct,
		    double alpha)
{
	double a = fabs(cl->change);

	cl->verdict = IB_CMP_NOISE;
	if (isnan(cl->change) || a < floor_pct)
		return;
	if (cl->p >= 0 ? cl->p >= alpha : cl->band >= 0 && a <= cl->band)
		return;
	if ((cl->change > 0) == higher_is_better(m))
		cl->verdict = IB_CMP_FASTER;
	else
		cl->verdict = IB_CMP_SLOWER;
}

/* One run a side: the per-interval samples' test (latencies: IOPS's band). */
static void noise_samples(struct ib_cmp_cell *cl, enum ib_cmp_metric m,
			  const struct ib_dir_stats *b, const struct ib_dir_stats *n,
			  double alpha, double iops_band)
{
	const struct ib_lat_stat *sb, *sn;

	double z, rb, rn;

	if (m != IB_CMP_IOPS && m != IB_CMP_BW) {
		cl->band = iops_band;
		cl->p = -1.0;
		if (m < IB_CMP_P50)
			return;
		z = ib_cmp_t_crit(alpha, 1e9);
		rb = pct_noise(b, cmp_pct[m - IB_CMP_P50], z);
		rn = pct_noise(n, cmp_pct[m - IB_CMP_P50], z);
		cl->band = fmax(iops_band, sqrt(rb * rb + rn * rn) * 100.0);
		return;
	}
	sb = m == IB_CMP_IOPS ? &b->iops_samples : &b->bw_samples;
	sn = m == IB_CMP_IOPS ? &n->iops_samples : &n->bw_samples;
	welch(sb->mean, ib_lat_stat_stddev(sb), (double)sb->n, sn->mean,
	      ib_lat_stat_stddev(sn), (double)sn->n, alpha, &cl->band, &cl->p);
}

/* Two or more runs on a side: the test over the per-run values. */
static void noise_runs(struct ib_cmp_cell *cl, const double *vb, unsigned int nb,
		       const double *vn, unsigned int nn, double alpha)
{
	double mb, sdb, mn, sdn;

	mean_sd(vb, nb, &mb, &sdb);
	mean_sd(vn, nn, &mn, &sdn);
	welch(mb, sdb, nb, mn, sdn, nn, alpha, &cl->band, &cl->p);
}

#define MAX_RUNS 256

struct sides {
	const struct ib_results *const *base, *const *nw;
	unsigned int nb, nn;
};

static void fill_cell(const struct ib_cmp *c, struct ib_cmp_row *row,
		      enum ib_cmp_metric m, const struct sides *sd)
{
	struct ib_cmp_cell *cl = &row->m[m];
	const struct ib_job_stats *fb = NULL, *fn = NULL;
	double vb[MAX_RUNS], vn[MAX_RUNS];
	unsigned int gb, gn;

	gb = side_values(sd->base, sd->nb, row, m, vb, &fb);
	gn = side_values(sd->nw, sd->nn, row, m, vn, &fn);
	memset(cl, 0, sizeof(*cl));
	cl->band = cl->p = -1.0;
	if (!gb || !gn)
		return;
	cl->valid = true;
	if (gb > 1 || gn > 1)
		noise_runs(cl, vb, gb, vn, gn, c->alpha);
	else
		noise_samples(cl, m, &fb->dir[row->ddir], &fn->dir[row->ddir],
			      c->alpha, row->m[IB_CMP_IOPS].band);
	ib_cmp_spread(vb, gb, &cl->base, &cl->base_lo, &cl->base_hi);
	ib_cmp_spread(vn, gn, &cl->new_, &cl->new_lo, &cl->new_hi);
	cl->change = cl->base != 0 ? (cl->new_ - cl->base) / cl->base * 100.0 : NAN;
	verdict(cl, m, c->floor_pct, c->alpha);
}

const char *ib_cmp_job_opt(const struct ib_res_job *j, const char *key)
{
	const char *p = j->opts_text, *end = j->opts_text + j->opts_len;

	while (p < end && *p) {
		const char *v = p + strlen(p) + 1;

		if (v >= end)
			break;
		if (!strcmp(p, key))
			return v;
		p = v + strlen(v) + 1;
	}
	return NULL;
}

static void note_add(char *note, size_t len, const char *key, const char *b,
		     const char *n)
{
	size_t used = strlen(note);

	if (used + 1 < len && (!b || !n || strcmp(b, n)))	/* "": given bare */
		snprintf(note + used, len - used, "%s%s %s vs %s", used ? ", " : "",
			 key, !b ? "(unset)" : *b ? b : "(set)", !n ? "(unset)" : *n ? n : "(set)");
}

/*
 * The value a side ran with: for ioengine and direct (buffered), iobench's
 * "effective options" when the document has them (a default or fallback is
 * no difference: "ioengine io_uring vs (unset)" between two io_uring runs);
 * else the option as given.
 */
static const char *used_opt(const struct ib_res_job *j, const struct ib_job_stats *s,
			    const char *key, char *buf, size_t cap)
{
	bool direct = !strcmp(key, "direct"), buffered = !strcmp(key, "buffered");

	if (s && s->ioengine[0]) {
		if (!strcmp(key, "ioengine"))
			return s->ioengine;
		if (direct || buffered) {
			snprintf(buf, cap, "%d", direct ? s->direct : !s->direct);
			return buf;
		}
	}
	return ib_cmp_job_opt(j, key);
}

/*
 * The job options that differ between the two sides ("iodepth 16 vs 1").
 * A fio 3.33 document leaves out an option given without a value (3.42
 * records it as ""): with one on a side, such an option set on the other
 * side is not known to differ.
 */
static void opts_diff(char *note, size_t len, const struct ib_res_job *const job[2],
		      const struct ib_job_stats *const st[2], bool bare_unknown)
{
	char vb[8], vn[8];
	const char *p, *end, *v, *b, *n;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		p = job[k]->opts_text;
		end = p + job[k]->opts_len;
		while (p < end && *p) {
			v = p + strlen(p) + 1;
			if (v >= end)
				break;
			b = used_opt(job[0], st[0], p, vb, sizeof(vb));
			n = used_opt(job[1], st[1], p, vn, sizeof(vn));
			if ((k == 0 || !ib_cmp_job_opt(job[0], p)) &&
			    !(bare_unknown && !*v && !(k ? b : n)))
				note_add(note, len, p, b, n);
			p = v + strlen(v) + 1;
		}
	}
}

/*
 * Whether a run of the row has completion latencies and no total ones (a
 * stream: its lines hold one kind): then the mean is completion's on both
 * sides (when a run is a stream). And whether a run is a stream (no job
 * options to compare).
 */
static void row_kinds(struct ib_cmp_row *row, const struct ib_results *const *docs,
		      unsigned int n, bool *stream)
{
	const struct ib_lat_stat *l;
	unsigned int i;
	int j;

	for (i = 0; i < n; i++) {
		if ((j = find_job(docs[i], row->job, row->occurrence)) < 0)
			continue;
		l = docs[i]->stats[j].dir[row->ddir].lat;
		row->mean_clat |= !l[IB_LAT_TLAT].n && l[IB_LAT_CLAT].n;
		*stream |= docs[i]->series != NULL;
	}
}

/* How the two sides' job descriptions differ, from the first run of each. */
static void row_note(struct ib_cmp_row *row, const struct sides *sd)
{
	const struct ib_res_job *job[2] = { NULL, NULL };
	const struct ib_job_stats *st[2] = { NULL, NULL };
	unsigned int i;
	int j;

	for (i = 0; i < sd->nb && !job[0]; i++)
		if ((j = find_job(sd->base[i], row->job, row->occurrence)) >= 0) {
			job[0] = &sd->base[i]->jobs[j];
			st[0] = sd->base[i]->stats ? &sd->base[i]->stats[j] : NULL;
		}
	for (i = 0; i < sd->nn && !job[1]; i++)
		if ((j = find_job(sd->nw[i], row->job, row->occurrence)) >= 0) {
			job[1] = &sd->nw[i]->jobs[j];
			st[1] = sd->nw[i]->stats ? &sd->nw[i]->stats[j] : NULL;
		}
	if (job[0] && job[1])
		opts_diff(row->note, sizeof(row->note), job, st,
			  sd->base[0]->fio_version == IB_FIO_V333 ||
			  sd->nw[0]->fio_version == IB_FIO_V333);
}

int ib_cmp_build(struct ib_cmp *c, const struct ib_results *const *base,
		 unsigned int nb, const struct ib_results *const *nw,
		 unsigned int nn, const struct ib_cmp_opts *o, struct ib_diag *d)
{
	struct sides sd = { base, nw, nb, nn };
	unsigned int i, m;
	bool stream;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!nb || !nn)
		return ib_diag_set(d, EINVAL, "compare: needs a run on each side");
	if (nb > MAX_RUNS || nn > MAX_RUNS)
		return ib_diag_set(d, E2BIG, "compare: at most %d runs a side", MAX_RUNS);
	c->nbase = nb;
	c->nnew = nn;
	c->alpha = o && o->alpha > 0 && o->alpha < 1 ? o->alpha : 0.05;
	c->floor_pct = o && o->floor_pct >= 0 ? o->floor_pct : 5.0;
	ret = collect(c, base, nb, false);
	if (!ret)
		ret = collect(c, nw, nn, true);
	if (ret) {
		ib_cmp_free(c);
		return ib_diag_set(d, -ret, "compare: out of memory");
	}
	for (i = 0; i < c->nr_rows; i++) {
		struct ib_cmp_row *row = &c->rows[i];

		row->side = !row->nnew ? IB_CMP_ONLY_BASE :
			!row->nbase ? IB_CMP_ONLY_NEW : IB_CMP_BOTH;
		if (row->side != IB_CMP_BOTH)
			continue;
		stream = false;
		row_kinds(row, base, nb, &stream);
		row_kinds(row, nw, nn, &stream);
		row->mean_clat &= stream;	/* reports: as they were */
		if (!stream)
			row_note(row, &sd);
		for (m = 0; m < IB_CMP_NR; m++)	/* IOPS first: its band is used */
			fill_cell(c, row, (enum ib_cmp_metric)m, &sd);
		if (ib_cmp_iv_fill(row, base, nb, nw, nn)) {
			ib_cmp_free(c);
			return ib_diag_set(d, ENOMEM, "compare: out of memory");
		}
	}
	return 0;
}

void ib_cmp_free(struct ib_cmp *c)
{
	free(c->rows);
	c->rows = NULL;
	c->nr_rows = 0;
}

unsigned int ib_cmp_matched(const struct ib_cmp *c)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->nr_rows; i++)
		n += c->rows[i].side == IB_CMP_BOTH;
	return n;
}
