// SPDX-License-Identifier: GPL-2.0-only
/*
 * A suite's table (suite.h) as it runs: its tests after the matrix, the
 * sizing by the expectation and the overrides, and the fio job file that
 * describes them, which the driver parses and runs like any job file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/parse.h"
#include "iobench/suite.h"

void ib_suite_opts_defaults(const struct ib_suite *s, struct ib_suite_opts *o)
{
	if (!o->runtime_set)
		o->runtime_us = s->runtime_us;
	if (!o->ramp_set)
		o->ramp_us = s->ramp_us;
	if (!o->pause_set)
		o->pause_us = s->pause_us;
	if (!o->size)
		o->size = s->size;
}

static int expect_item(const char *k, size_t klen, const char *v,
		       struct ib_suite_expect *e, struct ib_diag *d)
{
	char buf[64];
	uint64_t x;
	size_t n = strlen(v);

	if (klen == 4 && !strncmp(k, "iops", 4)) {
		if (ib_parse_size(v, 1000, &x, d) < 0 || !x)
			return ib_diag_set(d, EINVAL, "--expect: iops=%s: a number above 0 (10000, 10k)", v);
		e->iops = (double)x;
	} else if (klen == 2 && !strncmp(k, "bw", 2)) {
		if (n < 3 || strcmp(v + n - 2, "/s") || n - 2 >= sizeof(buf))
			return ib_diag_set(d, EINVAL, "--expect: bw=%s: a size per second (300MB/s, 1GiB/s)", v);
		snprintf(buf, sizeof(buf), "%.*s", (int)(n - 2), v);
		if (ib_parse_size(buf, 1000, &x, d) < 0 || !x)
			return ib_diag_set(d, EINVAL, "--expect: bw=%s: a size per second (300MB/s, 1GiB/s)", v);
		e->bw = (double)x;
	} else if (klen == 3 && !strncmp(k, "lat", 3)) {
		if (ib_parse_time_us(v, 1, &x, d) < 0 || !x)
			return ib_diag_set(d, EINVAL, "--expect: lat=%s: a time above 0 (2ms, 500us)", v);
		e->lat_ns = x * 1000;
	} else {
		return ib_diag_set(d, EINVAL, "--expect: unknown item '%.*s' (iops=N, bw=SIZE/s, lat=TIME)",
				   (int)klen, k);
	}
	return 0;
}

int ib_suite_parse_expect(const char *v, struct ib_suite_expect *e,
			  struct ib_diag *d)
{
	char item[128];
	const char *p = v, *comma, *eq;
	size_t len;

	memset(e, 0, sizeof(*e));
	if (!*v)
		return ib_diag_set(d, EINVAL, "--expect: empty (iops=N,bw=SIZE/s,lat=TIME)");
	while (*p) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (len >= sizeof(item))
			return ib_diag_set(d, EINVAL, "--expect: item too long");
		memcpy(item, p, len);
		item[len] = '\0';
		eq = strchr(item, '=');
		if (!eq || eq == item || !eq[1])
			return ib_diag_set(d, EINVAL, "--expect: '%s' is not KEY=VALUE", item);
		if (expect_item(item, (size_t)(eq - item), eq + 1, e, d) < 0)
			return -EINVAL;
		p += len + (comma ? 1 : 0);
	}
	return 0;
}

unsigned int ib_suite_depth_for(const struct ib_suite_expect *e,
				enum ib_suite_metric judge, uint64_t bs_bytes)
{
	double lat_s = (double)(e->lat_ns ? e->lat_ns : IB_SUITE_LAT_NS) / 1e9;
	double rate = 0, need;
	unsigned int depth = 1;

	if (judge == IB_SM_IOPS)
		rate = e->iops;
	else if (judge == IB_SM_BW && bs_bytes)
		rate = e->bw / (double)bs_bytes;
	if (rate <= 0)
		return 0;
	need = 2.0 * rate * lat_s;	/* Little's law, twice over */
	while (depth < IB_SUITE_MAX_DEPTH && (double)depth < need)
		depth *= 2;
	return depth;
}

static bool is_write(const char *rw, unsigned int mixread)
{
	if (strstr(rw, "write") || !strcmp(rw, "trim"))
		return true;
	return (!strcmp(rw, "randrw") || !strcmp(rw, "rw")) && mixread < 100;
}

