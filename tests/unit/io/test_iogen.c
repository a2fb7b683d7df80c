// SPDX-License-Identifier: GPL-2.0-only
/*
 * Offset generation: exact coverage, alignment, ordering, mix balance,
 * reproducibility. Pure computation: no files are touched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/fio_version.h"
#include "iobench/iogen.h"
#include "iobench/jobseed.h"

struct rig {
	struct ib_job job;
	struct ib_file files[4];
	unsigned int nr;
	struct ib_iogen gen;
	struct ib_diag d;
};

static void rig_init(struct rig *r, unsigned int rw, uint64_t size, uint64_t bs,
		     unsigned int nr_files)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	ib_job_defaults(&r->job);
	r->job.rw = rw;
	r->job.number = 1;
	r->job.size = size;
	for (i = 0; i < IB_DDIR_RWT; i++)
		r->job.bs.min[i] = r->job.bs.max[i] = bs;
	r->nr = nr_files;
	for (i = 0; i < nr_files; i++) {
		r->files[i].io_offset = 0;
		r->files[i].io_size = size / nr_files;
	}
}

static void rig_start(struct rig *r)
{
	assert_int_equal(ib_iogen_init(&r->gen, &r->job, r->files, r->nr, &r->d), 0);
}

static void test_seq_read_exact(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	uint64_t expect = 0, n = 0;

	(void)state;
	rig_init(&r, IB_RW_READ, 1 << 20, 4096, 1);
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		assert_int_equal(io.ddir, IB_DDIR_READ);
		assert_int_equal(io.offset, expect);
		assert_int_equal(io.len, 4096);
		expect += 4096;
		n++;
	}
	assert_int_equal(n, 256);
	ib_iogen_free(&r.gen);
}

/*
 * io_size=N%: N% of each file's region, summed and rounded up to the block
 * (fio's last I/O is whole): 33% of 1 MiB + 33% of 512 KiB is
 * 346030 + 173015 = 519045 bytes, 127 blocks of 4 KiB; 0% and 100% are all.
 */
static void test_io_size_pct(void **state)
{
	static const struct {
		uint8_t pct;
		uint64_t n;
	} c[] = { { 33, 127 }, { 1, 4 }, { 0, 384 }, { 100, 384 } };
	struct rig r;
	struct ib_io_desc io;
	uint64_t n, bytes;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rig_init(&r, IB_RW_WRITE, 3 << 19, 4096, 2);
		r.files[0].io_size = 1 << 20;
		r.files[1].io_size = 1 << 19;
		r.job.io_size_pct = c[i].pct;
		r.job.loops = 2;
		rig_start(&r);
		for (n = bytes = 0; ib_iogen_next(&r.gen, &io); n++)
			bytes += io.len;
		assert_int_equal(n, 2 * c[i].n);
		assert_int_equal(bytes, 2 * c[i].n * 4096);
		ib_iogen_free(&r.gen);
	}
}

static void check_coverage_gen(unsigned int rw, uint64_t size, uint64_t bs,
			       unsigned int loops, bool norandommap,
			       unsigned int gen)
{
	struct rig r;
	struct ib_io_desc io;
	uint64_t nblocks = size / bs, n = 0, i;
	unsigned int *hits = calloc(nblocks, sizeof(*hits));

	rig_init(&r, rw, size, bs, 1);
	r.job.loops = loops;
	r.job.norandommap = norandommap;
	r.job.rand_gen = gen;
	rig_start(&r);
	/* lfsr: the permutation, never a map */
	assert_true((r.gen.files[0].perm != NULL) == (gen == IB_RANDGEN_LFSR));
	assert_true((r.gen.files[0].map != NULL) ==
		    (gen != IB_RANDGEN_LFSR && !norandommap));
	if (gen == IB_RANDGEN_LFSR)
		norandommap = false;	/* still once per pass */
	while (ib_iogen_next(&r.gen, &io)) {
		assert_int_equal(io.offset % bs, 0);
		assert_int_equal(io.len, bs);
		assert_true(io.offset + io.len <= size);
		/* with the map, no block repeats before every block was done */
		if (!norandommap)
			assert_int_equal(hits[io.offset / bs], n / nblocks);
		hits[io.offset / bs]++;
		n++;
	}
	assert_int_equal(n, nblocks * loops);
	if (!norandommap)
		for (i = 0; i < nblocks; i++)
			assert_int_equal(hits[i], loops);
	free(hits);
	ib_iogen_free(&r.gen);
}

