// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: the t distribution, the noise test and verdicts on synthetic
 * results documents (one run a side, repeats, a floor), job matching, the
 * text table, the --fail-if parser and the gate.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "plots_capture.h"
#include "iobench/cmd.h"
#include "iobench/compare.h"
#include "iobench/plotcmd.h"

#define SECS 10

/* One job, reads only: iops with per-interval samples (n, sd), latencies
 * spread evenly over [lat, 2 lat). */
static void mkdoc(struct ib_results *r, const char *name, double iops,
		  double sd, unsigned int nsamp, double lat)
{
	struct ib_dir_stats *ds;
	uint64_t i, per;

	assert_int_equal(ib_results_alloc(r, 1, 1, 0), 0);
	snprintf(r->jobs[0].name, sizeof(r->jobs[0].name), "%s", name);
	ds = &r->own_stats[0].dir[0];
	ds->runtime_us = SECS * 1000000ull;
	ds->total_ios = (uint64_t)(iops * SECS);
	ds->io_bytes = ds->total_ios * 4096;
	ds->iops_samples = (struct ib_lat_stat){ nsamp, 0, 0, iops, sd * sd * (nsamp - 1) };
	ds->bw_samples = (struct ib_lat_stat){ nsamp, 0, 0, iops * 4, 16 * sd * sd * (nsamp - 1) };
	ds->lat[IB_LAT_TLAT] = (struct ib_lat_stat){ ds->total_ios, 0, 0, lat * 1.5, 0 };
	per = ds->total_ios / 1000;
	for (i = 0; i < 1000; i++)
		ds->hist[IB_LAT_CLAT].count[ib_hist_index((uint64_t)(lat + lat * i / 1000))] += per;
}

static void t_dist(void **state)
{
	(void)state;
	assert_true(fabs(ib_cmp_t_p(2.228139, 10) - 0.05) < 1e-5);
	assert_true(fabs(ib_cmp_t_p(0, 5) - 1.0) < 1e-12);
	assert_true(fabs(ib_cmp_t_crit(0.05, 1e9) - 1.959964) < 1e-4);
	assert_true(fabs(ib_cmp_t_crit(0.01, 4) - 4.604095) < 1e-4);
	assert_true(fabs(ib_cmp_t_crit(0.05, 4) - 2.776445) < 1e-4);
}

static void build1(struct ib_cmp *c, struct ib_results *b, struct ib_results *n,
		   double floor_pct)
{
	const struct ib_results *pb[] = { b }, *pn[] = { n };
	struct ib_cmp_opts o = { 0.05, floor_pct };
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_cmp_build(c, pb, 1, pn, 1, &o, &d), 0);
}

static void same_is_noise(void **state)
{
	struct ib_results a, b;
	struct ib_cmp c;
	unsigned int m;

	(void)state;
	mkdoc(&a, "j", 100000, 1000, 20, 10000);
	mkdoc(&b, "j", 100000, 1000, 20, 10000);
	build1(&c, &a, &b, -1);
	assert_int_equal(c.nr_rows, 1);
	assert_int_equal(ib_cmp_matched(&c), 1);
	assert_string_equal(c.rows[0].note, "");
	for (m = 0; m < IB_CMP_NR; m++) {
		assert_true(c.rows[0].m[m].valid);
		assert_true(fabs(c.rows[0].m[m].change) < 1e-9);
		assert_int_equal(c.rows[0].m[m].verdict, IB_CMP_NOISE);
	}
	/* se = 1000 * sqrt(2 / 20), df = 38: t = 2.0244 */
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].band - 0.6402) < 0.001);
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].p - 1.0) < 1e-9);
	assert_true(fabs(c.rows[0].m[IB_CMP_MEAN].band - 0.6402) < 0.001);
	assert_true(c.rows[0].m[IB_CMP_MEAN].p < 0);
	assert_true(fabs(c.alpha - 0.05) < 1e-12 && fabs(c.floor_pct - 5.0) < 1e-12);
	ib_cmp_free(&c);
	ib_results_free(&a);
	ib_results_free(&b);
}

