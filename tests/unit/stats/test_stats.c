// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/sampler.h"
#include "iobench/stats.h"

static struct ib_job *new_job(void)
{
	struct ib_job *j = malloc(sizeof(*j));

	ib_job_defaults(j);
	return j;
}

static void test_welford_exact(void **state)
{
	struct ib_lat_stat s = { 0 };
	const uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++)
		ib_lat_stat_add(&s, v[i]);
	assert_int_equal(s.n, 8);
	assert_int_equal(s.min, 2);
	assert_int_equal(s.max, 9);
	assert_float_equal(s.mean, 5.0, 1e-12);
	/* sample variance = 32/7 */
	assert_float_equal(ib_lat_stat_stddev(&s), sqrt(32.0 / 7.0), 1e-12);
	s = (struct ib_lat_stat){ 0 };
	ib_lat_stat_add(&s, 42);
	assert_float_equal(ib_lat_stat_stddev(&s), 0.0, 0.0);
}

static void test_welford_merge_equals_one_pass(void **state)
{
	struct ib_lat_stat all = { 0 }, a = { 0 }, b = { 0 }, empty = { 0 };
	uint64_t x = 12345;
	unsigned int i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t v = (x >> 40) + (i < 300 ? 0 : 100000);

		ib_lat_stat_add(&all, v);
		ib_lat_stat_add(i < 300 ? &a : &b, v);
	}
	ib_lat_stat_merge(&a, &b);
	ib_lat_stat_merge(&a, &empty);
	assert_int_equal(a.n, all.n);
	assert_int_equal(a.min, all.min);
	assert_int_equal(a.max, all.max);
	assert_float_equal(a.mean, all.mean, all.mean * 1e-12);
	assert_float_equal(ib_lat_stat_stddev(&a), ib_lat_stat_stddev(&all),
			   ib_lat_stat_stddev(&all) * 1e-9);
	ib_lat_stat_merge(&empty, &all);
	assert_int_equal(empty.min, all.min);
}

/* c samples at once: the same accumulator as c single adds */
static void test_add_n(void **state)
{
	struct ib_lat_stat a = { 0 }, b = { 0 };
	const uint64_t v[] = { 700, 3, 3000000000ull, 41, 41, 9 };
	const uint64_t c[] = { 5, 1, 2, 1000, 1, 64 };
	unsigned int i, k;

	(void)state;
	for (i = 0; i < IB_ARRAY_SIZE(v); i++) {
		ib_lat_stat_add_n(&a, v[i], c[i]);
		for (k = 0; k < c[i]; k++)
			ib_lat_stat_add(&b, v[i]);
		assert_int_equal(a.n, b.n);
		assert_int_equal(a.min, b.min);
		assert_int_equal(a.max, b.max);
		assert_float_equal(a.mean, b.mean, b.mean * 1e-12);
		assert_float_equal(a.m2, b.m2, b.m2 * 1e-9 + 1e-9);
	}
}

static void test_add_io(void **state)
{
	struct ib_job_stats *s = calloc(1, sizeof(*s));
	struct ib_job *j = new_job();

	(void)state;
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 4096, 1000, 30, 1030);	/* clat 30 ns */
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 4096, UINT64_MAX, 1500, 2500); /* 1.5 us */
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_WRITE, 8192, UINT64_MAX, 2500000, UINT64_MAX);
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_WRITE, 8192, UINT64_MAX, 1500000000ull, UINT64_MAX);
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_WRITE, 8192, UINT64_MAX, 3000000000ull, UINT64_MAX);
	assert_int_equal(s->dir[0].io_bytes, 8192);
	assert_int_equal(s->dir[0].total_ios, 2);
	assert_int_equal(s->dir[0].lat[IB_LAT_SLAT].n, 1);
	assert_int_equal(s->dir[0].lat[IB_LAT_CLAT].n, 2);
	assert_int_equal(s->dir[1].lat[IB_LAT_TLAT].n, 0);
	assert_int_equal(s->dir[1].io_bytes, 3 * 8192);
	assert_int_equal(s->live.io_bytes[1], 0);	/* the worker's, not ours */
	assert_int_equal(s->dir[0].hist[IB_LAT_CLAT].count[30], 1);
	/* lat tables: 30 ns -> "50", 1.5 us -> "2", 2.5 ms -> "4", 1.5 s -> "2000" */
	assert_int_equal(s->lat_n[4], 1);
	assert_int_equal(s->lat_u[0], 1);
	assert_int_equal(s->lat_m[1], 1);
	assert_int_equal(s->lat_m[10], 1);
	assert_int_equal(s->lat_m[11], 1);
	free(s);
	free(j);
}

static void test_disable_flags(void **state)
{
	struct ib_job_stats *s = calloc(1, sizeof(*s));
	struct ib_job *j = new_job();

	(void)state;
	j->disable_clat = true;
	j->disable_slat = true;
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 512, 10, 20, 30);
	assert_int_equal(s->dir[0].lat[IB_LAT_SLAT].n, 0);
	assert_int_equal(s->dir[0].lat[IB_LAT_CLAT].n, 0);
	assert_int_equal(s->dir[0].lat[IB_LAT_TLAT].n, 1);
	assert_int_equal(s->lat_n[4], 0);
	assert_int_equal(s->dir[0].total_ios, 1);
	free(s);
	free(j);
}

