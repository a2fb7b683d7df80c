// SPDX-License-Identifier: GPL-2.0-only
/*
 * One job object read back on its own (results_job_read.c): the fields a
 * JSON job holds exactly (name, group, counts, bytes, runtime, latency
 * statistics, error, sync), its options text, and the errors named.
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
#include "src/report/results/results_priv.h"

static const char job_json[] =
	"{\"jobname\":\"a\",\"groupid\":2,\"error\":5,\"elapsed\":3,"
	"\"desc\":\"the job\",\"latency_depth\":16,"
	"\"job options\":{\"bs\":\"8k\",\"rw\":\"randread\"},"
	"\"read\":{\"io_bytes\":16384,\"total_ios\":2,\"runtime\":10,\"short_ios\":1,"
	"\"clat_ns\":{\"min\":100,\"max\":300,\"mean\":200.0,\"stddev\":141.4213562,\"N\":2}},"
	"\"write\":{\"io_bytes\":0,\"total_ios\":0,\"runtime\":0},"
	"\"sync\":{\"total_ios\":7}}";

static void read_one(void **state)
{
	struct ib_results r;
	struct ib_jdoc doc;
	struct ib_diag d = { { 0 } };
	const struct ib_dir_stats *rd;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(ib_results_alloc(&r, 1, 1, 1), 0);
	r.nr_jobs = 1;
	assert_int_equal(ib_json_parse(&doc, job_json, strlen(job_json), &d), 0);
	assert_int_equal(results_job_into(&r, 0, doc.root, &d), 0);
	assert_string_equal(r.jobs[0].name, "a");
	assert_string_equal(r.jobs[0].description, "the job");
	assert_int_equal(r.jobs[0].groupid, 2);
	assert_int_equal(r.jobs[0].iodepth, 16);
	assert_int_equal(r.own_stats[0].error, 5);
	assert_int_equal(r.own_stats[0].elapsed_s, 3);
	rd = &r.own_stats[0].dir[IB_DDIR_READ];
	assert_int_equal(rd->io_bytes, 16384);
	assert_int_equal(rd->total_ios, 2);
	assert_int_equal(rd->issued, 2);
	assert_int_equal(rd->short_ios, 1);
	assert_int_equal(rd->runtime_us, 10000);
	assert_int_equal(rd->lat[IB_LAT_CLAT].n, 2);
	assert_int_equal(rd->lat[IB_LAT_CLAT].min, 100);
	assert_int_equal(rd->lat[IB_LAT_CLAT].max, 300);
	assert_true(rd->lat[IB_LAT_CLAT].mean == 200.0);
	assert_int_equal(r.own_stats[0].dir[IB_DDIR_WRITE].total_ios, 0);
	assert_int_equal(r.own_stats[0].sync_ios, 7);
	/* the options: "key\0value\0" pairs in the file's order */
	assert_int_equal(r.jobs[0].opts_len, sizeof("bs\0008k\0rw\0randread") );
	assert_memory_equal(r.jobs[0].opts_text, "bs\0008k\0rw\0randread", r.jobs[0].opts_len);
	ib_jdoc_free(&doc);
	ib_results_free(&r);
}

static void opts_text(void **state)
{
	struct ib_jdoc doc;
	struct ib_diag d = { { 0 } };
	char buf[8];
	const char *json = "{\"a\":\"1\",\"bb\":\"22\"}";

	(void)state;
	assert_int_equal(ib_json_parse(&doc, json, strlen(json), &d), 0);
	assert_int_equal(results_opts_from(buf, sizeof(buf), doc.root), 4);	/* "a\01\0" then no room */
	assert_memory_equal(buf, "a\0001", 4);
	assert_int_equal(results_opts_from(buf, sizeof(buf), NULL), 0);
	ib_jdoc_free(&doc);
}

static void not_an_object(void **state)
{
	struct ib_results r;
	struct ib_jdoc doc;
	struct ib_diag d = { { 0 } };

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(ib_results_alloc(&r, 1, 2, 1), 0);
	r.nr_jobs = 2;
	assert_int_equal(ib_json_parse(&doc, "[1]", 3, &d), 0);
	assert_int_equal(results_job_into(&r, 1, doc.root, &d), -EINVAL);
	assert_string_equal(d.msg, "jobs[1]: not an object");
	ib_jdoc_free(&doc);
	ib_results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_one),
		cmocka_unit_test(opts_text),
		cmocka_unit_test(not_an_object),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
