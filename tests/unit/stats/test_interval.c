// SPDX-License-Identifier: GPL-2.0-only
/*
 * Interval snapshots (interval.h): the kind a job's intervals carry, the
 * publisher's grid, the ring's read (newest fitting, final by its time, a
 * snapshot being written refused), and the differences telescoping to the
 * totals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/interval.h"

#define MS 1000000ull

static void test_kind(void **state)
{
	struct ib_job j;

	(void)state;
	memset(&j, 0, sizeof(j));
	assert_int_equal(ib_iv_kind(&j), IB_LAT_CLAT);
	j.lat_percentiles = true;
	assert_int_equal(ib_iv_kind(&j), IB_LAT_TLAT);
	j.lat_percentiles = false;
	j.disable_clat = true;
	assert_int_equal(ib_iv_kind(&j), IB_LAT_TLAT);
	j.disable_lat = true;
	assert_int_equal(ib_iv_kind(&j), IB_LAT_NR);
}

/* n reads of 4 KiB with clat v ns each */
static void add(struct ib_job_stats *st, unsigned int n, uint64_t v)
{
	ib_stats_add_ios(st, ib_stats_keep(&(struct ib_job){ 0 }), IB_DDIR_READ,
			 4096, 10, v, v + 10, n);
}

static void test_grid_and_read(void **state)
{
	struct ib_job_stats *st = calloc(1, sizeof(*st));
	struct ib_iv_ring *ring = calloc(1, sizeof(*ring));
	struct ib_iv_snap *out = calloc(1, sizeof(*out));
	struct ib_iv_pub p = { ring, 1000 * MS, 100 * MS, UINT64_MAX, IB_LAT_CLAT,
			       0, 0, NULL };

	(void)state;
	assert_false(ib_iv_read_upto(ring, 5, UINT64_MAX, out));	/* none yet */
	ib_iv_pub_restart(&p, 1050 * MS);
	assert_int_equal(p.due_ns, 1100 * MS);	/* the grid, not the start */
	assert_int_equal(p.gen, 1);
	add(st, 3, 500);
	ib_iv_pub_take(&p, st, 1130 * MS);	/* snapshot 1, taken late */
	assert_int_equal(p.due_ns, 1200 * MS);
	add(st, 2, 900);
	ib_iv_pub_take(&p, st, 1400 * MS);	/* 2 and 3 missed: index 4 */
	assert_true(ib_iv_read_upto(ring, 4, UINT64_MAX, out));
	assert_int_equal(out->k, 4);
	assert_int_equal(out->dir[0].ios, 5);
	assert_true(ib_iv_read_upto(ring, 3, UINT64_MAX, out));	/* the one before */
	assert_int_equal(out->k, 1);
	assert_int_equal(out->dir[0].ios, 3);
	assert_int_equal(out->measure_ns, 1050 * MS);
	ib_iv_pub_final(&p, st, 1450 * MS);
	assert_false(ib_iv_read_upto(ring, 4, 1449 * MS, out) && out->final);
	assert_true(ib_iv_read_upto(ring, 4, 1450 * MS, out));
	assert_true(out->final);
	/* being written (odd sequence): not read */
	ring->e[(ring->published - 1) % IB_IV_RING].seq++;
	assert_true(ib_iv_read_upto(ring, 9, UINT64_MAX, out));
	assert_false(out->final);	/* the older entry instead */
	free(out);
	free(ring);
	free(st);
}

static void test_delta_telescopes(void **state)
{
	struct ib_job_stats *st = calloc(1, sizeof(*st));
	struct ib_iv_snap *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct ib_iv_dir *d = calloc(1, sizeof(*d)), *sum = calloc(1, sizeof(*sum));
	unsigned int i, k;

	(void)state;
	for (k = 0; k < 4; k++) {	/* a = before, b = after each interval */
		memcpy(a, b, sizeof(*a));
		add(st, k + 1, 100 * (k + 1));
		ib_iv_from_stats(b, st, IB_LAT_CLAT, k);
		ib_iv_delta(d, &b->dir[0], &a->dir[0]);
		assert_int_equal(d->ios, k + 1);
		sum->ios += d->ios;
		sum->io_bytes += d->io_bytes;
		for (i = 0; i < IB_HIST_NR; i++)
			sum->hist.count[i] += d->hist.count[i];
	}
	assert_int_equal(sum->ios, st->dir[0].total_ios);
	assert_int_equal(sum->io_bytes, st->dir[0].io_bytes);
	assert_memory_equal(&sum->hist, &st->dir[0].hist[IB_LAT_CLAT], sizeof(sum->hist));
	free(sum);
	free(d);
	free(a);
	free(b);
	free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_grid_and_read),
		cmocka_unit_test(test_delta_telescopes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
