/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TEST_REPORT_FIXTURE_H
#define IOBENCH_TEST_REPORT_FIXTURE_H

/*
 * Loads tests/data/golden/NAME.fix (made by fio2fixture.py from a real fio
 * run) into a struct ib_plan + stats, and from them (as main.c does) the
 * results document the formatters print, for the report tests. NAME is a
 * fio 3.33 run; v342/NAME the same job run by fio 3.42.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "iobench/job_setup.h"
#include "iobench/disk.h"
#include "iobench/report.h"
#include "iobench/plan.h"
#include "iobench/runner.h"

struct fixture {
	struct ib_plan run;
	struct ib_job_stats *stats;
	struct ib_results in;	/* built from run, stats and disks */
	struct ib_disk_util disks[4];
	unsigned int nr_disks;
};

static inline const char *fixture_dir(void)
{
	static char dir[4096];
	const char *env = getenv("IB_GOLDEN_DIR");
	char exe[2048] = "";
	char *slash;
	ssize_t n;

	if (env)
		return env;
	/*
	 * __FILE__ is absolute, or relative to the build root, which is two
	 * levels above this executable (BUILD/tests/test_x).
	 */
	if (__FILE__[0] != '/') {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		for (int up = 0; up < 2 && (slash = strrchr(exe, '/')); up++)
			*slash = '\0';
	}
	snprintf(dir, sizeof(dir), "%s%s%s", exe, exe[0] ? "/" : "", __FILE__);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	strncat(dir, "/../data/golden", sizeof(dir) - strlen(dir) - 1);
	return dir;
}

static inline char *fixture_read(const char *name, const char *ext)
{
	char path[4200];
	long n;
	char *buf;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", fixture_dir(), name, ext);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static inline void fixture_lat(struct ib_lat_stat *s, unsigned long long n,
			       unsigned long long mn, unsigned long long mx,
			       double mean, double dev)
{
	s->n = n;
	s->min = mn;
	s->max = mx;
	s->mean = mean;
	s->m2 = n > 1 ? dev * dev * (double)(n - 1) : 0.0;
}

static inline void fixture_arr(const char *line, uint64_t *a, unsigned int nr)
{
	const char *p = strchr(line, ' ');
	unsigned int i;

	for (i = 0; i < nr && p; i++) {
		a[i] = strtoull(p + 1, NULL, 10);
		p = strchr(p + 1, ' ');
	}
}

static inline void fixture_pct_list(struct ib_job *j, const char *v)
{
	const char *p = v, *dot;
	unsigned int prec = 0;

	j->nr_percentiles = 0;
	while (*p && j->nr_percentiles < IB_MAX_PERCENTILES) {
		j->percentiles[j->nr_percentiles++] = strtod(p, NULL);
		dot = strpbrk(p, ".:");
		if (dot && *dot == '.' && strcspn(dot + 1, ":") > prec)
			prec = (unsigned int)strcspn(dot + 1, ":");
		p += strcspn(p, ":");
		if (*p)
			p++;
	}
	j->percentile_precision = prec;
}

/* The job options the reports look at (others are ignored) */
static inline void fixture_opt(struct ib_job *j, const char *k, const char *v)
{
	unsigned int n = (unsigned int)strtoul(v, NULL, 10);

	if (!strcmp(k, "kb_base"))
		j->kb_base = n;
	else if (!strcmp(k, "unit_base"))
		j->unit_base = n;
	else if (!strcmp(k, "significant_figures"))
		j->significant_figures = n;
	else if (!strcmp(k, "lat_percentiles"))
		j->lat_percentiles = n;
	else if (!strcmp(k, "slat_percentiles"))
		j->slat_percentiles = n;
	else if (!strcmp(k, "clat_percentiles"))
		j->clat_percentiles = n;
	else if (!strcmp(k, "percentile_list"))
		fixture_pct_list(j, v);
	else if (!strcmp(k, "gtod_reduce"))
		j->gtod_reduce = j->disable_lat = j->disable_clat = j->disable_slat = n;
	else if (!strcmp(k, "unified_rw_reporting"))
		j->unified_rw_rep = !strcmp(v, "mixed") || !strcmp(v, "1") ? IB_UNIFIED_MIXED :
				    !strcmp(v, "both") || !strcmp(v, "2") ? IB_UNIFIED_BOTH :
				    IB_UNIFIED_NONE;
	else if (!strcmp(k, "description"))
		assert_int_equal(ib_job_set_str(j, &j->description, "%s", v), 0);
	if (j->opts_len + strlen(k) + strlen(v) + 3 < IB_OPTS_TEXT_MAX) {
		char text[IB_OPTS_TEXT_MAX];
		unsigned int len = j->opts_len;

		memcpy(text, j->opts_text, len);
		memcpy(text + len, k, strlen(k) + 1);
		len += (unsigned int)strlen(k) + 1;
		memcpy(text + len, v, strlen(v) + 1);
		len += (unsigned int)strlen(v) + 1;
		j->opts_text = ib_strtab_add(j->strs, text, len);
		j->opts_len = len;
	}
}