static void check_coverage(unsigned int rw, uint64_t size, uint64_t bs,
			   unsigned int loops, bool norandommap)
{
	check_coverage_gen(rw, size, bs, loops, norandommap, IB_RANDGEN_AUTO);
}

static void test_rand_once_per_pass(void **state)
{
	(void)state;
	check_coverage(IB_RW_READ | IB_RW_RAND, 4 << 20, 4096, 1, false);
	check_coverage(IB_RW_WRITE | IB_RW_RAND, 4 << 20, 65536, 3, false);
	check_coverage(IB_RW_READ | IB_RW_RAND, 1 << 20, 512, 2, false);
}

static void test_norandommap_repeats(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	unsigned int hits[256] = { 0 }, repeats = 0;

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_RAND, 1 << 20, 4096, 1);
	r.job.norandommap = true;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io))
		if (hits[io.offset / 4096]++)
			repeats++;
	/* 256 draws with replacement from 256 slots: about 94 repeats */
	assert_true(repeats > 50);
	ib_iogen_free(&r.gen);
}

static void test_mix_share(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	uint64_t reads = 0, n = 0;

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_WRITE | IB_RW_RAND, 64 << 20, 4096, 1);
	r.job.rwmixread = 75;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		reads += io.ddir == IB_DDIR_READ;
		n++;
		/* never more than IB_MIX_SLACK I/Os away from the exact share */
		assert_true(llabs((long long)(reads * 100) - (long long)(75 * n)) <=
			    IB_MIX_SLACK * 100 + 100);
	}
	assert_int_equal(n, 16384);
	assert_true(llabs((long long)reads - 12288) <= IB_MIX_SLACK);
	ib_iogen_free(&r.gen);
}

static void test_bs_split_seq_rw(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	uint64_t pos[2] = { 0, 0 }, bytes = 0, last = 0;

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_WRITE, 8 << 20, 4096, 1);
	r.job.bs.min[IB_DDIR_WRITE] = r.job.bs.max[IB_DDIR_WRITE] = 16384;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		assert_int_equal(io.len, io.ddir == IB_DDIR_READ ? 4096 : 16384);
		assert_int_equal(io.offset, pos[io.ddir]); /* own position each */
		pos[io.ddir] += io.len;
		bytes += io.len;
		last = io.len;
	}
	/* neither position reaches the end: whole I/Os up to the size (fio) */
	assert_true(bytes >= 8 << 20 && bytes - last < 8 << 20);
	ib_iogen_free(&r.gen);
}

static void test_bsrange_aligned(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	uint64_t bytes = 0;
	unsigned int seen[5] = { 0 };

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_RAND, 4 << 20, 1024, 1);
	r.job.bs.max[IB_DDIR_READ] = 4096;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		assert_int_equal(io.len % 1024, 0);
		assert_true(io.len >= 1024 && io.len <= 4096);
		assert_int_equal(io.offset % 1024, 0);
		seen[io.len / 1024]++;
		bytes += io.len;
	}
	assert_int_equal(bytes, 4 << 20);
	assert_true(seen[1] && seen[2] && seen[3] && seen[4]);
	ib_iogen_free(&r.gen);
}

static void test_files_round_robin(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	unsigned int per[3] = { 0 }, last = 2;

	(void)state;
	rig_init(&r, IB_RW_WRITE, 3 << 20, 4096, 3);
	r.files[1].io_offset = 1 << 20; /* regions may start anywhere */
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		assert_int_equal(io.file_idx, (last + 1) % 3);
		last = io.file_idx;
		assert_true(io.offset >= r.files[io.file_idx].io_offset);
		per[io.file_idx]++;
	}
	assert_int_equal(per[0], 256);
	assert_int_equal(per[1], 256);
	assert_int_equal(per[2], 256);
	ib_iogen_free(&r.gen);
}

