// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chart builders: axis ranges and mapping, labels, the structure of each
 * chart (bars, paths, points, markers, legend), byte-exact goldens for two
 * small charts, determinism and the errors.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "plots_capture.h"
#include "iobench/chart.h"
#include "src/report/html/chart_priv.h"

static const double pct[] = { 50, 99, 99.9 };

static char *read_golden(const char *name)
{
	char path[4096];
	char *buf;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", IB_PLOTS_DATA, name);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* got must equal tests/data/plots/name (IB_PLOTS_UPDATE=1 rewrites it) */
static void check_golden(const char *name, const char *got)
{
	char *want;

	if (getenv("IB_PLOTS_UPDATE")) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", IB_PLOTS_DATA, name);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		fclose(f);
	}
	want = read_golden(name);
	if (strcmp(got, want))
		fprintf(stderr, "--- want %s\n%s--- got\n%s", name, want, got);
	assert_string_equal(got, want);
	free(want);
}

static void test_fmt(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), 0), "0ns");
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), 950), "950ns");
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), 999.4), "999ns");
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), 999.6), "1us");
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), 12345), "12.3us");
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), 4560000), "4.56ms");
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), 1.2e9), "1.2s");
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), 3.6e12), "3600s");
	assert_string_equal(ib_chart_fmt_ns(b, sizeof(b), -5), "0ns");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), 750), "750");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), 9999), "9999");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), 12500), "12.5k");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), 1250000), "1.25M");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), 0.25), "0.25");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), 0.025), "0.025");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), 0.1 + 0.2), "0.3");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), -20000), "-20k");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), -0.001), "-0.001");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), -1e-7), "0");
	assert_string_equal(ib_chart_fmt_num(b, sizeof(b), 3e9), "3G");
}

static void test_ranges(void **state)
{
	struct ib_chart_frame fr;

	(void)state;
	ib_chart_range_lin(&fr.x, 0, 1234);
	assert_true(fr.x.lo == 0 && fr.x.hi == 1250 && fr.x.step == 250);
	ib_chart_range_lin(&fr.x, 0, 100);
	assert_true(fr.x.lo == 0 && fr.x.hi == 100 && fr.x.step == 20);
	ib_chart_range_lin(&fr.x, 0, 0);	/* nothing: 0..1 */
	assert_true(fr.x.lo == 0 && fr.x.hi == 1);
	ib_chart_range_lin(&fr.x, 0.3, 0.9);	/* step 0.2 */
	assert_true(fabs(fr.x.lo - 0.2) < 1e-12 && fabs(fr.x.hi - 1) < 1e-12);
	ib_chart_range_log(&fr.y, 20480, 1900000);
	assert_true(fr.y.log && fr.y.lo == 20000 && fr.y.hi == 2000000);
	ib_chart_range_log(&fr.y, 1000, 1000);	/* one value: widened */
	assert_true(fr.y.lo == 1000 && fr.y.hi == 2000);
	ib_chart_range_log(&fr.y, 0, 50);	/* 0 cannot be drawn: from 1 */
	assert_true(fr.y.lo == 1 && fr.y.hi == 50);
	/* mapping: log10 between the ends of the plot box */
	fr.x0 = 100;
	fr.x1 = 500;
	fr.y0 = 300;
	fr.y1 = 100;
	ib_chart_range_log(&fr.x, 10, 1000);
	ib_chart_range_lin(&fr.y, 0, 100);
	assert_true(fabs(ib_chart_px(&fr, 10) - 100) < 1e-9);
	assert_true(fabs(ib_chart_px(&fr, 100) - 300) < 1e-9);
	assert_true(fabs(ib_chart_px(&fr, 1000) - 500) < 1e-9);
	assert_true(fabs(ib_chart_py(&fr, 25) - 250) < 1e-9);
}

/* 60 samples at 1us, 30 at 10us, 10 at 1ms */
static struct ib_hist *small_hist(void)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	unsigned int i;

	assert_non_null(h);
	for (i = 0; i < 100; i++)
		ib_hist_add(h, i < 60 ? 1000 : i < 90 ? 10000 : 1000000);
	return h;
}

