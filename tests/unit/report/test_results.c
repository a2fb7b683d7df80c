// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results document read back from JSON: fio 3.33's own json+ files
 * (tests/data/golden/NAME.json, and fio 3.42's in v342/) loaded into struct ib_results and printed
 * again give fio's numbers: json+ equal value for value (bins rebuild each
 * histogram, and the percentiles recomputed from it equal the file's,
 * exactly), and the normal report equal to the text fio printed for the
 * same run (NAME.txt) from its second line on (pid and start time are not
 * in JSON).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/json_read.h"
#include "iobench/results.h"
#include "iobench/plan.h"
#include "report_fixture.h"

static const char *const golden[] = {
	"rw2s", "grp", "fsync", "null", "pcts", "kb1000", "bits", "gtod", "sig", "disk",
	"uboth", "umixed",
	/* the same jobs run by fio 3.42: read back in its format */
	"v342/rw2s", "v342/grp", "v342/fsync", "v342/null", "v342/pcts", "v342/kb1000",
	"v342/bits", "v342/gtod", "v342/sig", "v342/disk", "v342/uboth", "v342/umixed",
};
static const char *const ddir_key[] = { "read", "write", "trim" };
static const char *const lat_key[] = { "slat_ns", "clat_ns", "lat_ns" };

static void load_golden(const char *name, struct ib_results *r)
{
	char path[4200];
	struct ib_diag d = { { 0 } };

	snprintf(path, sizeof(path), "%s/%s.json", fixture_dir(), name);
	if (ib_results_load(r, path, &d))
		fprintf(stderr, "%s\n", d.msg);
	assert_int_equal(d.msg[0], '\0');
}

/* One latency object of the file against the rebuilt histogram */
static unsigned int check_lat(const struct ib_res_job *j, const struct ib_lat_stat *s,
			      const struct ib_hist *h, const struct ib_jv *o)
{
	const struct ib_jv *pct = ib_jv_get(o, "percentile"), *bins = ib_jv_get(o, "bins"), *e;
	uint64_t n = 0, sum = 0, want, got[IB_MAX_PERCENTILES];
	unsigned int i = 0, k;

	assert_true(ib_jv_u64(ib_jv_get(o, "N"), &n));
	assert_int_equal(s->n, n);
	if (!pct)
		return 0;
	assert_non_null(bins);
	for (k = 0; k < IB_HIST_NR; k++)
		sum += h->count[k];
	assert_int_equal(sum, n);		/* every sample is in a bin */
	assert_int_equal(j->nr_percentiles, pct->nr);
	assert_int_equal(ib_hist_percentiles(h, n, j->percentiles, j->nr_percentiles, got), 0);
	for (e = pct->child; e; e = e->next, i++) {
		assert_true(ib_jv_u64(e, &want));
		assert_int_equal(got[i], want);	/* exactly fio's percentile */
	}
	return i;
}

static void check_exact(const char *name)
{
	char *text = fixture_read(name, "json");
	const struct ib_jv *jobs, *o;
	struct ib_diag d = { { 0 } };
	struct ib_results r;
	struct ib_jdoc doc;
	unsigned int i = 0, dd, k, checked = 0;

	assert_non_null(text);
	load_golden(name, &r);
	assert_int_equal(ib_json_parse(&doc, text, strlen(text), &d), 0);
	jobs = ib_jv_get(doc.root, "jobs");
	assert_int_equal(r.nr_jobs, jobs->nr);
	for (o = jobs->child; o; o = o->next, i++) {
		const struct ib_job_stats *s = &r.stats[i];

		for (dd = 0; dd < IB_DDIR_RWT; dd++) {
			const struct ib_jv *dir = ib_jv_get(o, ddir_key[dd]);

			if (!dir && !dd) /* unified_rw_reporting=mixed: read slot */
				dir = ib_jv_get(o, "mixed");
			for (k = 0; dir && k < IB_LAT_NR; k++)
				checked += check_lat(&r.jobs[i], &s->dir[dd].lat[k], &s->dir[dd].hist[k],
						     ib_jv_get(dir, lat_key[k]));
		}
		if (ib_jv_get(o, "sync"))
			checked += check_lat(&r.jobs[i], &s->sync_lat, &s->sync_hist,
					     ib_jv_get(ib_jv_get(o, "sync"), "lat_ns"));
	}
	if (!strstr(name, "gtod"))	/* gtod_reduce: no latencies */
		assert_true(checked > 0);
	ib_jdoc_free(&doc);
	ib_results_free(&r);
	free(text);
}

/* Percentiles recomputed from the rebuilt bins equal fio's, value for value */
static void test_percentiles_from_bins(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(golden) / sizeof(golden[0]); i++)
		check_exact(golden[i]);
}

static bool have_python(void)
{
	return system("python3 -c 'import json' >/dev/null 2>&1") == 0;
}