static void slower_flagged(void **state)
{
	struct ib_results a, b;
	struct ib_cmp c;
	unsigned int m;

	(void)state;
	mkdoc(&a, "j", 100000, 1000, 20, 10000);
	mkdoc(&b, "j", 90000, 1000, 20, 12000);
	build1(&c, &a, &b, -1);
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].change + 10.0) < 1e-9);
	assert_true(c.rows[0].m[IB_CMP_IOPS].p < 1e-6);
	assert_true(fabs(c.rows[0].m[IB_CMP_MEAN].change - 20.0) < 1e-9);
	for (m = 0; m < IB_CMP_NR; m++)
		assert_int_equal(c.rows[0].m[m].verdict, IB_CMP_SLOWER);
	ib_cmp_free(&c);
	ib_results_free(&b);
	/* the other way round: faster, with the opposite signs */
	mkdoc(&b, "j", 110000, 1000, 20, 8000);
	build1(&c, &a, &b, -1);
	assert_true(c.rows[0].m[IB_CMP_IOPS].change > 9.99);
	assert_true(c.rows[0].m[IB_CMP_P99].change < -19);
	for (m = 0; m < IB_CMP_NR; m++)
		assert_int_equal(c.rows[0].m[m].verdict, IB_CMP_FASTER);
	ib_cmp_free(&c);
	ib_results_free(&a);
	ib_results_free(&b);
}

static void floor_and_noise(void **state)
{
	struct ib_results a, b;
	struct ib_cmp c;

	(void)state;
	/* -3%: significant (band 0.64%) but under the 5% floor */
	mkdoc(&a, "j", 100000, 1000, 20, 10000);
	mkdoc(&b, "j", 97000, 1000, 20, 10000);
	build1(&c, &a, &b, -1);
	assert_int_equal(c.rows[0].m[IB_CMP_IOPS].verdict, IB_CMP_NOISE);
	ib_cmp_free(&c);
	build1(&c, &a, &b, 1.0);	/* a 1% floor: now it counts */
	assert_int_equal(c.rows[0].m[IB_CMP_IOPS].verdict, IB_CMP_SLOWER);
	ib_cmp_free(&c);
	ib_results_free(&b);
	/* -10% inside a wide band (sd 20000 over 4 samples) */
	mkdoc(&b, "j", 90000, 20000, 4, 10000);
	ib_results_free(&a);
	mkdoc(&a, "j", 100000, 20000, 4, 10000);
	build1(&c, &a, &b, -1);
	assert_true(c.rows[0].m[IB_CMP_IOPS].band > 10.0);
	assert_true(c.rows[0].m[IB_CMP_IOPS].p > 0.05);
	assert_int_equal(c.rows[0].m[IB_CMP_IOPS].verdict, IB_CMP_NOISE);
	ib_cmp_free(&c);
	ib_results_free(&a);
	ib_results_free(&b);
}

static void mismatch(void **state)
{
	struct ib_results a, b;
	struct ib_cmp c;
	struct capture cap;
	char *out;

	(void)state;
	mkdoc(&a, "seq", 100000, 1000, 20, 10000);
	mkdoc(&b, "rand", 100000, 1000, 20, 10000);
	build1(&c, &a, &b, -1);
	assert_int_equal(c.nr_rows, 2);
	assert_int_equal(ib_cmp_matched(&c), 0);
	assert_int_equal(c.rows[0].side, IB_CMP_ONLY_BASE);
	assert_string_equal(c.rows[0].job, "seq");
	assert_int_equal(c.rows[1].side, IB_CMP_ONLY_NEW);
	cap_open(&cap);
	ib_cmp_print(cap.f, &c, "a.json", "b.json");
	out = cap_close(&cap);
	assert_non_null(strstr(out, "\njob 'seq' read: only in base, not compared\n"));
	assert_non_null(strstr(out, "\njob 'rand' read: only in new, not compared\n"));
	assert_non_null(strstr(out, "\nsummary: 0 compared, 0 faster, 0 slower, 0 within "
			       "noise; 2 on one side only (different jobs)\n"));
	free(out);
	ib_cmp_free(&c);
	ib_results_free(&a);
	ib_results_free(&b);
}

static void set_opts(struct ib_res_job *j, const char *const *kv, unsigned int n)
{
	unsigned int i;
	size_t used = 0;

	for (i = 0; i < n; i++) {
		memcpy(j->opts_text + used, kv[i], strlen(kv[i]) + 1);
		used += strlen(kv[i]) + 1;
	}
	j->opts_text[used] = '\0';
	j->opts_len = (unsigned int)used;
}

