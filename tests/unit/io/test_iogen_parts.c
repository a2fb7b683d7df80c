// SPDX-License-Identifier: GPL-2.0-only
/*
 * The offset generator's parts beside its hot path: iogen_init.c (the fast
 * next() chosen exactly for plain jobs, the random map sized, the budget)
 * and iogen_file.c (file_service_type's next file, openfiles=N's slots).
 * Pure computation: no files are touched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "src/io/gen/iogen_priv.h"

struct gfix {
	struct ib_job job;
	struct ib_file files[4];
	struct ib_iogen gen;
	struct ib_diag d;
};

static void gfix_init(struct gfix *f, unsigned int rw, uint64_t bs, unsigned int nr)
{
	memset(f, 0, sizeof(*f));
	ib_job_defaults(&f->job);
	f->job.rw = rw;
	f->job.number = 1;
	f->job.size = (uint64_t)nr << 20;
	for (unsigned int i = 0; i < IB_DDIR_RWT; i++)
		f->job.bs.min[i] = f->job.bs.max[i] = bs;
	for (unsigned int i = 0; i < nr; i++)
		f->files[i].io_size = 1 << 20;
}

static void gfix_start(struct gfix *f, unsigned int nr)
{
	assert_int_equal(ib_iogen_init(&f->gen, &f->job, f->files, nr, &f->d), 0);
}

/* randread of one block size on one file: the fast next(); else the general */
static void fast_ops_chosen(void **state)
{
	struct gfix f;

	(void)state;
	gfix_init(&f, IB_RW_READ | IB_RW_RAND, 4096, 1);
	gfix_start(&f, 1);
	assert_ptr_equal(f.gen.src.ops, &iogen_fast_ops);
	assert_int_equal(f.gen.granule, 4096);
	assert_int_equal(f.gen.files[0].nblocks, 256);
	assert_int_equal(f.gen.bytes_left, 1 << 20);
	ib_iogen_free(&f.gen);
	assert_null(f.gen.files);

	gfix_init(&f, IB_RW_READ, 4096, 1);	/* sequential */
	gfix_start(&f, 1);
	assert_ptr_equal(f.gen.src.ops, &ib_iogen_source_ops);
	ib_iogen_free(&f.gen);

	gfix_init(&f, IB_RW_READ | IB_RW_RAND, 4096, 2);	/* two files */
	gfix_start(&f, 2);
	assert_ptr_equal(f.gen.src.ops, &ib_iogen_source_ops);
	ib_iogen_free(&f.gen);

	gfix_init(&f, IB_RW_READ | IB_RW_RAND, 4096, 1);
	f.job.norandommap = true;	/* no map: not the fast way */
	gfix_start(&f, 1);
	assert_null(f.gen.files[0].map);
	assert_ptr_equal(f.gen.src.ops, &ib_iogen_source_ops);
	ib_iogen_free(&f.gen);
}

/* the random map: one bit per granule plus one summary bit per word */
static void map_sized(void **state)
{
	(void)state;
	assert_int_equal(map_bytes(64), 2 * 8);
	assert_int_equal(map_bytes(65), 3 * 8);
	assert_int_equal(map_bytes(4096), (64 + 1) * 8);
	assert_int_equal(map_bytes(4097), (65 + 2) * 8);
}

/* roundrobin: 0, 1, 2, 0...; sequential: stays until the file is done */
static void new_file_order(void **state)
{
	struct gfix f;
	unsigned int i;

	(void)state;
	gfix_init(&f, IB_RW_READ, 4096, 3);
	gfix_start(&f, 3);
	f.gen.next_file = 0;
	f.gen.file_picked = false;
	assert_int_equal(iogen_new_file(&f.gen), 0);
	f.gen.file_picked = true;
	for (i = 0; i < 5; i++) {
		f.gen.next_file = iogen_new_file(&f.gen);
		assert_int_equal(f.gen.next_file, (i + 1) % 3);
	}
	ib_iogen_free(&f.gen);

	gfix_init(&f, IB_RW_READ, 4096, 3);
	f.job.file_service = IB_FS_SEQUENTIAL;
	gfix_start(&f, 3);
	f.gen.file_picked = true;
	f.gen.next_file = 1;
	assert_int_equal(iogen_new_file(&f.gen), 1);
	f.gen.files[1].pass_done = f.gen.files[1].len;	/* file 1 done */
	f.gen.files_done = 1;
	assert_int_equal(iogen_new_file(&f.gen), 2);
	/* every file done: a new pass, from the first file (as fio) */
	for (i = 0; i < 3; i++)
		f.gen.files[i].pass_done = f.gen.files[i].len;
	f.gen.files_done = 3;
	f.gen.next_file = 2;
	assert_int_equal(iogen_new_file(&f.gen), 0);
	assert_int_equal(f.gen.files_done, 0);
	ib_iogen_free(&f.gen);
}

/* openfiles=2 of 4: a third file waits until a slot is free */
static void limited_slots(void **state)
{
	struct gfix f;

	(void)state;
	gfix_init(&f, IB_RW_READ, 4096, 4);
	f.job.openfiles = 2;
	gfix_start(&f, 4);
	assert_int_equal(f.gen.open_max, 2);
	f.gen.file_picked = true;
	f.gen.next_file = 3;
	assert_int_equal(f.gen.next_file = iogen_limited_file(&f.gen), 0);
	assert_int_equal(f.gen.nr_active, 1);
	assert_int_equal(f.gen.next_file = iogen_limited_file(&f.gen), 1);
	assert_int_equal(f.gen.nr_active, 2);
	/* both slots held: round robin's 2 is moved on to an open one */
	assert_int_equal(f.gen.next_file = iogen_limited_file(&f.gen), 0);
	assert_int_equal(f.gen.nr_active, 2);
	assert_true(f.gen.files[0].active && f.gen.files[1].active);
	assert_false(f.gen.files[2].active);
	ib_iogen_free(&f.gen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fast_ops_chosen),
		cmocka_unit_test(map_sized),
		cmocka_unit_test(new_file_order),
		cmocka_unit_test(limited_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
