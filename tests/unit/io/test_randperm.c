// SPDX-License-Identifier: GPL-2.0-only
/*
 * The keyed permutation (randperm.h): an exact bijection of [0, n) for many
 * n, deterministic per seed and different across seeds and passes, the
 * cycle-walk bound, and the same uniformity and independence statistics as
 * today's generator (taus88 + the random map through ib_iogen_next),
 * checked by the same code at the same thresholds.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/iogen.h"
#include "iobench/jobseed.h"
#include "iobench/rand.h"
#include "iobench/randperm.h"

static bool bit_test_set(uint64_t *map, uint64_t b)
{
	bool was = (map[b >> 6] >> (b & 63)) & 1;

	map[b >> 6] |= 1ull << (b & 63);
	return was;
}

/*
 * A whole pass through ib_randperm_next is a bijection of [0, n): every
 * value < n, none twice (so all n of them), ib_randperm_at agrees and
 * ib_randperm_index inverts it. The next call starts pass 1.
 */
static void check_bijection(uint64_t n, uint64_t seed)
{
	struct ib_randperm p;
	uint64_t *map = calloc((n + 63) / 64, sizeof(*map)), i, y;

	assert_non_null(map);
	assert_int_equal(ib_randperm_init(&p, n, seed), 0);
	for (i = 0; i < n; i++) {
		y = ib_randperm_next(&p);
		assert_true(y < n);
		assert_false(bit_test_set(map, y));
		if (n <= 4096 || !(i & 1023)) {
			assert_int_equal(ib_randperm_at(&p, i), y);
			assert_int_equal(ib_randperm_index(&p, y), i);
		}
	}
	assert_int_equal(p.pass, 0);
	assert_true(ib_randperm_next(&p) < n);
	assert_int_equal(p.pass, 1);
	assert_int_equal(p.i, 1);
	free(map);
}

/*
 * Under a sanitizer or memcheck (IB_UNIT_REDUCED, tests/meson.build) the
 * exhaustive walks run over the smaller domains only: the code's every
 * branch is taken by n <= 300 already, what the large n add is the
 * bijection's proof, which the plain build's run gives; there they took
 * 73 s of memcheck and 28 s of ASan, for no line either reaches otherwise.
 */
static bool reduced(void)
{
	return getenv("IB_UNIT_REDUCED") != NULL;
}

static void test_bijection_small(void **state)
{
	uint64_t n, top = reduced() ? 300 : 4096;

	(void)state;
	for (n = 1; n <= top; n++)
		check_bijection(n, n * 0x9e3779b9u);
	if (reduced())
		check_bijection(4096, 4096 * 0x9e3779b9u);
}

static void test_bijection_sizes(void **state)
{
	static const uint64_t primes[] = { 4099, 10007, 65521, 65537, 999983,
					   1000003, 2097143, 4194301 };
	unsigned int k, j, nprimes = reduced() ? 2 : 8, kmax = reduced() ? 13 : 22;

	(void)state;
	for (j = 0; j < nprimes; j++)
		check_bijection(primes[j], 0x89 + j);
	for (k = 12; k <= kmax; k++) {
		check_bijection((1ull << k) - 1, k);
		check_bijection(1ull << k, k);
		check_bijection((1ull << k) + 1, k);
	}
}

/* Too big to enumerate: every value < n and the inverse recovers i. */
static void test_huge_domains(void **state)
{
	static const uint64_t sizes[] = { 1ull << 63, (1ull << 63) - 25,
					  (1ull << 40) + 1, 1000000007ull };
	struct ib_randperm p;
	uint64_t i, y;
	unsigned int k;

	(void)state;
	assert_int_equal(ib_randperm_init(&p, 0, 1), -EINVAL);
	assert_int_equal(ib_randperm_init(&p, (1ull << 63) + 1, 1), -EINVAL);
	assert_int_equal(ib_randperm_init(&p, UINT64_MAX, 1), -EINVAL);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		assert_int_equal(ib_randperm_init(&p, sizes[k], k), 0);
		for (i = 0; i < 20000; i++) {
			uint64_t x = i * (sizes[k] / 20000) + i % 7;

			y = ib_randperm_at(&p, x);
			assert_true(y < sizes[k]);
			assert_int_equal(ib_randperm_index(&p, y), x);
		}
		assert_int_equal(ib_randperm_at(&p, sizes[k] - 1) < sizes[k], 1);
	}
}

