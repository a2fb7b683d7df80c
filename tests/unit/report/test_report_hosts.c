// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several hosts in one results document (iobench-mpi): fio's client-mode
 * layout. A real fio run (tests/data/golden, read back from its json+)
 * stands for each host: every host's block is the one-host report with its
 * lines prefixed "<host:rank> ", and "All clients" sums the hosts exactly
 * (counts, bytes, every histogram bucket).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/json_read.h"
#include "iobench/mpiplan.h"
#include "iobench/results.h"
#include "iobench/plan.h"
#include "report_fixture.h"
#include "src/report/report_common.h"

static void load_golden(const char *name, struct ib_results *r)
{
	char path[4200];
	struct ib_diag d = { { 0 } };

	snprintf(path, sizeof(path), "%s/%s.json", fixture_dir(), name);
	assert_int_equal(ib_results_load(r, path, &d), 0);
}

/* n copies of one host's results as hosts "h0".."hN-1", ranks 0..n-1. */
static void replicate(const struct ib_results *one, unsigned int n,
		      struct ib_results *out)
{
	unsigned int h, i, nj = one->nr_jobs;

	assert_int_equal(ib_results_alloc(out, n, n * nj, n * one->nr_disks), 0);
	for (i = 0; i < n * one->nr_disks; i++) {
		out->disks[i] = one->disks[i % one->nr_disks];
		out->disks[i].host = i / one->nr_disks;
	}
	for (h = 0; h < n; h++) {
		snprintf(out->hosts[h].name, sizeof(out->hosts[h].name), "h%u", h);
		out->hosts[h].rank = (int)h;
		for (i = 0; i < nj; i++) {
			out->jobs[h * nj + i] = one->jobs[i];
			out->jobs[h * nj + i].host = h;
			out->own_stats[h * nj + i] = one->stats[i];
		}
	}
	out->timestamp_ms = one->timestamp_ms;
	out->fio_version = one->fio_version;
}

static char *print(int (*fn)(FILE *, const struct ib_results *),
		   const struct ib_results *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, r), 0);
	fclose(f);
	return text;
}

/* Each host's block: the one-host report, every non-empty line prefixed. */
static void test_host_blocks(void **state)
{
	struct ib_results one, two;
	char *single, *multi, *p, want[8192];
	size_t o = 0;
	unsigned int h;

	(void)state;
	load_golden("rw2s", &one);
	replicate(&one, 2, &two);
	single = print(ib_report_normal, &one);
	multi = print(ib_report_normal, &two);
	for (h = 0; h < 2; h++)
		for (p = single; *p;) {
			char *nl = strchr(p, '\n');

			if (nl != p)
				o += (size_t)snprintf(want + o, sizeof(want) - o, "<h%u:%u> ", h, h);
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%.*s\n",
					      (int)(nl - p), p);
			p = nl + 1;
		}
	assert_true(o < sizeof(want));
	assert_memory_equal(multi, want, o);
	assert_non_null(strstr(multi + o, "All clients: (groupid=0, jobs=2): err= 0"));
	free(single);
	free(multi);
	ib_results_free(&two);
	ib_results_free(&one);
}

static uint64_t num(const struct ib_jv *o, const char *a, const char *b, const char *c)
{
	uint64_t v = 0;

	o = ib_jv_get(o, a);
	if (b)
		o = ib_jv_get(o, b);
	if (c)
		o = ib_jv_get(o, c);
	assert_true(ib_jv_u64(o, &v));
	return v;
}

/* "All clients" in json+: every count and bin is the hosts' sum. */
static void check_sum(const struct ib_jv *host, const struct ib_jv *all,
		      unsigned int n)
{
	static const char *const dir[] = { "read", "write" };
	const struct ib_jv *hb, *ab, *e;
	unsigned int d;

	for (d = 0; d < 2; d++) {
		assert_int_equal(num(all, dir[d], "total_ios", NULL),
				 n * num(host, dir[d], "total_ios", NULL));
		assert_int_equal(num(all, dir[d], "io_bytes", NULL),
				 n * num(host, dir[d], "io_bytes", NULL));
		assert_int_equal(num(all, dir[d], "clat_ns", "N"),
				 n * num(host, dir[d], "clat_ns", "N"));
		hb = ib_jv_get(ib_jv_get(ib_jv_get(host, dir[d]), "clat_ns"), "bins");
		ab = ib_jv_get(ib_jv_get(ib_jv_get(all, dir[d]), "clat_ns"), "bins");
		assert_non_null(hb);
		assert_int_equal(hb->nr, ab->nr);
		for (e = hb->child; e; e = e->next)
			assert_int_equal(num(ab, e->key, NULL, NULL), n * e->u64);
	}
}

