// SPDX-License-Identifier: GPL-2.0-only
/* The latency_target depth search; the algorithm is described in latsearch.h. */
#include <errno.h>
#include <string.h>
#include "latsearch.h"

void ib_latsearch_init(struct ib_latsearch *s, const struct ib_latsearch_cfg *c)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *c;
	if (!s->cfg.iodepth)
		s->cfg.iodepth = 1;
	if (!(s->cfg.percentile > 0.0) || s->cfg.percentile > 100.0)
		s->cfg.percentile = 100.0;
	s->depth = 1;
	s->low = 1;
	s->high = s->cfg.iodepth;
}

static enum ib_latsearch_step pass(struct ib_latsearch *s)
{
	unsigned int old = s->depth;

	s->low = s->depth;
	if (s->depth + 1 == s->high && ++s->stable >= 3) {
		s->high++;
		s->stable = 0;
	}
	if (s->failed)
		s->depth = (s->depth + s->high) / 2;
	else
		s->depth *= 2;
	if (s->depth > s->cfg.iodepth)
		s->depth = s->cfg.iodepth;
	if (s->cfg.run || s->depth != old)
		return IB_LS_NEXT;
	if (s->final) {
		s->done = true;
		return IB_LS_DONE;
	}
	s->final = true;
	return IB_LS_FINAL;
}

static enum ib_latsearch_step fail(struct ib_latsearch *s)
{
	if (s->depth == 1)
		return s->cfg.percentile >= 100.0 ? IB_LS_FATAL : IB_LS_NEXT;
	s->high = s->depth;
	s->failed = true;
	s->final = false;
	if (s->depth == s->low)
		s->low--;
	s->depth = (s->depth + s->low) / 2;
	s->stable = 0;
	return IB_LS_DOWN;
}

enum ib_latsearch_step ib_latsearch_window(struct ib_latsearch *s, uint64_t ios,
					   uint64_t over)
{
	double ok;

	if (s->done)
		return IB_LS_DONE;
	s->windows++;
	if (!ios || over > ios)
		return fail(s);
	ok = (double)(ios - over) / (double)ios * 100.0;
	return ok >= s->cfg.percentile ? pass(s) : fail(s);
}

enum ib_latsearch_step ib_latsearch_window_lat(struct ib_latsearch *s,
					       uint64_t pct_lat_ns,
					       uint64_t target_ns)
{
	if (s->done)
		return IB_LS_DONE;
	s->windows++;
	return pct_lat_ns <= target_ns ? pass(s) : fail(s);
}

enum ib_latsearch_step ib_latsearch_over(struct ib_latsearch *s)
{
	if (s->done)
		return IB_LS_DONE;
	if (s->cfg.percentile < 100.0)
		return IB_LS_NEXT;	/* the window's count decides */
	s->windows++;
	return fail(s);
}

int ib_lat_max_check(uint64_t lat_ns, uint64_t max_ns, const char *file,
		     const char *ddir, uint64_t offset, uint64_t len,
		     struct ib_diag *d)
{
	if (!max_ns || lat_ns <= max_ns)
		return 0;
	return ib_diag_set(d, -ETIMEDOUT,
			   "latency of %llu nsec exceeds specified max (%llu nsec): %s %s %llu %llu",
			   (unsigned long long)lat_ns, (unsigned long long)max_ns,
			   file, ddir, (unsigned long long)offset,
			   (unsigned long long)len);
}
