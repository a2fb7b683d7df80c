// SPDX-License-Identifier: GPL-2.0-only
/*
 * A job's evidence record (checks.h) as the JSON object "iobench evidence"
 * and back, field by field from one table, so a report read back runs the
 * same checks as the live run did.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "iobench/checks.h"
#include "iobench/json.h"
#include "iobench/json_read.h"

enum ftype { F_BOOL, F_UINT, F_INT, F_U64, F_U32, F_DBL, F_STR };

struct field {
	const char *key;
	size_t off;
	enum ftype type;
};

#define F(k, m, t) { k, offsetof(struct ib_evidence, m), t }

static const struct field fields[] = {
	F("batch", batch, F_UINT), F("batch_jobs", batch_jobs, F_UINT),
	F("cpus", cpus, F_UINT), F("governor", governor, F_STR),
	F("sync_engine", sync_engine, F_BOOL), F("time_based", time_based, F_BOOL),
	F("fsyncs", fsyncs, F_BOOL), F("percentiles_given", percentiles_given, F_BOOL),
	F("iodepth_batch", iodepth_batch, F_UINT), F("runtime_us", runtime_us, F_U64),
	F("ramp_time_us", ramp_time_us, F_U64),
	F("ramp_size", ramp_size, F_U64), F("paced", paced, F_BOOL),
	F("verify_only", verify_only, F_BOOL), F("series_ms", series_ms, F_U32),
	F("sched_ok", sched_ok, F_BOOL), F("sched_run_ns", sched_run_ns, F_U64),
	F("sched_wait_ns", sched_wait_ns, F_U64), F("sched_wall_ns", sched_wall_ns, F_U64),
	F("vol_switches", vol_switches, F_U64),
	F("target_kind", target_kind, F_INT), F("disk", disk, F_STR),
	F("fstype", fstype, F_STR), F("zram", zram, F_BOOL), F("loop", loop, F_BOOL),
	F("write_cache", write_cache, F_INT), F("dev_ok", dev_ok, F_BOOL),
	F("dev_read_bytes", dev_read_bytes, F_U64),
	F("dev_write_bytes", dev_write_bytes, F_U64),
	F("resident_ok", resident_ok, F_BOOL), F("resident_pages", resident_pages, F_U64),
	F("range_pages", range_pages, F_U64), F("alloc_ok", alloc_ok, F_BOOL),
	F("alloc_size", alloc_size, F_U64), F("alloc_data", alloc_data, F_U64),
	F("compress_ratio", compress_ratio, F_DBL), F("seed_source", seed_source, F_INT),
	F("seed", seed, F_U64), F("seed_offset", seed_offset, F_U32),
	F("seed_ddir", seed_ddir, F_U32), F("seed_bs", seed_bs, F_U32),
	F("calibrated", calibrated, F_BOOL), F("clock_ns", clock_ns, F_DBL),
	F("tool_ns_per_io", tool_ns_per_io, F_DBL),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static void put(struct ib_json *j, const struct field *f, const char *p)
{
	switch (f->type) {
	case F_BOOL:
		ib_json_uint(j, f->key, *(const bool *)p);
		break;
	case F_UINT:
		ib_json_uint(j, f->key, *(const unsigned int *)p);
		break;
	case F_INT:
		ib_json_int(j, f->key, *(const int *)p);
		break;
	case F_U64:
		ib_json_uint(j, f->key, *(const uint64_t *)p);
		break;
	case F_U32:
		ib_json_uint(j, f->key, *(const uint32_t *)p);
		break;
	case F_DBL:
		ib_json_float(j, f->key, *(const double *)p);
		break;
	case F_STR:
		ib_json_str(j, f->key, p);
		break;
	}
}

void ib_evidence_json(struct ib_json *j, const struct ib_evidence *ev)
{
	unsigned int i;

	ib_json_obj_open(j, "iobench evidence");
	for (i = 0; i < NFIELDS; i++)
		put(j, &fields[i], (const char *)ev + fields[i].off);
	ib_json_arr_open(j, "series");
	for (i = 0; i < ev->series_n && i < IB_EV_SERIES; i++)
		ib_json_uint(j, NULL, ev->series[i]);
	ib_json_arr_close(j);
	ib_json_obj_close(j);
}

static void get(const struct ib_jv *v, const struct field *f, char *p)
{
	uint64_t u = 0;
	double d = 0;

	if (f->type == F_STR) {
		snprintf(p, IB_ENV_STR, "%s", ib_jv_str(v) ? ib_jv_str(v) : "");
		return;
	}
	if (!ib_jv_double(v, &d) || !isfinite(d))
		return;
	if (!ib_jv_u64(v, &u))
		u = d > 0 && d < 1.8e19 ? (uint64_t)d : 0;
	switch (f->type) {
	case F_BOOL:
		*(bool *)p = u != 0;
		break;
	case F_UINT:
		*(unsigned int *)p = (unsigned int)u;
		break;
	case F_INT:
		*(int *)p = (int)d;
		break;
	case F_U64:
		*(uint64_t *)p = u;
		break;
	case F_U32:
		*(uint32_t *)p = (uint32_t)u;
		break;
	default:
		*(double *)p = d;
		break;
	}
}

static void series_from(struct ib_evidence *ev, const struct ib_jv *arr)
{
	const struct ib_jv *e;

	for (e = arr && arr->type == IB_JV_ARR ? arr->child : NULL;
	     e && ev->series_n < IB_EV_SERIES; e = e->next)
		ib_jv_u64(e, &ev->series[ev->series_n++]);
}

bool ib_evidence_from_json(struct ib_evidence *ev, const struct ib_jv *o)
{
	unsigned int i;

	memset(ev, 0, sizeof(*ev));
	if (!o || o->type != IB_JV_OBJ)
		return false;
	ev->write_cache = -1;
	ev->compress_ratio = -1.0;
	for (i = 0; i < NFIELDS; i++) {
		const struct ib_jv *v = ib_jv_get(o, fields[i].key);

		if (v)
			get(v, &fields[i], (char *)ev + fields[i].off);
	}
	series_from(ev, ib_jv_get(o, "series"));
	ev->valid = true;
	return true;
}
