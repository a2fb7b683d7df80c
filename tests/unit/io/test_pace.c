// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pacing: exact due-time counts over simulated runs (linear rate_iops, rate
 * in bytes with bssplit-like sizes, rwmix per direction, numjobs), Poisson
 * gaps against the exponential distribution (Kolmogorov-Smirnov, fixed seed,
 * so exact and never flaky), backlog and lateness, think time and the
 * rate_min check with fio's messages. No clock: every time is simulated.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>
#include "iobench/pace.h"

#define SEC 1000000000ull
#define MS 1000000ull
#define T0 123456789ull		/* an arbitrary job start */

static void pace_iops(struct ib_pace *p, uint64_t r, uint64_t w, uint64_t start)
{
	struct ib_pace_cfg c;

	ib_pace_cfg_defaults(&c);
	c.rate_iops[IB_DDIR_READ] = r;
	c.rate_iops[IB_DDIR_WRITE] = w;
	ib_pace_init(p, &c, start);
}

/* Due times handed out before end, the I/O issued at its due time. */
static uint64_t count_until(struct ib_pace *p, enum ib_ddir d, uint64_t len,
			    uint64_t end)
{
	uint64_t n = 0, now = p->start_ns;

	while (ib_pace_peek(p, d, now) < end) {
		now = ib_pace_next_due(p, d, len, now);
		n++;
	}
	return n;
}

static void test_cfg_check(void **state)
{
	struct ib_pace_cfg c;
	struct ib_diag d;

	(void)state;
	ib_pace_cfg_defaults(&c);
	assert_int_equal(c.rate_cycle_ms, 1000);
	assert_int_equal(c.thinktime_blocks, 1);
	assert_int_equal(c.mode, IB_PACE_OPEN);
	assert_false(ib_pace_active(&c));
	assert_int_equal(ib_pace_cfg_check(&c, &d), 0);
	c.rate[IB_DDIR_READ] = 1 << 20;
	c.rate_iops[IB_DDIR_WRITE] = 100;
	assert_true(ib_pace_active(&c));
	assert_int_equal(ib_pace_cfg_check(&c, &d), -EINVAL);
	assert_string_equal(d.msg, "rate and rate_iops are mutually exclusive");
	c.rate_iops[IB_DDIR_WRITE] = 0;
	c.rate_min[IB_DDIR_WRITE] = 1;
	c.rate_iops_min[IB_DDIR_READ] = 1;
	assert_int_equal(ib_pace_cfg_check(&c, &d), -EINVAL);
	assert_string_equal(d.msg, "rate and rate_iops are mutually exclusive");
	c.rate_iops_min[IB_DDIR_READ] = 0;
	c.rate_min[IB_DDIR_WRITE] = 0;
	c.rate_min[IB_DDIR_READ] = (1 << 20) + 1;
	assert_int_equal(ib_pace_cfg_check(&c, &d), -EINVAL);
	assert_string_equal(d.msg, "minimum rate exceeds rate, ddir 0");
	c.rate_min[IB_DDIR_READ] = 1 << 20;
	assert_int_equal(ib_pace_cfg_check(&c, &d), 0);
}

/* rate_iops=5000 for 10 s: exactly 50,000 due times, each k * 200 us. */
static void test_linear_iops_exact(void **state)
{
	struct ib_pace p;
	uint64_t k, now = T0;

	(void)state;
	pace_iops(&p, 5000, 0, T0);
	for (k = 0; k < 50000; k++) {
		now = ib_pace_next_due(&p, IB_DDIR_READ, 4096, now);
		assert_int_equal(now, T0 + k * 200000);
	}
	assert_int_equal(ib_pace_peek(&p, IB_DDIR_READ, 0), T0 + 10 * SEC);
	pace_iops(&p, 5000, 0, T0);
	assert_int_equal(count_until(&p, IB_DDIR_READ, 4096, T0 + 10 * SEC), 50000);
}

/* Rates that do not divide 1e9: no drift, the k-th due is floor(k*1e9/rate). */
static void test_linear_iops_no_drift(void **state)
{
	static const uint64_t rates[] = { 3, 7, 3000, 999983, 3333333 };
	struct ib_pace p;
	uint64_t k, n, r, now;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		r = rates[i];
		pace_iops(&p, 0, r, T0);
		n = r * 10 < 200000 ? r * 10 : 200000;
		now = T0;
		for (k = 0; k < n; k++) {
			now = ib_pace_next_due(&p, IB_DDIR_WRITE, 512, now);
			assert_int_equal(now - T0, (uint64_t)((unsigned __int128)k * SEC / r));
		}
		pace_iops(&p, 0, r, T0);
		if (r <= 1000000)
			assert_int_equal(count_until(&p, IB_DDIR_WRITE, 512,
						     T0 + 10 * SEC), r * 10);
	}
}