static inline void fixture_line(struct fixture *fx, char *l)
{
	struct ib_job_stats *s = fx->stats;	/* NULL before the "job" line */
	unsigned int d, k, nj, gr;
	unsigned long long a, b, c, e, g, h, q, sr = 0, sw = 0;
	double m, dev;
	char name[256];

	if (sscanf(l, "job %255s %u %llu %u %u", name, &d, &a, &nj, &gr) == 5) {
		fx->run.nr_jobs = nj;
		fx->run.jobs = calloc(nj, sizeof(*fx->run.jobs));
		fx->stats = calloc(nj, sizeof(*fx->stats));
		for (k = 0; k < nj; k++) {
			struct ib_job *j = &fx->run.jobs[k];

			ib_job_defaults(j);
			j->strs = &fx->run.strs;
			assert_int_equal(ib_job_set_str(j, &j->name, "%s", name), 0);
			j->groupid = d;
			j->iodepth = (unsigned int)a;
			j->group_reporting = gr;
			j->clone = k;
			j->number = k + 1;
		}
	} else if (sscanf(l, "opt %255s", name) == 1) {
		const char *v = l + 5 + strlen(name);

		v += *v == ' ';
		for (k = 0; k < fx->run.nr_jobs; k++)
			fixture_opt(&fx->run.jobs[k], name, v);
	} else if (sscanf(l, "disk %63s %llu %llu %llu %llu %llu %llu %llu %lf %llu %llu", name,
			  &a, &b, &c, &e, &g, &h, &q, &dev, &sr, &sw) >= 9 && fx->nr_disks < 4) {
		struct ib_disk_util *u = &fx->disks[fx->nr_disks++];

		memcpy(u->name, name, sizeof(u->name));	/* %63s above */
		u->ios[0] = a;
		u->ios[1] = b;
		u->sectors[0] = sr;	/* fio 3.42's runs only */
		u->sectors[1] = sw;
		u->merges[0] = c;
		u->merges[1] = e;
		u->ticks[0] = g;
		u->ticks[1] = h;
		u->in_queue = q;
		u->util = dev;
	} else if (sscanf(l, "terse %u", &d) == 1) {
		fx->run.terse_version = d;
	} else if (sscanf(l, "pid %llu %llu", &a, &b) == 2) {
		s->pid = (int)a;
		s->start_time = (int64_t)b;
	} else if (sscanf(l, "dir %u %llu %llu %llu %llu %llu %llu", &d, &a, &b, &c, &e, &g,
			  &h) == 7) {
		s->dir[d].io_bytes = a;
		s->dir[d].runtime_us = b * 1000;
		s->dir[d].total_ios = c;
		s->dir[d].issued = e;
		s->dir[d].short_ios = g;
		s->dir[d].drop_ios = h;
	} else if (sscanf(l, "lat %u %u %llu %llu %llu %lf %lf", &d, &k, &a, &b, &c, &m, &dev) == 7) {
		fixture_lat(&s->dir[d].lat[k], a, b, c, m, dev);
	} else if (sscanf(l, "bin %u %u %llu %llu", &d, &k, &a, &b) == 4) {
		s->dir[d].hist[k].count[ib_hist_index(a)] += b;
	} else if (sscanf(l, "samp %u %u %llu %llu %llu %lf %lf", &d, &k, &a, &b, &c, &m, &dev) == 7) {
		fixture_lat(k ? &s->dir[d].iops_samples : &s->dir[d].bw_samples, a, b, c, m, dev);
	} else if (sscanf(l, "sync %llu %llu %llu %llu %lf %lf", &a, &b, &c, &e, &m, &dev) == 6) {
		s->sync_ios = a;
		fixture_lat(&s->sync_lat, b, c, e, m, dev);
	} else if (sscanf(l, "syncbin %llu %llu", &a, &b) == 2) {
		s->sync_hist.count[ib_hist_index(a)] += b;
	} else if (!strncmp(l, "latn ", 5)) {
		fixture_arr(l, s->lat_n, IB_LAT_N_NR);
	} else if (!strncmp(l, "latu ", 5)) {
		fixture_arr(l, s->lat_u, IB_LAT_U_NR);
	} else if (!strncmp(l, "latm ", 5)) {
		fixture_arr(l, s->lat_m, IB_LAT_M_NR);
	} else if (!strncmp(l, "depth ", 6)) {
		fixture_arr(l, s->depth, IB_DEPTH_NR);
	} else if (!strncmp(l, "submit ", 7)) {
		fixture_arr(l, s->submit, IB_DEPTH_NR);
		s->total_submit_calls = 1000000;
	} else if (!strncmp(l, "complete ", 9)) {
		fixture_arr(l, s->complete, IB_DEPTH_NR);
		s->total_complete_calls = 1000000;
	} else if (sscanf(l, "cpu %llu %llu %llu %llu %llu %llu", &a, &b, &c, &e, &g,
			  &h) == 6) {
		s->usr_us = a;
		s->sys_us = b;
		s->ctx = c;
		s->majf = e;
		s->minf = g;
		s->job_runtime_ms = h;
	}
}