static char *render_hist(const struct ib_hist *h)
{
	struct ib_chart_opts o = { "hist", NULL, NULL, 400, 240, false };
	struct ib_diag d = { { 0 } };
	struct capture c;

	cap_open(&c);
	assert_int_equal(ib_chart_hist(c.f, &o, h, pct, 3, &d), 0);
	return cap_close(&c);
}

static void test_hist(void **state)
{
	struct ib_hist *h = small_hist();
	char *a = render_hist(h), *b = render_hist(h);

	(void)state;
	assert_string_equal(a, b);		/* deterministic */
	assert_int_equal(count_of(a, "<rect class=\"bar\""), 3);
	assert_int_equal(count_of(a, "<g class=\"series\""), 1);
	assert_int_equal(count_of(a, "<g class=\"marker\""), 3);
	/* percentiles: the bucket values of 1000 and 1000000 ns */
	assert_non_null(strstr(a, "data-p=\"50\" data-v=\"1004\""));
	assert_non_null(strstr(a, "data-p=\"99\" data-v=\"1003520\""));
	assert_non_null(strstr(a, ">p99.9 1ms</text>"));
	assert_non_null(strstr(a, "<g class=\"axis x\" data-scale=\"log\">"));
	/* 1-2-5 range 500ns..1ms+: ticks at the decades inside it */
	assert_int_equal(count_of(a, "<g class=\"tick\" data-v=\"1000\">"), 1);
	assert_int_equal(count_of(a, "<g class=\"tick\" data-v=\"1000000\">"), 1);
	assert_non_null(strstr(a, ">% of samples</text>"));
	assert_int_equal(count_of(a, "<script"), 0);
	check_golden("hist_small.svg", a);
	free(a);
	free(b);
	free(h);
}

static void test_cdf(void **state)
{
	struct ib_hist *h = small_hist(), *h2 = calloc(1, sizeof(*h2));
	const struct ib_hist *hs[] = { h, h2 };
	const char *const names[] = { "base", "new <run>" };
	struct ib_chart_opts o = { "cdf", NULL, NULL, 0, 0, false };
	struct ib_diag d = { { 0 } };
	struct capture c;
	char *out;

	(void)state;
	ib_hist_add(h2, 5000);
	ib_hist_add(h2, 7000);
	cap_open(&c);
	assert_int_equal(ib_chart_cdf(c.f, &o, hs, names, 2, pct, 3, &d), 0);
	out = cap_close(&c);
	assert_int_equal(count_of(out, "<path class=\"line\""), 2);
	assert_int_equal(count_of(out, "d=\"M"), 2);
	/* a point per non-empty bucket: 3 and 2, the last at 100%, drawn at
	 * the nines axis's end (x1 = 1340 - 24: the page's full width) */
	assert_int_equal(count_of(out, " L"), 2 + 1);
	assert_int_equal(count_of(out, " L1316,"), 2);
	/* percentile on the nines scale (3 samples: up to 99%), latency log */
	assert_non_null(strstr(out, "<g class=\"axis x\" data-scale=\"nines\">"));
	assert_non_null(strstr(out, "<g class=\"axis y\" data-scale=\"log\">"));
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"0\">"), 1);
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"50\">"), 1);
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"90\">"), 1);
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"99\">"), 1);
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"99.9\">"), 0);
	assert_int_equal(count_of(out, "<g class=\"marker\""), 6);
	assert_int_equal(count_of(out, "<circle"), 6);
	/* both series labelled; the second dashed, in its path and legend */
	assert_int_equal(count_of(out, ">p50 "), 2);
	assert_int_equal(count_of(out, "stroke-dasharray=\"6 3\""), 2);
	assert_int_equal(count_of(out, "<line class=\"swatch\""), 2);
	assert_non_null(strstr(out, "data-name=\"new &lt;run&gt;\""));
	assert_non_null(strstr(out, "<g class=\"legend\">"));
	assert_non_null(strstr(out, ">new &lt;run&gt;</text>"));
	free(out);
	free(h);
	free(h2);
}

/*
 * A CDF from a plain JSON's percentile list {99, 50, 90} over 100000
 * samples (its histogram as the results reader makes it: the fewest
 * samples at each percentile's value, the rest at the maximum): steps
 * through the listed percentiles only, the x axis ending at the highest
 * (99: 2 nines, though the samples resolve 5), no marker beyond it, the
 * maximum (50us) drawn nowhere.
 */