/* Test k of s's matrix: mixes outside, block sizes inside. */
static void matrix_test(const struct ib_suite *s, unsigned int k,
			struct ib_suite_item *t)
{
	const char *bs = s->bs_list[k % s->nr_bs];
	unsigned int mix = s->mix_list[k / s->nr_bs];
	bool rnd = !strcmp(s->pattern, "rnd");

	snprintf(t->name, sizeof(t->name), "%s%s-r%uw%u", s->pattern, bs, mix, 100 - mix);
	if (mix == 100)
		snprintf(t->rw, sizeof(t->rw), "%s", rnd ? "randread" : "read");
	else if (mix == 0)
		snprintf(t->rw, sizeof(t->rw), "%s", rnd ? "randwrite" : "write");
	else
		snprintf(t->rw, sizeof(t->rw), "%s", rnd ? "randrw" : "rw");
	t->mixread = mix % 100 ? mix : 0;
	snprintf(t->bs, sizeof(t->bs), "%s", bs);
	t->iodepth = s->iodepth;
	t->numjobs = s->numjobs;
	t->judge = IB_SM_NONE;
	snprintf(t->row, sizeof(t->row), "%s", bs);
	snprintf(t->col, sizeof(t->col), "%u/%u", mix, 100 - mix);
}

static void table_test(const struct ib_suite_test *r, struct ib_suite_item *t)
{
	snprintf(t->name, sizeof(t->name), "%s", r->name);
	snprintf(t->rw, sizeof(t->rw), "%s", r->rw);
	t->mixread = r->mixread;
	snprintf(t->bs, sizeof(t->bs), "%s", r->bs);
	t->iodepth = r->iodepth;
	t->numjobs = r->numjobs;
	t->judge = r->judge;
	snprintf(t->row, sizeof(t->row), "%s", r->row ? r->row : "");
	snprintf(t->col, sizeof(t->col), "%s", r->col ? r->col : "");
}

/*
 * Sizing by the expectation, then --iodepth/--numjobs over every test but
 * the latency tests (QD1 is what they measure).
 */
static void size_item(const struct ib_suite_opts *o, struct ib_suite_item *t)
{
	unsigned int depth = ib_suite_depth_for(&o->expect, t->judge, t->bs_bytes);

	if (t->judge == IB_SM_LAT)
		return;
	if (depth) {
		t->iodepth = depth < 64 ? depth : 64;
		t->numjobs = depth / t->iodepth;
	}
	if (o->iodepth)
		t->iodepth = o->iodepth;
	if (o->numjobs)
		t->numjobs = o->numjobs;
}

/* Is name one of the comma-separated list's? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p++)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* Every name of --only must be a test of the suite. */
static int check_only(const struct ib_suite *s, const char *only, struct ib_diag *d)
{
	struct ib_suite_opts all = { 0 };
	struct ib_suite_item *it = calloc(IB_SUITE_MAX_TESTS, sizeof(*it));
	const char *p = only;
	int n, k, ret = 0;
	size_t len;

	if (!it)
		return ib_diag_set(d, ENOMEM, "out of memory");
	n = ib_suite_items(s, &all, it, IB_SUITE_MAX_TESTS, d);
	for (; n >= 0 && !ret && *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		for (k = 0; k < n; k++)
			if (strlen(it[k].name) == len && !strncmp(it[k].name, p, len))
				break;
		if (k == n)
			ret = ib_diag_set(d, EINVAL, "--only: %.*s: no such test in suite %s (--list)",
					  (int)len, p, s->name);
	}
	free(it);
	return n < 0 ? n : ret;
}

/* Every --set must name a test of the suite. */
static int check_sets(const struct ib_suite_opts *o, const struct ib_suite_item *it,
		      unsigned int n, struct ib_diag *d)
{
	unsigned int i, k;

	for (i = 0; i < o->nr_set; i++) {
		const char *c = strchr(o->set[i], ':');

		for (k = 0; c && k < n; k++)
			if (strlen(it[k].name) == (size_t)(c - o->set[i]) &&
			    !strncmp(it[k].name, o->set[i], (size_t)(c - o->set[i])))
				break;
		if (!c || !strchr(c, '=') || k == n)
			return ib_diag_set(d, EINVAL, "--set=%s: not TEST:KEY=VALUE with a test of this run (--list shows them)",
					   o->set[i]);
	}
	return 0;
}

int ib_suite_items(const struct ib_suite *s, const struct ib_suite_opts *o,
		   struct ib_suite_item *it, unsigned int max, struct ib_diag *d)
{
	unsigned int total = s->tests ? s->nr_tests : s->nr_bs * s->nr_mix;
	unsigned int k, n = 0;
	struct ib_diag tmp;