static void test_json_client_stats(void **state)
{
	struct ib_results one, three;
	struct ib_jdoc doc;
	struct ib_diag d = { { 0 } };
	const struct ib_jv *cs, *e, *hosts;
	char *text;
	unsigned int i = 0;

	(void)state;
	load_golden("rw2s", &one);
	replicate(&one, 3, &three);
	three.hosts[2].clock_offset_ns = -1234;
	text = print(ib_report_json_plus, &three);
	assert_int_equal(ib_json_parse(&doc, text, strlen(text), &d), 0);
	assert_null(ib_jv_get(doc.root, "jobs"));
	cs = ib_jv_get(doc.root, "client_stats");
	assert_int_equal(cs->nr, 4);
	for (e = cs->child; i < 3; e = e->next, i++) {
		char host[8];

		snprintf(host, sizeof(host), "h%u", i);
		assert_string_equal(ib_jv_str(ib_jv_get(e, "hostname")), host);
		assert_int_equal(num(e, "rank", NULL, NULL), i);
	}
	assert_string_equal(ib_jv_str(ib_jv_get(e, "jobname")), "All clients");
	check_sum(cs->child, e, 3);
	hosts = ib_jv_get(doc.root, "hosts");
	assert_int_equal(hosts->nr, 3);
	assert_true(ib_jv_get(hosts->child->next->next, "clock_offset_ns")->num == -1234);
	ib_jdoc_free(&doc);
	free(text);
	ib_results_free(&three);
	ib_results_free(&one);
}

/* A client-mode json+ read back (results_read.c) prints the same again. */
static void test_json_roundtrip(void **state)
{
	struct ib_results one, three, back;
	struct ib_diag d = { { 0 } };
	char *text, *again;

	(void)state;
	load_golden("disk", &one);
	assert_true(one.nr_disks > 0);
	replicate(&one, 3, &three);
	three.hosts[1].clock_offset_ns = -77;
	three.hosts[2].start_ns = 1795466166226174901ll;
	three.own_stats[0].elapsed_s++; /* hosts differ */
	text = print(ib_report_json_plus, &three);
	assert_int_equal(ib_results_read_json(&back, text, strlen(text), &d), 0);
	assert_int_equal(back.nr_hosts, 3);
	assert_int_equal(back.nr_jobs, three.nr_jobs);
	assert_int_equal(back.hosts[2].start_ns, 1795466166226174901ll);
	assert_int_equal(back.hosts[1].clock_offset_ns, -77);
	assert_int_equal(back.nr_disks, three.nr_disks);
	assert_int_equal(back.disks[back.nr_disks - 1].host, 2);
	again = print(ib_report_json_plus, &back);
	assert_string_equal(again, text);
	free(again);
	free(text);
	ib_results_free(&back);
	ib_results_free(&three);
	ib_results_free(&one);
}

/* group_reporting never merges across hosts; All clients is per group. */
static void test_groups(void **state)
{
	struct ib_results one, two, all;
	struct ib_rep r;
	unsigned int i, nj;

	(void)state;
	load_golden("rw2s", &one);
	nj = one.nr_jobs;
	replicate(&one, 2, &two);
	for (i = 0; i < two.nr_jobs; i++) {
		two.jobs[i].group_reporting = true;
		two.jobs[i].groupid = i % 2; /* both groups on both hosts */
	}
	assert_int_equal(ib_rep_build(&r, &two), 0);
	assert_int_equal(r.nr_ent, two.nr_jobs); /* alternating: nothing merged */
	ib_rep_free(&r);
	assert_int_equal(ib_rep_all_hosts(&two, &all), 0);
	assert_int_equal(all.nr_jobs, 2 * nj);
	assert_int_equal(ib_rep_build(&r, &all), 0);
	assert_int_equal(r.nr_ent, 2);
	assert_int_equal(r.ent[0].job->groupid, 0);
	assert_int_equal(r.ent[0].nr_jobs, nj);
	assert_int_equal(r.ent[1].job->groupid, 1);
	assert_string_equal(r.ent[1].job->name, "All clients");
	assert_int_equal(r.ent[0].st->dir[0].total_ios + r.ent[1].st->dir[0].total_ios,
			 2 * (one.stats[0].dir[0].total_ios +
			      (nj > 1 ? one.stats[1].dir[0].total_ios : 0)));
	ib_rep_free(&r);
	ib_results_free(&all);
	ib_results_free(&two);
	ib_results_free(&one);
}

