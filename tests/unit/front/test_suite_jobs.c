// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suites' tables as they run (suite.h): the matrix expanded in PTS's
 * order, --readonly, sizing by the expectation, --expect's syntax, --set,
 * and the job text.
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
#include "iobench/suite.h"

static struct ib_suite_item it[IB_SUITE_MAX_TESTS];

static void test_matrix(void **state)
{
	struct ib_suite_opts o = { 0 };
	struct ib_diag d;

	(void)state;
	assert_int_equal(ib_suite_items(ib_suite_find("pts-iops"), &o, it, IB_SUITE_MAX_TESTS, &d), 56);
	assert_string_equal(it[0].name, "rnd1024k-r100w0");
	assert_string_equal(it[0].rw, "randread");
	assert_string_equal(it[7].name, "rnd512-r100w0");
	assert_string_equal(it[8].name, "rnd1024k-r95w5");
	assert_string_equal(it[8].rw, "randrw");
	assert_int_equal(it[8].mixread, 95);
	assert_string_equal(it[54].name, "rnd4k-r0w100");
	assert_string_equal(it[54].rw, "randwrite");
	assert_int_equal(it[54].iodepth, 32);
	assert_int_equal(it[54].numjobs, 4);
	assert_string_equal(it[54].row, "4k");
	assert_string_equal(it[54].col, "0/100");
	assert_true(it[54].writes && !it[0].writes && it[8].writes);
	assert_int_equal(ib_suite_items(ib_suite_find("pts-throughput"), &o, it, IB_SUITE_MAX_TESTS, &d), 4);
	assert_string_equal(it[2].name, "seq1024k-r0w100");
	assert_string_equal(it[2].rw, "write");
}

static void test_readonly_first(void **state)
{
	struct ib_suite_opts o = { .readonly = true };
	struct ib_diag d;

	(void)state;
	assert_int_equal(ib_suite_items(ib_suite_find("cloud"), &o, it, IB_SUITE_MAX_TESTS, &d), 3);
	assert_string_equal(it[0].name, "lat-4k");
	assert_string_equal(it[2].name, "seqread-1m");
	assert_int_equal(ib_suite_items(ib_suite_find("desktop"), &o, it, IB_SUITE_MAX_TESTS, &d), 4);
	o.readonly = false;
	assert_int_equal(ib_suite_items(ib_suite_find("cloud"), &o, it, IB_SUITE_MAX_TESTS, &d), 6);
	assert_false(it[0].writes || it[1].writes || it[2].writes);
	assert_true(it[3].writes && it[4].writes && it[5].writes);
}

/* 2 x IOPS x latency outstanding, a power of two, 64 a job. */
static void test_sizing(void **state)
{
	struct ib_suite_opts o = { 0 };
	struct ib_diag d;

	(void)state;
	assert_int_equal(ib_suite_parse_expect("iops=300k,bw=2680MB/s", &o.expect, &d), 0);
	assert_true(o.expect.iops == 300000 && o.expect.bw == 2680e6);
	/* 300k x 1 ms x 2 = 600 -> 1024 = 64 x 16 */
	assert_int_equal(ib_suite_depth_for(&o.expect, IB_SM_IOPS, 4096), 1024);
	/* 2680 MB/s of 1 MiB I/Os: 2556 a second x 1 ms x 2 = 5.1 -> 8 */
	assert_int_equal(ib_suite_depth_for(&o.expect, IB_SM_BW, 1 << 20), 8);
	assert_int_equal(ib_suite_depth_for(&o.expect, IB_SM_LAT, 4096), 0);
	assert_int_equal(ib_suite_items(ib_suite_find("cloud"), &o, it, IB_SUITE_MAX_TESTS, &d), 6);
	assert_int_equal(it[0].iodepth, 1);		/* lat-4k: not sized */
	assert_int_equal(it[1].iodepth, 64);
	assert_int_equal(it[1].numjobs, 16);
	assert_int_equal(it[2].iodepth, 8);
	assert_int_equal(it[2].numjobs, 1);
	/* 5000 IOPS at 2 ms: 20 -> 32 in one job */
	assert_int_equal(ib_suite_parse_expect("iops=5000,lat=2ms", &o.expect, &d), 0);
	assert_int_equal(o.expect.lat_ns, 2000000);
	assert_int_equal(ib_suite_items(ib_suite_find("cloud"), &o, it, IB_SUITE_MAX_TESTS, &d), 6);
	assert_int_equal(it[1].iodepth, 32);
	assert_int_equal(it[1].numjobs, 1);
	assert_int_equal(it[2].iodepth, 64);		/* no bw: the table's */
	o.iodepth = 4;
	o.numjobs = 2;
	assert_int_equal(ib_suite_items(ib_suite_find("cloud"), &o, it, IB_SUITE_MAX_TESTS, &d), 6);
	assert_int_equal(it[1].iodepth, 4);
	assert_int_equal(it[1].numjobs, 2);
}

static void test_expect_errors(void **state)
{
	struct ib_suite_expect e;
	struct ib_diag d;

	(void)state;
	assert_int_equal(ib_suite_parse_expect("iops=0", &e, &d), -EINVAL);
	assert_int_equal(ib_suite_parse_expect("bw=300MB", &e, &d), -EINVAL);
	assert_non_null(strstr(d.msg, "bw=300MB"));
	assert_int_equal(ib_suite_parse_expect("speed=3", &e, &d), -EINVAL);
	assert_non_null(strstr(d.msg, "speed"));
	assert_int_equal(ib_suite_parse_expect("lat", &e, &d), -EINVAL);
	assert_int_equal(ib_suite_parse_expect("", &e, &d), -EINVAL);
}

static void test_jobtext(void **state)
{
	struct ib_suite_opts o = { .target = "/dev/loop9", .size = 1 << 20,
		.pause_us = 1500000, .nr_set = 1, .nr_extra = 1 };
	struct ib_diag d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int n;

	(void)state;
	o.set[0] = "seq1m-q1t1-read:bs=512k";
	o.extra[0] = "ioengine=psync";
	n = ib_suite_items(ib_suite_find("desktop"), &o, it, IB_SUITE_MAX_TESTS, &d);
	assert_int_equal(n, 8);
	f = open_memstream(&buf, &len);
	assert_int_equal(ib_suite_jobtext(f, ib_suite_find("desktop"), &o, it, 8, false, true), 0);
	fclose(f);
	assert_non_null(strstr(buf, "[global]\nfilename=/dev/loop9\nioengine=libaio\ndirect=1\ngroup_reporting=1\nsize=1048576\nioengine=psync\n"));
	assert_non_null(strstr(buf, "\n[seq1m-q8t1-read]\nstonewall\nrw=read\nbs=1m\niodepth=8\nnumjobs=1\n\n"));
	assert_non_null(strstr(buf, "[seq1m-q1t1-read]\nstonewall\nrw=read\nbs=1m\niodepth=1\nnumjobs=1\nstartdelay=1500ms\nbs=512k\n"));
	free(buf);
	o.set[0] = "nosuchtest:bs=4k";
	assert_int_equal(ib_suite_items(ib_suite_find("desktop"), &o, it, IB_SUITE_MAX_TESTS, &d), -EINVAL);
	assert_non_null(strstr(d.msg, "--set=nosuchtest:bs=4k"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_readonly_first),
		cmocka_unit_test(test_sizing),
		cmocka_unit_test(test_expect_errors),
		cmocka_unit_test(test_jobtext),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
