// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency-vs-load chart: its geometry from known points (axes, ticks,
 * paths, hollow points, the reference lines and the knee at exact pixels),
 * a curve drawn from its struct (steps without latencies left out, steps
 * short of their target hollow, the answer as the knee), the curve's JSON read back field for field, and the errors.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "plots_capture.h"
#include "iobench/chart.h"
#include "iobench/curve.h"
#include "iobench/curve_out.h"
#include "iobench/json_read.h"
#include "iobench/plotcmd.h"

/* The text between the first occurrence of from and the next until. */
static char *between(const char *s, const char *from, const char *until)
{
	const char *a = strstr(s, from), *b;
	char *out;

	assert_non_null(a);
	b = strstr(a, until);
	assert_non_null(b);
	out = strndup(a, (size_t)(b - a) + strlen(until));
	assert_non_null(out);
	return out;
}

static void test_geometry(void **state)
{
	const double x[] = { 100, 200, 300 };
	const double p50[] = { 1000, 2000, 5000 }, p99[] = { 10000, 20000, 50000 };
	const struct ib_chart_series s[] = { { "p50", x, p50, 3 }, { "p99", x, p99, 3 } };
	const struct ib_chart_ref ref[] = { { "slo", 20000, false, "SLO" },
					    { "max", 400, true, "max" } };
	const struct ib_chart_knee knee = { 200, 20000, "knee" };
	const bool none[3] = { false, false, false }, last[3] = { false, false, true };
	const bool *const hollow[2] = { none, last };
	/* the geometry below is of a 720 x 400 drawing */
	struct ib_chart_opts o = { "t", NULL, NULL, 720, 400, true };
	struct ib_diag d = { { 0 } };
	struct capture c;
	char *out, *g;

	(void)state;
	cap_open(&c);
	assert_int_equal(ib_chart_latload(c.f, &o, s, 2, ref, 2, &knee, hollow, &d), 0);
	out = cap_close(&c);
	/* x: 0..400 * 1.04 rounded to ticks of 100; y: log 1us..50us */
	assert_int_equal(count_of(out, "<g class=\"tick\""), 6 + 6);
	g = between(out, "<g class=\"axis x\" data-scale=\"lin\">", "</g>\n</g>");
	assert_int_equal(count_of(g, "<g class=\"tick\""), 6);
	assert_non_null(strstr(g, "data-v=\"0\"><line x1=\"72\" "));
	assert_non_null(strstr(g, "data-v=\"500\"><line x1=\"696\" "));
	free(g);
	g = between(out, "<g class=\"axis y\" data-scale=\"log\">", "</g>\n</g>");
	assert_non_null(strstr(g, "data-v=\"1000\"><line x1=\"67\" y1=\"348\" "));
	assert_non_null(strstr(g, "data-v=\"2000\"><line x1=\"67\" y1=\"296.62\" "));
	assert_non_null(strstr(g, "data-v=\"5000\"><line x1=\"67\" y1=\"228.69\" "));
	assert_non_null(strstr(g, "data-v=\"10000\"><line x1=\"67\" y1=\"177.31\" "));
	assert_non_null(strstr(g, "data-v=\"20000\"><line x1=\"67\" y1=\"125.93\" "));
	assert_non_null(strstr(g, "data-v=\"50000\"><line x1=\"67\" y1=\"58\" "));
	assert_non_null(strstr(g, ">1us</text>"));
	assert_non_null(strstr(g, ">50us</text>"));
	free(g);
	assert_non_null(strstr(out, "<g class=\"series\" data-name=\"p50\"><path class=\"line\" "
				    "d=\"M196.8,348 L321.6,296.62 L446.4,228.69\""));
	assert_non_null(strstr(out, "<g class=\"series\" data-name=\"p99\"><path class=\"line\" "
				    "d=\"M196.8,177.31 L321.6,125.93 L446.4,58\""));
	assert_int_equal(count_of(out, "<circle class=\"point\""), 5);
	assert_int_equal(count_of(out, "<circle class=\"point hollow\""), 1);
	assert_non_null(strstr(out, "<circle class=\"point\" cx=\"321.6\" cy=\"125.93\" "
				    "r=\"3.5\" fill=\"#d62728\"/>\n<circle class=\"point "
				    "hollow\" cx=\"446.4\" cy=\"58\" r=\"3.5\" fill=\"#ffffff\" "
				    "stroke=\"#d62728\" stroke-width=\"1.5\"/>\n</g>"));
	assert_non_null(strstr(out, "<g class=\"ref slo\" data-v=\"20000\"><line x1=\"72\" "
				    "y1=\"125.93\" x2=\"696\" y2=\"125.93\""));
	assert_non_null(strstr(out, "<g class=\"ref max\" data-v=\"400\"><line x1=\"571.2\" "
				    "y1=\"348\" x2=\"571.2\" y2=\"58\""));
	assert_non_null(strstr(out, "<g class=\"knee\" data-x=\"200\" data-y=\"20000\">"
				    "<circle cx=\"321.6\" cy=\"125.93\" r=\"8\""));
	assert_non_null(strstr(out, ">knee</text>"));
	assert_non_null(strstr(out, "class=\"xlabel\">achieved IOPS</text>"));
	assert_non_null(strstr(out, "class=\"ylabel\" transform=\"rotate(-90 16 203.00)\">"
				    "latency</text>"));
	/* the legend: one entry per series */
	g = between(out, "<g class=\"legend\">", "</g>");
	assert_int_equal(count_of(g, "<text"), 2);
	free(g);
	free(out);
}

