// SPDX-License-Identifier: GPL-2.0-only
/*
 * sprandom (sprandom.h): the model's invalid shares and the plan against
 * fio 3.42's own (recorded from `fio --debug=sprandom` runs: its summary
 * and its "Invalidation[r]" lines, which print region r-1's share to four
 * decimals; tests/data/fio342/sprandom_model.txt), the plan's refusals,
 * and the write sequence's shape with and without a cache.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/sprandom.h"

struct model_case {
	unsigned int n;
	double op;
	uint64_t logical, physical, region_bytes, region_ios;
	unsigned int nr_pct;	/* shares fio printed: regions 0..nr_pct-1 */
	uint32_t pct[16];
};

/* fio 3.42, bs=4k (tests/data/fio342/sprandom_model.txt) */
static const struct model_case cases[] = {
	{ 4, 0.15, 4194304, 4825088, 1206272, 294, 3, { 2479, 1730, 906 } },
	{ 10, 0.3, 16777216, 21811200, 2181120, 532, 9,
	  { 4225, 3862, 3477, 3069, 2634, 2171, 1678, 1152, 594 } },
	{ 7, 0.07, 16777216, 17952768, 2564681, 626, 6,
	  { 1275, 1074, 869, 659, 445, 225 } },
};

/* spr_num_regions=100 spr_op=0.15: the first and last shares fio printed */
static const uint32_t pct100_head[] = { 2479, 2458, 2436, 2414, 2392, 2370 };
static const uint32_t pct100_tail[] = { 143, 114, 86, 57, 29 };	/* 94..98 */

static void test_model_as_fio(void **state)
{
	uint32_t pct[100];
	unsigned int i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ib_spr_invalid_pct(cases[i].n, cases[i].op, pct);
		for (k = 0; k < cases[i].nr_pct; k++)
			assert_int_equal(pct[k], cases[i].pct[k]);
		assert_int_equal(pct[cases[i].n - 1], 0);	/* fully valid */
	}
	ib_spr_invalid_pct(100, 0.15, pct);
	for (k = 0; k < 6; k++)
		assert_int_equal(pct[k], pct100_head[k]);
	for (k = 0; k < 5; k++)
		assert_int_equal(pct[94 + k], pct100_tail[k]);
	ib_spr_invalid_pct(1, 0.15, pct);	/* one region: nothing kept */
	assert_int_equal(pct[0], 0);
}

static void test_plan_as_fio(void **state)
{
	struct ib_spr_plan p;
	struct ib_diag d;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(ib_spr_plan_init(&p, cases[i].logical, 4096,
						  cases[i].n, cases[i].op, 0, &d), 0);
		assert_int_equal(p.physical, cases[i].physical);
		assert_int_equal(p.region_bytes, cases[i].region_bytes);
		assert_int_equal(p.region_ios, cases[i].region_ios);
	}
}

static void test_plan_refused(void **state)
{
	struct ib_spr_plan p;
	struct ib_diag d;

	(void)state;
	assert_int_equal(ib_spr_plan_init(&p, 4194304, 12288, 4, 0.15, 0, &d), -EINVAL);
	assert_string_equal(d.msg, "sprandom: the write block size (12288) must be a power of 2");
	/* 4825088 / 2000 = 2412 bytes a region: less than a block */
	assert_int_equal(ib_spr_plan_init(&p, 4194304, 4096, 2000, 0.15, 0, &d), -EINVAL);
	assert_non_null(strstr(d.msg, "spr_num_regions=2000: regions of 2412 bytes"));
	/* fio 3.42: "spr_cs [2097152] must be smaller than region_sz
	 * [48250] which means [2] regions allowed" (100 regions) */
	assert_int_equal(ib_spr_plan_init(&p, 4194304, 4096, 100, 0.15, 2097152, &d), -EINVAL);
	assert_string_equal(d.msg, "spr_cs=2097152: larger than a region (48250 bytes: at most 2 regions for this cache)");
	assert_int_equal(ib_spr_plan_init(&p, 4194304, 4096, 4, 0.15, 1206272, &d), 0);
}

struct run {
	uint64_t *seq;
	uint64_t n, rewrites;
};

