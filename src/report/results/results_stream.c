// SPDX-License-Identifier: GPL-2.0-only
/*
 * A per-interval stream (--interval-json) read back as a results document
 * (results.h): a slot per job or group_reporting group, its totals summed
 * from its lines, its intervals kept for compare's over-time view. The
 * reader takes one line at a time, so a long run's stream is never held
 * whole.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/json_read.h"
#include "iobench/plan.h"
#include "iobench/results.h"
#include "stream_read.h"

#define MIN_SPAN_MS 100.0	/* shorter lines: no rate worth a sample */

static const char *const dir_key[IB_DDIR_RWT] = { "read", "write", "trim" };

static int bad(struct ib_sread *s, struct ib_diag *d, const char *what)
{
	return ib_diag_set(d, EINVAL, "%s:%u: %s", s->name, s->line, what);
}

static int need_u64(struct ib_sread *s, const struct ib_jv *o, const char *key,
		    uint64_t *out, struct ib_diag *d)
{
	char why[96];

	if (ib_jv_u64(ib_jv_get(o, key), out))
		return 0;
	snprintf(why, sizeof(why), "'%s' missing or not a non-negative integer", key);
	return bad(s, d, why);
}

static struct ib_sent *entry_for(struct ib_sread *s, bool group, unsigned int num)
{
	struct ib_sent *e;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->e[i].group == group && s->e[i].num == num)
			return &s->e[i];
	if (s->n == IB_MAX_JOBS * 2)
		return NULL;
	if (s->n == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 8;

		e = realloc(s->e, cap * sizeof(*e));
		if (!e)
			return NULL;
		s->e = e;
		s->cap = cap;
	}
	e = &s->e[s->n];
	memset(e, 0, sizeof(*e));
	e->st = calloc(1, sizeof(*e->st));
	if (!e->st)
		return NULL;
	e->group = group;
	e->num = num;
	s->n++;
	return e;
}

/* A restart: the lines so far are not in the final report. */
static void entry_reset(struct ib_sent *e)
{
	memset(e->st, 0, sizeof(*e->st));
	memset(e->lat_sum, 0, sizeof(e->lat_sum));
	e->span_ms = 0.0;
	e->ser.nr = 0;
}

/* Welford's update of a rate sample (iops, KiB/s). */
static void sample_add(struct ib_lat_stat *st, double v)
{
	double delta = v - st->mean;
	uint64_t r = (uint64_t)llround(v);

	if (!st->n || r < st->min)
		st->min = r;
	if (r > st->max)
		st->max = r;
	st->n++;
	st->mean += delta / (double)st->n;
	st->m2 += delta * (v - st->mean);
}

static int lat_kind(const char *k)
{
	if (!k)
		return -1;
	if (!strcmp(k, "clat"))
		return IB_LAT_CLAT;
	if (!strcmp(k, "lat"))
		return IB_LAT_TLAT;
	return !strcmp(k, "slat") ? IB_LAT_SLAT : -1;
}

/* The line's "bins" into s->tmp; their count must be the line's n. */
static int bins_in(struct ib_sread *s, const struct ib_jv *bins, uint64_t n,
		   struct ib_diag *d)
{
	const struct ib_jv *b;
	uint64_t sum = 0, c, v;
	char *end;

	memset(&s->tmp, 0, sizeof(s->tmp));
	if (!bins || bins->type != IB_JV_OBJ)
		return bad(s, d, "'bins' missing or not an object");
	for (b = bins->child; b; b = b->next) {
		v = strtoull(b->key, &end, 10);
		if (!*b->key || *end || !ib_jv_u64(b, &c))
			return bad(s, d, "'bins': a key not a latency in ns or a count not an integer");
		s->tmp.count[ib_hist_index(v)] += c;
		sum += c;
	}
	if (sum != n)
		return bad(s, d, "'bins' counts do not sum to 'n'");
	return 0;
}

/* A direction's lat_ns: into the slot's stats, its p99 into *p99. */
static int lat_in(struct ib_sread *s, struct ib_sent *e, unsigned int dd,
		  const struct ib_jv *o, double *p99, struct ib_diag *d)
{
	static const double q = 99.0;
	struct ib_dir_stats *ds = &e->st->dir[dd];
	uint64_t n, mn, mx, v;
	int k = lat_kind(ib_jv_str(ib_jv_get(o, "kind")));
	double mean = 0.0;
	unsigned int i;
	int ret;

	if (k < 0)
		return bad(s, d, "'kind' is not \"clat\", \"lat\" or \"slat\"");
	if ((ret = need_u64(s, o, "n", &n, d)) || (ret = need_u64(s, o, "min", &mn, d)) ||
	    (ret = need_u64(s, o, "max", &mx, d)) || (ret = bins_in(s, ib_jv_get(o, "bins"), n, d)))
		return ret;
	if (!ib_jv_double(ib_jv_get(o, "mean"), &mean))
		return bad(s, d, "'mean' missing or not a number");
	if (!n)
		return 0;
	if (!ds->lat[k].n || mn < ds->lat[k].min)
		ds->lat[k].min = mn;
	if (mx > ds->lat[k].max)
		ds->lat[k].max = mx;
	ds->lat[k].n += n;
	e->lat_sum[dd] += mean * (double)n;
	e->kind[dd] = (unsigned int)k;
	for (i = 0; i < IB_HIST_NR; i++)
		ds->hist[k].count[i] += s->tmp.count[i];
	if (!ib_hist_percentiles(&s->tmp, n, &q, 1, &v))
		*p99 = (double)v;
	return 0;
}