/*
 * openfiles=2 over 4 files, roundrobin: files 0 and 1 take turns until both
 * are done, then 2 and 3 (fio 3.33's order); never more than 2 active; a
 * second loop starts over the same way. random: at most 2 active, every
 * file done once per pass.
 */
static void test_openfiles_limit(void **state)
{
	static const unsigned int want[16] = { 0, 1, 0, 1, 0, 1, 0, 1,
					       2, 3, 2, 3, 2, 3, 2, 3 };
	struct rig r;
	struct ib_io_desc io;
	unsigned int n = 0, per[4] = { 0 };

	(void)state;
	rig_init(&r, IB_RW_READ, 64 << 10, 4096, 4);
	r.job.openfiles = 2;
	r.job.loops = 2;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		assert_int_equal(io.file_idx, want[n % 16]);
		assert_true(r.gen.nr_active <= 2);
		n++;
	}
	assert_int_equal(n, 32);
	ib_iogen_free(&r.gen);

	rig_init(&r, IB_RW_READ | IB_RW_RAND, 64 << 10, 4096, 4);
	r.job.openfiles = 2;
	r.job.file_service = IB_FS_RANDOM;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		assert_true(r.gen.files[io.file_idx].active ||
			    r.gen.files[io.file_idx].pass_done == r.gen.files[io.file_idx].len);
		assert_true(r.gen.nr_active <= 2);
		per[io.file_idx]++;
	}
	for (n = 0; n < 4; n++)
		assert_int_equal(per[n], 4);
	ib_iogen_free(&r.gen);
}

static uint64_t stream_hash(uint32_t number, bool randrepeat, uint64_t seed,
			    bool seed_set)
{
	struct rig r;
	struct ib_io_desc io;
	uint64_t h = 1469598103934665603ull;

	rig_init(&r, IB_RW_READ | IB_RW_RAND, 1 << 20, 4096, 1);
	r.job.number = number;
	r.job.randrepeat = randrepeat;
	r.job.randseed = seed;
	r.job.randseed_set = seed_set;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io))
		h = (h ^ io.offset) * 1099511628211ull;
	ib_iogen_free(&r.gen);
	return h;
}

static void test_seeds(void **state)
{
	(void)state;
	assert_true(stream_hash(1, true, 0, false) == stream_hash(1, true, 0, false));
	assert_true(stream_hash(1, true, 0, false) != stream_hash(2, true, 0, false));
	assert_true(stream_hash(1, false, 7, true) == stream_hash(1, false, 7, true));
	assert_true(stream_hash(1, false, 7, true) != stream_hash(1, false, 8, true));
	assert_true(stream_hash(1, false, 0, false) != stream_hash(1, false, 0, false));
}

/*
 * As a source: READY with due = now (closed loop) and the same I/Os as
 * ib_iogen_next(), more() until the budget is spent, then END for good.
 */
static void test_source(void **state)
{
	struct rig r, plain;
	struct ib_io_desc io, want;
	struct ib_source *src;
	unsigned int n = 0;

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_WRITE | IB_RW_RAND, 64 << 10, 4096, 2);
	r.job.randrepeat = true;
	rig_start(&r);
	rig_init(&plain, IB_RW_READ | IB_RW_WRITE | IB_RW_RAND, 64 << 10, 4096, 2);
	plain.job.randrepeat = true;
	rig_start(&plain);
	src = ib_iogen_source(&r.gen);
	assert_string_equal(src->ops->name, "iogen");
	while (ib_source_more(src)) {
		io.due_ns = 0;
		assert_int_equal(ib_source_next(src, 1000 + n, &io), IB_SRC_READY);
		assert_true(ib_iogen_next(&plain.gen, &want));
		assert_int_equal(io.due_ns, 1000 + n);
		assert_int_equal(io.ddir, want.ddir);
		assert_int_equal(io.file_idx, want.file_idx);
		assert_int_equal(io.offset, want.offset);
		assert_int_equal(io.len, want.len);
		n++;
	}
	assert_int_equal(n, 16);
	assert_int_equal(ib_source_next(src, 5000, &io), IB_SRC_END);
	assert_int_equal(ib_source_next(src, 6000, &io), IB_SRC_END);
	assert_false(ib_source_more(src));
	assert_false(ib_iogen_next(&plain.gen, &want));
	ib_iogen_free(&r.gen);
	ib_iogen_free(&plain.gen);
}

