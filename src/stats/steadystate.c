// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's steady-state criteria over a window of per-second samples (see
 * steadystate.h for the math and where it comes from).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/parse.h"
#include "iobench/steadystate.h"

/* Indexed by the mode's IB_SS_BW | IB_SS_SLOPE | IB_SS_LAT bits. */
static const char *const mode_names[] = {
	[0] = "iops", [IB_SS_BW] = "bw", [IB_SS_SLOPE] = "iops_slope",
	[IB_SS_BW | IB_SS_SLOPE] = "bw_slope", [IB_SS_LAT] = "lat",
	[IB_SS_LAT | IB_SS_SLOPE] = "lat_slope",
};
#define MODE_SLOTS (sizeof(mode_names) / sizeof(mode_names[0]))

const char *ib_ss_mode_name(uint32_t mode)
{
	return mode_names[mode & (IB_SS_BW | IB_SS_SLOPE | IB_SS_LAT)];
}

int ib_ss_mode_from(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < MODE_SLOTS; i++)
		if (mode_names[i] && strlen(mode_names[i]) == len &&
		    !strncmp(name, mode_names[i], len))
			return (int)i;
	return -1;
}

static int parse_limit(const char *v, uint32_t mode, unsigned int kb_base,
		       double *limit, struct ib_diag *d)
{
	size_t n = strlen(v);
	uint64_t sz;
	char *end;

	if (n && v[n - 1] == '%') {
		/* "2%%": a '%' escaped as in a printf format (fio-plot's job
		 * files); fio reads the number before the first '%' */
		while (n > 1 && v[n - 2] == '%')
			n--;
		*limit = strtod(v, &end);
		if (end == v || end != v + n - 1 || !(*limit >= 0.0))
			return ib_diag_set(d, EINVAL, "'%s' is not a percentage", v);
		return 0;
	}
	if (mode & IB_SS_BW) {
		if (ib_parse_size(v, kb_base, &sz, d) < 0)
			return -EINVAL;
		*limit = (double)sz;
		return 0;
	}
	if (mode & IB_SS_LAT) {	/* fio: a time in us, the number kept as is */
		*limit = strtod(v, &end);	/* a plain number (JSON's "50.000000") */
		if (end != v && !*end && *limit >= 0.0)
			return 0;
		if (ib_parse_time_us(v, 1, &sz, d) < 0)
			return -EINVAL;
		*limit = (double)sz;
		return 0;
	}
	*limit = strtod(v, &end);
	if (end == v || *end || !(*limit >= 0.0))
		return ib_diag_set(d, EINVAL, "'%s' is not an IOPS value", v);
	return 0;
}

int ib_ss_parse(const char *v, unsigned int kb_base, uint32_t *mode,
		double *limit, struct ib_diag *d)
{
	const char *colon = strchr(v, ':');
	int m;

	if (!colon || !colon[1])
		return ib_diag_set(d, EINVAL,
				   "steadystate=%s: a threshold is needed after the criterion (iops:5%%)",
				   v);
	m = ib_ss_mode_from(v, (size_t)(colon - v));
	if (m < 0)
		return ib_diag_set(d, EINVAL,
				   "steadystate=%s: the criterion is iops, iops_slope, bw, bw_slope, lat or lat_slope",
				   v);
	*mode = (uint32_t)m;
	if (parse_limit(colon + 1, *mode, kb_base, limit, d) < 0) {
		ib_diag_prefix(d, "steadystate=%s", v);
		return -EINVAL;
	}
	if (colon[strlen(colon) - 1] == '%')
		*mode |= IB_SS_PCT;
	return 0;
}

void ib_ss_init(struct ib_ss *ss, uint32_t mode, double limit, uint32_t dur,
		uint32_t interval)
{
	memset(ss, 0, sizeof(*ss));
	ss->mode = mode;
	ss->limit = limit;
	ss->dur = dur;
	ss->interval = interval ? interval : 1;
	ss->len = dur / ss->interval;
	if (ss->len > IB_SS_MAX_DUR)
		ss->len = IB_SS_MAX_DUR;
}

