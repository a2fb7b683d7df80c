// SPDX-License-Identifier: GPL-2.0-only
/*
 * A latency-vs-load curve read back from its JSON document (curve.h:
 * ib_curve_from_json), the inverse of ib_curve_print_json (curve.c), so
 * that `iobench plot` and `iobench report` draw a curve saved earlier.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "iobench/curve.h"
#include "iobench/curve_out.h"
#include "iobench/json_read.h"

static bool get_u64(const struct ib_jv *o, const char *key, uint64_t *v)
{
	return ib_jv_u64(ib_jv_get(o, key), v);
}

static int point(struct ib_curve_point *p, const struct ib_jv *o,
		 const char *what, struct ib_diag *d)
{
	const struct ib_jv *lat = ib_jv_get(o, "colat_ns");
	uint64_t pct = 0;

	memset(p, 0, sizeof(*p));
	if (!get_u64(o, "pct", &pct) || pct > 100 ||
	    !get_u64(o, "target_iops", &p->target) ||
	    !ib_jv_double(ib_jv_get(o, "achieved_iops"), &p->achieved) ||
	    !(p->achieved >= 0) || !get_u64(o, "total_ios", &p->ios) ||
	    !get_u64(o, "late_ios", &p->late) || !get_u64(lat, "p50", &p->p50) ||
	    !get_u64(lat, "p99", &p->p99) || !get_u64(lat, "p99.9", &p->p999))
		return ib_diag_set(d, EINVAL, "curve: %s: a field is missing or bad", what);
	p->pct = (unsigned int)pct;
	return 0;
}

int ib_curve_from_json(struct ib_curve *c, const struct ib_jv *root,
		       struct ib_diag *d)
{
	const struct ib_jv *o = ib_jv_get(root, "curve"), *pts, *e;
	const char *job;
	uint64_t steps = 0, slo = 0;
	char what[32];

	if (!o || o->type != IB_JV_OBJ)
		return 0;
	memset(c, 0, sizeof(*c));
	pts = ib_jv_get(o, "points");
	job = ib_jv_str(ib_jv_get(o, "job"));
	if (!job || !get_u64(o, "steps", &steps) || !steps ||
	    steps > IB_CURVE_MAX_STEPS || !get_u64(o, "slo_p99_ns", &slo) || !slo ||
	    !pts || pts->type != IB_JV_ARR)
		return ib_diag_set(d, EINVAL, "curve: job, steps, slo_p99_ns or points "
				   "missing or bad");
	if (pts->nr > IB_CURVE_MAX_STEPS)
		return ib_diag_set(d, EINVAL, "curve: %u points (at most %d)", pts->nr,
				   IB_CURVE_MAX_STEPS);
	snprintf(c->job, sizeof(c->job), "%s", job);
	c->steps = (unsigned int)steps;
	c->slo_ns = slo;
	if (point(&c->max, ib_jv_get(o, "max"), "max", d) < 0)
		return -EINVAL;
	for (e = pts->child; e; e = e->next) {
		snprintf(what, sizeof(what), "point %u", c->nr);
		if (point(&c->pt[c->nr], e, what, d) < 0)
			return -EINVAL;
		c->nr++;
	}
	return 1;
}