/* The source's I/Os are ib_iogen_next()'s to the end; returns how many. */
static unsigned int source_same_as_next(struct rig *r, struct rig *plain)
{
	struct ib_source *src = ib_iogen_source(&r->gen);
	struct ib_io_desc io, want;
	unsigned int n = 0;

	while (ib_source_next(src, n, &io) == IB_SRC_READY) {
		assert_true(ib_iogen_next(&plain->gen, &want));
		assert_int_equal(io.due_ns, n);
		assert_int_equal(io.ddir, want.ddir);
		assert_int_equal(io.file_idx, want.file_idx);
		assert_int_equal(io.offset, want.offset);
		assert_int_equal(io.len, want.len);
		n++;
	}
	assert_false(ib_iogen_next(&plain->gen, &want));
	return n;
}

/*
 * A plain job (random, one direction, one file, one block size, the map)
 * takes the source's fast way: the same I/Os as ib_iogen_next()'s general
 * one, over map clears (loops), an io_size limit not a multiple of the
 * block (a whole last I/O, as fio: 10000 bytes are 3 reads), a file of
 * blocks not a multiple of 64 and a region that does not start at 0.
 */
static void test_source_fast(void **state)
{
	static const struct {
		unsigned int rw, loops;
		uint64_t size, bs, io_size, offset;
		unsigned int n;
	} c[] = {
		{ IB_RW_READ | IB_RW_RAND, 1, 1 << 20, 4096, 0, 0, 256 },
		{ IB_RW_WRITE | IB_RW_RAND, 3, 1 << 20, 4096, 0, 0, 768 },
		{ IB_RW_READ | IB_RW_RAND, 1, 1 << 20, 4096, 10000, 0, 3 },
		/* a new pass only while a block of the limit is left */
		{ IB_RW_READ | IB_RW_RAND, 1, 64 << 10, 4096, 66 << 10, 0, 16 },
		{ IB_RW_READ | IB_RW_RAND, 1, 64 << 10, 4096, 130 << 10, 0, 32 },
		{ IB_RW_READ | IB_RW_RAND, 3, 64 << 10, 4096, 10000, 0, 8 },
		{ IB_RW_READ | IB_RW_RAND, 2, 100 * 512, 512, 0, 4096, 200 },
		{ IB_RW_READ | IB_RW_RAND, 1, 1 << 20, 4096, 3 << 20, 0, 768 },
	};
	struct rig r, plain;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rig_init(&r, c[i].rw, c[i].size, c[i].bs, 1);
		r.job.randrepeat = true;
		r.job.loops = c[i].loops;
		r.job.io_size = c[i].io_size;
		r.files[0].io_offset = c[i].offset;
		plain = r;
		rig_start(&r);
		rig_start(&plain);
		assert_ptr_not_equal(r.gen.src.ops, &ib_iogen_source_ops);
		assert_int_equal(source_same_as_next(&r, &plain), c[i].n);
		ib_iogen_free(&r.gen);
		ib_iogen_free(&plain.gen);
	}
}