/* Only the histograms a report reads are kept: clat's, and slat's or total
 * latency's when their percentiles are asked for (or clat is disabled). */
static void test_keep_hist(void **state)
{
	struct ib_job_stats *s = calloc(1, sizeof(*s));
	struct ib_job *j = new_job();
	struct ib_dir_stats *d = &s->dir[0];

	(void)state;
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 512, 10, 20, 30);
	assert_int_equal(d->lat[IB_LAT_SLAT].n, 1);
	assert_int_equal(d->lat[IB_LAT_TLAT].n, 1);
	assert_int_equal(d->hist[IB_LAT_CLAT].count[20], 1);
	assert_int_equal(d->hist[IB_LAT_SLAT].count[10], 0);
	assert_int_equal(d->hist[IB_LAT_TLAT].count[30], 0);
	j->slat_percentiles = true;
	j->lat_percentiles = true;
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 512, 10, 20, 30);
	assert_int_equal(d->hist[IB_LAT_SLAT].count[10], 1);
	assert_int_equal(d->hist[IB_LAT_TLAT].count[30], 1);
	j->slat_percentiles = j->lat_percentiles = false;
	j->disable_clat = true;
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 512, 10, 20, 30);
	assert_int_equal(d->hist[IB_LAT_CLAT].count[20], 2);
	assert_int_equal(d->hist[IB_LAT_TLAT].count[30], 2);
	assert_int_equal(d->hist[IB_LAT_SLAT].count[10], 1);
	assert_int_equal(d->lat[IB_LAT_SLAT].n, 3);
	free(s);
	free(j);
}

static void test_buckets(void **state)
{
	(void)state;
	assert_int_equal(ib_depth_bucket(0), 0);
	assert_int_equal(ib_depth_bucket(1), 0);
	assert_int_equal(ib_depth_bucket(2), 1);
	assert_int_equal(ib_depth_bucket(3), 1);
	assert_int_equal(ib_depth_bucket(4), 2);
	assert_int_equal(ib_depth_bucket(31), 4);
	assert_int_equal(ib_depth_bucket(32), 5);
	assert_int_equal(ib_depth_bucket(63), 5);
	assert_int_equal(ib_depth_bucket(64), 6);
	assert_int_equal(ib_depth_bucket(1000), 6);
	assert_int_equal(ib_batch_bucket(0), 0);
	assert_int_equal(ib_batch_bucket(1), 1);
	assert_int_equal(ib_batch_bucket(4), 1);
	assert_int_equal(ib_batch_bucket(5), 2);
	assert_int_equal(ib_batch_bucket(8), 2);
	assert_int_equal(ib_batch_bucket(9), 3);
	assert_int_equal(ib_batch_bucket(16), 3);
	assert_int_equal(ib_batch_bucket(17), 4);
	assert_int_equal(ib_batch_bucket(32), 4);
	assert_int_equal(ib_batch_bucket(33), 5);
	assert_int_equal(ib_batch_bucket(64), 5);
	assert_int_equal(ib_batch_bucket(65), 6);
}

static void test_reset_keeps_identity(void **state)
{
	struct ib_job_stats *s = calloc(1, sizeof(*s));
	struct ib_job *j = new_job();

	(void)state;
	s->pid = 77;
	s->start_time = 1795219167;
	s->live.io_bytes[0] = 4096;
	ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 4096, 1, 2, 3);
	s->usr_us = 5;
	s->elapsed_s = 3;
	s->error = 28;
	s->total_err = 2;
	s->first_error = 5;
	snprintf(s->first_error_where, sizeof(s->first_error_where), "r");
	ib_stats_reset(s);
	assert_int_equal(s->elapsed_s, 3);
	assert_int_equal(s->error, 28);
	assert_int_equal(s->total_err, 2);
	assert_int_equal(s->first_error, 5);
	assert_string_equal(s->first_error_where, "r");
	assert_int_equal(s->job_runtime_ms, 0);
	assert_int_equal(s->pid, 77);
	assert_int_equal(s->start_time, 1795219167);
	assert_int_equal(s->live.io_bytes[0], 4096);
	assert_int_equal(s->dir[0].io_bytes, 0);
	assert_int_equal(s->dir[0].lat[IB_LAT_CLAT].n, 0);
	assert_int_equal(s->usr_us, 0);
	assert_int_equal(s->lat_n[1], 0);
	free(s);
	free(j);
}