static const uint64_t *series(const struct ib_ss *ss)
{
	if (ss->mode & IB_SS_LAT)
		return ss->lat;
	return ss->mode & IB_SS_BW ? ss->bw : ss->iops;
}

/* Sample i of the window in time order (0: the oldest). */
static uint64_t at(const struct ib_ss *ss, uint32_t i)
{
	return series(ss)[(ss->head + i) % ss->len];
}

static bool by_deviation(struct ib_ss *ss)
{
	double mean = 0.0, dev;
	uint32_t i;

	for (i = 0; i < ss->len; i++)
		mean += (double)at(ss, i);
	mean /= ss->len;
	ss->deviation = 0.0;
	for (i = 0; i < ss->len; i++) {
		dev = fabs((double)at(ss, i) - mean);
		if (dev > ss->deviation)
			ss->deviation = dev;
	}
	ss->criterion = ss->mode & IB_SS_PCT ? 100.0 * ss->deviation / mean : ss->deviation;
	return ss->criterion < ss->limit;
}

static bool by_slope(struct ib_ss *ss)
{
	double n = ss->len, sx = 0, sxx = 0, sxy = 0;
	uint64_t sy = 0, y;
	uint32_t i;

	for (i = 0; i < ss->len; i++) {
		y = at(ss, i);
		sx += i;
		sxx += (double)i * i;
		sxy += (double)i * (double)y;
		sy += y;
	}
	ss->slope = ss->len > 1 ? (sxy - sx * (double)sy / n) / (sxx - sx * sx / n) : 0.0;
	ss->criterion = ss->slope;
	if (ss->mode & IB_SS_PCT)
		ss->criterion = 100.0 * ss->slope / (double)(sy / ss->len);
	return fabs(ss->criterion) < ss->limit;
}

bool ib_ss_evaluate(struct ib_ss *ss)
{
	return ss->mode & IB_SS_SLOPE ? by_slope(ss) : by_deviation(ss);
}

bool ib_ss_add(struct ib_ss *ss, uint64_t iops, uint64_t bw, uint64_t lat)
{
	if (!ss->len || ss->attained)
		return ss->attained;
	ss->iops[ss->head] = iops;
	ss->bw[ss->head] = bw;
	ss->lat[ss->head] = lat;
	ss->head = (ss->head + 1) % ss->len;
	if (ss->n < ss->len)
		ss->n++;
	ss->full = ss->n == ss->len;
	if (ss->full && ib_ss_evaluate(ss))
		ss->attained = true;
	return ss->attained;
}

static void rotate(uint64_t *a, uint32_t n, uint32_t k)
{
	uint64_t tmp[IB_SS_MAX_DUR];

	memcpy(tmp, a + k, (n - k) * sizeof(*a));
	memcpy(tmp + (n - k), a, k * sizeof(*a));
	memcpy(a, tmp, n * sizeof(*a));
}

void ib_ss_finish(struct ib_ss *ss)
{
	if (!ss->full || !ss->head)
		return;	/* not full: already oldest first from slot 0 */
	rotate(ss->iops, ss->len, ss->head);
	rotate(ss->bw, ss->len, ss->head);
	rotate(ss->lat, ss->len, ss->head);
	ss->head = 0;
}

static uint64_t mean_of(const struct ib_ss *ss, const uint64_t *a)
{
	uint64_t sum = 0;
	uint32_t i;

	if (!ss->len)
		return 0;
	for (i = 0; i < ss->len; i++)
		sum += a[i];
	return sum / ss->len;
}

uint64_t ib_ss_iops_mean(const struct ib_ss *ss)
{
	return mean_of(ss, ss->iops);
}

uint64_t ib_ss_bw_mean(const struct ib_ss *ss)
{
	return mean_of(ss, ss->bw);
}

uint64_t ib_ss_lat_mean(const struct ib_ss *ss)
{
	return mean_of(ss, ss->lat);
}

void ib_ss_format(const struct ib_ss *ss, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%f%s", ib_ss_mode_name(ss->mode), ss->limit,
		 ss->mode & IB_SS_PCT ? "%" : "");
}