/* Stream seeds are part of every reproducible run: pinned values. */
static void test_stream_seeds(void **state)
{
	static const uint32_t want[5][3] = {
		{ 2978585581u, 1033836118u, 3826260019u },
		{ 2853603491u, 460824165u, 1627592424u },
		{ 364661579u, 1888549084u, 944077786u },
		{ 4047261775u, 66850002u, 3987102068u },
		{ 1102550262u, 2043362076u, 2552468299u },
	};
	struct ib_job job;
	unsigned int s;

	(void)state;
	assert_int_equal(IB_STREAM_OFFSET, 0);
	assert_int_equal(IB_STREAM_FILESIZE, 4);
	for (s = IB_STREAM_OFFSET; s <= IB_STREAM_FILESIZE; s++) {
		assert_int_equal(ib_rand_stream_seed(s, 1, true, false, 0),
				 want[s][0]);
		assert_int_equal(ib_rand_stream_seed(s, 3, false, true,
						     0x123456789abcdefull),
				 want[s][1]);
		assert_int_equal(ib_rand_stream_seed(s, 2, false, false, 0),
				 want[s][2]);
	}
	memset(&job, 0, sizeof(job));
	job.number = 3;
	job.randseed_set = true;
	job.randseed = 0x123456789abcdefull;
	assert_int_equal(ib_rand_job_seed(&job, IB_STREAM_DATA), want[3][1]);
	job.number = 7;
	job.randrepeat = true;
	job.randseed_set = false;
	job.fio_ver = IB_FIO_V333;
	assert_int_equal(ib_rand_job_seed(&job, IB_STREAM_OFFSET), 0xb1899bedu * 7);
	/* fio 3.35 on (3.42, the default): seed number 6 of 0x89 */
	job.fio_ver = 0;
	assert_int_equal(ib_rand_job_seed(&job, IB_STREAM_OFFSET),
			 ib_rand_fio_seed(6, 7, 0x89));
	/* fio's seed numbers, measured: 0x89 * 0x9e370001^4 * 1 + 0 */
	assert_int_equal(ib_rand_fio_seed(0, 1, 0x89),
			 (uint32_t)(0x89ull * 0x9e370001ull * 0x9e370001ull *
				    0x9e370001ull * 0x9e370001ull));
	assert_int_equal(ib_rand_fio_seed(6, 2, 7),
			 (uint32_t)(7ull * 0x9e370001ull * 0x9e370001ull * 0x9e370001ull *
				    0x9e370001ull * 0x9e370001ull * 0x9e370001ull *
				    0x9e370001ull * 0x9e370001ull * 0x9e370001ull *
				    0x9e370001ull * 2 + 6));
}

static void test_time_based_unlimited(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	unsigned int i;

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_RAND, 64 << 10, 4096, 1);
	r.job.time_based = true;
	rig_start(&r);
	for (i = 0; i < 1000; i++)
		assert_true(ib_iogen_next(&r.gen, &io));
	ib_iogen_free(&r.gen);
}

/* rw=read:-12k on 64 KiB with 4 KiB blocks: fio 3.33's offsets (KiB). */
static void test_seq_add_backwards(void **state)
{
	static const unsigned int want[] = { 0, 52, 44, 36, 28, 20, 12, 4, 52,
					     44, 36, 28, 20, 12, 4, 52 };
	struct rig r;
	struct ib_io_desc io;
	unsigned int n = 0;

	(void)state;
	rig_init(&r, IB_RW_READ, 64 << 10, 4096, 1);
	r.job.rw_seq_add = -12288;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		assert_true(n < 16);
		assert_int_equal(io.offset, (uint64_t)want[n++] << 10);
	}
	assert_int_equal(n, 16);
	ib_iogen_free(&r.gen);
}

/*
 * rw=write:12k over 64 KiB, as fio: in a file of that size, the skip past
 * its end starts the region again until size= is written (16 writes); in
 * a larger file, the pass ends where the next write would start past the
 * region (4 writes), once per loop.
 */
static void test_seq_add_holes(void **state)
{
	static const struct {
		uint64_t real;
		unsigned int loops, n;
	} c[] = { { 64 << 10, 1, 16 }, { 1 << 20, 1, 4 }, { 1 << 20, 3, 12 } };
	struct rig r;
	struct ib_io_desc io;
	unsigned int i, n;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rig_init(&r, IB_RW_WRITE, 64 << 10, 4096, 1);
		r.job.rw_seq_add = 12288;
		r.job.loops = c[i].loops;
		r.files[0].real_size = c[i].real;
		rig_start(&r);
		n = 0;
		while (ib_iogen_next(&r.gen, &io))
			assert_int_equal(io.offset, (uint64_t)(n++ % 4) * 16384);
		assert_int_equal(n, c[i].n);
		ib_iogen_free(&r.gen);
	}
}