static void test_group_merge_sums(void **state)
{
	struct ib_job_stats *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct ib_job_stats *m = calloc(1, sizeof(*m));
	struct ib_job *j = new_job();

	(void)state;
	a->pid = 10;
	b->pid = 11;
	ib_stats_add_io(a, ib_stats_keep(j), IB_DDIR_READ, 4096, UINT64_MAX, 100, 110);
	ib_stats_add_io(b, ib_stats_keep(j), IB_DDIR_READ, 4096, UINT64_MAX, 300, 310);
	a->dir[0].runtime_us = 2000000;
	b->dir[0].runtime_us = 2001000;
	a->dir[0].issued = 1;
	b->dir[0].issued = 1;
	a->usr_us = 10;
	b->usr_us = 20;
	a->job_runtime_ms = 2000;
	b->job_runtime_ms = 2001;
	a->depth[0] = 1;
	b->depth[0] = 1;
	ib_lat_stat_add(&a->dir[0].bw_samples, 100);
	ib_lat_stat_add(&a->dir[0].bw_samples, 300);
	ib_lat_stat_add(&b->dir[0].bw_samples, 1000);
	ib_stats_merge(m, a);
	ib_stats_merge(m, b);
	assert_int_equal(m->pid, 10);
	assert_int_equal(m->dir[0].io_bytes, 8192);
	assert_int_equal(m->dir[0].total_ios, 2);
	assert_int_equal(m->dir[0].issued, 2);
	assert_int_equal(m->dir[0].runtime_us, 2001000);
	assert_int_equal(m->usr_us, 30);
	assert_int_equal(m->job_runtime_ms, 4001);
	assert_int_equal(m->depth[0], 2);
	assert_int_equal(m->dir[0].lat[IB_LAT_CLAT].n, 2);
	assert_int_equal(m->dir[0].lat[IB_LAT_CLAT].min, 100);
	assert_int_equal(m->dir[0].lat[IB_LAT_CLAT].max, 300);
	assert_float_equal(m->dir[0].lat[IB_LAT_CLAT].mean, 200.0, 1e-9);
	assert_int_equal(m->dir[0].hist[IB_LAT_CLAT].count[100], 1);
	/* bw samples are added as fio does: n, min, max, mean and S */
	assert_int_equal(m->dir[0].bw_samples.n, 3);
	assert_int_equal(m->dir[0].bw_samples.min, 1100);
	assert_int_equal(m->dir[0].bw_samples.max, 1300);
	assert_float_equal(m->dir[0].bw_samples.mean, 1200.0, 1e-9);
	assert_int_equal(m->lat_u[0], 0);
	assert_int_equal(m->lat_n[9], 0);
	assert_int_equal(m->lat_n[6] + m->lat_n[7], 2);
	free(a);
	free(b);
	free(m);
	free(j);
}

static void test_sync(void **state)
{
	struct ib_job_stats *s = calloc(1, sizeof(*s));

	(void)state;
	ib_stats_add_sync(s, 300);
	ib_stats_add_sync(s, UINT64_MAX);
	assert_int_equal(s->sync_ios, 2);
	assert_int_equal(s->sync_lat.n, 1);
	assert_int_equal(s->sync_hist.count[ib_hist_index(300)], 1);
	free(s);
}

/* 1 MiB per 10 ms for 2 s: 3 samples of 102400 KiB/s (fio: 2 s -> 3) */
static void run_sampler(unsigned int secs, unsigned int *n_bw, uint64_t *kib)
{
	struct ib_job_stats *s = calloc(1, sizeof(*s));
	struct ib_job *j = new_job();
	struct ib_sampler smp;
	uint64_t t0 = 1000000000ull, t;

	j->runtime_us = secs * 1000000ull;
	j->time_based = true;
	ib_sampler_start(&smp, s, t0);
	for (t = t0; t <= t0 + secs * 1000000000ull; t += 10000000ull) {
		unsigned int k;

		for (k = 0; k < 256; k++)
			ib_stats_add_io(s, ib_stats_keep(j), IB_DDIR_READ, 4096, UINT64_MAX, 1000, 1000);
		ib_sampler_tick(&smp, s, j, NULL, t + 1);
	}
	ib_sampler_finish(&smp, s, j, NULL, t);
	*n_bw = (unsigned int)s->dir[0].bw_samples.n;
	*kib = s->dir[0].bw_samples.min;
	assert_int_equal(s->dir[0].iops_samples.n, *n_bw);
	assert_int_equal(s->dir[1].bw_samples.n, 0);
	free(s);
	free(j);
}

static void test_sampler_counts(void **state)
{
	unsigned int n;
	uint64_t kib;

	(void)state;
	run_sampler(2, &n, &kib);
	assert_int_equal(n, 3);
	assert_int_equal(kib, 102400);
	run_sampler(4, &n, &kib);
	assert_int_equal(n, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welford_exact),
		cmocka_unit_test(test_welford_merge_equals_one_pass),
		cmocka_unit_test(test_add_io),
		cmocka_unit_test(test_add_n),
		cmocka_unit_test(test_disable_flags),
		cmocka_unit_test(test_keep_hist),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_reset_keeps_identity),
		cmocka_unit_test(test_group_merge_sums),
		cmocka_unit_test(test_sync),
		cmocka_unit_test(test_sampler_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