/* Read back, printed again as json+: fio's document, number for number */
static void test_json_plus_again(void **state)
{
	char tmp[] = "/tmp/ib_results_XXXXXX", cmd[9000];
	struct ib_results r;
	size_t i;
	char *got;
	int ret, fd;

	(void)state;
	if (!have_python())
		skip();
	for (i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		load_golden(golden[i], &r);
		got = fixture_capture(ib_report_json_plus, &r, &ret);
		assert_int_equal(ret, 0);
		fd = mkstemp(tmp);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, got, strlen(got)), (ssize_t)strlen(got));
		close(fd);
		snprintf(cmd, sizeof(cmd), "python3 %s/json_compare.py --values %s %s/%s.json",
			 fixture_dir(), tmp, fixture_dir(), golden[i]);
		ret = system(cmd);
		unlink(tmp);
		strcpy(tmp, "/tmp/ib_results_XXXXXX");
		if (ret)
			fprintf(stderr, "%s:\n%s", golden[i], got);
		assert_int_equal(ret, 0);
		free(got);
		ib_results_free(&r);
	}
}

/* Read back, printed as the normal report: the text fio printed */
static void test_normal_again(void **state)
{
	static const char *const names[] = { "rw2s", "fsync", "null", "pcts", "kb1000",
					     "bits", "gtod", "sig", "disk", "uboth", "umixed",
					     "v342/rw2s", "v342/fsync", "v342/null", "v342/pcts",
					     "v342/kb1000", "v342/bits", "v342/gtod", "v342/sig",
					     "v342/disk", "v342/uboth", "v342/umixed" };
	struct ib_results r;
	char *want, *got;
	const char *g, *w;
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		load_golden(names[i], &r);
		want = fixture_read(names[i], "txt");
		assert_non_null(want);
		got = fixture_capture(ib_report_normal, &r, &ret);
		assert_int_equal(ret, 0);
		/* both start "\nNAME: (groupid=...): pid=..." */
		g = got ? strchr(got + 1, '\n') : NULL;
		w = strchr(want + 1, '\n');
		assert_non_null(g);
		if (strcmp(g, w))
			fprintf(stderr, "--- fio (%s)\n%s--- iobench\n%s", names[i], want, got);
		assert_string_equal(g, w);
		free(want);
		free(got);
		ib_results_free(&r);
	}
}

static void test_read_errors(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_results r;

	(void)state;
	assert_int_equal(ib_results_read_json(&r, "{\"jobs\" : {}}", 13, &d), -EINVAL);
	assert_string_equal(d.msg, "not a fio or iobench JSON report: no \"jobs\" array");
	assert_null(r.jobs);
	assert_int_equal(ib_results_read_json(&r, "{\"jobs\" : [1]}", 14, &d), -EINVAL);
	assert_string_equal(d.msg, "jobs[0]: not an object");
	assert_null(r.jobs);
	assert_int_equal(ib_results_read_json(&r, "{\"jobs\" : [}", 12, &d), -EINVAL);
	assert_string_equal(d.msg, "json: offset 11: expected a value");
	assert_int_equal(ib_results_load(&r, "/nonexistent/x.json", &d), -ENOENT);
	assert_string_equal(d.msg, "/nonexistent/x.json: No such file or directory");
	/* empty jobs: a valid, empty document */
	assert_int_equal(ib_results_read_json(&r, "{\"jobs\":[]}", 11, &d), 0);
	assert_int_equal(r.nr_jobs, 0);
	assert_int_equal(r.nr_hosts, 1);
	ib_results_free(&r);
}

/* What a read-back job record holds beyond the numbers */
static void test_read_fields(void **state)
{
	struct ib_results r;

	(void)state;
	load_golden("sig", &r);
	assert_int_equal(r.nr_jobs, 1);
	assert_int_equal(r.jobs[0].significant_figures, 6);
	assert_string_equal(r.jobs[0].description, "my desc");
	assert_int_equal(r.timestamp_ms, 1795219838800);
	ib_results_free(&r);
	load_golden("kb1000", &r);
	assert_int_equal(r.jobs[0].kb_base, 1000);
	ib_results_free(&r);
	load_golden("disk", &r);
	assert_int_equal(r.nr_disks, 1);
	assert_string_equal(r.disks[0].util.name, "vda");
	ib_results_free(&r);
	load_golden("grp", &r);	/* group_reporting: one entry, one record */
	assert_int_equal(r.nr_jobs, 1);
	assert_false(r.jobs[0].group_reporting);
	ib_results_free(&r);
}