	if (o->only && check_only(s, o->only, d) < 0)
		return -EINVAL;
	for (k = 0; k < total; k++) {
		struct ib_suite_item t;

		memset(&t, 0, sizeof(t));
		if (s->tests)
			table_test(&s->tests[k], &t);
		else
			matrix_test(s, k, &t);
		t.writes = is_write(t.rw, t.mixread ? t.mixread : (strstr(t.rw, "read") ? 100 : 0));
		if (ib_parse_size(t.bs, 1024, &t.bs_bytes, &tmp) < 0)
			return ib_diag_set(d, EINVAL, "suite %s: bad bs '%s'", s->name, t.bs);
		if ((o->readonly && t.writes) || t.bs_bytes < o->min_bs ||
		    (o->only && !in_list(o->only, t.name)))
			continue;
		if (n == max)
			return ib_diag_set(d, E2BIG, "suite %s: more than %u tests", s->name, max);
		size_item(o, &t);
		it[n++] = t;
	}
	return check_sets(o, it, n, d) < 0 ? -EINVAL : (int)n;
}

/* fio's time syntax, in the largest unit that is exact: "60s", "500ms". */
static void fmt_time(char *buf, size_t len, uint64_t us)
{
	if (us % 1000000 == 0)
		snprintf(buf, len, "%" PRIu64 "s", us / 1000000);
	else if (us % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 "ms", us / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "us", us);
}

static void global_section(FILE *f, const struct ib_suite *s,
			   const struct ib_suite_opts *o)
{
	uint64_t size = s->kind == IB_SUITE_PTS && o->capacity ? o->capacity : o->size;
	unsigned int i;

	fprintf(f, "; iobench suite %s: %s\n", s->name, s->what);
	fprintf(f, "[global]\nfilename=%s\nioengine=libaio\ndirect=1\ngroup_reporting=1\n",
		o->target);
	if (size)
		fprintf(f, "size=%" PRIu64 "\n", size);
	for (i = 0; i < o->nr_extra; i++)
		fprintf(f, "%s\n", o->extra[i]);
}

/* PTS's workload-independent preconditioning: 128 KiB sequential writes
 * over the region, twice. */
static void precond_section(FILE *f)
{
	fprintf(f, "\n; workload-independent preconditioning: the region written twice\n");
	fprintf(f, "[precondition]\nstonewall\nrw=write\nbs=128k\niodepth=32\nnumjobs=1\nloops=2\n");
}

static void test_section(FILE *f, const struct ib_suite_opts *o,
			 const struct ib_suite_item *t, bool first)
{
	size_t nlen = strlen(t->name);
	char tm[32];
	unsigned int i;

	fprintf(f, "\n[%s]\nstonewall\nrw=%s\n", t->name, t->rw);
	if (t->mixread)
		fprintf(f, "rwmixread=%u\n", t->mixread);
	fprintf(f, "bs=%s\niodepth=%u\nnumjobs=%u\n", t->bs, t->iodepth, t->numjobs);
	if (o->runtime_us) {
		fmt_time(tm, sizeof(tm), o->runtime_us);
		fprintf(f, "time_based=1\nruntime=%s\n", tm);
	}
	if (o->io_size)
		fprintf(f, "io_size=%" PRIu64 "\n", o->io_size);
	if (o->ramp_us) {
		fmt_time(tm, sizeof(tm), o->ramp_us);
		fprintf(f, "ramp_time=%s\n", tm);
	}
	if (o->pause_us && !first) {
		fmt_time(tm, sizeof(tm), o->pause_us);
		fprintf(f, "startdelay=%s\n", tm);
	}
	for (i = 0; i < o->nr_set; i++)
		if (!strncmp(o->set[i], t->name, nlen) && o->set[i][nlen] == ':')
			fprintf(f, "%s\n", o->set[i] + nlen + 1);
}

int ib_suite_jobtext(FILE *f, const struct ib_suite *s,
		     const struct ib_suite_opts *o, const struct ib_suite_item *it,
		     unsigned int n, bool precond, bool tests)
{
	unsigned int i;

	global_section(f, s, o);
	if (precond)
		precond_section(f);
	if (tests && s->kind == IB_SUITE_PTS)
		fprintf(f, "\n; one round of the test matrix: iobench repeats it until steady state\n");
	for (i = 0; tests && i < n; i++)
		test_section(f, o, &it[i], i == 0);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