/*
 * A limit on what is issued (io_size, here), as fio: whole I/Os until it is
 * reached, cumulative over loops, and a new pass over the region only while
 * a largest block of it is left (sequential and random alike).
 */
static void test_limit_passes(void **state)
{
	static const struct {
		unsigned int rw, loops;
		uint64_t io_size, bs_write;
		unsigned int n;
	} c[] = {
		{ IB_RW_READ, 1, 10000, 4096, 3 },
		{ IB_RW_READ, 1, 66 << 10, 4096, 16 },
		{ IB_RW_READ, 1, 130 << 10, 4096, 32 },
		{ IB_RW_READ, 1, 136 << 10, 4096, 34 },
		{ IB_RW_READ, 1, 136 << 10, 16384, 32 },	/* bs=4k,16k */
		{ IB_RW_READ | IB_RW_RAND, 1, 66 << 10, 4096, 16 },
		{ IB_RW_READ | IB_RW_RAND, 2, 40000, 4096, 20 },
	};
	struct rig r;
	struct ib_io_desc io;
	unsigned int i, n;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rig_init(&r, c[i].rw, 64 << 10, 4096, 1);
		r.job.loops = c[i].loops;
		r.job.io_size = c[i].io_size;
		r.job.bs.min[IB_DDIR_WRITE] = r.job.bs.max[IB_DDIR_WRITE] = c[i].bs_write;
		rig_start(&r);
		n = 0;
		while (ib_iogen_next(&r.gen, &io))
			n++;
		assert_int_equal(n, c[i].n);
		ib_iogen_free(&r.gen);
	}
}

/*
 * What the generator says it will hand out (the status line's 100%): its
 * byte budget, the strides of holes, number_ios first where it ends the job
 * first, nothing for time_based.
 */
static void test_plan(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, IB_RW_READ, 64 << 10, 4096, 1);
	r.job.loops = 2;
	rig_start(&r);
	assert_int_equal(ib_iogen_plan(&r.gen), 128 << 10);
	ib_iogen_free(&r.gen);

	rig_init(&r, IB_RW_READ, 64 << 10, 4096, 1);
	r.job.rw_seq_add = 12288;	/* rw=read:12k in a 1 MiB file: 4 reads */
	r.files[0].real_size = 1 << 20;
	rig_start(&r);
	assert_int_equal(ib_iogen_plan(&r.gen), 4 * 4096);
	ib_iogen_free(&r.gen);

	rig_init(&r, IB_RW_READ, 64 << 10, 4096, 1);
	r.job.number_ios = 3;
	rig_start(&r);
	assert_int_equal(ib_iogen_plan(&r.gen), 3 * 4096);
	ib_iogen_free(&r.gen);

	rig_init(&r, IB_RW_READ, 64 << 10, 4096, 1);
	r.job.time_based = true;
	rig_start(&r);
	assert_int_equal(ib_iogen_plan(&r.gen), 0);
	ib_iogen_free(&r.gen);
}

/* rw=randread:4: runs of 4 back-to-back blocks from each random offset. */
static void test_rand_runs(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	uint64_t last = 0;
	unsigned int n = 0, at_end = 0;

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_RAND, 1 << 20, 4096, 1);
	r.job.rw_seq_nr = 4;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		/* fio's count: I/Os 0, 4, 8, ... are drawn, the others follow
		 * the last one, or are drawn where it ends the region */
		if (n % 4 && last + 4096 < (1 << 20))
			assert_int_equal(io.offset, last + 4096);
		else if (n % 4)
			at_end++;
		last = io.offset;
		n++;
	}
	assert_int_equal(n, 256);
	assert_true(at_end <= 3);
	ib_iogen_free(&r.gen);
}

