// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency-vs-load curve out (curve_out.h): the human table, one line
 * per step as it is measured, and the JSON document.
 */
#include <stdio.h>
#include <string.h>
#include "iobench/curve_out.h"
#include "iobench/json.h"
#include "iobench/num2str.h"

static const char *lat_str(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	return buf;
}

/* The SLO as typed: "1ms", "500us", "2s". */
static const char *slo_str(uint64_t ns, char *buf, size_t len)
{
	if (ns % 1000000000 == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000));
	else if (ns % 1000000 == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000));
	else if (ns % 1000 == 0)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}

void ib_curve_print_head(FILE *f, const struct ib_curve *c)
{
	char mx[32];

	fprintf(f, "%s: max %s IOPS (unpaced, %.0f IOPS)\n", c->job,
		ib_num2str((uint64_t)(c->max.achieved + 0.5), 4, 1, false, "", mx,
			   sizeof(mx)), c->max.achieved);
	fprintf(f, "%5s %12s %14s %10s %10s %10s %8s  (co-free latency)\n",
		"step", "target IOPS", "achieved IOPS", "p50", "p99", "p99.9",
		"late");
}

void ib_curve_print_step(FILE *f, const struct ib_curve_point *p)
{
	char a[32], b[32], c[32];

	fprintf(f, "%4u%% %12llu %14.1f %10s %10s %10s %8llu\n", p->pct,
		(unsigned long long)p->target, p->achieved,
		lat_str(p->p50, a, sizeof(a)), lat_str(p->p99, b, sizeof(b)),
		lat_str(p->p999, c, sizeof(c)), (unsigned long long)p->late);
}

void ib_curve_print_answer(FILE *f, const struct ib_curve *c)
{
	const struct ib_curve_point *p = ib_curve_answer(c);
	char slo[32], v[32];

	if (p)
		fprintf(f, "max IOPS at p99 < %s: %s\n", slo_str(c->slo_ns, slo, sizeof(slo)),
			ib_num2str((uint64_t)(p->achieved + 0.5), 4, 1, false, "", v,
				   sizeof(v)));
	else
		fprintf(f, "max IOPS at p99 < %s: none (no step met it)\n",
			slo_str(c->slo_ns, slo, sizeof(slo)));
}

static void json_point(struct ib_json *j, const char *key,
		       const struct ib_curve_point *p)
{
	ib_json_obj_open(j, key);
	ib_json_uint(j, "pct", p->pct);
	ib_json_uint(j, "target_iops", p->target);
	ib_json_float(j, "achieved_iops", p->achieved);
	ib_json_uint(j, "total_ios", p->ios);
	ib_json_uint(j, "late_ios", p->late);
	ib_json_obj_open(j, "colat_ns");
	ib_json_uint(j, "p50", p->p50);
	ib_json_uint(j, "p99", p->p99);
	ib_json_uint(j, "p99.9", p->p999);
	ib_json_obj_close(j);
	ib_json_obj_close(j);
}

void ib_curve_print_json(FILE *f, const struct ib_curve *c)
{
	const struct ib_curve_point *p = ib_curve_answer(c);
	struct ib_json j;
	unsigned int i;

	ib_json_begin(&j, f);
	ib_json_obj_open(&j, "curve");
	ib_json_str(&j, "job", c->job);
	ib_json_uint(&j, "steps", c->steps);
	ib_json_uint(&j, "slo_p99_ns", c->slo_ns);
	ib_json_uint(&j, "sustain_pct", IB_CURVE_SUSTAIN_PCT);
	json_point(&j, "max", &c->max);
	ib_json_arr_open(&j, "points");
	for (i = 0; i < c->nr; i++)
		json_point(&j, NULL, &c->pt[i]);
	ib_json_arr_close(&j);
	ib_json_float(&j, "max_iops_at_slo", p ? p->achieved : 0.0);
	ib_json_uint(&j, "max_target_at_slo", p ? p->target : 0);
	ib_json_obj_close(&j);
	ib_json_end(&j);
}