/* The plan as each rank makes it its own (mpiplan.h). */
static void test_plan_names(void **state)
{
	struct ib_plan run;
	struct ib_job j[2];
	struct ib_diag d = { { 0 } };
	char dir[PATH_MAX];

	(void)state;
	ib_plan_init(&run);
	ib_job_defaults(&j[0]);
	ib_job_defaults(&j[1]);
	j[0].strs = j[1].strs = &run.strs;
	j[0].name = "a:b";
	j[0].nrfiles = 2;
	j[0].clone = 1;
	j[1].name = "x";
	j[1].filename = "/d/$hostname/f.$rank:/e.$clientuid";
	j[1].logs.lat = "lat.$rank";
	run.jobs = j;
	run.nr_jobs = 2;
	assert_int_equal(ib_mpi_plan_for_rank(&run, 3, "n1", &d), 0);
	assert_string_equal(j[0].filename, "n1.3.a\\:b.1.0:n1.3.a\\:b.1.1");
	assert_string_equal(j[1].filename, "/d/n1/f.3:/e.3");
	assert_string_equal(j[1].logs.lat, "lat.3");
	memset(dir, 'x', sizeof(dir) - 8);
	memcpy(dir + sizeof(dir) - 8, "$rank", 6);
	j[1].directory = dir;
	assert_int_equal(ib_mpi_plan_for_rank(&run, 123456789, "n1", &d), -ENAMETOOLONG);
	ib_strtab_free(&run.strs);
}

static void test_plan_hash(void **state)
{
	struct ib_plan run;
	struct ib_job j[2];
	uint64_t h;

	(void)state;
	ib_job_defaults(&j[0]);
	ib_job_defaults(&j[1]);
	ib_plan_init(&run);
	run.jobs = j;
	run.nr_jobs = 2;
	h = ib_mpi_plan_hash(&run);
	assert_int_equal(h, ib_mpi_plan_hash(&run));
	j[1].size = 1;
	assert_int_not_equal(h, ib_mpi_plan_hash(&run));
	j[1].size = 0;
	/* strings by their text, not their address */
	j[1].directory = "d";
	assert_int_not_equal(h, ib_mpi_plan_hash(&run));
	j[1].directory = (const char[]){ "" };
	assert_int_equal(h, ib_mpi_plan_hash(&run));
	j[1].directory = "";
	run.nr_jobs = 1;
	assert_int_not_equal(h, ib_mpi_plan_hash(&run));
	run.nr_jobs = 2;
	run.global_opts_len = 4;
	memcpy(run.global_opts_text, "a\0b\0", 4);
	assert_int_not_equal(h, ib_mpi_plan_hash(&run));
}

/* --mpi-split: job i on rank i % size, groups still one after another. */
static void test_plan_split(void **state)
{
	struct ib_job j[7];
	unsigned int i;

	(void)state;
	memset(j, 0, sizeof(j));
	for (i = 0; i < 7; i++) {
		j[i].number = i + 1;
		j[i].groupid = i < 4 ? 0 : 1;
		j[i].stonewall = i == 4;
	}
	assert_int_equal(ib_mpi_local_max(true, 3, 7), 3);
	assert_int_equal(ib_mpi_local_max(false, 3, 7), 7);
	assert_int_equal(ib_mpi_job_index(true, 1, 3, 7, 1), 4);
	assert_int_equal(ib_mpi_job_index(true, 1, 3, 7, 2), -1);
	assert_int_equal(ib_mpi_job_index(false, 1, 3, 7, 6), 6);
	assert_int_equal(ib_mpi_plan_split(j, 7, 1, 3), 2); /* jobs 1 and 4 */
	assert_int_equal(j[0].number, 2);
	assert_int_equal(j[1].number, 5);
	assert_false(j[0].stonewall);
	assert_true(j[1].stonewall);	/* group 1 waits for group 0 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_blocks),
		cmocka_unit_test(test_json_client_stats),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_plan_names),
		cmocka_unit_test(test_plan_hash),
		cmocka_unit_test(test_plan_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