static void options_differ(void **state)
{
	struct ib_results a, b;
	struct ib_cmp c;

	(void)state;
	mkdoc(&a, "j", 100000, 1000, 20, 10000);
	mkdoc(&b, "j", 100000, 1000, 20, 10000);
	set_opts(&a.jobs[0], (const char *const[]){ "rw", "read", "iodepth", "16" }, 4);
	set_opts(&b.jobs[0], (const char *const[]){ "rw", "read", "iodepth", "1",
						   "bs", "8k" }, 6);
	assert_string_equal(ib_cmp_job_opt(&a.jobs[0], "iodepth"), "16");
	assert_null(ib_cmp_job_opt(&a.jobs[0], "bs"));
	build1(&c, &a, &b, -1);
	assert_string_equal(c.rows[0].note, "iodepth 16 vs 1, bs (unset) vs 8k");
	ib_cmp_free(&c);
	ib_results_free(&a);
	ib_results_free(&b);
}

/*
 * An option given without a value: fio 3.42 records it as "", 3.33 leaves
 * it out. Against a 3.33 document it is not known to differ; between two
 * 3.42 documents it does.
 */
static void bare_options(void **state)
{
	struct ib_results a, b;
	struct ib_cmp c;

	(void)state;
	mkdoc(&a, "j", 100000, 1000, 20, 10000);
	mkdoc(&b, "j", 100000, 1000, 20, 10000);
	set_opts(&a.jobs[0], (const char *const[]){ "rw", "read" }, 2);
	set_opts(&b.jobs[0], (const char *const[]){ "rw", "read", "time_based", "" }, 4);
	a.fio_version = IB_FIO_V333;
	b.fio_version = IB_FIO_V342;
	build1(&c, &a, &b, -1);
	assert_string_equal(c.rows[0].note, "");
	ib_cmp_free(&c);
	build1(&c, &b, &a, -1);		/* either side */
	assert_string_equal(c.rows[0].note, "");
	ib_cmp_free(&c);
	a.fio_version = IB_FIO_V342;
	build1(&c, &a, &b, -1);
	assert_string_equal(c.rows[0].note, "time_based (unset) vs (set)");
	ib_cmp_free(&c);
	ib_results_free(&a);
	ib_results_free(&b);
}

static void repeats(void **state)
{
	static const double bi[] = { 100000, 101000, 99000 }, ni[] = { 80000, 81000, 79000 };
	struct ib_results a[3], b[3];
	const struct ib_results *pa[3], *pb[3];
	struct ib_diag d = { { 0 } };
	struct ib_cmp c;
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		mkdoc(&a[i], "j", bi[i], 50000, 20, 10000);	/* samples ignored */
		mkdoc(&b[i], "j", ni[i], 50000, 20, 10000);
		pa[i] = &a[i];
		pb[i] = &b[i];
	}
	assert_int_equal(ib_cmp_build(&c, pa, 3, pb, 3, NULL, &d), 0);
	assert_int_equal(c.rows[0].nbase, 3);
	assert_int_equal(c.rows[0].nnew, 3);
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].base - 100000) < 1e-6);
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].base_lo - 99000) < 1e-6);
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].base_hi - 101000) < 1e-6);
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].new_ - 80000) < 1e-6);
	/* se = 1000 * sqrt(2 / 3), df = 4: band 2.776 * 816.5 / 1000 % */
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].band - 2.2669) < 0.001);
	assert_int_equal(c.rows[0].m[IB_CMP_IOPS].verdict, IB_CMP_SLOWER);
	/* identical latencies in every run: no spread, no change */
	assert_true(fabs(c.rows[0].m[IB_CMP_P50].band) < 1e-12);
	assert_int_equal(c.rows[0].m[IB_CMP_P50].verdict, IB_CMP_NOISE);
	ib_cmp_free(&c);
	for (i = 0; i < 3; i++) {
		ib_results_free(&a[i]);
		ib_results_free(&b[i]);
	}
}

/* Medians that move while the means tested do not (one skewed run a side):
 * the test decides, not the medians' change. */