/* bssplit=4k/50:8k/30:64k/20 drawn from a seeded stream. */
static uint64_t bssplit_len(struct ib_rand *r)
{
	uint64_t v = ib_rand_below(r, 100);

	return v < 50 ? 4096 : v < 80 ? 8192 : 65536;
}

/* rate=10m with variable sizes: bytes are paced exactly. */
static void test_linear_bytes_bssplit(void **state)
{
	const uint64_t rate = 10ull << 20, end = T0 + 10 * SEC;
	struct ib_pace_cfg c;
	struct ib_pace p;
	struct ib_rand r;
	uint64_t before = 0, n = 0, now = T0, len = 0, due;

	(void)state;
	ib_pace_cfg_defaults(&c);
	c.rate[IB_DDIR_WRITE] = rate;
	ib_pace_init(&p, &c, T0);
	ib_rand_seed(&r, 42);
	while (ib_pace_peek(&p, IB_DDIR_WRITE, now) < end) {
		len = bssplit_len(&r);
		due = ib_pace_next_due(&p, IB_DDIR_WRITE, len, now);
		assert_int_equal(due - T0,
			(uint64_t)((unsigned __int128)before * SEC / rate));
		now = due;
		before += len;
		n++;
	}
	/* every byte before 10 s * rate started in time, none after */
	assert_true(before >= 10 * rate);
	assert_true(before - len < 10 * rate);
	assert_int_equal(p.dir[IB_DDIR_WRITE].bytes, before);
	assert_int_equal(p.dir[IB_DDIR_WRITE].ios, n);
	/* the count, derived again from the sizes: I/Os starting below 10 * rate */
	ib_rand_seed(&r, 42);
	for (before = 0; before < 10 * rate; n--)
		before += bssplit_len(&r);
	assert_int_equal(n, 0);
}

/*
 * rwmix 70/30 with rate_iops=3000,1000: the worker issues what ib_pace_pick
 * says, sleeping until it is due; each direction gets its own rate exactly.
 */
static void test_rwmix_per_direction(void **state)
{
	const uint64_t end = T0 + 10 * SEC;
	struct ib_pace p;
	struct ib_rand mix;
	uint64_t n[2] = { 0, 0 }, now = T0, due;
	enum ib_ddir want, d;

	(void)state;
	pace_iops(&p, 3000, 1000, T0);
	ib_rand_seed(&mix, 7);
	for (;;) {
		want = ib_rand_below(&mix, 100) < 70 ? IB_DDIR_READ : IB_DDIR_WRITE;
		d = ib_pace_pick(&p, want, true, now);
		due = ib_pace_peek(&p, d, now);
		if (due >= end)
			break;
		if (due > now)
			now = due;
		assert_int_equal(ib_pace_next_due(&p, d, 4096, now), due);
		n[d]++;
	}
	assert_int_equal(n[IB_DDIR_READ], 30000);
	assert_int_equal(n[IB_DDIR_WRITE], 10000);
}

/* fio's direction choice, case by case. */
static void test_pick(void **state)
{
	struct ib_pace p;

	(void)state;
	pace_iops(&p, 1000, 1000, 0);
	/* both due at 0 */
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_WRITE, true, 0), IB_DDIR_WRITE);
	ib_pace_next_due(&p, IB_DDIR_READ, 4096, 0);	/* read next at 1 ms */
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_READ, true, 0), IB_DDIR_WRITE);
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_READ, false, 0), IB_DDIR_READ);
	ib_pace_next_due(&p, IB_DDIR_WRITE, 4096, 0);	/* write next at 1 ms */
	ib_pace_next_due(&p, IB_DDIR_WRITE, 4096, 0);	/* write next at 2 ms */
	/* both ahead: the earlier one (read at 1 ms) */
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_WRITE, true, 0), IB_DDIR_READ);
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_READ, true, 0), IB_DDIR_READ);
	/* want is due: kept */
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_WRITE, true, 2 * MS), IB_DDIR_WRITE);
	/* a tie keeps want */
	ib_pace_next_due(&p, IB_DDIR_READ, 4096, 0);	/* read next at 2 ms */
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_WRITE, true, 0), IB_DDIR_WRITE);
	/* trim never switches */
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_TRIM, true, 0), IB_DDIR_TRIM);
	/* only reads rated: an unrated write is always due, reads wait */
	pace_iops(&p, 1000, 0, 0);
	ib_pace_next_due(&p, IB_DDIR_READ, 4096, 0);
	assert_int_equal(ib_pace_pick(&p, IB_DDIR_READ, true, 10), IB_DDIR_WRITE);
	assert_int_equal(ib_pace_next_due(&p, IB_DDIR_WRITE, 4096, 10), 10);
	assert_int_equal(ib_pace_peek(&p, IB_DDIR_WRITE, 77), 77);
	assert_false(ib_pace_rated(&p, IB_DDIR_WRITE));
	assert_true(ib_pace_rated(&p, IB_DDIR_READ));
}

