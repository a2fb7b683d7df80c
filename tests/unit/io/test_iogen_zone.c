// SPDX-License-Identifier: GPL-2.0-only
/*
 * zonemode=strided in the offset generator (iogen_zone.c): the exact
 * sequences fio 3.33 issues for the same jobs (its write_iolog, KiB
 * offsets below), where a pass ends, and that every random I/O stays in
 * its zone. Pure computation: no files are touched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/iogen.h"

#define KiB 1024ull
#define MAX_IOS 256

struct zrig {
	struct ib_job job;
	struct ib_file file;
	struct ib_iogen gen;
	struct ib_diag d;
};

/*
 * A job of rw over one file of file_kib KiB, its region size_kib from
 * offset 0; bs 4 KiB unless bs_kib; zones zs/zr/skip KiB (zr 0: zonesize).
 */
static void zrig_init(struct zrig *r, unsigned int rw, uint64_t size_kib,
		      uint64_t file_kib, uint64_t zs, uint64_t zr, uint64_t skip)
{
	int d;

	memset(r, 0, sizeof(*r));
	ib_job_defaults(&r->job);
	r->job.rw = rw;
	r->job.number = 1;
	r->job.fio_ver = 333;	/* the offsets below are fio 3.33's */
	r->job.size = size_kib * KiB;
	for (d = 0; d < IB_DDIR_RWT; d++)
		r->job.bs.min[d] = r->job.bs.max[d] = 4 * KiB;
	r->job.zone.mode = IB_ZONE_STRIDED;
	r->job.zone.size = zs * KiB;
	r->job.zone.range = zr * KiB;
	r->job.zone.skip = skip * KiB;
	r->file.io_offset = 0;
	r->file.io_size = size_kib * KiB;
	r->file.real_size = file_kib * KiB;
}

static void zrig_bs(struct zrig *r, uint64_t bs_kib)
{
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		r->job.bs.min[d] = r->job.bs.max[d] = bs_kib * KiB;
}

/* Every I/O's offset in KiB into out; the count. */
static unsigned int zrig_run(struct zrig *r, uint64_t *out)
{
	struct ib_io_desc io;
	unsigned int n = 0;

	assert_int_equal(ib_iogen_init(&r->gen, &r->job, &r->file, 1, &r->d), 0);
	while (n < MAX_IOS && ib_iogen_next(&r->gen, &io))
		out[n++] = io.offset / KiB;
	assert_true(n < MAX_IOS);
	ib_iogen_free(&r->gen);
	return n;
}

static void expect(struct zrig *r, const uint64_t *want, unsigned int nwant)
{
	uint64_t got[MAX_IOS];
	unsigned int i, n = zrig_run(r, got);

	for (i = 0; i < n && i < nwant; i++)
		if (got[i] != want[i])
			fail_msg("I/O #%u at %llu KiB, fio %llu", i,
				 (unsigned long long)got[i], (unsigned long long)want[i]);
	assert_int_equal(n, nwant);
}

/* zonesize 16k, zoneskip 16k over 64k: zones 0 and 32, then 0 again. */
static void test_zone_skip(void **state)
{
	static const uint64_t want[] = { 0, 4, 8, 12, 32, 36, 40, 44,
					 0, 4, 8, 12, 32, 36, 40, 44 };
	struct zrig r;

	(void)state;
	zrig_init(&r, IB_RW_READ, 64, 64, 16, 0, 16);
	expect(&r, want, 16);
}

/* zonesize below zonerange: 8k of each 16k zone. */
static void test_zone_part(void **state)
{
	static const uint64_t want[] = { 0, 4, 16, 20, 32, 36, 48, 52,
					 0, 4, 16, 20, 32, 36, 48, 52 };
	struct zrig r;

	(void)state;
	zrig_init(&r, IB_RW_READ, 64, 64, 8, 16, 0);
	expect(&r, want, 16);
}

/* zonesize above zonerange: a zone's first 16k, then 8k of it again. */
static void test_zone_again(void **state)
{
	static const uint64_t want[] = { 0, 4, 8, 12, 0, 4, 16, 20,
					 24, 28, 16, 20, 32, 36, 40, 44 };
	struct zrig r;

	(void)state;
	zrig_init(&r, IB_RW_READ, 64, 64, 24, 16, 0);
	expect(&r, want, 16);
}

/*
 * The file's end ends the pass (16k blocks, 100k file: the zone at 80k
 * holds one): size= alone stops there, io_size=200k starts passes from
 * the first zone and ends with a whole block past 200k.
 */
