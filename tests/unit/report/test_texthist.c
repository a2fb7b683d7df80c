// SPDX-License-Identifier: GPL-2.0-only
/*
 * Terminal histogram: goldens (UTF-8 and ASCII at 80 columns) for a known
 * histogram, the edges (below 1 ns, the open range above 1000 s, runs of
 * empty ranges), widths, the locale decision and the errors.
 */
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "plots_capture.h"
#include "src/report/texthist.h"

static const double pct[] = { 50, 90, 99, 99.9 };

/* Histogram A of tests/tools/plot_demo.c (and test_plots.py) */
static struct ib_hist *known(void)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	uint64_t i;

	assert_non_null(h);
	for (i = 0; i < 10000; i++)
		ib_hist_add(h, i % 100 == 0 ? 1000000 + i * 100 : 20000 + (i * 7919) % 30000);
	return h;
}

static char *render(const struct ib_hist *h, unsigned int cols, bool utf8)
{
	struct ib_diag d = { { 0 } };
	struct capture c;

	cap_open(&c);
	assert_int_equal(ib_texthist_print(c.f, h, pct, 4, cols, utf8, &d), 0);
	return cap_close(&c);
}

/* Display columns of each line (UTF-8 continuation bytes do not count) */
static unsigned int widest(const char *s)
{
	unsigned int w = 0, max = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			max = w > max ? w : max;
			w = 0;
		} else if (((unsigned char)*s & 0xc0) != 0x80) {
			w++;
		}
	}
	return w > max ? w : max;
}

static void check_golden(const char *name, const char *got)
{
	char path[4096], want[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", IB_PLOTS_DATA, name);
	if (getenv("IB_PLOTS_UPDATE")) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		fclose(f);
	}
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(want, 1, sizeof(want) - 1, f);
	fclose(f);
	want[n] = '\0';
	if (strcmp(got, want))
		fprintf(stderr, "--- want %s\n%s--- got\n%s", name, want, got);
	assert_string_equal(got, want);
}

static void test_golden_utf8(void **state)
{
	struct ib_hist *h = known();
	char *out = render(h, 80, true);

	(void)state;
	check_golden("texthist_utf8.txt", out);
	assert_int_equal(widest(out), 80);
	/* rows: 20-25, 25-30, 30-40, 40-50us, the empty run 50us-1ms, then
	 * 1-1.2, 1.2-1.5, 1.5-2ms; the header and the percentiles */
	assert_int_equal(count_of(out, "\n"), 10);
	assert_non_null(strstr(out, " 50us-1ms           0   0.0% "));
	assert_non_null(strstr(out, "p50 35.1us  p90 47.4us  p99 49.9us  p99.9 1.89ms\n"));
	free(out);
	free(h);
}

static void test_golden_ascii(void **state)
{
	struct ib_hist *h = known();
	char *out = render(h, 80, false);
	const char *p;

	(void)state;
	check_golden("texthist_ascii.txt", out);
	for (p = out; *p; p++)
		assert_true((unsigned char)*p < 0x80);
	assert_int_equal(widest(out), 80);
	/* counts: the rows add up to the samples */
	assert_non_null(strstr(out, " 20us-25us       1683  16.8% "));
	assert_non_null(strstr(out, " 40us-50us       3317  33.2% "));
	assert_non_null(strstr(out, "1.5ms-2ms          49   0.5% ."));
	free(out);
	free(h);
}

static void test_edges(void **state)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	char *out;

	(void)state;
	ib_hist_add(h, 0);
	ib_hist_add(h, 1);
	ib_hist_add(h, 5000ull * 1000000000ull);	/* 5000 s */
	out = render(h, 60, true);
	assert_true(widest(out) <= 60);
	/* below 1 ns, then 1 ns, one row for the empty run, the open top */
	assert_non_null(strstr(out, "\n     -1ns           1  33.3% "));
	assert_non_null(strstr(out, "\n  1ns-1.2ns         1  33.3% "));
	assert_non_null(strstr(out, "\n1.2ns-1000s         0   0.0% "));
	assert_non_null(strstr(out, "\n1000s-              1  33.3% "));
	assert_non_null(strstr(out, " 100.0%\np50 1ns  p90 "));
	assert_int_equal(count_of(out, "\n"), 6);
	free(out);
	out = render(h, 200, false);
	assert_int_equal(widest(out), 200);
	free(out);
	free(h);
}

static void test_locale(void **state)
{
	(void)state;
	assert_true(ib_texthist_codeset_utf8("UTF-8"));
	assert_true(ib_texthist_codeset_utf8("utf8"));
	assert_true(ib_texthist_codeset_utf8("Utf-8"));
	assert_false(ib_texthist_codeset_utf8("ANSI_X3.4-1968"));
	assert_false(ib_texthist_codeset_utf8("ISO-8859-1"));
	assert_false(ib_texthist_codeset_utf8(NULL));
	/* the C locale is ASCII; C.UTF-8 (in glibc since 2.35, Debian's
	 * locales-all before) is UTF-8 when it exists */
	assert_non_null(setlocale(LC_CTYPE, "C"));
	assert_false(ib_texthist_locale_utf8());
	if (setlocale(LC_CTYPE, "C.UTF-8"))
		assert_true(ib_texthist_locale_utf8());
	setlocale(LC_CTYPE, "C");
}

static void test_errors(void **state)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	struct ib_diag d = { { 0 } };
	struct capture c;

	(void)state;
	cap_open(&c);
	assert_int_equal(ib_texthist_print(c.f, h, pct, 4, 80, true, &d), -EINVAL);
	assert_string_equal(d.msg, "histogram: no samples");
	ib_hist_add(h, 5);
	assert_int_equal(ib_texthist_print(c.f, h, pct, 4, 59, true, &d), -EINVAL);
	assert_string_equal(d.msg, "histogram: 59 columns (60..200)");
	assert_int_equal(ib_texthist_print(c.f, h, pct, 4, 201, true, &d), -EINVAL);
	free(cap_close(&c));
	assert_int_equal(c.len, 0);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_utf8),
		cmocka_unit_test(test_golden_ascii),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_locale),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