static void run_seq(struct run *r, unsigned int regions, double op,
		    uint64_t cache, uint64_t logical, uint32_t seed)
{
	struct ib_spr_plan p;
	struct ib_spr s;
	struct ib_randperm perm;
	struct ib_diag d;
	uint64_t b, max;

	assert_int_equal(ib_spr_plan_init(&p, logical, 4096, regions, op, cache, &d), 0);
	assert_int_equal(ib_spr_init(&s, &p, seed, &d), 0);
	assert_int_equal(ib_randperm_init(&perm, logical / 4096, seed * 7ull + 1), 0);
	max = (regions + 1) * p.region_ios;
	r->seq = calloc(max + 1, sizeof(*r->seq));
	r->n = 0;
	while (ib_spr_next(&s, &perm, &b)) {
		assert_true(r->n < max);
		assert_true(b < logical / 4096);
		r->seq[r->n++] = b;
	}
	assert_false(ib_spr_next(&s, &perm, &b));	/* the end stays */
	r->rewrites = s.rewrites;
	ib_spr_free(&s);
}

/*
 * Each region is region_ios writes; its blocks written before were all
 * last written in the region before, and sit right after the region's
 * first write (no cache) or at its end (cache); every block once new.
 */
static void check_shape(const struct run *r, uint64_t rios, uint64_t nblocks,
			bool cache, uint64_t *kept_total)
{
	int64_t *last = malloc(nblocks * sizeof(*last));
	uint64_t i, reg, k, news = 0, first_old;

	memset(last, 0xff, nblocks * sizeof(*last));	/* -1: never */
	*kept_total = 0;
	for (reg = 0; reg * rios < r->n; reg++) {
		uint64_t end = (reg + 1) * rios < r->n ? (reg + 1) * rios : r->n;

		for (i = reg * rios, k = 0, first_old = UINT64_MAX; i < end; i++) {
			int64_t was = last[r->seq[i]];

			if (was >= 0) {
				assert_int_equal(was, (int64_t)reg - 1);
				if (first_old == UINT64_MAX)
					first_old = i;
				k++;
			} else {
				news++;
			}
		}
		for (i = reg * rios; i < end; i++)
			last[r->seq[i]] = (int64_t)reg;
		if (k) {
			/* the k rewrites are one run: at 1 (no cache) or at the end */
			assert_int_equal(first_old, cache ? end - k : reg * rios + 1);
		}
		*kept_total += k;
	}
	assert_int_equal(news + *kept_total, r->n);
	assert_int_equal(news, nblocks);	/* every block once new */
	free(last);
}

static void test_sequence_shape(void **state)
{
	struct run r;
	uint64_t kept, s;

	(void)state;
	for (s = 1; s <= 4; s++) {
		/* 16 MiB, 10 regions, op 0.3: 532 writes a region */
		run_seq(&r, 10, 0.3, 0, 16777216, (uint32_t)s);
		check_shape(&r, 532, 4096, false, &kept);
		assert_int_equal(kept, r.rewrites);
		/* fio 3.42 ended this job on its lfsr (4096 new blocks) after
		 * 1211 rewrites; regions 0-8's shares make 1216 +- 29 (sd) */
		assert_in_range(r.rewrites, 1216 - 6 * 29, 1216 + 6 * 29);
		free(r.seq);
		run_seq(&r, 10, 0.3, 1048576, 16777216, (uint32_t)s);
		check_shape(&r, 532, 4096, true, &kept);
		free(r.seq);
	}
}

/* The same seed, the same sequence; another seed, another one. */
static void test_sequence_seeded(void **state)
{
	struct run a, b, c;

	(void)state;
	run_seq(&a, 4, 0.15, 0, 4194304, 9);
	run_seq(&b, 4, 0.15, 0, 4194304, 9);
	run_seq(&c, 4, 0.15, 0, 4194304, 10);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.seq, b.seq, a.n * sizeof(*a.seq));
	assert_true(a.n != c.n || memcmp(a.seq, c.seq, a.n * sizeof(*a.seq)));
	free(a.seq);
	free(b.seq);
	free(c.seq);
}

/* One region (fully valid: a block is kept by a 1 in 10001 chance) of
 * 295 writes over 256 blocks: the blocks run out first. */
static void test_one_region(void **state)
{
	struct run r;
	uint64_t kept;

	(void)state;
	run_seq(&r, 1, 0.15, 0, 1048576, 3);
	check_shape(&r, 295, 256, false, &kept);
	assert_int_equal(r.n, 256 + r.rewrites);
	free(r.seq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_as_fio),
		cmocka_unit_test(test_plan_as_fio),
		cmocka_unit_test(test_plan_refused),
		cmocka_unit_test(test_sequence_shape),
		cmocka_unit_test(test_sequence_seeded),
		cmocka_unit_test(test_one_region),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