static void test_cdf_from_pct(void **state)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	const struct ib_hist *hs[] = { h };
	static const double list[] = { 99, 50, 90 };
	const struct ib_chart_pcts fp[] = { { list, 3 } };
	struct ib_chart_opts o = { "cdf", NULL, NULL, 0, 0, false };
	struct ib_diag d = { { 0 } };
	struct capture c;
	char *out;

	(void)state;
	ib_hist_add_n(h, 1000, 50000);
	ib_hist_add_n(h, 2000, 40000);
	ib_hist_add_n(h, 4000, 9000);
	ib_hist_add_n(h, 50000, 1000);
	cap_open(&c);
	assert_int_equal(ib_chart_cdf_from(c.f, &o, hs, NULL, 1, fp, pct, 3, &d), 0);
	out = cap_close(&c);
	/* M, then a step (up, across) to each of 90 and 99 */
	assert_int_equal(count_of(out, "<path class=\"line\""), 1);
	assert_int_equal(count_of(out, "d=\"M"), 1);
	assert_int_equal(count_of(out, " L"), 4);
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"99\">"), 1);
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"99.9\">"), 0);
	/* latency 1us .. 4us, the axis to 5us: the maximum (50us) left out */
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"5000\">"), 1);
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"10000\">"), 0);
	/* markers at 50 and 99, none at 99.9 (beyond the list) */
	assert_int_equal(count_of(out, "<g class=\"marker\""), 2);
	assert_int_equal(count_of(out, "data-p=\"99.9\""), 0);
	free(out);
	/* bins (no list): the same histogram to 5 nines, the maximum drawn */
	cap_open(&c);
	assert_int_equal(ib_chart_cdf(c.f, &o, hs, NULL, 1, pct, 3, &d), 0);
	out = cap_close(&c);
	assert_int_equal(count_of(out, "<g class=\"tick\" data-v=\"99.999\">"), 1);
	assert_int_equal(count_of(out, " L"), 3);
	assert_int_equal(count_of(out, "<g class=\"marker\""), 3);
	free(out);
	free(h);
}

/*
 * A per-I/O log of 10 minutes (600,000 points) is drawn reduced to the
 * pixels it fills: at most 4 points per pixel column of the chart's width,
 * so the SVG's size follows the width, not the data (about 40 bytes a
 * point with its command and two coordinates); each column keeps its
 * lowest and highest value. A stretch with no point (no I/O completed)
 * breaks the line: a new "M" after it, no ramp across.
 */
static void test_lines_reduced_and_gaps(void **state)
{
	const size_t n = 600000;
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	struct ib_chart_series s = { "r", x, y, n };
	struct ib_chart_opts o = { "t", "time (s)", "latency", 800, 300, true };
	struct ib_diag d = { { 0 } };
	struct capture c;
	size_t i;
	char *out;

	(void)state;
	assert_non_null(x);
	assert_non_null(y);
	for (i = 0; i < n; i++) {
		x[i] = (double)i / 1000.0;		/* one I/O a ms */
		y[i] = 1000.0 + (double)(i % 97) * 10;	/* 1000..1960 ns */
	}
	y[300000] = 50000;	/* one slow I/O: its column keeps it */
	cap_open(&c);
	assert_int_equal(ib_chart_lines(c.f, &o, &s, 1, &d), 0);
	out = cap_close(&c);
	assert_true(count_of(out, " L") + count_of(out, "M") <= 4 * o.width);
	assert_true(strlen(out) < 4 * o.width * 40 + 20000);
	assert_int_equal(count_of(out, "d=\"M"), 1);	/* no gap: one run */
	free(out);
	/* no point from 200 s to 300 s: the line breaks there */
	for (i = 200000; i < 300000; i++)
		x[i] = 200.0;
	s.n = n;
	cap_open(&c);
	assert_int_equal(ib_chart_lines(c.f, &o, &s, 1, &d), 0);
	out = cap_close(&c);
	assert_int_equal(count_of(out, "M"), 2);
	free(out);
	free(x);
	free(y);
}

