// SPDX-License-Identifier: GPL-2.0-only
/*
 * Setters of the rate options: fio's per-direction lists (rate=, rate_iops=,
 * rate_min=, rate_iops_min=, max_latency=) and thinktime_blocks, whose being given
 * changes thinktime_iotime's meaning (pace.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/parse.h"
#include "iobench/steadystate.h"
#include "options_priv.h"

static int parse_one(const struct ib_opt *o, const struct ib_job *j,
		     const char *s, uint64_t *out, struct ib_diag *d)
{
	int rc;

	if (!strcmp(o->name, "rate") || !strcmp(o->name, "rate_min"))
		rc = ib_parse_size(s, j->kb_base, out, d);
	else if (!strcmp(o->name, "max_latency"))
		rc = ib_parse_time_us(s, 1, out, d);
	else
		rc = ib_parse_uint(s, out, d);
	if (rc)
		ib_diag_prefix(d, "%s", o->name);
	return rc;
}

/*
 * "R", "R,W" or "R,W,T", fio's way: one value paces every direction, an
 * empty one leaves its direction unpaced, and the directions after the
 * last value given take that value.
 */
int ib_opt_set_rate_list(struct ib_job *j, const struct ib_opt *o,
			 const char *v, struct ib_diag *d)
{
	uint64_t val[IB_DDIR_RWT] = { 0 }, *field = ib_opt_field(j, o->off);
	char buf[128], *parts[IB_DDIR_RWT];
	unsigned int n, i;
	int rc;

	if (!*v)
		return ib_diag_set(d, EINVAL, "%s: invalid value ''", o->name);
	rc = ib_opt_split_ddir(o, v, buf, sizeof(buf), parts, d);
	if (rc < 0)
		return rc;
	n = (unsigned int)rc;
	for (i = 0; i < n; i++) {
		if (*parts[i] && (rc = parse_one(o, j, parts[i], &val[i], d)))
			return rc;
	}
	for (i = n; i < IB_DDIR_RWT; i++)
		val[i] = val[n - 1];
	memcpy(field, val, sizeof(val));
	return 0;
}

int ib_opt_set_think_blocks(struct ib_job *j, const struct ib_opt *o,
			    const char *v, struct ib_diag *d)
{
	uint64_t x;
	int rc = ib_parse_uint(v, &x, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	if (!x)
		return ib_diag_set(d, EINVAL, "%s: must be at least 1", o->name);
	j->rate.thinktime_blocks = x;
	j->rate.thinktime_blocks_set = true;
	return 0;
}

/* latency_percentile: a percentage in (0, 100]. */
int ib_opt_set_lat_pct(struct ib_job *j, const struct ib_opt *o,
		       const char *v, struct ib_diag *d)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || *end || !(x > 0.0 && x <= 100.0))
		return ib_diag_set(d, EINVAL, "%s: '%s' is not a percentage in (0, 100]",
				   o->name, v);
	j->rate.latency_percentile = x;
	return 0;
}

/* steadystate (ss): fio's "criterion:limit" (steadystate.h). */
int ib_opt_set_ss(struct ib_job *j, const struct ib_opt *o,
		  const char *v, struct ib_diag *d)
{
	(void)o;
	return ib_ss_parse(v, j->kb_base ? j->kb_base : 1024, &j->ss_mode,
			   &j->ss_limit, d);
}
