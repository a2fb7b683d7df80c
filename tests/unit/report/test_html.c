// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTML page: the parts of a small page byte for byte, the
 * escaping, numeric cells, and that nothing refers outside the page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "plots_capture.h"
#include "iobench/chart.h"
#include "src/report/html/html.h"

static char *page(void)
{
	static const char *const cells[] = {
		"job", "IOPS", "p99",
		"a<b>&\"c'", "1,200", "1.2ms",
		"x", "", "n/a",
	};
	static const char *const items[] = { "short run", "cpu <idle>" };
	const char *const bars[] = { "read" }, *const series[] = { "A" };
	const double v[] = { 3 };
	struct ib_chart_opts o = { "IOPS", NULL, NULL, 300, 200, false };
	struct ib_diag d = { { 0 } };
	struct capture c;

	cap_open(&c);
	ib_html_begin(c.f, "run <1>");
	ib_html_table(c.f, "Summary", cells, 3, 3);
	ib_html_table(c.f, NULL, cells, 1, 3);
	ib_html_heading(c.f, "Findings & notes");
	ib_html_list(c.f, items, 2);
	ib_html_pre(c.f, "kernel 6.1\n<none>\n");
	ib_html_figure_open(c.f);
	assert_int_equal(ib_chart_bars(c.f, &o, bars, 1, series, 1, v, &d), 0);
	ib_html_figure_close(c.f, "bars");
	ib_html_figure_open(c.f);
	ib_html_figure_close(c.f, NULL);
	ib_html_end(c.f);
	return cap_close(&c);
}

static void test_page(void **state)
{
	char *out = page();

	(void)state;
	assert_int_equal(strncmp(out, "<!DOCTYPE html>\n<html lang=\"en\">\n", 33), 0);
	assert_non_null(strstr(out, "<title>run &lt;1&gt;</title>"));
	assert_non_null(strstr(out, "<h1>run &lt;1&gt;</h1>\n"));
	assert_non_null(strstr(out, "<caption>Summary</caption>\n<tr><th>job</th>"
				    "<th>IOPS</th><th>p99</th></tr>\n"));
	assert_non_null(strstr(out, "<tr><td>a&lt;b&gt;&amp;&quot;c&#39;</td>"
				    "<td class=\"n\">1,200</td><td class=\"n\">1.2ms</td></tr>\n"
				    "<tr><td>x</td><td></td><td>n/a</td></tr>\n"));
	assert_int_equal(count_of(out, "<table>"), 2);
	assert_int_equal(count_of(out, "<caption>"), 1);
	assert_non_null(strstr(out, "<h2>Findings &amp; notes</h2>\n<ul>\n<li>short run</li>\n"
				    "<li>cpu &lt;idle&gt;</li>\n</ul>\n"));
	assert_non_null(strstr(out, "<pre>kernel 6.1\n&lt;none&gt;\n</pre>\n"));
	assert_int_equal(count_of(out, "<figure>\n<svg "), 1);
	assert_non_null(strstr(out, "</svg>\n<figcaption>bars</figcaption>\n</figure>\n"
				    "<figure>\n</figure>\n</body>\n</html>\n"));
	free(out);
}

/* Nothing to fetch: no script, link, src/href, url(), @import; the only
 * URL is the SVG namespace name (an identifier, never fetched). */
static void test_self_contained(void **state)
{
	char *out = page();

	(void)state;
	assert_int_equal(count_of(out, "<script"), 0);
	assert_int_equal(count_of(out, "<link"), 0);
	assert_int_equal(count_of(out, "src="), 0);
	assert_int_equal(count_of(out, "href"), 0);
	assert_int_equal(count_of(out, "url("), 0);
	assert_int_equal(count_of(out, "@import"), 0);
	assert_int_equal(count_of(out, "://"), 1);
	assert_int_equal(count_of(out, "xmlns=\"http://www.w3.org/2000/svg\""), 1);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_self_contained),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
