// SPDX-License-Identifier: GPL-2.0-only
/*
 * random_distribution: parsing, fio's definitions of the ranks (zipf,
 * pareto, normal), the spreading of ranks over the ranges, zones.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/randdist.h"
#include "iobench/strtab.h"

static struct ib_strtab strs;	/* the jobs' zone lists (job.h) */

static struct ib_job *new_job(void)
{
	struct ib_job *j = malloc(sizeof(*j));

	assert_non_null(j);
	ib_job_defaults(j);
	j->strs = &strs;
	return j;
}

static void test_parse(void **state)
{
	struct ib_job *j = new_job();
	struct ib_diag d = { { 0 } };

	(void)state;
	assert_int_equal(ib_randdist_parse("zipf:1.2", 1024, j, &d), 0);
	assert_int_equal(j->rand_dist, IB_DIST_ZIPF);
	assert_true(j->rand_param == 1.2 && j->rand_center == -1);
	assert_int_equal(ib_randdist_parse("normal:10:0.25", 1024, j, &d), 0);
	assert_int_equal(j->rand_dist, IB_DIST_NORMAL);
	assert_true(j->rand_center == 0.25);
	assert_int_equal(ib_randdist_parse("zoned:60/10:30/20:8/30:2/40", 1024, j, &d), 0);
	assert_int_equal(j->zones[0].nr, 4);
	assert_int_equal(j->zones[2].pct[0], 60);
	assert_int_equal(j->zones[2].size[3], 40);
	assert_int_equal(ib_randdist_parse("zoned_abs=60/20G:40/100G,100/1m", 1024, j, &d), 0);
	assert_int_equal(j->rand_dist, IB_DIST_ZONED_ABS);
	assert_int_equal(j->zones[0].size[0], 20ull << 30);
	assert_int_equal(j->zones[1].size[0], 1 << 20);
	assert_int_equal(j->zones[2].nr, 1);
	assert_int_equal(ib_randdist_parse("random", 1024, j, &d), 0);
	assert_int_equal(j->rand_dist, IB_DIST_RANDOM);
	assert_int_equal(ib_randdist_parse("zipf:1", 1024, j, &d), -EINVAL);
	assert_string_equal(d.msg, "random_distribution=zipf:1: zipf theta must be above 0 and not 1");
	assert_int_equal(ib_randdist_parse("pareto:0.2:2", 1024, j, &d), -EINVAL);
	assert_string_equal(d.msg, "random_distribution=pareto:0.2:2: the center must be in 0..1");
	assert_int_equal(ib_randdist_parse("zoned:50/50:40/50", 1024, j, &d), -EINVAL);
	/* a zoned size left out, empty or 0 shares the rest (fio's example) */
	assert_int_equal(ib_randdist_parse("zoned:50/5:30/15:20/", 1024, j, &d), 0);
	assert_int_equal(j->zones[0].nr, 3);
	assert_int_equal(j->zones[0].size[2], 80);
	assert_int_equal(ib_randdist_parse("zoned:0/10:0/0:100", 1024, j, &d), 0);
	assert_int_equal(j->zones[0].size[1], 45);
	assert_int_equal(j->zones[0].size[2], 45);
	assert_int_equal(ib_randdist_parse("zoned:0/:0/:100/", 1024, j, &d), 0);
	assert_int_equal(j->zones[0].size[0] + j->zones[0].size[1] + j->zones[0].size[2], 99);
	assert_int_equal(ib_randdist_parse("zoned:100/", 1024, j, &d), 0);
	assert_int_equal(j->zones[0].size[0], 100);
	assert_int_equal(ib_randdist_parse("zoned:50/70:50/40", 1024, j, &d), -EINVAL);
	assert_int_equal(ib_randdist_parse("zoned:50/x:50/", 1024, j, &d), -EINVAL);
	assert_int_equal(ib_randdist_parse("zoned_abs:50/1m:50/", 1024, j, &d), -EINVAL);
	assert_int_equal(ib_randdist_parse("zoned_abs:50/1m:50", 1024, j, &d), -EINVAL);
	/* a zone given I/Os but no size: fio puts them all at its start */
	assert_int_equal(ib_randdist_parse("zoned:50/100:50/", 1024, j, &d), -EINVAL);
	assert_string_equal(d.msg, "random_distribution=zoned:50/100:50/: zone 2 has 50% of the I/Os but no size");
	assert_int_equal(ib_randdist_parse("zoned_abs:100/0,100/1m", 1024, j, &d), -EINVAL);
	assert_string_equal(d.msg, "random_distribution=zoned_abs:100/0,100/1m: zone 1 has 100% of the I/Os but no size");
	assert_int_equal(ib_randdist_parse("zoned:0/0:100/50", 1024, j, &d), 0);
	assert_int_equal(j->zones[0].size[0], 50);
	free(j);
}