/* numjobs: fio applies the rate to each job; 2 jobs issue twice as many. */
static void test_numjobs_per_job(void **state)
{
	struct ib_pace jobs[2];
	uint64_t total = 0;
	unsigned int j;

	(void)state;
	for (j = 0; j < 2; j++) {
		pace_iops(&jobs[j], 5000, 0, T0 + j * 12345);
		total += count_until(&jobs[j], IB_DDIR_READ, 4096,
				     T0 + j * 12345 + 10 * SEC);
	}
	assert_int_equal(total, 100000);
}

static void pace_poisson(struct ib_pace *p, uint64_t iops, uint32_t seed)
{
	struct ib_pace_cfg c;

	ib_pace_cfg_defaults(&c);
	c.rate_iops[IB_DDIR_READ] = iops;
	c.rate_iops[IB_DDIR_WRITE] = iops;
	c.process = IB_PACE_POISSON;
	c.seed = seed;
	ib_pace_init(p, &c, T0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Kolmogorov-Smirnov distance of sorted gaps from Exp(mean). */
static double ks_exp(const uint64_t *g, size_t n, double mean)
{
	double dmax = 0, f, lo, hi;
	size_t i;

	for (i = 0; i < n; i++) {
		f = 1.0 - exp(-(double)g[i] / mean);
		lo = f - (double)i / (double)n;
		hi = (double)(i + 1) / (double)n - f;
		dmax = fmax(dmax, fmax(lo, hi));
	}
	return dmax;
}

#define NGAPS 100000

/*
 * rate_process=poisson, rate_iops=5000, seed 1234: 100,000 gaps. Mean within
 * 1% of 200 us; KS distance below the 1% critical value 1.628/sqrt(n). The
 * seed is fixed, so the outcome is the same on every run.
 */
static void test_poisson_fit(void **state)
{
	struct ib_pace p;
	uint64_t *g = malloc(NGAPS * sizeof(*g));
	uint64_t prev, due, sum = 0;
	double mean, d;
	size_t i;

	(void)state;
	assert_non_null(g);
	pace_poisson(&p, 5000, 1234);
	prev = ib_pace_next_due(&p, IB_DDIR_READ, 4096, T0);
	assert_int_equal(prev, T0);	/* the first I/O at the start */
	for (i = 0; i < NGAPS; i++) {
		due = ib_pace_next_due(&p, IB_DDIR_READ, 4096, prev);
		assert_true(due >= prev);
		g[i] = due - prev;
		sum += g[i];
		prev = due;
	}
	mean = (double)sum / NGAPS;
	assert_true(fabs(mean - 200000.0) < 2000.0);
	qsort(g, NGAPS, sizeof(*g), cmp_u64);
	d = ks_exp(g, NGAPS, 200000.0);
	assert_true(d < 1.628 / sqrt((double)NGAPS));
	/* a wrong distribution fails the same test: Exp(mean * 1.05) */
	assert_true(ks_exp(g, NGAPS, 210000.0) > 1.628 / sqrt((double)NGAPS));
	free(g);
	/* over 10 s the count is within 1% of 50,000 */
	pace_poisson(&p, 5000, 1234);
	i = count_until(&p, IB_DDIR_READ, 4096, T0 + 10 * SEC);
	assert_true(i > 49500 && i < 50500);
}

/* Poisson with rate in bytes: the mean gap is len * 1e9 / rate. */
static void test_poisson_bytes(void **state)
{
	struct ib_pace_cfg c;
	struct ib_pace p;
	uint64_t prev, due, sum = 0;
	unsigned int i;
	double mean;

	(void)state;
	ib_pace_cfg_defaults(&c);
	c.rate[IB_DDIR_WRITE] = 8192ull * 1000;	/* 1000 8k I/Os a second */
	c.process = IB_PACE_POISSON;
	c.seed = 99;
	ib_pace_init(&p, &c, 0);
	prev = ib_pace_next_due(&p, IB_DDIR_WRITE, 8192, 0);
	for (i = 0; i < 50000; i++) {
		due = ib_pace_next_due(&p, IB_DDIR_WRITE, 8192, prev);
		sum += due - prev;
		prev = due;
	}
	mean = (double)sum / 50000;
	assert_true(fabs(mean - 1e6) < 1e6 * 0.01);
}

/* Same seed, same schedule; another seed or direction, another one. */
static void test_poisson_deterministic(void **state)
{
	struct ib_pace a, b, c;
	uint64_t x, y, z, now = T0;
	unsigned int i, same_dir = 0, same_seed = 0;

	(void)state;
	pace_poisson(&a, 1000, 5);
	pace_poisson(&b, 1000, 5);
	pace_poisson(&c, 1000, 6);
	for (i = 0; i < 1000; i++) {
		x = ib_pace_next_due(&a, IB_DDIR_READ, 4096, now);
		y = ib_pace_next_due(&b, IB_DDIR_READ, 4096, now);
		z = ib_pace_next_due(&c, IB_DDIR_READ, 4096, now);
		assert_int_equal(x, y);
		same_seed += x == z;
		same_dir += ib_pace_next_due(&b, IB_DDIR_WRITE, 4096, now) == x;
	}
	assert_true(same_seed < 5);	/* only the first (T0) and chance */
	assert_true(same_dir < 5);
}

/* Backlog: brute force over a copy of the pacer, linear and Poisson. */
static uint64_t backlog_brute(const struct ib_pace *p, enum ib_ddir d,
			      uint64_t len, uint64_t now)
{
	struct ib_pace q = *p;
	uint64_t n = 0;

	while (ib_pace_peek(&q, d, now) <= now) {
		ib_pace_next_due(&q, d, len, now);
		n++;
	}
	return n;
}

static void test_backlog(void **state)
{
	struct ib_pace p;
	struct ib_pace_cfg c;
	struct ib_rand r;
	uint64_t now;
	unsigned int i;

	(void)state;
	pace_iops(&p, 1000, 3000, 0);
	assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, 0), 1);
	assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, MS - 1), 1);
	assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, MS), 2);
	assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, 10 * MS - 1), 10);
	assert_int_equal(ib_pace_backlog(&p, IB_DDIR_TRIM, 10 * MS), 0);
	ib_pace_next_due(&p, IB_DDIR_READ, 4096, 0);
	assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, MS - 1), 0);
	assert_int_equal(ib_pace_lag_ns(&p, IB_DDIR_READ, MS - 1), 0);
	assert_int_equal(ib_pace_lag_ns(&p, IB_DDIR_READ, 3 * MS + 5), 2 * MS + 5);
	ib_rand_seed(&r, 3);
	for (i = 0; i < 200; i++) {
		ib_pace_next_due(&p, IB_DDIR_WRITE, 4096, 0);
		now = ib_rand_below(&r, 200 * MS);
		assert_int_equal(ib_pace_backlog(&p, IB_DDIR_WRITE, now),
				 backlog_brute(&p, IB_DDIR_WRITE, 4096, now));
	}
	ib_pace_cfg_defaults(&c);
	c.rate[IB_DDIR_READ] = 3333333;	/* bytes, 8k I/Os */
	pace_poisson(&p, 2000, 11);
	for (i = 0; i < 200; i++) {
		ib_pace_next_due(&p, IB_DDIR_READ, 4096, 0);
		now = ib_rand_below(&r, 200 * MS);
		assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, now),
				 backlog_brute(&p, IB_DDIR_READ, 4096, now));
	}
	ib_pace_init(&p, &c, 0);
	assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, 50 * MS), 1);
	c.process = IB_PACE_POISSON;	/* bytes and Poisson: no size, no loop */
	ib_pace_init(&p, &c, 0);
	assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, 50 * MS), 1);
	c.process = IB_PACE_LINEAR;
	ib_pace_init(&p, &c, 0);
	for (i = 0; i < 200; i++) {
		ib_pace_next_due(&p, IB_DDIR_READ, 8192, 0);
		now = ib_rand_below(&r, 200 * MS);
		assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, now),
				 backlog_brute(&p, IB_DDIR_READ, 8192, now));
	}
	c.process = IB_PACE_POISSON;
	ib_pace_init(&p, &c, 0);
	for (i = 0; i < 200; i++) {
		ib_pace_next_due(&p, IB_DDIR_READ, 8192, 0);
		now = ib_rand_below(&r, 400 * MS);
		assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, now),
				 backlog_brute(&p, IB_DDIR_READ, 8192, now));
	}
}