static void skewed_repeats(void **state)
{
	static const double bi[] = { 100000, 100000, 300000 }, ni[] = { 150000, 150000, 100000 };
	struct ib_results a[3], b[3];
	const struct ib_results *pa[3], *pb[3];
	struct ib_diag d = { { 0 } };
	struct ib_cmp c;
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		mkdoc(&a[i], "j", bi[i], 1000, 20, 10000);
		mkdoc(&b[i], "j", ni[i], 1000, 20, 10000);
		pa[i] = &a[i];
		pb[i] = &b[i];
	}
	assert_int_equal(ib_cmp_build(&c, pa, 3, pb, 3, NULL, &d), 0);
	assert_true(fabs(c.rows[0].m[IB_CMP_IOPS].change - 50.0) < 1e-9);
	assert_true(c.rows[0].m[IB_CMP_IOPS].p > 0.3);
	assert_int_equal(c.rows[0].m[IB_CMP_IOPS].verdict, IB_CMP_NOISE);
	ib_cmp_free(&c);
	for (i = 0; i < 3; i++) {
		ib_results_free(&a[i]);
		ib_results_free(&b[i]);
	}
}

static void value_format(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(ib_cmp_fmt(b, sizeof(b), IB_CMP_IOPS, 6218.562874), "6219");
	assert_string_equal(ib_cmp_fmt(b, sizeof(b), IB_CMP_IOPS, 12.5), "12.5");
	assert_string_equal(ib_cmp_fmt(b, sizeof(b), IB_CMP_BW, 0.025), "0.025");
	assert_string_equal(ib_cmp_fmt(b, sizeof(b), IB_CMP_BW, 12500), "12.5k");
	assert_string_equal(ib_cmp_fmt(b, sizeof(b), IB_CMP_P99, 1234567), "1.23ms");
}

static void text_table(void **state)
{
	struct ib_results a, b;
	struct ib_cmp c;
	struct capture cap;
	char *out, *line;

	(void)state;
	mkdoc(&a, "j", 100000, 1000, 20, 10000);
	mkdoc(&b, "j", 90000, 1000, 20, 12000);
	build1(&c, &a, &b, -1);
	cap_open(&cap);
	ib_cmp_print(cap.f, &c, "a.json", "b.json");
	out = cap_close(&cap);
	assert_non_null(strstr(out, "base: a.json (1 run)\nnew:  b.json (1 run)\n"
			       "noise: Welch t-test at 5% on the per-interval iops/bw "
			       "samples, floor 5%\n"));
	assert_non_null(strstr(out, "\njob 'j' read (runs: 1 base, 1 new)\n"
			       "  metric         base   range        new   range   change"
			       "    noise  verdict\n"
			       "  iops           100k       -        90k       -   -10.0%"
			       "   +-0.6%  slower\n"));
	assert_non_null(strstr(out, "\n  mean           15us       -       18us       -   +20.0%"
			       "   +-0.6%  slower\n"));
	assert_non_null(strstr(out, "\nsummary: 1 compared, 0 faster, 7 slower, 0 within noise\n"));
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
		assert_true(strlen(line) <= 80);
	free(out);
	ib_cmp_free(&c);
	ib_results_free(&a);
	ib_results_free(&b);
}

static void gate_parse_ok(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_gate g;

	(void)state;
	assert_int_equal(ib_gate_parse(&g, "p99>+10%,iops<-5%", &d), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.r[0].metric, IB_CMP_P99);
	assert_int_equal(g.r[0].op, '>');
	assert_true(fabs(g.r[0].pct - 10.0) < 1e-12);
	assert_int_equal(g.r[1].metric, IB_CMP_IOPS);
	assert_int_equal(g.r[1].op, '<');
	assert_true(fabs(g.r[1].pct + 5.0) < 1e-12);
	assert_int_equal(ib_gate_parse(&g, " lat > 2.5 % , p99.9>.5%,bw<-1%", &d), 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.r[0].metric, IB_CMP_MEAN);
	assert_true(fabs(g.r[0].pct - 2.5) < 1e-12);
	assert_int_equal(g.r[1].metric, IB_CMP_P999);
	assert_true(fabs(g.r[1].pct - 0.5) < 1e-12);
	assert_int_equal(g.r[2].metric, IB_CMP_BW);
}

static void gate_bad(const char *spec, const char *msg)
{
	struct ib_diag d = { { 0 } };
	struct ib_gate g;

	assert_int_equal(ib_gate_parse(&g, spec, &d), -EINVAL);
	assert_string_equal(d.msg, msg);
}