static int dir_in(struct ib_sread *s, struct ib_sent *e, unsigned int dd,
		  const struct ib_jv *o, double span_ms, struct ib_res_iv *iv,
		  struct ib_diag *d)
{
	struct ib_dir_stats *ds = &e->st->dir[dd];
	const struct ib_jv *lat = ib_jv_get(o, "lat_ns");
	uint64_t ios, bytes;
	int ret;

	if (o->type != IB_JV_OBJ)
		return bad(s, d, "a direction not an object");
	if ((ret = need_u64(s, o, "ios", &ios, d)) || (ret = need_u64(s, o, "bytes", &bytes, d)))
		return ret;
	if (lat && lat->type != IB_JV_OBJ)
		return bad(s, d, "'lat_ns' not an object");
	if (lat && (ret = lat_in(s, e, dd, lat, &iv->p99[dd], d)))
		return ret;
	ds->total_ios += ios;
	ds->issued += ios;
	ds->io_bytes += bytes;
	e->dirs |= 1u << dd;
	if (span_ms < MIN_SPAN_MS)
		return 0;
	iv->iops[dd] = (double)ios / (span_ms / 1000.0);
	sample_add(&ds->iops_samples, iv->iops[dd]);
	sample_add(&ds->bw_samples, (double)bytes / 1024.0 / (span_ms / 1000.0));
	return 0;
}

static int series_add(struct ib_res_series *ser, const struct ib_res_iv *iv)
{
	if (ser->nr == ser->cap) {
		unsigned int cap = ser->cap ? ser->cap * 2 : 64;
		struct ib_res_iv *a = realloc(ser->iv, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		ser->iv = a;
		ser->cap = cap;
	}
	ser->iv[ser->nr++] = *iv;
	return 0;
}

/* Who the line is about: its slot (created on first sight). */
static int line_entry(struct ib_sread *s, const struct ib_jv *root,
		      struct ib_sent **out, struct ib_diag *d)
{
	const char *type = ib_jv_str(ib_jv_get(root, "type"));
	const char *name = ib_jv_str(ib_jv_get(root, "jobname"));
	bool group = type && !strcmp(type, "group");
	uint64_t num = 0, gid = 0;
	int ret;

	if (!type || (!group && strcmp(type, "job")))
		return bad(s, d, "'type' is not \"job\" or \"group\"");
	if (!group && !name)
		return bad(s, d, "'jobname' missing or not a string");
	if ((ret = need_u64(s, root, "groupid", &gid, d)) ||
	    (!group && (ret = need_u64(s, root, "job", &num, d))))
		return ret;
	if (gid > UINT32_MAX || num > UINT32_MAX)
		return bad(s, d, "'job' or 'groupid' out of range");
	*out = entry_for(s, group, (unsigned int)(group ? gid : num));
	if (!*out)
		return ib_diag_set(d, ENOMEM, "%s:%u: out of memory (or more than %d jobs)",
				   s->name, s->line, IB_MAX_JOBS);
	(*out)->groupid = (unsigned int)gid;
	if (!group)
		snprintf((*out)->name, sizeof((*out)->name), "%s", name);
	return 0;
}

static int root_in(struct ib_sread *s, const struct ib_jv *root, struct ib_diag *d)
{
	const struct ib_jv *rs = ib_jv_get(root, "restart");
	struct ib_res_iv iv = { 0 };
	struct ib_sent *e;
	double span = 0.0;
	unsigned int dd;
	int ret;

	if (root->type != IB_JV_OBJ)
		return bad(s, d, "not a JSON object");
	if ((ret = line_entry(s, root, &e, d)) || (ret = need_u64(s, root, "time_ms", &iv.time_ms, d)))
		return ret;
	if (!ib_jv_double(ib_jv_get(root, "span_ms"), &span) || !(span >= 0.0 && span < 1e15))
		return bad(s, d, "'span_ms' missing or not a duration");
	if (rs && rs->type == IB_JV_TRUE)
		entry_reset(e);
	for (dd = 0; dd < IB_DDIR_RWT; dd++) {
		const struct ib_jv *o = ib_jv_get(root, dir_key[dd]);

		iv.iops[dd] = iv.p99[dd] = NAN;
		if (o && (ret = dir_in(s, e, dd, o, span, &iv, d)))
			return ret;
	}
	e->span_ms += span;
	if (span >= MIN_SPAN_MS && series_add(&e->ser, &iv))
		return ib_diag_set(d, ENOMEM, "%s:%u: out of memory", s->name, s->line);
	return 0;
}

int ib_sread_line(struct ib_sread *s, const char *text, size_t len, struct ib_diag *d)
{
	struct ib_jdoc doc;
	int ret;

	s->line++;
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if (!len)
		return 0;
	ret = ib_json_parse(&doc, text, len, d);
	if (ret) {
		ib_diag_prefix(d, "%s:%u", s->name, s->line);
		return ret;
	}
	ret = root_in(s, doc.root, d);
	ib_jdoc_free(&doc);
	return ret;
}

void ib_sread_free(struct ib_sread *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		free(s->e[i].st);
		free(s->e[i].ser.iv);
	}
	free(s->e);
	free(s);
}