/*
 * Open loop over a device that stalls: 1000 IOPS, iodepth 1, each I/O
 * takes 0.5 ms except the one due at 20 ms, 10.5 ms. The schedule goes on:
 * the 19 I/Os after it start late, by 9.5, 9.0, .. 0.5 ms (95 ms in all), as
 * the device catches up 0.5 ms per I/O; none is dropped.
 */
static void test_open_loop_stall(void **state)
{
	struct ib_pace p;
	uint64_t k, now = 0, due, done_at = 0, lat_max = 0, lat;
	uint64_t backlog;

	(void)state;
	pace_iops(&p, 1000, 0, 0);
	for (k = 0; k < 100; k++) {
		due = ib_pace_next_due(&p, IB_DDIR_READ, 4096, now);
		backlog = ib_pace_backlog(&p, IB_DDIR_READ, done_at);
		ib_pace_note_backlog(&p, IB_DDIR_READ, backlog + (done_at > due));
		now = due > done_at ? due : done_at;	/* a free slot */
		ib_pace_started(&p, IB_DDIR_READ, due, now);
		done_at = now + (k == 20 ? 10500000 : 500000);
		lat = done_at - ib_pace_lat_origin(&p, due, now);
		if (lat > lat_max)
			lat_max = lat;
	}
	assert_int_equal(p.dir[IB_DDIR_READ].ios, 100);
	assert_int_equal(p.dir[IB_DDIR_READ].late, 19);
	assert_int_equal(p.dir[IB_DDIR_READ].late_sum_ns, 95 * MS);
	assert_int_equal(p.dir[IB_DDIR_READ].late_max_ns, 9500000);
	assert_int_equal(p.dir[IB_DDIR_READ].backlog_max, 10);
	/* open: the stalled I/O's 10.5 ms; the next waited 9.5 and took 0.5 */
	assert_int_equal(lat_max, 10500000);
	assert_int_equal(ib_pace_lat_origin(&p, 5, 9), 5);
	assert_false(ib_pace_drains(&p));
	p.cfg.mode = IB_PACE_CLOSED;
	assert_int_equal(ib_pace_lat_origin(&p, 5, 9), 9);
	assert_true(ib_pace_drains(&p));
}