static void gate_parse_errors(void **state)
{
	(void)state;
	gate_bad("", "--fail-if: expected a metric (iops, bw, mean, p50, p90, p99, p99.9) "
		 "at column 1 of ''");
	gate_bad("p95>1%", "--fail-if: unknown metric (iops, bw, mean, p50, p90, p99, "
		 "p99.9) at column 1 of 'p95>1%'");
	gate_bad("p99=1%", "--fail-if: expected '<' or '>' at column 4 of 'p99=1%'");
	gate_bad("p99>1", "--fail-if: expected '%' at column 6 of 'p99>1'");
	gate_bad("p99>inf%", "--fail-if: expected a percentage such as +10% at column 5 "
		 "of 'p99>inf%'");
	gate_bad("p99>1e5%", "--fail-if: expected '%' at column 6 of 'p99>1e5%'");
	gate_bad("p99>+%", "--fail-if: expected a percentage such as +10% at column 5 "
		 "of 'p99>+%'");
	gate_bad("p99>1%;iops<1%", "--fail-if: expected ',' or the end at column 7 of "
		 "'p99>1%;iops<1%'");
	gate_bad("p99>1%,", "--fail-if: expected a metric (iops, bw, mean, p50, p90, "
		 "p99, p99.9) at column 8 of 'p99>1%,'");
	gate_bad("p99>9999999%", "--fail-if: expected a percentage such as +10% at "
		 "column 5 of 'p99>9999999%'");
	gate_bad("a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,"
		 "a>1%,a>1%,a>1%,a>1%", "--fail-if: unknown metric (iops, bw, mean, p50, "
		 "p90, p99, p99.9) at column 1 of 'a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,"
		 "a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%,a>1%'");
	gate_bad("bw>1%,bw>1%,bw>1%,bw>1%,bw>1%,bw>1%,bw>1%,bw>1%,bw>1%,bw>1%,bw>1%,"
		 "bw>1%,bw>1%,bw>1%,bw>1%,bw>1%,bw>1%", "--fail-if: at most 16 rules");
}

static void gate_check(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_results a, b, x;
	struct ib_gate g;
	struct ib_cmp c;
	struct capture cap;
	char *out;

	(void)state;
	mkdoc(&a, "j", 100000, 1000, 20, 10000);
	mkdoc(&b, "j", 90000, 1000, 20, 12000);
	assert_int_equal(ib_gate_parse(&g, "p99>+10%,iops<-5%,iops<-20%,bw>+1%", &d), 0);
	build1(&c, &a, &b, -1);
	cap_open(&cap);
	assert_int_equal(ib_gate_check(&g, &c, cap.f), 2);
	out = cap_close(&cap);
	assert_non_null(strstr(out, "gate: job 'j' read: iops -10.0% < -5% (slower)\n"));
	assert_non_null(strstr(out, "gate: job 'j' read: p99 +"));
	free(out);
	ib_cmp_free(&c);
	build1(&c, &a, &a, -1);		/* the same run: nothing fires */
	assert_int_equal(ib_gate_check(&g, &c, NULL), 0);
	ib_cmp_free(&c);
	mkdoc(&x, "other", 100000, 1000, 20, 10000);
	build1(&c, &a, &x, -1);		/* a job missing on the new side */
	cap_open(&cap);
	assert_int_equal(ib_gate_check(&g, &c, cap.f), 1);
	out = cap_close(&cap);
	assert_string_equal(out, "gate: job 'j' read: missing on the new side\n");
	free(out);
	ib_cmp_free(&c);
	ib_results_free(&a);
	ib_results_free(&b);
	ib_results_free(&x);
}

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