static struct ib_curve *sample_curve(void)
{
	struct ib_curve *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	snprintf(c->job, sizeof(c->job), "j<1>");
	c->steps = 4;
	c->slo_ns = 1000000;
	c->max = (struct ib_curve_point){ 0, 0, 4000, 0, 0, 0, 0, 4000, 0, 0, 0.0, 0.0 };
	c->pt[0] = (struct ib_curve_point){ 25, 1000, 1000, 100000, 500000, 700000, 0, 1000, 0, 0, 0.0, 0.0 };
	c->pt[1] = (struct ib_curve_point){ 50, 2000, 1990.5, 200000, 900000, 2000000, 3, 1990, 0, 0, 0.0, 0.0 };
	c->pt[2] = (struct ib_curve_point){ 75, 3000, 2800, 1000000, 5000000, 9000000, 40, 2800, 0, 0, 0.0, 0.0 };
	c->pt[3] = (struct ib_curve_point){ 100, 4000, 3100, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0 };
	c->nr = 4;
	return c;
}

static void test_curve_chart(void **state)
{
	struct ib_curve *c = sample_curve();
	struct ib_diag d = { { 0 } };
	struct capture cap;
	char *out;

	(void)state;
	cap_open(&cap);
	assert_int_equal(ib_page_curve_svg(cap.f, c, &d), 0);
	out = cap_close(&cap);
	assert_non_null(strstr(out, ">Latency versus load: j&lt;1&gt;</text>"));
	assert_int_equal(count_of(out, "<g class=\"series\""), 3);
	/* the last step has no latencies: three points a series; step 3 fell
	 * short of its target (2800 of 3000): hollow in each series */
	assert_int_equal(count_of(out, "<circle class=\"point\""), 6);
	assert_int_equal(count_of(out, "<circle class=\"point hollow\""), 3);
	assert_non_null(strstr(out, "data-name=\"p99.9\""));
	/* x 0..5000 (4000 * 1.04), y 100us..10ms: the knee is step 2 (50%) */
	assert_non_null(strstr(out, "<g class=\"knee\" data-x=\"1990.5\" data-y=\"900000\">"));
	assert_non_null(strstr(out, ">max IOPS at p99 &lt; 1ms: 1990.5</text>"));
	assert_non_null(strstr(out, "<g class=\"ref slo\" data-v=\"1000000\">"));
	assert_non_null(strstr(out, ">SLO: p99 &lt; 1ms</text>"));
	assert_non_null(strstr(out, "<g class=\"ref max\" data-v=\"4000\">"));
	assert_non_null(strstr(out, ">unpaced max 4000 IOPS</text>"));
	free(out);
	/* nothing met the SLO: no knee */
	c->slo_ns = 100000;
	cap_open(&cap);
	assert_int_equal(ib_page_curve_svg(cap.f, c, &d), 0);
	out = cap_close(&cap);
	assert_int_equal(count_of(out, "class=\"knee\""), 0);
	free(out);
	/* the HTML section: the table with the answer */
	c->slo_ns = 1000000;
	cap_open(&cap);
	assert_int_equal(ib_page_curve_doc(cap.f, c, "c.json", &d), 0);
	out = cap_close(&cap);
	assert_non_null(strstr(out, "<h2>c.json: latency versus load of job j&lt;1&gt;</h2>"));
	assert_non_null(strstr(out, "<caption>max IOPS at p99 &lt; 1ms: 1990.5 (unpaced "
				    "maximum 4000 IOPS; a step meets the SLO when it "
				    "achieves 95% of its target)</caption>"));
	assert_non_null(strstr(out, "<tr><td class=\"n\">50%</td><td class=\"n\">2000</td>"
				    "<td class=\"n\">1990.5</td><td class=\"n\">200us</td>"
				    "<td class=\"n\">900us</td><td class=\"n\">2ms</td>"
				    "<td class=\"n\">3</td><td>yes</td></tr>"));
	assert_non_null(strstr(out, "<td>-</td><td>-</td><td>-</td>"));
	assert_int_equal(count_of(out, "<td>yes</td>"), 2);
	assert_int_equal(count_of(out, "<svg"), 1);
	free(out);
	/* no step with latencies: refused, nothing written */
	c->nr = 0;
	cap_open(&cap);
	assert_int_equal(ib_page_curve_svg(cap.f, c, &d), -EINVAL);
	assert_string_equal(d.msg, "curve 'j<1>': no step with latencies");
	free(cap_close(&cap));
	assert_int_equal(cap.len, 0);
	free(c);
}