/* Positions where two length-len sequences agree. */
static unsigned int agree(struct ib_randperm *a, struct ib_randperm *b,
			  unsigned int len)
{
	unsigned int j, same = 0;

	for (j = 0; j < len; j++)
		same += ib_randperm_next(a) == ib_randperm_next(b);
	return same;
}

/*
 * Same seed: the same sequence. Another seed or another pass: about
 * len / n agreements by chance (0.01 here); more than 5 would mean the
 * key does not reach the order.
 */
static void test_seeds_and_passes(void **state)
{
	const uint64_t n = 1 << 20;
	struct ib_randperm a, b;
	uint64_t i;

	(void)state;
	assert_int_equal(ib_randperm_init(&a, n, 42), 0);
	assert_int_equal(ib_randperm_init(&b, n, 42), 0);
	assert_int_equal(agree(&a, &b, 10000), 10000);
	assert_int_equal(ib_randperm_init(&b, n, 43), 0);
	ib_randperm_set_pass(&a, 0);
	assert_true(agree(&a, &b, 10000) <= 5);
	/* pass 1 reached by running out pass 0 == pass 1 set directly */
	assert_int_equal(ib_randperm_init(&a, n, 42), 0);
	for (i = 0; i < n; i++)
		ib_randperm_next(&a);
	assert_int_equal(ib_randperm_init(&b, n, 42), 0);
	ib_randperm_set_pass(&b, 1);
	assert_int_equal(agree(&a, &b, 10000), 10000);
	assert_int_equal(a.pass, 1);
	/* pass 1 against pass 0 of the same seed */
	ib_randperm_set_pass(&a, 0);
	assert_true(agree(&a, &b, 10000) <= 5);
}

/*
 * Cycle walk: a pass visits each point of [n, 2^b) at most once, so it
 * costs between n and 2^b < 2n evaluations. n = 2^k + 1 is the worst case
 * (2^b = 2n - 2).
 */
static void test_walk_bound(void **state)
{
	static const uint64_t sizes[] = { 3, 5, 1025, 65537, (1 << 20) + 1,
					  1000003, 1 << 20 };
	struct ib_randperm p;
	uint64_t i, dom;
	unsigned int k;

	(void)state;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		assert_int_equal(ib_randperm_init(&p, sizes[k], 7), 0);
		dom = (p.hi_mask + 1) << p.lo_bits;
		assert_true(dom >= sizes[k] && dom < 2 * sizes[k]);
		for (i = 0; i < sizes[k]; i++)
			ib_randperm_next(&p);
		assert_true(p.walks >= sizes[k] && p.walks <= dom);
		assert_true(p.longest <= dom - sizes[k] + 1);
	}
	/* a power of two never walks */
	assert_int_equal(p.walks, 1 << 20);
	assert_int_equal(p.longest, 1);
}