/*
 * The results document for a run, its stats and disks (as main.c builds
 * it), in the format of fio version v (--fio-version=): the fio run's own.
 */
static inline int fixture_results(struct ib_results *out, const struct ib_plan *run,
				  struct ib_job_stats *stats,
				  const struct ib_disk_util *disks, unsigned int nr_disks,
				  int64_t timestamp_ms, enum ib_fio_version v)
{
	struct ib_result res = { .stats = stats, .nr_disks = nr_disks };

	struct ib_plan as_run = *run;

	res.disks = nr_disks ? (struct ib_disk_util *)disks : NULL;
	as_run.fio_version = v;
	return ib_results_from_run(out, &as_run, &res, timestamp_ms);
}

/* NAME (fio 3.33's run) or v342/NAME (fio 3.42's), in its version's format */
static inline int fixture_load(struct fixture *fx, const char *name)
{
	char *text = fixture_read(name, "fix"), *line, *save = NULL;

	memset(fx, 0, sizeof(*fx));
	if (!text)
		return -1;
	ib_plan_init(&fx->run);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fixture_line(fx, line);
	free(text);
	if (!fx->stats)
		return -1;
	return fixture_results(&fx->in, &fx->run, fx->stats, fx->disks, fx->nr_disks,
			       (fx->stats[0].start_time + 2) * 1000,
			       strncmp(name, "v342/", 5) ? IB_FIO_V333 : IB_FIO_V342);
}

static inline void fixture_free(struct fixture *fx)
{
	ib_results_free(&fx->in);
	free(fx->stats);
	free(fx->run.jobs);
	ib_strtab_free(&fx->run.strs);
}

/* Run fn into a string */
static inline char *fixture_capture(int (*fn)(FILE *, const struct ib_results *),
				    const struct ib_results *in, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = fn(f, in);
	fclose(f);
	return buf;
}

/* Fixture name loaded into *fx, fio's terse line of it into *want (both
 * the caller's to free); returns iobench's terse line of the same input. */
static inline char *fixture_terse(struct fixture *fx, const char *name, char **want)
{
	char *got;
	int ret;

	assert_int_equal(fixture_load(fx, name), 0);
	*want = fixture_read(name, "terse");
	assert_non_null(*want);
	got = fixture_capture(ib_report_terse, &fx->in, &ret);
	assert_int_equal(ret, 0);
	return got;
}

/*
 * As test_report's check_terse, field by field, a float field allowed to differ by 1e-6:
 * the unified "mixed" stddevs are derived from fio's six-decimal stddevs
 * (the fixture's input precision), so their last digit may round apart.
 * Every other field (and every integer) must be equal.
 */
static inline void fixture_check_terse_derived(const char *name, unsigned int fields)
{
	struct fixture fx;
	char *want, *got = fixture_terse(&fx, name, &want), *ws, *gs, *w, *g;
	unsigned int n = 0;

	for (w = strtok_r(want, ";", &ws), g = strtok_r(got, ";", &gs); w && g;
	     w = strtok_r(NULL, ";", &ws), g = strtok_r(NULL, ";", &gs), n++) {
		if (!strcmp(w, g))
			continue;
		fprintf(stderr, "field %u: fio %s, iobench %s\n", n + 1, w, g);
		assert_non_null(strchr(w, '.'));
		assert_true(fabs(strtod(w, NULL) - strtod(g, NULL)) <= 1.01e-6);
	}
	assert_null(w);
	assert_null(g);
	assert_int_equal(n, fields);
	free(want);
	free(got);
	fixture_free(&fx);
}

#endif