/* lfsr and tausworthe64: every block once per pass too. */
static void test_generators_once_per_pass(void **state)
{
	unsigned int gen;

	(void)state;
	for (gen = IB_RANDGEN_TAUS; gen <= IB_RANDGEN_LFSR; gen++) {
		check_coverage_gen(IB_RW_READ | IB_RW_RAND, 4 << 20, 4096, 1, false, gen);
		check_coverage_gen(IB_RW_WRITE | IB_RW_RAND, 4 << 20, 65536, 3, false, gen);
		check_coverage_gen(IB_RW_READ | IB_RW_WRITE | IB_RW_RAND, 1 << 20, 512, 2,
				   false, gen);
		check_coverage_gen(IB_RW_READ | IB_RW_RAND, 100 * 4096, 4096, 2, false, gen);
		check_coverage_gen(IB_RW_READ | IB_RW_RAND, 3 * 4096, 4096, 4, false, gen);
	}
	/* lfsr ignores norandommap: a permutation never repeats in a pass */
	check_coverage_gen(IB_RW_READ | IB_RW_RAND, 1 << 20, 4096, 2, true, IB_RANDGEN_LFSR);
}

/* The first n offsets of a randrepeat job of one file under generator gen. */
static void offsets_of(unsigned int gen, uint64_t size, uint64_t *out, unsigned int n)
{
	struct rig r;
	struct ib_io_desc io;
	unsigned int i;

	rig_init(&r, IB_RW_READ | IB_RW_RAND, size, 4096, 1);
	r.job.randrepeat = true;
	r.job.rand_gen = gen;
	rig_start(&r);
	for (i = 0; i < n; i++) {
		assert_true(ib_iogen_next(&r.gen, &io));
		out[i] = io.offset;
	}
	ib_iogen_free(&r.gen);
}

/*
 * Which generator a job gets: the map for tausworthe, tausworthe64, several
 * block sizes and small targets; the permutation for lfsr and for a job of
 * one block size whose maps would pass IB_IOGEN_MAP_MAX. The permutation's
 * offsets are exactly ib_randperm's, keyed by a 64-bit draw of the offset
 * stream; tausworthe64's differ from tausworthe's.
 */
static void test_generator_choice(void **state)
{
	/* 64 GiB at 4k: 16 Mi blocks, a 2.03 MiB map; 32 GiB: 1.02 MiB */
	static const uint64_t big = 64ull << 30, small = 4ull << 30;
	struct { unsigned int gen, bsmax; uint64_t size; bool nomap, perm; } c[] = {
		{ IB_RANDGEN_AUTO, 4096, big, false, true },
		{ IB_RANDGEN_AUTO, 4096, 32ull << 30, false, true },
		{ IB_RANDGEN_AUTO, 4096, small, false, false },
		{ IB_RANDGEN_AUTO, 4096, 8ull << 30, false, false },
		{ IB_RANDGEN_TAUS, 4096, big, false, false },
		{ IB_RANDGEN_TAUS64, 4096, big, false, false },
		{ IB_RANDGEN_AUTO, 16384, big, false, false },
		{ IB_RANDGEN_AUTO, 4096, big, true, false },
		{ IB_RANDGEN_LFSR, 4096, small, false, true },
		{ IB_RANDGEN_LFSR, 16384, small, true, true },
	};
	struct ib_randperm p;
	struct ib_rand seed;
	uint64_t a[64], b[64];
	unsigned int i;
	struct rig r;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rig_init(&r, IB_RW_READ | IB_RW_RAND, c[i].size, 4096, 1);
		r.job.rand_gen = c[i].gen;
		r.job.bs.max[IB_DDIR_READ] = c[i].bsmax;
		r.job.norandommap = c[i].nomap;
		rig_start(&r);
		assert_int_equal(r.gen.files[0].perm != NULL, c[i].perm);
		assert_int_equal(r.gen.files[0].map != NULL, !c[i].perm && !c[i].nomap);
		ib_iogen_free(&r.gen);
	}
	offsets_of(IB_RANDGEN_AUTO, big, a, 64);
	ib_rand_seed(&seed, ib_rand_fio_seed(6, 1, 0x89)); /* randrepeat, job 1 */
	assert_int_equal(ib_randperm_init(&p, big / 4096, ib_rand64(&seed)), 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(a[i], ib_randperm_next(&p) * 4096);
	offsets_of(IB_RANDGEN_LFSR, big, b, 64);
	assert_memory_equal(a, b, sizeof(a));
	offsets_of(IB_RANDGEN_TAUS, small, a, 64);
	offsets_of(IB_RANDGEN_AUTO, small, b, 64);
	assert_memory_equal(a, b, sizeof(a));	/* default = tausworthe */
	offsets_of(IB_RANDGEN_TAUS64, small, b, 64);
	assert_memory_not_equal(a, b, sizeof(a));
}