static void assert_point_eq(const struct ib_curve_point *a, const struct ib_curve_point *b)
{
	assert_int_equal(a->pct, b->pct);
	assert_int_equal(a->target, b->target);
	assert_true(a->achieved == b->achieved);
	assert_int_equal(a->p50, b->p50);
	assert_int_equal(a->p99, b->p99);
	assert_int_equal(a->p999, b->p999);
	assert_int_equal(a->late, b->late);
	assert_int_equal(a->ios, b->ios);
}

static int parse_curve(struct ib_curve *c, const char *text, struct ib_diag *d)
{
	struct ib_jdoc doc;
	int ret;

	assert_int_equal(ib_json_parse(&doc, text, strlen(text), d), 0);
	ret = ib_curve_from_json(c, doc.root, d);
	ib_jdoc_free(&doc);
	return ret;
}

static void test_read_back(void **state)
{
	struct ib_curve *c = sample_curve(), *r = calloc(1, sizeof(*r));
	struct ib_diag d = { { 0 } };
	struct capture cap;
	unsigned int i;
	char *out;

	(void)state;
	assert_non_null(r);
	cap_open(&cap);
	ib_curve_print_json(cap.f, c);
	out = cap_close(&cap);
	assert_int_equal(parse_curve(r, out, &d), 1);
	assert_string_equal(r->job, "j<1>");
	assert_int_equal(r->steps, 4);
	assert_int_equal(r->slo_ns, 1000000);
	assert_int_equal(r->nr, 4);
	assert_point_eq(&r->max, &c->max);
	for (i = 0; i < 4; i++)
		assert_point_eq(&r->pt[i], &c->pt[i]);
	free(out);
	r->nr = 7;
	assert_int_equal(parse_curve(r, "{\"jobs\": []}", &d), 0);
	assert_int_equal(r->nr, 7);	/* untouched */
	assert_int_equal(parse_curve(r, "{\"curve\": {\"job\": \"a\", \"steps\": 1, "
				     "\"slo_p99_ns\": 5, \"points\": []}}", &d), -EINVAL);
	assert_string_equal(d.msg, "curve: max: a field is missing or bad");
	assert_int_equal(parse_curve(r, "{\"curve\": {\"job\": \"a\", \"steps\": 0, "
				     "\"slo_p99_ns\": 5, \"points\": []}}", &d), -EINVAL);
	assert_string_equal(d.msg, "curve: job, steps, slo_p99_ns or points missing or bad");
	free(c);
	free(r);
}

static void test_errors(void **state)
{
	const double x[] = { 1, 2 }, y[] = { 10, 20 };
	const struct ib_chart_series s = { "p99", x, y, 2 };
	struct ib_chart_ref ref = { "slo", 0, false, "SLO" };
	struct ib_chart_knee knee = { 1, -1, "k" };
	struct ib_chart_opts o = { NULL, NULL, NULL, 0, 0, true };
	struct ib_diag d = { { 0 } };
	struct capture c;

	(void)state;
	cap_open(&c);
	assert_int_equal(ib_chart_latload(c.f, &o, &s, 1, &ref, 1, NULL, NULL, &d), -EINVAL);
	assert_string_equal(d.msg, "chart: reference line 0: bad value");
	ref.v = 15;
	assert_int_equal(ib_chart_latload(c.f, &o, &s, 1, &ref, 1, &knee, NULL, &d), -EINVAL);
	assert_string_equal(d.msg, "chart: the knee: bad value");
	assert_int_equal(ib_chart_latload(c.f, &o, &s, 0, NULL, 0, NULL, NULL, &d), -EINVAL);
	free(cap_close(&c));
	assert_int_equal(c.len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_curve_chart),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