static void test_lines_and_curve(void **state)
{
	const double x[] = { 0, 1, 2, 3 }, y1[] = { 10, 20, 15, 30 };
	const double y2[] = { 100, 200, 1000 };
	struct ib_chart_series s[] = { { "r", x, y1, 4 }, { "w", x, y2, 3 } };
	struct ib_chart_opts o = { "t", "time (s)", "latency", 0, 0, true };
	struct ib_diag d = { { 0 } };
	struct capture c;
	char *out;

	(void)state;
	cap_open(&c);
	assert_int_equal(ib_chart_lines(c.f, &o, s, 2, &d), 0);
	out = cap_close(&c);
	assert_int_equal(count_of(out, "<path class=\"line\""), 2);
	assert_int_equal(count_of(out, " L"), 3 + 2);
	assert_int_equal(count_of(out, "<circle"), 0);
	assert_non_null(strstr(out, ">1us</text>"));	/* y_ns: 1000 ns ticks */
	assert_non_null(strstr(out, "class=\"xlabel\">time (s)</text>"));
	free(out);
	cap_open(&c);
	o.y_ns = false;
	assert_int_equal(ib_chart_curve(c.f, &o, s, 2, true, &d), 0);
	out = cap_close(&c);
	assert_int_equal(count_of(out, "<circle class=\"point\""), 7);
	assert_non_null(strstr(out, "<g class=\"axis y\" data-scale=\"log\">"));
	free(out);
}

static void test_bars(void **state)
{
	const char *const labels[] = { "read", "write" };
	const char *const series[] = { "A", "B", "C" };
	const double v[] = { 1, 2, 3, 4, 5, 6.5 };
	struct ib_chart_opts o = { "bars", NULL, "IOPS", 400, 240, false };
	struct ib_diag d = { { 0 } };
	struct capture c;
	char *out;

	(void)state;
	cap_open(&c);
	assert_int_equal(ib_chart_bars(c.f, &o, labels, 2, series, 3, v, &d), 0);
	out = cap_close(&c);
	assert_int_equal(count_of(out, "<rect class=\"bar\""), 6);
	assert_int_equal(count_of(out, "<g class=\"series\""), 3);
	assert_non_null(strstr(out, "data-scale=\"cat\""));
	check_golden("bars_small.svg", out);
	free(out);
}

static void test_errors(void **state)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	const struct ib_hist *hs[] = { h };
	const double x[] = { 1, 2 }, bad[] = { 1, NAN }, zero[] = { 0, 1 };
	const double neg[] = { -1 };
	struct ib_chart_series s = { "s", x, bad, 2 };
	struct ib_chart_opts o = { NULL, NULL, NULL, 0, 0, false };
	const char *const l[] = { "a" };
	struct ib_diag d = { { 0 } };
	struct capture c;

	(void)state;
	cap_open(&c);
	assert_int_equal(ib_chart_hist(c.f, &o, h, pct, 3, &d), -EINVAL);
	assert_string_equal(d.msg, "histogram: no samples");
	assert_int_equal(ib_chart_cdf(c.f, &o, hs, NULL, 1, pct, 3, &d), -EINVAL);
	assert_string_equal(d.msg, "CDF: series 0 has no samples");
	assert_int_equal(ib_chart_cdf(c.f, &o, hs, NULL, 0, pct, 3, &d), -EINVAL);
	assert_int_equal(ib_chart_lines(c.f, &o, &s, 1, &d), -EINVAL);
	assert_string_equal(d.msg, "chart: series 's' point 1: bad value");
	assert_int_equal(ib_chart_lines(c.f, &o, &s, 0, &d), -EINVAL);
	s.n = 0;
	assert_int_equal(ib_chart_lines(c.f, &o, &s, 1, &d), -EINVAL);
	assert_string_equal(d.msg, "chart: series 's' has no points");
	s = (struct ib_chart_series){ "s", x, zero, 2 };
	assert_int_equal(ib_chart_curve(c.f, &o, &s, 1, true, &d), -EINVAL);
	assert_int_equal(ib_chart_bars(c.f, &o, l, 1, l, 1, neg, &d), -EINVAL);
	assert_string_equal(d.msg, "bars: value 0 is not a number >= 0");
	free(cap_close(&c));
	assert_int_equal(c.len, 0);	/* nothing written on error */
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_cdf),
		cmocka_unit_test(test_cdf_from_pct),
		cmocka_unit_test(test_lines_and_curve),
		cmocka_unit_test(test_lines_reduced_and_gaps),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
