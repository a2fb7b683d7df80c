// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio histogram log reader: full and coarse rows, chunking at every byte,
 * CRLF and blanks, the errors, callbacks that stop the parse.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "src/report/results/fiohist.h"

struct got {
	unsigned int n;
	int stop_at;
	struct ib_fiohist_row r[4];
	uint64_t c317[4], c0[4], total[4];	/* copies of a few buckets */
	uint64_t c_mid[4];
};

static int collect(void *arg, const struct ib_fiohist_row *r)
{
	struct got *g = arg;
	unsigned int i;

	if ((int)g->n == g->stop_at)
		return -EINTR;
	if (g->n < 4) {
		g->r[g->n] = *r;
		g->c0[g->n] = r->h->count[0];
		g->c317[g->n] = r->h->count[317];
		g->c_mid[g->n] = r->h->count[(5 << 6) + 32];
		for (i = 0; i < IB_HIST_NR; i++)
			g->total[g->n] += r->h->count[i];
	}
	g->n++;
	return 0;
}

/* "T, D, BS" then nbins bins: bin b = v, all others 0 */
static char *row(uint64_t t, unsigned int ddir, unsigned int nbins,
		 unsigned int b, uint64_t v, const char *eol)
{
	size_t cap = 16 * (size_t)nbins + 64, n;
	char *s = malloc(cap);
	unsigned int j;

	assert_non_null(s);
	n = (size_t)snprintf(s, cap, "%llu, %u, 4096", (unsigned long long)t, ddir);
	for (j = 0; j < nbins; j++)
		n += (size_t)snprintf(s + n, cap - n, ", %llu",
				      (unsigned long long)(j == b ? v : 0));
	snprintf(s + n, cap - n, "%s", eol);
	return s;
}

static int parse(const char *s, size_t step, struct got *g, struct ib_diag *d)
{
	struct ib_fiohist *p = malloc(sizeof(*p));
	size_t len = strlen(s), i;
	int ret = 0;

	assert_non_null(p);
	memset(g, 0, sizeof(*g));
	g->stop_at = -1;
	ib_fiohist_init(p);
	for (i = 0; i < len && !ret; i += step)
		ret = ib_fiohist_feed(p, s + i, len - i < step ? len - i : step,
				      collect, g, d);
	if (!ret)
		ret = ib_fiohist_end(p, collect, g, d);
	free(p);
	return ret;
}

static void test_full_rows(void **state)
{
	char *a = row(103, 0, 1856, 317, 413, "\r\n");
	char *b = row(203, 1, 1856, 0, 7, "");	/* no final newline */
	char *both = malloc(strlen(a) + strlen(b) + 8);
	struct ib_diag d = { { 0 } };
	struct got g;
	size_t step;

	(void)state;
	assert_non_null(both);
	sprintf(both, "%s\n  \n%s", a, b);
	for (step = 1; step < 40; step += 3) {
		assert_int_equal(parse(both, step, &g, &d), 0);
		assert_int_equal(g.n, 2);
		assert_int_equal(g.r[0].t_ms, 103);
		assert_int_equal(g.r[0].ddir, 0);
		assert_int_equal(g.r[0].bs, 4096);
		assert_int_equal(g.r[0].coarseness, 0);
		assert_int_equal(g.r[0].samples, 413);
		assert_int_equal(g.c317[0], 413);
		assert_int_equal(g.total[0], 413);
		assert_int_equal(g.r[1].t_ms, 203);
		assert_int_equal(g.r[1].ddir, 1);
		assert_int_equal(g.c0[1], 7);
		assert_int_equal(g.c317[1], 0);	/* each row starts empty */
	}
	free(a);
	free(b);
	free(both);
}

/* coarseness 6: 29 bins of 64 buckets, counted in each one's middle */
static void test_coarse(void **state)
{
	char *a = row(1000, 2, 29, 5, 12, "\n");
	struct ib_diag d = { { 0 } };
	struct got g;

	(void)state;
	assert_int_equal(parse(a, 1000, &g, &d), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.r[0].coarseness, 6);
	assert_int_equal(g.r[0].ddir, 2);
	assert_int_equal(g.c_mid[0], 12);
	assert_int_equal(g.total[0], 12);
	free(a);
}

static void expect_error(const char *s, const char *msg)
{
	struct ib_diag d = { { 0 } };
	struct got g;

	assert_int_equal(parse(s, 2, &g, &d), -EINVAL);
	assert_string_equal(d.msg, msg);
}

static void test_errors(void **state)
{
	char *r = row(1, 3, 29, 0, 1, "\n");
	char *many = row(1, 0, 1857, 0, 1, "\n");

	(void)state;
	expect_error("1, 0, 4096\n", "line 1: the number of bins is not 1856 >> (0..6)");
	expect_error("1, 0, 4096, 1, 2, 3\n", "line 1: the number of bins is not 1856 >> (0..6)");
	expect_error(r, "line 1: ddir is not 0, 1 or 2");
	expect_error(many, "line 1: more than 1856 bins");
	expect_error("\n1, , 4096\n", "line 2: empty field");
	expect_error("1, 0,\r\n", "line 1: empty field");
	expect_error("1 2, 0\n", "line 1: not a histogram log row");
	expect_error("1, -0\n", "line 1: not a histogram log row");
	expect_error("1\r2\n", "line 1: not a histogram log row");
	expect_error("99999999999999999999, 0\n", "line 1: number too large");
	free(r);
	free(many);
}

static void test_stop(void **state)
{
	char *a = row(1, 0, 58, 1, 1, "\n");
	char *two = malloc(2 * strlen(a) + 1);
	struct ib_fiohist *p = malloc(sizeof(*p));
	struct ib_diag d = { { 0 } };
	struct got g = { .stop_at = 1 };

	(void)state;
	assert_non_null(two);
	assert_non_null(p);
	sprintf(two, "%s%s", a, a);
	ib_fiohist_init(p);
	assert_int_equal(ib_fiohist_feed(p, two, strlen(two), collect, &g, &d), -EINTR);
	assert_int_equal(g.n, 1);
	assert_int_equal(p->rows, 2);
	ib_fiohist_init(p);
	assert_int_equal(ib_fiohist_end(p, collect, &g, &d), 0);
	assert_int_equal(p->rows, 0);
	free(p);
	free(a);
	free(two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_rows),
		cmocka_unit_test(test_coarse),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
