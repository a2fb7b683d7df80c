// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping`'s additions to ioping's output: --hist (percentiles and
 * power-of-two buckets of iobench's histogram) and --json-output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/ping_out.h"
#include "iobench/ping_run.h"

/* 5 x 1 us, 3 x 2 us, 2 x 100 us (bucket values 1004, 2008, 99840 ns) */
static struct ib_hist *sample(uint64_t *n)
{
	struct ib_hist *h = calloc(1, sizeof(*h));
	int i;

	assert_non_null(h);
	for (i = 0; i < 5; i++)
		ib_hist_add(h, 1000);
	for (i = 0; i < 3; i++)
		ib_hist_add(h, 2000);
	for (i = 0; i < 2; i++)
		ib_hist_add(h, 100000);
	*n = 10;
	return h;
}

static char *capture_hist(const struct ib_hist *h, uint64_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ib_ping_print_hist(f, h, n);
	fclose(f);
	return buf;
}

static void test_hist_text(void **state)
{
	uint64_t n;
	struct ib_hist *h = sample(&n);
	char *got = capture_hist(h, n);

	(void)state;
	assert_string_equal(got,
		"\nlatency percentiles of 10 valid requests: p50 = 1.00 us, "
		"p90 = 99.8 us, p99 = 99.8 us, p99.9 = 99.8 us, max = 99.8 us\n"
		"latency buckets:\n"
		"  512 ns - 1.02 us: 5\n"
		"  1.02 us - 2.05 us: 3\n"
		"  65.5 us - 131.1 us: 2\n");
	free(got);
	memset(h, 0, sizeof(*h));
	got = capture_hist(h, 0);
	assert_string_equal(got, "\nlatency percentiles of 0 valid requests: none\n");
	free(got);
	free(h);
}

static void test_json(void **state)
{
	struct ib_ping_opts o;
	struct ib_ping_prep p;
	struct ib_ping_outcome res = { .engine = "psync" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	ib_ping_opts_init(&o);
	o.size = 4096;
	o.count = 11;
	memset(&p, 0, sizeof(p));
	p.kind = IB_PING_BLOCK;
	p.tgt = (struct ib_ping_target){ "/dev/x", "block", "device", 1 << 25 };
	p.work_size = 1 << 25;
	res.hist = sample(&res.hist_n);
	ib_ping_stats_start(&res.total, 0);
	res.total.count = 11;
	res.total.valid = 10;
	f = open_memstream(&buf, &len);
	ib_ping_write_json(f, &o, &p, &res);
	fclose(f);
	assert_non_null(strstr(buf, "\"iobench\" : \"ping\",\n"));
	assert_non_null(strstr(buf, "\"kind\" : \"block\",\n"));
	assert_non_null(strstr(buf, "\"engine\" : \"psync\",\n"));
	assert_non_null(strstr(buf, "\"work_size\" : 33554432,\n"));
	assert_non_null(strstr(buf, "\"requests\" : 11,\n"));
	assert_non_null(strstr(buf, "\"valid\" : 10,\n"));
	assert_non_null(strstr(buf, "\"N\" : 10,\n"));
	assert_non_null(strstr(buf, "\"50.000000\" : 1004,\n"));
	assert_non_null(strstr(buf, "\"100.000000\" : 99840\n"));
	assert_non_null(strstr(buf, "\"bins\" : {\n"));
	assert_non_null(strstr(buf, "\"1004\" : 5,\n"));
	assert_non_null(strstr(buf, "\"2008\" : 3,\n"));
	assert_non_null(strstr(buf, "\"99840\" : 2\n"));
	assert_int_equal(buf[len - 2], '}');
	free(buf);
	free(res.hist);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_text),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
