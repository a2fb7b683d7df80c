// SPDX-License-Identifier: GPL-2.0-only
/* The streaming SVG writer: numbers, escaping, nesting, paths. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "plots_capture.h"
#include "iobench/svg.h"

static void test_fmt(void **state)
{
	char b[IB_SVG_NUMLEN];

	(void)state;
	assert_string_equal(ib_svg_fmt(b, 0), "0");
	assert_string_equal(ib_svg_fmt(b, 12), "12");
	assert_string_equal(ib_svg_fmt(b, 12.5), "12.5");
	assert_string_equal(ib_svg_fmt(b, 12.345), "12.35");	/* 12.345 is 12.3450000000000006 */
	assert_string_equal(ib_svg_fmt(b, 0.1), "0.1");
	assert_string_equal(ib_svg_fmt(b, 100), "100");
	assert_string_equal(ib_svg_fmt(b, -3.25), "-3.25");
	assert_string_equal(ib_svg_fmt(b, -0.001), "0");	/* never "-0" */
	assert_string_equal(ib_svg_fmt(b, -0.0), "0");
	assert_string_equal(ib_svg_fmt(b, 0.004), "0");
	assert_string_equal(ib_svg_fmt(b, 0.005), "0.01");
	assert_string_equal(ib_svg_fmt(b, NAN), "0");
	assert_string_equal(ib_svg_fmt(b, INFINITY), "0");
	assert_string_equal(ib_svg_fmt(b, 1e300), "0");
}

static void test_document(void **state)
{
	struct capture c;
	struct ib_svg s;
	char *out;

	(void)state;
	cap_open(&c);
	ib_svg_begin(&s, c.f, 720, 400.5);
	ib_svg_tag(&s, "g");
	ib_svg_str(&s, "class", "a\"b<c>&d'e");
	ib_svg_open(&s);
	ib_svg_tag(&s, "line");
	ib_svg_num(&s, "x1", 1.5);
	ib_svg_num(&s, "y1", 2);
	ib_svg_empty(&s);
	ib_svg_label(&s, 10, 20.25, "middle", "title", "p99 < 1ms & \x01ok");
	ib_svg_tag(&s, "text");
	ib_svg_open(&s);	/* left open: ib_svg_end closes it and the g */
	ib_svg_text(&s, "x");
	ib_svg_end(&s);
	out = cap_close(&c);
	assert_string_equal(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"400.5\" "
		"viewBox=\"0 0 720 400.5\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<g class=\"a&quot;b&lt;c&gt;&amp;d&#39;e\">"
		"<line x1=\"1.5\" y1=\"2\"/>\n"
		"<text x=\"10\" y=\"20.25\" text-anchor=\"middle\" class=\"title\">"
		"p99 &lt; 1ms &amp; ?ok</text>\n"
		"<text>x</text>\n</g>\n</svg>\n");
	assert_int_equal(s.depth, 0);
	free(out);
}

static void test_path(void **state)
{
	struct capture c;
	struct ib_svg s;
	char *out;

	(void)state;
	cap_open(&c);
	ib_svg_begin(&s, c.f, 10, 10);
	ib_svg_tag(&s, "path");
	ib_svg_d_begin(&s);
	ib_svg_d_pt(&s, 'M', 0, 1.004);
	ib_svg_d_pt(&s, 'L', 2.5, -0.001);
	ib_svg_d_pt(&s, 'L', 3.333, 4);
	ib_svg_d_end(&s);
	ib_svg_str(&s, "fill", "none");
	ib_svg_empty(&s);
	/* a second path starts a fresh d list */
	ib_svg_tag(&s, "path");
	ib_svg_d_begin(&s);
	ib_svg_d_pt(&s, 'M', 1, 1);
	ib_svg_d_end(&s);
	ib_svg_empty(&s);
	ib_svg_end(&s);
	out = cap_close(&c);
	assert_non_null(strstr(out, "<path d=\"M0,1 L2.5,0 L3.33,4\" fill=\"none\"/>\n"
				    "<path d=\"M1,1\"/>\n</svg>\n"));
	free(out);
}

/* Closing more than was opened writes nothing more */
static void test_close_underflow(void **state)
{
	struct capture c;
	struct ib_svg s;
	char *out;

	(void)state;
	cap_open(&c);
	ib_svg_begin(&s, c.f, 1, 1);
	ib_svg_close(&s);
	ib_svg_end(&s);
	out = cap_close(&c);
	assert_int_equal(count_of(out, "</"), 1);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_close_underflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