static void test_lateness_threshold(void **state)
{
	struct ib_pace_cfg c;
	struct ib_pace p;

	(void)state;
	ib_pace_cfg_defaults(&c);
	c.rate_iops[IB_DDIR_WRITE] = 10;
	c.late_us = 50;
	ib_pace_init(&p, &c, 0);
	ib_pace_started(&p, IB_DDIR_WRITE, 1000, 1000);		/* on time */
	ib_pace_started(&p, IB_DDIR_WRITE, 1000, 900);		/* early */
	ib_pace_started(&p, IB_DDIR_WRITE, 1000, 51000);	/* 50 us: not late */
	assert_int_equal(p.dir[IB_DDIR_WRITE].late, 0);
	assert_int_equal(p.dir[IB_DDIR_WRITE].late_max_ns, 50000);
	ib_pace_started(&p, IB_DDIR_WRITE, 1000, 51001);
	ib_pace_started(&p, IB_DDIR_WRITE, 0, 200000);
	assert_int_equal(p.dir[IB_DDIR_WRITE].late, 2);
	assert_int_equal(p.dir[IB_DDIR_WRITE].late_sum_ns, 50001 + 200000);
	assert_int_equal(p.dir[IB_DDIR_WRITE].late_max_ns, 200000);
	ib_pace_note_backlog(&p, IB_DDIR_WRITE, 3);
	ib_pace_note_backlog(&p, IB_DDIR_WRITE, 2);
	assert_int_equal(p.dir[IB_DDIR_WRITE].backlog_max, 3);
}

static void think_cfg(struct ib_pace *p, uint64_t tt_us, uint64_t spin_us,
		      uint64_t blocks, enum ib_think_type type)
{
	struct ib_pace_cfg c;

	ib_pace_cfg_defaults(&c);
	c.thinktime_us = tt_us;
	c.thinktime_spin_us = spin_us;
	c.thinktime_blocks = blocks;
	c.thinktime_blocks_set = blocks != 1;
	c.thinktime_blocks_type = type;
	ib_pace_init(p, &c, 0);
}

