// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a JSON report back (results_read.c: the document; results_job_read.c:
 * one job): the value getters both use and what one calls in the other.
 * Private to src/report/results/.
 */
#ifndef IOBENCH_RESULTS_PRIV_H
#define IOBENCH_RESULTS_PRIV_H

#include <math.h>
#include "iobench/json_read.h"
#include "iobench/results.h"

static inline uint64_t get_u64(const struct ib_jv *o, const char *key)
{
	uint64_t v = 0;
	double f;

	if (!ib_jv_u64(ib_jv_get(o, key), &v) && ib_jv_double(ib_jv_get(o, key), &f) &&
	    f > 0 && f < 1.8e19)
		v = (uint64_t)f;
	return v;
}

static inline double get_double(const struct ib_jv *o, const char *key)
{
	double v = 0.0;

	ib_jv_double(ib_jv_get(o, key), &v);
	return isfinite(v) ? v : 0.0;
}

/* results_job_read.c: "key\0value\0...\0" from an object of strings; the length */
unsigned int results_opts_from(char *dst, size_t cap, const struct ib_jv *o);
/* jobs[i] (or client_stats[i]) into r->jobs[i] and r->own_stats[i], or -errno */
int results_job_into(struct ib_results *r, unsigned int i, const struct ib_jv *o,
		     struct ib_diag *d);

#endif