static void cli_compare(void **state)
{
	static struct ib_cmd_args a;
	struct ib_diag d = { { 0 } };
	char **v;

	(void)state;
	v = ARGV("compare", "a.json", "b.json", "c.json");
	assert_int_equal(ib_compare_parse(4, v, &a, &d), 0);
	assert_int_equal(a.nb, 1);
	assert_int_equal(a.nn, 2);
	assert_true(a.pairwise);
	assert_string_equal(a.base[0], "a.json");
	assert_string_equal(a.nw[1], "c.json");
	assert_false(a.has_gate);
	v = ARGV("compare", "--fail-if", "p99>+10%", "--alpha=0.01", "--floor", "2",
		 "--plot=x.html", "--base", "a1", "a2", "--new", "b1");
	assert_int_equal(ib_compare_parse(12, v, &a, &d), 0);
	assert_int_equal(a.nb, 2);
	assert_int_equal(a.nn, 1);
	assert_false(a.pairwise);
	assert_true(a.has_gate);
	assert_int_equal(a.gate.n, 1);
	assert_true(fabs(a.cmp.alpha - 0.01) < 1e-12);
	assert_true(fabs(a.cmp.floor_pct - 2.0) < 1e-12);
	assert_string_equal(a.output, "x.html");
	v = ARGV("compare", "x.json", "--base", "a", "--new", "b");
	assert_int_equal(ib_compare_parse(6, v, &a, &d), -EINVAL);
	assert_string_equal(d.msg, "compare: a file before --base/--new: 'x.json'");
	v = ARGV("compare", "--base", "a");
	assert_int_equal(ib_compare_parse(3, v, &a, &d), -EINVAL);
	assert_string_equal(d.msg, "compare: needs files on both sides");
	v = ARGV("compare", "--base", "a", "--new", "b", "--floor");
	assert_int_equal(ib_compare_parse(6, v, &a, &d), -EINVAL);
	assert_string_equal(d.msg, "--floor: needs a value");
	v = ARGV("compare", "--alpha=0.9", "a", "b");
	assert_int_equal(ib_compare_parse(4, v, &a, &d), -EINVAL);
	assert_string_equal(d.msg, "--alpha: invalid value '0.9'");
	v = ARGV("compare", "--help");
	assert_int_equal(ib_compare_parse(2, v, &a, &d), 0);
	assert_true(a.help);
}

static void cli_plot(void **state)
{
	static struct ib_cmd_args a;
	struct ib_diag d = { { 0 } };
	char **v;

	(void)state;
	v = ARGV("plot", "-o", "out.svg", "--avg-msec=500", "a.json", "b_bw.1.log");
	assert_int_equal(ib_plot_parse(6, v, &a, &d), 0);
	assert_string_equal(a.output, "out.svg");
	assert_int_equal(a.avg_ms, 500);
	assert_int_equal(a.nfiles, 2);
	assert_string_equal(a.files[1], "b_bw.1.log");
	v = ARGV("plot", "a.json");
	assert_int_equal(ib_plot_parse(2, v, &a, &d), -EINVAL);
	assert_string_equal(d.msg, "plot: needs -o FILE.svg or FILE.html");
	v = ARGV("report", "a.json");	/* report: stdout by default */
	assert_int_equal(ib_plot_parse(2, v, &a, &d), 0);
	assert_null(a.output);
	v = ARGV("plot", "--output=x.html", "-q", "a");
	assert_int_equal(ib_plot_parse(4, v, &a, &d), -EINVAL);
	assert_string_equal(d.msg, "plot: unknown option '-q'");
}

static void repeat_path(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(ib_repeat_path(buf, sizeof(buf), "out.json", 3), 0);
	assert_string_equal(buf, "out.3.json");
	assert_int_equal(ib_repeat_path(buf, sizeof(buf), "dir.d/out", 12), 0);
	assert_string_equal(buf, "dir.d/out.12");
	assert_int_equal(ib_repeat_path(buf, sizeof(buf), ".hidden", 1), 0);
	assert_string_equal(buf, ".hidden.1");
	assert_int_equal(ib_repeat_path(buf, sizeof(buf), "a/b.tar.gz", 2), 0);
	assert_string_equal(buf, "a/b.tar.2.gz");
	assert_int_equal(ib_repeat_path(buf, 8, "out.json", 3), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_dist),
		cmocka_unit_test(same_is_noise),
		cmocka_unit_test(slower_flagged),
		cmocka_unit_test(floor_and_noise),
		cmocka_unit_test(mismatch),
		cmocka_unit_test(options_differ),
		cmocka_unit_test(bare_options),
		cmocka_unit_test(repeats),
		cmocka_unit_test(skewed_repeats),
		cmocka_unit_test(value_format),
		cmocka_unit_test(text_table),
		cmocka_unit_test(gate_parse_ok),
		cmocka_unit_test(gate_parse_errors),
		cmocka_unit_test(gate_check),
		cmocka_unit_test(cli_compare),
		cmocka_unit_test(cli_plot),
		cmocka_unit_test(repeat_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