/* lfsr with a block size range: aligned, inside the region, budget exact. */
static void test_lfsr_bsrange(void **state)
{
	struct rig r;
	struct ib_io_desc io;
	uint64_t bytes = 0;

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_RAND, 1 << 20, 4096, 1);
	r.job.rand_gen = IB_RANDGEN_LFSR;
	r.job.bs.max[IB_DDIR_READ] = 65536;
	rig_start(&r);
	assert_non_null(r.gen.files[0].perm);
	assert_int_equal(r.gen.files[0].perm->n, 256);
	while (ib_iogen_next(&r.gen, &io)) {
		assert_int_equal(io.offset % 4096, 0);
		assert_int_equal(io.len % 4096, 0);
		assert_true(io.len >= 4096 && io.len <= 65536);
		assert_true(io.offset + io.len <= 1 << 20);
		bytes += io.len;
	}
	assert_int_equal(bytes, 1 << 20);
	ib_iogen_free(&r.gen);
}

/*
 * bssplit: the sizes drawn keep to the shares. Without a random map every
 * draw fits, so the job issues whole I/Os until it reaches its size (as
 * fio): the last one crosses it, the one before is below it.
 */
static void test_bssplit_sizes(void **state)
{
	struct ib_bssplit split[IB_DDIR_RWT] = { { 0, { 0 }, { 0 } } };
	struct rig r;
	struct ib_io_desc io;
	uint64_t bytes = 0, n4 = 0, n32 = 0, n = 0, last = 0;

	(void)state;
	rig_init(&r, IB_RW_READ | IB_RW_RAND, 256 << 20, 4096, 1);
	r.job.norandommap = true;
	split[0].nr = 2;
	split[0].bs[0] = 4096;
	split[0].perc[0] = 75000;
	split[0].bs[1] = 32768;
	split[0].perc[1] = 25000;
	r.job.bssplit = split;
	r.job.bs.max[0] = 32768;
	rig_start(&r);
	while (ib_iogen_next(&r.gen, &io)) {
		n4 += io.len == 4096;
		n32 += io.len == 32768;
		bytes += io.len;
		last = io.len;
		n++;
	}
	assert_true(bytes >= 256 << 20);
	assert_true(bytes - last < 256 << 20);
	assert_int_equal(n4 + n32, n);
	/* 25% +- 1% of the draws (n ~ 23800: 7 sigma) */
	assert_true(n32 * 100 >= n * 24 && n32 * 100 <= n * 26);
	ib_iogen_free(&r.gen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq_read_exact),
		cmocka_unit_test(test_io_size_pct),
		cmocka_unit_test(test_rand_once_per_pass),
		cmocka_unit_test(test_norandommap_repeats),
		cmocka_unit_test(test_mix_share),
		cmocka_unit_test(test_bs_split_seq_rw),
		cmocka_unit_test(test_bsrange_aligned),
		cmocka_unit_test(test_files_round_robin),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_stream_seeds),
		cmocka_unit_test(test_source),
		cmocka_unit_test(test_source_fast),
		cmocka_unit_test(test_time_based_unlimited),
		cmocka_unit_test(test_seq_add_backwards),
		cmocka_unit_test(test_seq_add_holes),
		cmocka_unit_test(test_limit_passes),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_rand_runs),
		cmocka_unit_test(test_bssplit_sizes),
		cmocka_unit_test(test_generators_once_per_pass),
		cmocka_unit_test(test_generator_choice),
		cmocka_unit_test(test_lfsr_bsrange),
		cmocka_unit_test(test_openfiles_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
