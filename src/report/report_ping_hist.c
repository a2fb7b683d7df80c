// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping`: what iobench adds to ioping's output (ping_run.h):
 * --hist, latency percentiles and power-of-two buckets from iobench's
 * histogram (hist.h), and --json-output, iobench's own JSON for a ping.
 */
#include <stdio.h>
#include "iobench/json.h"
#include "iobench/ping_out.h"
#include "report_common.h"

static const double pcts[] = { 50.0, 90.0, 99.0, 99.9, 100.0 };
static const char *const pct_names[] = { "p50", "p90", "p99", "p99.9", "max" };
#define NR_PCTS (sizeof(pcts) / sizeof(pcts[0]))

static unsigned int log2_of(uint64_t v)
{
	return v ? 63u - (unsigned int)__builtin_clzll(v) : 0;
}

static void print_buckets(FILE *f, const struct ib_hist *h)
{
	uint64_t count[64] = { 0 };
	unsigned int i, g;
	char lo[32], hi[32];

	for (i = 0; i < IB_HIST_NR; i++)
		if (h->count[i])
			count[log2_of(ib_hist_value(i))] += h->count[i];
	fputs("latency buckets:\n", f);
	for (g = 0; g < 64; g++) {
		if (!count[g])
			continue;
		fprintf(f, "  %s - %s: %llu\n",
			ib_ping_fmt_time(g ? 1ll << g : 0, lo, sizeof(lo)),
			ib_ping_fmt_time(2ll << g, hi, sizeof(hi)),
			(unsigned long long)count[g]);
	}
}

void ib_ping_print_hist(FILE *f, const struct ib_hist *h, uint64_t n)
{
	uint64_t val[NR_PCTS];
	unsigned int i;
	char b[32];

	fprintf(f, "\nlatency percentiles of %llu valid requests:",
		(unsigned long long)n);
	if (ib_hist_percentiles(h, n, pcts, NR_PCTS, val) < 0) {
		fputs(" none\n", f);
		return;
	}
	for (i = 0; i < NR_PCTS; i++)
		fprintf(f, "%s %s = %s", i ? "," : "", pct_names[i],
			ib_ping_fmt_time((long long)val[i], b, sizeof(b)));
	fputc('\n', f);
	print_buckets(f, h);
}

static const char *kind_name(enum ib_ping_kind k)
{
	static const char *const names[] = { "directory", "file", "block", "character" };

	return names[k];
}

static void json_target(struct ib_json *j, const struct ib_ping_prep *p)
{
	ib_json_obj_open(j, "target");
	ib_json_str(j, "path", p->tgt.path);
	ib_json_str(j, "kind", kind_name(p->kind));
	ib_json_str(j, "fstype", p->tgt.fstype);
	ib_json_str(j, "device", p->tgt.device);
	ib_json_int(j, "device_size", p->tgt.device_size);
	ib_json_obj_close(j);
}

static void json_settings(struct ib_json *j, const struct ib_ping_opts *o,
			  const struct ib_ping_prep *p, const struct ib_ping_outcome *res)
{
	ib_json_obj_open(j, "settings");
	ib_json_str(j, "engine", res->engine);
	ib_json_int(j, "request_size", o->size);
	ib_json_uint(j, "work_offset", p->work_offset);
	ib_json_int(j, "work_size", p->work_size);
	ib_json_int(j, "interval_ns", o->interval_ns);
	ib_json_int(j, "count", o->count);
	ib_json_int(j, "deadline_ns", o->deadline_ns);
	ib_json_int(j, "direct", o->direct);
	ib_json_int(j, "cached", o->cached);
	ib_json_int(j, "linear", o->linear);
	ib_json_str(j, "operation", o->read_write ? "read-write" : o->write ? "write" : "read");
	ib_json_obj_close(j);
}

static void json_stats(struct ib_json *j, const struct ib_ping_stats *s)
{
	ib_json_obj_open(j, "stats");
	ib_json_int(j, "requests", s->count);
	ib_json_int(j, "valid", s->valid);
	ib_json_int(j, "too_fast", s->too_fast);
	ib_json_int(j, "too_slow", s->too_slow);
	ib_json_int(j, "size", s->size);
	ib_json_float(j, "time_ns", s->sum);
	ib_json_int(j, "min_ns", s->min);
	ib_json_float(j, "avg_ns", s->avg);
	ib_json_int(j, "max_ns", s->max);
	ib_json_float(j, "mdev_ns", s->mdev);
	ib_json_float(j, "iops", s->iops);
	ib_json_float(j, "bps", s->speed);
	ib_json_int(j, "load_size", s->load_size);
	ib_json_int(j, "load_time_ns", s->load_time);
	ib_json_float(j, "load_iops", s->load_iops);
	ib_json_float(j, "load_bps", s->load_speed);
	ib_json_obj_close(j);
}

static void json_latency(struct ib_json *j, const struct ib_hist *h, uint64_t n)
{
	uint64_t val[NR_PCTS];
	unsigned int i;
	char key[32];

	ib_json_obj_open(j, "latency_ns");
	ib_json_uint(j, "N", n);
	ib_json_obj_open(j, "percentile");
	if (ib_hist_percentiles(h, n, pcts, NR_PCTS, val) == 0)
		for (i = 0; i < NR_PCTS; i++) {
			snprintf(key, sizeof(key), "%f", pcts[i]);
			ib_json_uint(j, key, val[i]);
		}
	ib_json_obj_close(j);
	ib_report_json_bins(j, h);
	ib_json_obj_close(j);
}

void ib_ping_write_json(FILE *f, const struct ib_ping_opts *o, const struct ib_ping_prep *p,
			const struct ib_ping_outcome *res)
{
	struct ib_json j;

	ib_json_begin(&j, f);
	ib_json_str(&j, "iobench", "ping");
	ib_json_int(&j, "version", 1);
	ib_json_int(&j, "interrupted", res->interrupted);
	json_target(&j, p);
	json_settings(&j, o, p, res);
	json_stats(&j, &res->total);
	json_latency(&j, res->hist, res->hist_n);
	ib_json_end(&j);
}