/* thinktime=1ms, thinktime_blocks=4 counted at completion. */
static void test_think_blocks(void **state)
{
	struct ib_think_plan plan;
	struct ib_pace p;
	uint64_t i, stalls = 0, at[4];

	(void)state;
	think_cfg(&p, 1000, 0, 4, IB_THINK_COMPLETE);
	/* 20 issues, completions trail by 2 */
	for (i = 1; i <= 20; i++) {
		if (ib_pace_think(&p, i, i > 2 ? i - 2 : 0, 0, UINT64_MAX, &plan)) {
			assert_int_equal(plan.spin_ns, 0);
			assert_int_equal(plan.sleep_ns, MS);
			at[stalls++] = i;
		}
	}
	/* completed reaches 4, 8, 12, 16 at issues 6, 10, 14, 18 */
	assert_int_equal(stalls, 4);
	assert_int_equal(at[0], 6);
	assert_int_equal(at[3], 18);
	think_cfg(&p, 1000, 0, 4, IB_THINK_ISSUE);
	for (stalls = 0, i = 1; i <= 20; i++)
		if (ib_pace_think(&p, i, 0, 0, UINT64_MAX, &plan))
			at[stalls++ % 4] = i;
	assert_int_equal(stalls, 5);	/* at 4, 8, 12, 16, 20 */
	assert_int_equal(at[0], 20);
	/* default thinktime_blocks=1: after every block */
	think_cfg(&p, 1000, 0, 1, IB_THINK_COMPLETE);
	for (stalls = 0, i = 1; i <= 10; i++)
		stalls += ib_pace_think(&p, i, i, 0, UINT64_MAX, &plan);
	assert_int_equal(stalls, 10);
	/* no thinktime, no stall */
	think_cfg(&p, 0, 0, 1, IB_THINK_COMPLETE);
	assert_false(ib_pace_think(&p, 5, 5, 0, UINT64_MAX, &plan));
}

static void test_think_spin(void **state)
{
	struct ib_think_plan plan;
	struct ib_pace p;

	(void)state;
	think_cfg(&p, 1000, 300, 1, IB_THINK_COMPLETE);
	assert_true(ib_pace_think(&p, 1, 1, 0, UINT64_MAX, &plan));
	assert_int_equal(plan.spin_ns, 300000);
	assert_int_equal(plan.sleep_ns, 700000);
	/* the runtime left caps the spin, then the sleep */
	assert_true(ib_pace_think(&p, 2, 2, 0, 500000, &plan));
	assert_int_equal(plan.spin_ns, 300000);
	assert_int_equal(plan.sleep_ns, 200000);
	assert_true(ib_pace_think(&p, 3, 3, 0, 100000, &plan));
	assert_int_equal(plan.spin_ns, 100000);
	assert_int_equal(plan.sleep_ns, 0);
	/* thinktime_spin above thinktime is cut to it (fio) */
	think_cfg(&p, 1000, 2000, 1, IB_THINK_COMPLETE);
	assert_int_equal(p.cfg.thinktime_spin_us, 1000);
	assert_true(ib_pace_think(&p, 1, 1, 0, UINT64_MAX, &plan));
	assert_int_equal(plan.spin_ns, MS);
	assert_int_equal(plan.sleep_ns, 0);
}

/* thinktime_iotime=9s thinktime=1s: 9 s of I/O, 1 s stall, repeated. */
static void test_think_iotime(void **state)
{
	struct ib_think_plan plan;
	struct ib_pace_cfg c;
	struct ib_pace p;

	(void)state;
	ib_pace_cfg_defaults(&c);
	c.thinktime_us = 1000000;
	c.thinktime_iotime_us = 9000000;
	ib_pace_init(&p, &c, 5 * SEC);
	/* thinktime_blocks not given: blocks do not count */
	assert_false(ib_pace_think(&p, 100, 100, 5 * SEC + 1, UINT64_MAX, &plan));
	assert_false(ib_pace_think(&p, 9999, 9999, 14 * SEC - 1, UINT64_MAX, &plan));
	assert_true(ib_pace_think(&p, 10000, 10000, 14 * SEC, UINT64_MAX, &plan));
	assert_int_equal(plan.sleep_ns, SEC);
	ib_pace_think_done(&p, SEC, 15 * SEC);
	assert_false(ib_pace_think(&p, 10001, 10001, 24 * SEC - 1, UINT64_MAX, &plan));
	assert_true(ib_pace_think(&p, 10002, 10002, 24 * SEC, UINT64_MAX, &plan));
	/* with thinktime_blocks too: whichever comes first */
	c.thinktime_blocks = 50;
	c.thinktime_blocks_set = true;
	ib_pace_init(&p, &c, 0);
	assert_false(ib_pace_think(&p, 49, 49, SEC, UINT64_MAX, &plan));
	assert_true(ib_pace_think(&p, 50, 50, SEC, UINT64_MAX, &plan));
	assert_true(ib_pace_think(&p, 51, 51, 9 * SEC, UINT64_MAX, &plan));
	ib_pace_think_done(&p, SEC, 10 * SEC);
	assert_false(ib_pace_think(&p, 52, 52, 10 * SEC, UINT64_MAX, &plan));
	assert_false(ib_pace_think(&p, 100, 100, 19 * SEC - 1, UINT64_MAX, &plan));
	assert_true(ib_pace_think(&p, 101, 101, 19 * SEC - 1, UINT64_MAX, &plan));
}

