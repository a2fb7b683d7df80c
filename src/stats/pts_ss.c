// SPDX-License-Identifier: GPL-2.0-only
/*
 * SNIA PTS steady state over rounds (pts_ss.h): a window of the last five
 * rounds, its range and its least-squares rise against its average.
 */
#include <math.h>
#include <string.h>
#include "iobench/pts_ss.h"

/* Least-squares slope of y over x = 0..n-1. */
static double slope_of(const double *y, unsigned int n)
{
	double mx = (n - 1) / 2.0, my = 0, sxy = 0, sxx = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		my += y[i];
	my /= n;
	for (i = 0; i < n; i++) {
		sxy += (i - mx) * (y[i] - my);
		sxx += (i - mx) * (i - mx);
	}
	return sxx > 0 ? sxy / sxx : 0;
}

bool ib_pts_ss_judge(const double *v, unsigned int n, struct ib_pts_ss *o)
{
	const double *w;
	unsigned int i;

	memset(o, 0, sizeof(*o));
	o->rounds = n;
	if (n < IB_PTS_WINDOW)
		return false;
	o->first = n - IB_PTS_WINDOW;
	w = v + o->first;
	o->min = o->max = w[0];
	for (i = 0; i < IB_PTS_WINDOW; i++) {
		o->avg += w[i];
		o->min = w[i] < o->min ? w[i] : o->min;
		o->max = w[i] > o->max ? w[i] : o->max;
	}
	o->avg /= IB_PTS_WINDOW;
	o->slope = slope_of(w, IB_PTS_WINDOW);
	if (!(o->avg > 0))
		return false;
	o->range_pct = 100.0 * (o->max - o->min) / o->avg;
	o->rise_pct = 100.0 * fabs(o->slope) * (IB_PTS_WINDOW - 1) / o->avg;
	/* compare the products, not the quotients: exact at the limits */
	o->met = (o->max - o->min) * 100.0 <= IB_PTS_RANGE_PCT * o->avg &&
		 fabs(o->slope) * (IB_PTS_WINDOW - 1) * 100.0 <=
			 IB_PTS_RISE_PCT * o->avg;
	return o->met;
}

unsigned int ib_pts_ss_scan(const double *v, unsigned int n, struct ib_pts_ss *o)
{
	unsigned int r, last = n < IB_PTS_MAX_ROUNDS ? n : IB_PTS_MAX_ROUNDS;

	memset(o, 0, sizeof(*o));
	for (r = 1; r <= last; r++)
		if (ib_pts_ss_judge(v, r, o))
			return r;
	return last;
}