/* zipf: P(rank 0) = 1 / zeta(n), P(rank 1) = 2^-theta / zeta(n) */
static void test_zipf_head(void **state)
{
	struct ib_randdist_state s;
	struct ib_rand r;
	double zeta = 0;
	unsigned int i, c0 = 0, c1 = 0, draws = 200000;

	(void)state;
	ib_rand_seed(&r, 7);
	ib_randdist_init(&s, IB_DIST_ZIPF, 1.2, -1, 1000, &r);
	for (i = 1; i <= 1000; i++)
		zeta += pow(1.0 / i, 1.2);
	for (i = 0; i < draws; i++) {
		uint64_t k = ib_randdist_rank(&s, &r);

		c0 += k == 0;
		c1 += k == 1;
		assert_true(k <= 1000);
	}
	assert_true(fabs((double)c0 / draws - 1 / zeta) < 0.005);
	assert_true(fabs((double)c1 / draws - pow(0.5, 1.2) / zeta) < 0.005);
}

/* pareto: P(rank < x(n-1)) = P(u^p < x) = x^(1/p) */
static void test_pareto_cdf(void **state)
{
	struct ib_randdist_state s;
	struct ib_rand r;
	double p = log(0.2) / log(0.8);
	unsigned int i, below = 0, draws = 200000;

	(void)state;
	ib_rand_seed(&r, 9);
	ib_randdist_init(&s, IB_DIST_PARETO, 0.2, 0.5, 10001, &r);
	assert_int_equal(s.off, 5000);
	for (i = 0; i < draws; i++)
		below += ib_randdist_rank(&s, &r) < 100;
	assert_true(fabs((double)below / draws - pow(0.01, 1 / p)) < 0.005);
}

/* normal: mean n/2 (center 0.5: no offset), spread ~ n/12 */
static void test_normal_moments(void **state)
{
	struct ib_randdist_state s;
	struct ib_rand r;
	double sum = 0, sq = 0, n = 12000;
	unsigned int i, draws = 100000;

	(void)state;
	ib_rand_seed(&r, 3);
	ib_randdist_init(&s, IB_DIST_NORMAL, 0, -1, (uint64_t)n, &r);
	assert_int_equal(s.off, 0);
	for (i = 0; i < draws; i++) {
		double v = (double)ib_randdist_rank(&s, &r);

		sum += v;
		sq += v * v;
	}
	sum /= draws;
	assert_true(fabs(sum - n / 2) < n * 0.005);
	assert_true(fabs(sqrt(sq / draws - sum * sum) - n / 12) < n * 0.005);
}

/* ranks spread by the golden-ratio multiplier, plus the offset */
static void test_spread(void **state)
{
	struct ib_randdist_state s;
	struct ib_rand r;

	(void)state;
	ib_rand_seed(&r, 1);
	ib_randdist_init(&s, IB_DIST_ZIPF, 1.2, 0.25, 16384, &r);
	assert_int_equal(s.off, 4096);
	/* rank 0 is the hottest: the most drawn range is the offset itself */
	unsigned int hits = 0;

	for (int i = 0; i < 10000; i++)
		hits += ib_randdist_next(&s, &r) == 4096;
	assert_true(hits > 1800 && hits < 2300);	/* 1 / zeta(16384) = 0.20 */
	s.no_spread = true;
	for (int i = 0; i < 1000; i++)
		assert_true(ib_randdist_next(&s, &r) < 16384);
}

static void test_zones(void **state)
{
	struct ib_job *j = new_job();
	struct ib_diag d = { { 0 } };
	struct ib_rand r;
	uint64_t start, len, in[3] = { 0 };

	(void)state;
	assert_int_equal(ib_randdist_parse("zoned:50/10:30/40:20/50", 1024, j, &d), 0);
	ib_rand_seed(&r, 5);
	for (int i = 0; i < 100000; i++) {
		assert_true(ib_randdist_zone(j, IB_DDIR_READ, 1000, &r, &start, &len));
		in[start == 0 ? 0 : start == 100 ? 1 : 2]++;
		assert_true(start == 0 || start == 100 || start == 500);
		assert_int_equal(len, start == 0 ? 100 : start == 100 ? 400 : 500);
	}
	assert_true(in[0] > 49000 && in[0] < 51000);
	assert_true(in[1] > 29000 && in[1] < 31000);
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_zipf_head),
		cmocka_unit_test(test_pareto_cdf),
		cmocka_unit_test(test_normal_moments),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_zones),
	};

	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	ib_strtab_free(&strs);
	return ret;
}