/*
 * Statistics over the first k offsets of a pass of n blocks, the same
 * computation for both generators.
 *
 * Thresholds. Each statistic is checked two-sided at about the 0.1% level
 * (z = 3.09 for chi-square, |z| < 4 for the normal ones: p ~ 6e-5), so a
 * good generator fails a given (fixed, deterministic) seed with about that
 * probability and a fixed seed that passes keeps passing. A lower bound on
 * the chi-squares also rejects orders that are too even to be random (a
 * stride or a stratified walk has chi-square ~ 0).
 * - chi-square over B = 256 buckets of the offset (df 255), whose 0.1%
 *   and 99.9% points are 190.8 and 330.6 (Wilson-Hilferty: 255 (1 - 2/(9 *
 *   255) +- 3.09 sqrt(2/(9 * 255)))^3). Neither generator draws with
 *   replacement, and they differ there: a permutation's first k offsets
 *   are a uniform sample without replacement (hypergeometric counts,
 *   E[X] = 255 (n - k)/(n - 1)) while the random map's are iid uniform
 *   draws each moved to the next free block, a local shift that keeps
 *   multinomial counts (E[X] = 255). k = n/64 keeps the gap under 2%, so
 *   the same bounds hold for both without a correction that would favour
 *   one (at k = n/4 the map scores ~340 after the hypergeometric
 *   correction, the permutation ~255).
 * - independence of consecutive offsets:
 *   - pairs: chi-square of the disjoint pairs (y[2j], y[2j+1]) over a
 *     16 x 16 grid (256 cells, df 255, the same bounds; the without-
 *     replacement correction only lowers the 30 marginal degrees of freedom
 *     slightly).
 *   - lag-1 serial correlation r of y/n: about N(0, 1/k); |r| sqrt(k) < 4.
 *   - Wald-Wolfowitz runs above/below n/2: R runs among n1 + n2 = k,
 *     E = 1 + 2 n1 n2 / k, Var = 2 n1 n2 (2 n1 n2 - k) / (k^2 (k - 1));
 *     |z| < 4.
 *   - runs up and down (no ties: no offset repeats within a pass):
 *     E = (2k - 1)/3, Var = (16k - 29)/90; |z| < 4.
 */
#define ST_B 256
#define ST_G 16
#define CHI_LO 190.8
#define CHI_HI 330.6
#define Z_MAX 4.0

struct stats {
	double chi;
	double pairs;
	double serial_z;
	double median_z;
	double updown_z;
};

typedef uint64_t (*gen_fn)(void *ctx);

static double chi_buckets(const uint64_t *y, uint64_t k, uint64_t n)
{
	uint64_t cnt[ST_B] = { 0 }, j, lo, hi;
	double x = 0, e;

	for (j = 0; j < k; j++)
		cnt[y[j] * ST_B / n]++;
	for (j = 0; j < ST_B; j++) {
		/* blocks in bucket j: y with y * B / n == j */
		lo = (j * n + ST_B - 1) / ST_B;
		hi = ((j + 1) * n + ST_B - 1) / ST_B;
		e = (double)k * (double)(hi - lo) / (double)n;
		x += ((double)cnt[j] - e) * ((double)cnt[j] - e) / e;
	}
	return x;
}

static double chi_pairs(const uint64_t *y, uint64_t k, uint64_t n)
{
	uint64_t cnt[ST_G * ST_G] = { 0 }, j, m = k / 2;
	double x = 0, e = (double)m / (ST_G * ST_G);

	for (j = 0; j < m; j++)
		cnt[(y[2 * j] * ST_G / n) * ST_G + y[2 * j + 1] * ST_G / n]++;
	for (j = 0; j < ST_G * ST_G; j++)
		x += ((double)cnt[j] - e) * ((double)cnt[j] - e) / e;
	return x;
}

static double serial_z(const uint64_t *y, uint64_t k, uint64_t n)
{
	double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, a, b, m = (double)(k - 1);
	uint64_t j;

	for (j = 0; j + 1 < k; j++) {
		a = (double)y[j] / (double)n;
		b = (double)y[j + 1] / (double)n;
		sa += a;
		sb += b;
		saa += a * a;
		sbb += b * b;
		sab += a * b;
	}
	a = (sab - sa * sb / m) / sqrt((saa - sa * sa / m) * (sbb - sb * sb / m));
	return a * sqrt(m);
}

static double median_z(const uint64_t *y, uint64_t k, uint64_t n)
{
	double n1 = 0, runs = 1, n2, e, v, kk = (double)k;
	uint64_t j;

	for (j = 0; j < k; j++) {
		n1 += y[j] >= n / 2;
		if (j && (y[j] >= n / 2) != (y[j - 1] >= n / 2))
			runs++;
	}
	n2 = kk - n1;
	e = 1 + 2 * n1 * n2 / kk;
	v = 2 * n1 * n2 * (2 * n1 * n2 - kk) / (kk * kk * (kk - 1));
	return (runs - e) / sqrt(v);
}