/*
 * 1000 IOPS, a 5 ms stall after the I/O due at 9 ms. Without
 * rate_ignore_thinktime the 5 I/Os due meanwhile are caught up at once; with
 * it the schedule moves on and the next I/O is due when the stall ends.
 */
static void test_think_ignore(void **state)
{
	struct ib_pace_cfg c;
	struct ib_pace p;
	unsigned int k, ign;

	(void)state;
	for (ign = 0; ign < 2; ign++) {
		ib_pace_cfg_defaults(&c);
		c.rate_iops[IB_DDIR_READ] = 1000;
		c.rate_iops[IB_DDIR_WRITE] = 100;
		c.thinktime_us = 5000;
		c.ignore_thinktime = ign;
		ib_pace_init(&p, &c, 0);
		for (k = 0; k < 10; k++)
			ib_pace_next_due(&p, IB_DDIR_READ, 4096, k * MS);
		ib_pace_next_due(&p, IB_DDIR_WRITE, 4096, 0);
		ib_pace_think_done(&p, 5 * MS, 14 * MS);
		if (!ign) {
			assert_int_equal(ib_pace_peek(&p, IB_DDIR_READ, 0), 10 * MS);
			assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, 14 * MS), 5);
			continue;
		}
		assert_int_equal(ib_pace_peek(&p, IB_DDIR_READ, 0), 14 * MS);
		assert_int_equal(ib_pace_backlog(&p, IB_DDIR_READ, 14 * MS), 1);
		assert_int_equal(ib_pace_next_due(&p, IB_DDIR_READ, 4096, 0), 14 * MS);
		assert_int_equal(ib_pace_next_due(&p, IB_DDIR_READ, 4096, 0), 15 * MS);
		/* every paced direction moves (fio moves the last I/O's only) */
		/* a stall shorter than the gap moves it by the whole stall */
		assert_int_equal(ib_pace_peek(&p, IB_DDIR_WRITE, 0), 15 * MS);
	}
}

/* rate_iops_min=1000: the job fails at 3 s with fio's message (fio: 93 IOPS). */
static void test_check_min_iops(void **state)
{
	struct ib_pace_cfg c;
	struct ib_pace p;
	struct ib_diag d;
	uint64_t bytes[3] = { 0, 0, 0 }, ios[3] = { 0, 0, 0 };

	(void)state;
	ib_pace_cfg_defaults(&c);
	c.rate_iops_min[IB_DDIR_READ] = 1000;
	ib_pace_init(&p, &c, T0);
	bytes[0] = 4096 * 186, ios[0] = 186;
	assert_int_equal(ib_pace_check_min(&p, T0 + 1999 * MS, bytes, ios, "pmin", &d), 0);
	/* 2 s: the baseline */
	assert_int_equal(ib_pace_check_min(&p, T0 + 2000 * MS, bytes, ios, "pmin", &d), 0);
	assert_int_equal(p.dir[0].min_ios, 186);
	/* within the cycle: no verdict, no new baseline */
	ios[0] = 190;
	assert_int_equal(ib_pace_check_min(&p, T0 + 2999 * MS, bytes, ios, "pmin", &d), 0);
	assert_int_equal(p.dir[0].min_ios, 186);
	ios[0] = 186 + 93;
	assert_int_equal(ib_pace_check_min(&p, T0 + 3000 * MS, bytes, ios, "pmin", &d), -EIO);
	assert_string_equal(d.msg, "pmin: rate_iops_min=1000 not met, got 93 IOPS");
	/* met: a new baseline */
	ib_pace_init(&p, &c, T0);
	ios[0] = 100;
	ib_pace_check_min(&p, T0 + 2 * SEC, bytes, ios, "pmin", &d);
	ios[0] = 1100;
	assert_int_equal(ib_pace_check_min(&p, T0 + 3 * SEC, bytes, ios, "pmin", &d), 0);
	assert_int_equal(p.dir[0].min_ios, 1100);
	assert_int_equal(p.dir[0].min_ns, T0 + 3 * SEC);
}