static void test_zone_end_of_file(void **state)
{
	static const uint64_t once[] = { 0, 16, 32, 48, 80 };
	static const uint64_t more[] = { 0, 16, 32, 48, 80, 0, 16, 32, 48, 80,
					 0, 16, 32 };
	struct zrig r;

	(void)state;
	zrig_init(&r, IB_RW_READ, 100, 100, 64, 0, 16);
	zrig_bs(&r, 16);
	expect(&r, once, 5);
	zrig_init(&r, IB_RW_READ, 100, 100, 64, 0, 16);
	zrig_bs(&r, 16);
	r.job.io_size = 200 * KiB;
	expect(&r, more, 13);
}

/*
 * The walk goes on over loops= to the file's end, then from the region's
 * start (offset 16k, a 256k file, 16k of each 32k zone, 32k skipped).
 */
static void test_zone_loops(void **state)
{
	static const uint64_t want[] = { 16, 20, 24, 28, 80, 84, 88, 92,
					 144, 148, 152, 156, 208, 212, 216, 220,
					 16, 20, 24, 28, 80, 84, 88, 92,
					 144, 148, 152, 156, 208, 212, 216, 220 };
	struct zrig r;

	(void)state;
	zrig_init(&r, IB_RW_WRITE, 64, 256, 16, 32, 32);
	r.file.io_offset = 16 * KiB;
	r.job.loops = 2;
	expect(&r, want, 32);
}

/* Random: fio's exact order, each zone's blocks once, zones 0, 32, 0, 32. */
static void test_zone_random(void **state)
{
	static const uint64_t want[] = { 0, 8, 12, 4, 36, 44, 40, 32,
					 12, 0, 4, 8, 44, 32, 36, 40 };
	struct zrig r;

	(void)state;
	zrig_init(&r, IB_RW_READ | IB_RW_RAND, 64, 64, 16, 0, 16);
	expect(&r, want, 16);
}

/* zonesize above zonerange: the map is cleared after each 16k. */
static void test_zone_random_again(void **state)
{
	static const uint64_t want[] = { 0, 8, 12, 4, 4, 12, 8, 0,
					 76, 64, 68, 72, 76, 64, 68, 72 };
	struct zrig r;

	(void)state;
	zrig_init(&r, IB_RW_WRITE | IB_RW_RAND, 64, 256, 32, 16, 48);
	expect(&r, want, 16);
}

/*
 * A random draw past the file's end ends the pass: 24k zones over 128k,
 * the last one from 120k; fio's 31 reads (its stream is iobench's), every
 * one inside its zone and the file.
 */
static void test_zone_random_end(void **state)
{
	uint64_t got[MAX_IOS];
	struct zrig r;
	unsigned int i, n;

	(void)state;
	zrig_init(&r, IB_RW_READ | IB_RW_RAND, 128, 128, 24, 0, 0);
	n = zrig_run(&r, got);
	assert_int_equal(n, 31);
	for (i = 0; i < n; i++) {
		assert_in_range(got[i], (i / 6) * 24, (i / 6) * 24 + 20);
		assert_true(got[i] + 4 <= 128);
	}
}

/* time_based: no byte budget, and the walk goes on past many passes. */
static void test_zone_time_based(void **state)
{
	static const uint64_t zones[] = { 0, 16, 32, 48, 80 };
	struct ib_io_desc io;
	struct zrig r;
	unsigned int i;

	(void)state;
	zrig_init(&r, IB_RW_READ, 64, 100, 64, 0, 16);
	zrig_bs(&r, 16);
	r.job.time_based = true;
	assert_int_equal(ib_iogen_init(&r.gen, &r.job, &r.file, 1, &r.d), 0);
	assert_int_equal(ib_iogen_plan(&r.gen), 0);
	for (i = 0; i < 1000; i++) {
		assert_true(ib_iogen_next(&r.gen, &io));
		assert_int_equal(io.offset, zones[i % 5] * KiB);
	}
	ib_iogen_free(&r.gen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zone_skip),
		cmocka_unit_test(test_zone_part),
		cmocka_unit_test(test_zone_again),
		cmocka_unit_test(test_zone_end_of_file),
		cmocka_unit_test(test_zone_loops),
		cmocka_unit_test(test_zone_random),
		cmocka_unit_test(test_zone_random_again),
		cmocka_unit_test(test_zone_random_end),
		cmocka_unit_test(test_zone_time_based),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