static double updown_z(const uint64_t *y, uint64_t k)
{
	double runs = 1, kk = (double)k;
	uint64_t j;

	for (j = 2; j < k; j++)
		if ((y[j] > y[j - 1]) != (y[j - 1] > y[j - 2]))
			runs++;
	return (runs - (2 * kk - 1) / 3) / sqrt((16 * kk - 29) / 90);
}

static void measure(gen_fn next, void *ctx, uint64_t k, uint64_t n,
		    struct stats *s)
{
	uint64_t *y = malloc(k * sizeof(*y)), j;

	assert_non_null(y);
	for (j = 0; j < k; j++) {
		y[j] = next(ctx);
		assert_true(y[j] < n);
	}
	s->chi = chi_buckets(y, k, n);
	s->pairs = chi_pairs(y, k, n);
	s->serial_z = serial_z(y, k, n);
	s->median_z = median_z(y, k, n);
	s->updown_z = updown_z(y, k);
	free(y);
}

static void check_stats(const char *who, unsigned int seed, const struct stats *s)
{
	print_message("%-9s seed %u: chi %.1f pairs %.1f serial z %+.2f "
		      "median-runs z %+.2f up-down z %+.2f\n", who, seed, s->chi,
		      s->pairs, s->serial_z, s->median_z, s->updown_z);
	assert_true(s->chi > CHI_LO && s->chi < CHI_HI);
	assert_true(s->pairs > CHI_LO && s->pairs < CHI_HI);
	assert_true(fabs(s->serial_z) < Z_MAX);
	assert_true(fabs(s->median_z) < Z_MAX);
	assert_true(fabs(s->updown_z) < Z_MAX);
}

static uint64_t perm_next(void *ctx)
{
	return ib_randperm_next(ctx);
}

struct today {
	struct ib_job job;
	struct ib_file file;
	struct ib_iogen gen;
	struct ib_diag d;
};

/* Today's generator: rand read of 4 KiB blocks, the random map on. */
static uint64_t today_next(void *ctx)
{
	struct today *t = ctx;
	struct ib_io_desc io;

	assert_true(ib_iogen_next(&t->gen, &io));
	return io.offset / 4096;
}

static void today_start(struct today *t, uint64_t n, unsigned int number)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	ib_job_defaults(&t->job);
	t->job.rw = IB_RW_READ | IB_RW_RAND;
	t->job.number = number;
	t->job.size = n * 4096;
	for (i = 0; i < IB_DDIR_RWT; i++)
		t->job.bs.min[i] = t->job.bs.max[i] = 4096;
	t->file.io_size = n * 4096;
	assert_int_equal(ib_iogen_init(&t->gen, &t->job, &t->file, 1, &t->d), 0);
}

/*
 * n = 2^24 + 43 (prime: the permutation walks cycles; the map 2 MiB),
 * k = 2^18 = n/64 offsets (about 1024 per bucket, 1024 per pair cell),
 * for four seeds each: the seeds jobs 1..4 get (ib_rand_job_seed), the same
 * jobs through today's generator.
 */
static void test_same_statistics(void **state)
{
	const uint64_t n = (1 << 24) + 43, k = 1 << 18;
	struct ib_randperm p;
	struct today *t = malloc(sizeof(*t));
	struct stats s;
	unsigned int num;

	(void)state;
	assert_non_null(t);
	for (num = 1; num <= 4; num++) {
		today_start(t, n, num);
		measure(today_next, t, k, n, &s);
		check_stats("today", num, &s);
		assert_int_equal(ib_randperm_init(&p, n,
				 ib_rand_job_seed(&t->job, IB_STREAM_OFFSET)), 0);
		measure(perm_next, &p, k, n, &s);
		check_stats("randperm", num, &s);
		/* and its second pass (other keys) */
		ib_randperm_set_pass(&p, 1);
		measure(perm_next, &p, k, n, &s);
		check_stats("perm p1", num, &s);
		ib_iogen_free(&t->gen);
	}
	free(t);
}