/* rate_min=1m, rate_cycle=500: bytes per cycle, fio's message. */
static void test_check_min_bytes(void **state)
{
	struct ib_pace_cfg c;
	struct ib_pace p;
	struct ib_diag d;
	uint64_t bytes[3] = { 0, 0, 0 }, ios[3] = { 0, 0, 0 };

	(void)state;
	ib_pace_cfg_defaults(&c);
	c.rate_min[IB_DDIR_WRITE] = 1 << 20;
	c.rate_cycle_ms = 500;
	ib_pace_init(&p, &c, 0);
	/* nothing written: the direction is not checked */
	assert_int_equal(ib_pace_check_min(&p, 5 * SEC, bytes, ios, "pmin", &d), 0);
	assert_int_equal(p.dir[1].min_ns, 0);
	bytes[1] = 1000000;
	assert_int_equal(ib_pace_check_min(&p, 2 * SEC, bytes, ios, "pmin", &d), 0);
	bytes[1] += 204391;	/* 500 ms: 408782 B/s */
	assert_int_equal(ib_pace_check_min(&p, 2500 * MS, bytes, ios, "pmin", &d), -EIO);
	assert_string_equal(d.msg, "pmin: rate_min=1048576B/s not met, got 408782B/s");
	/* reads have no minimum: never checked */
	bytes[0] = 1;
	ib_pace_init(&p, &c, 0);
	assert_int_equal(ib_pace_check_min(&p, 9 * SEC, bytes, ios, "pmin", &d), 0);
	assert_int_equal(p.dir[0].min_ns, 0);
}

/* fio 3.33's status line, measured with the null engine. */
static void rates_of(const char *expect, uint64_t rate_r, uint64_t rate_w,
		     uint64_t min, uint64_t iops_r, uint64_t iops_w, uint64_t iops_min,
		     unsigned int dirs, unsigned int jobs)
{
	struct ib_pace_rates s = { 0, 0, 0, 0 };
	struct ib_pace_cfg c;
	unsigned int i;
	char buf[64];

	ib_pace_cfg_defaults(&c);
	for (i = 0; i < IB_DDIR_RWT; i++) {
		c.rate[i] = i ? rate_w : rate_r;
		c.rate_iops[i] = i ? iops_w : iops_r;
		c.rate_min[i] = min;
		c.rate_iops_min[i] = iops_min;
	}
	for (i = 0; i < jobs; i++)
		ib_pace_rates_add(&s, &c, dirs);
	assert_int_equal(ib_pace_rates_str(&s, buf, sizeof(buf)), strlen(expect));
	assert_string_equal(buf, expect);
}

static void test_status_rates(void **state)
{
	(void)state;
	/* rw=read, rate_iops=300 (the value applies to every direction) */
	rates_of(", 0-300 IOPS", 0, 0, 0, 300, 300, 0, 1, 1);
	rates_of(", 0B/s-1024KiB/s", 1 << 20, 1 << 20, 0, 0, 0, 0, 1, 1);
	/* rw=randrw, rate=1m,512k rate_min=100k */
	rates_of(", 200KiB/s-1536KiB/s", 1 << 20, 512 << 10, 100 << 10, 0, 0, 0, 3, 1);
	/* rw=randrw, rate_iops=90,10 rate_iops_min=5 */
	rates_of(", 10-100 IOPS", 0, 0, 0, 90, 10, 5, 3, 1);
	rates_of(", 0B/s-1500KiB/s", 1500 << 10, 1500 << 10, 0, 0, 0, 0, 1, 1);
	rates_of(", 0-600 IOPS", 0, 0, 0, 300, 300, 0, 1, 2);	/* two read jobs */
	rates_of(", 0-900 IOPS", 0, 0, 0, 300, 300, 0, 7, 1);	/* trim counts too */
	rates_of("", 0, 0, 0, 0, 0, 0, 3, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfg_check),
		cmocka_unit_test(test_linear_iops_exact),
		cmocka_unit_test(test_linear_iops_no_drift),
		cmocka_unit_test(test_linear_bytes_bssplit),
		cmocka_unit_test(test_rwmix_per_direction),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_numjobs_per_job),
		cmocka_unit_test(test_poisson_fit),
		cmocka_unit_test(test_poisson_bytes),
		cmocka_unit_test(test_poisson_deterministic),
		cmocka_unit_test(test_backlog),
		cmocka_unit_test(test_open_loop_stall),
		cmocka_unit_test(test_lateness_threshold),
		cmocka_unit_test(test_think_blocks),
		cmocka_unit_test(test_think_spin),
		cmocka_unit_test(test_think_iotime),
		cmocka_unit_test(test_think_ignore),
		cmocka_unit_test(test_check_min_iops),
		cmocka_unit_test(test_check_min_bytes),
		cmocka_unit_test(test_status_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