/* Plain JSON (no bins): the histogram made from the percentiles gives them again */
static void test_plain_json_percentiles(void **state)
{
	static const char doc[] = "{\"jobs\":[{\"read\":{\"clat_ns\":{\"N\":1000,"
		"\"min\":10,\"max\":90000,\"percentile\":{\"1.000000\":10,\"50.000000\":1004,"
		"\"99.000000\":1004,\"99.500000\":70144,\"99.990000\":90624}}}}]}";
	static const uint64_t want[] = { 10, 1004, 1004, 70144, 90624 };
	struct ib_diag d = { { 0 } };
	uint64_t got[5], sum = 0;
	struct ib_results r;
	const struct ib_hist *h;
	unsigned int i;

	(void)state;
	assert_int_equal(ib_results_read_json(&r, doc, strlen(doc), &d), 0);
	h = &r.stats[0].dir[0].hist[IB_LAT_CLAT];
	assert_int_equal(r.jobs[0].nr_percentiles, 5);
	assert_true(r.jobs[0].clat_percentiles);
	assert_false(r.jobs[0].slat_percentiles);
	assert_int_equal(ib_hist_percentiles(h, 1000, r.jobs[0].percentiles, 5, got), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(got[i], want[i]);
	for (i = 0; i < IB_HIST_NR; i++)
		sum += h->count[i];
	assert_int_equal(sum, 1000);
	/* the fewest samples for each: 10 by 1%, 995 by 99.5%, the 5 others */
	assert_int_equal(h->count[ib_hist_index(10)], 10);
	assert_int_equal(h->count[ib_hist_index(90624)], 5);
	ib_results_free(&r);
}

/* iobench's colat_ns and late starts read back: the job was paced. */
static void test_read_colat(void **state)
{
	static const char doc[] = "{\"jobs\":[{\"read\":{\"total_ios\":3,"
		"\"colat_ns\":{\"N\":3,\"min\":100,\"max\":300,\"mean\":200.0,"
		"\"stddev\":100.0,\"bins\":{\"100\":1,\"200\":1,\"300\":1}},"
		"\"late\":{\"ios\":2,\"total_ns\":5000,\"max_ns\":3000,"
		"\"backlog_max\":4,\"unstarted\":7}},\"write\":{}}]}";
	struct ib_diag d = { { 0 } };
	const struct ib_dir_stats *ds;
	struct ib_results r;

	(void)state;
	assert_int_equal(ib_results_read_json(&r, doc, strlen(doc), &d), 0);
	ds = &r.stats[0].dir[IB_DDIR_READ];
	assert_true(r.stats[0].paced);
	assert_int_equal(ds->colat.n, 3);
	assert_int_equal(ds->colat.min, 100);
	assert_int_equal(ds->colat.max, 300);
	assert_int_equal(ds->colat_hist.count[ib_hist_index(200)], 1);
	assert_int_equal(ds->late_ios, 2);
	assert_int_equal(ds->late_sum_ns, 5000);
	assert_int_equal(ds->late_max_ns, 3000);
	assert_int_equal(ds->backlog_max, 4);
	assert_int_equal(ds->unstarted, 7);
	assert_false(r.jobs[0].clat_percentiles);
	assert_int_equal(r.stats[0].dir[IB_DDIR_WRITE].colat.n, 0);
	ib_results_free(&r);
	assert_int_equal(ib_results_read_json(&r, "{\"jobs\":[{\"read\":{}}]}", 22, &d), 0);
	assert_false(r.stats[0].paced);
	ib_results_free(&r);
}

/* The format table: names, aliases, streams, json+ over json */
static void test_format_table(void **state)
{
	char names[128];

	(void)state;
	assert_int_equal(ib_format_find("JSON+")->bit, IB_OUT_JSONPLUS);
	assert_int_equal(ib_format_find("csv")->bit, IB_OUT_TERSE);
	assert_null(ib_format_find("csv")->print);
	assert_true(ib_format_find("terse")->print == ib_report_terse);
	assert_null(ib_format_find("xml"));
	ib_format_names(names, sizeof(names));
	assert_string_equal(names, "normal, json, json+, terse, minimal, csv");
	ib_format_names(names, 10);
	assert_string_equal(names, "normal, j");
	/* --json-output alone means json; json+ replaces json */
	assert_int_equal(ib_formats_selected(IB_OUT_NORMAL, true), IB_OUT_NORMAL | IB_OUT_JSON);
	assert_int_equal(ib_formats_selected(IB_OUT_NORMAL, false), IB_OUT_NORMAL);
	assert_int_equal(ib_formats_selected(IB_OUT_JSON | IB_OUT_JSONPLUS, false),
			 IB_OUT_JSONPLUS);
	assert_false(ib_formats_machine_on_main(IB_OUT_NORMAL | IB_OUT_JSON, true));
	assert_true(ib_formats_machine_on_main(IB_OUT_NORMAL | IB_OUT_JSON, false));
	assert_true(ib_formats_machine_on_main(IB_OUT_TERSE | IB_OUT_JSON, true));
	assert_false(ib_formats_machine_on_main(IB_OUT_NORMAL, false));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_from_bins),
		cmocka_unit_test(test_json_plus_again),
		cmocka_unit_test(test_normal_again),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_read_fields),
		cmocka_unit_test(test_plain_json_percentiles),
		cmocka_unit_test(test_read_colat),
		cmocka_unit_test(test_format_table),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