/* Index of the order of v[0..n-1] among the n! orders (Lehmer code). */
static unsigned int order_index(const uint64_t *v, unsigned int n)
{
	unsigned int i, j, code = 0, used = 0, rank;

	for (i = 0; i < n; i++) {
		for (rank = 0, j = 0; j < v[i]; j++)
			rank += !((used >> j) & 1);
		used |= 1u << v[i];
		code = code * (n - i) + rank;
	}
	return code;
}

/*
 * Across seeds, small domains: the 120 orders of n = 5 over 24000 seeds
 * (chi-square df 119, 0.1%/99.9% points 76.9 and 172.5), and the pair
 * (perm(0), perm(1)) over n (n - 1) cells, 50 seeds per cell (df n(n-1)-1,
 * |z| < 4 in the normal approximation). With 6 rounds at these sizes the
 * n = 5 chi-square was ~6600 and the pairs of n = 7 and 31 were 7 sd
 * high: this is what IB_PERM_SMALL_ROUNDS is for.
 */
static void test_small_domains_across_seeds(void **state)
{
	static const unsigned int pair_n[] = { 7, 31, 129, 150 };
	unsigned int cnt120[120] = { 0 }, *cnt, k, s, n, cells, i;
	struct ib_randperm p;
	uint64_t v[5];
	double x = 0, e;

	(void)state;
	for (s = 0; s < 24000; s++) {
		assert_int_equal(ib_randperm_init(&p, 5, s * 0x9e3779b97f4a7c15ull), 0);
		for (i = 0; i < 5; i++)
			v[i] = ib_randperm_next(&p);
		cnt120[order_index(v, 5)]++;
	}
	for (i = 0; i < 120; i++)
		x += (cnt120[i] - 200.0) * (cnt120[i] - 200.0) / 200.0;
	print_message("n=5 orders: chi %.1f (df 119)\n", x);
	assert_true(x > 76.9 && x < 172.5);
	for (k = 0; k < sizeof(pair_n) / sizeof(pair_n[0]); k++) {
		n = pair_n[k];
		cells = n * (n - 1);
		cnt = calloc(cells, sizeof(*cnt));
		assert_non_null(cnt);
		for (s = 0; s < cells * 50; s++) {
			uint64_t a, b;

			assert_int_equal(ib_randperm_init(&p, n, s * 0x2545f4914f6cdd1dull + 1), 0);
			a = ib_randperm_at(&p, 0);
			b = ib_randperm_at(&p, 1);
			cnt[a * (n - 1) + (b > a ? b - 1 : b)]++;
		}
		for (x = 0, i = 0; i < cells; i++)
			x += (cnt[i] - 50.0) * (cnt[i] - 50.0) / 50.0;
		e = (x - (cells - 1)) / sqrt(2.0 * (cells - 1));
		print_message("n=%u pairs: chi %.1f (df %u) z %+.2f\n", n, x, cells - 1, e);
		assert_true(fabs(e) < Z_MAX);
		free(cnt);
	}
}

struct stride {
	uint64_t j, n, step;
};

static uint64_t stride_next(void *ctx)
{
	struct stride *st = ctx;

	return (uint64_t)(((unsigned __int128)st->j++ * st->step) % st->n);
}

/*
 * The tests have power both ways: a golden-ratio stride (a permutation
 * too, but a low-discrepancy one) is far too even for the bucket test and
 * its consecutive pairs lie on a few lines.
 */
static void test_statistics_reject_stride(void **state)
{
	const uint64_t n = (1 << 24) + 43, k = 1 << 18;
	struct stride st = { 0, n, 10368889 }; /* ~ n (sqrt(5) - 1) / 2 */
	struct stats s;

	(void)state;
	measure(stride_next, &st, k, n, &s);
	print_message("stride: chi %.1f pairs %.1f\n", s.chi, s.pairs);
	assert_true(s.chi < CHI_LO);
	assert_true(s.pairs > CHI_HI);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bijection_small),
		cmocka_unit_test(test_bijection_sizes),
		cmocka_unit_test(test_huge_domains),
		cmocka_unit_test(test_seeds_and_passes),
		cmocka_unit_test(test_walk_bound),
		cmocka_unit_test(test_same_statistics),
		cmocka_unit_test(test_statistics_reject_stride),
		cmocka_unit_test(test_small_domains_across_seeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
