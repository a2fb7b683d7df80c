// SPDX-License-Identifier: GPL-2.0-only
/*
 * A SNIA PTS suite (suite.h, pts_ss.h): purge the region (after the
 * preconditioning job passed the safety checks), precondition it (128 KiB
 * sequential writes, twice over), then run the test matrix in rounds
 * until the tracking variable is steady, at most IB_PTS_MAX_ROUNDS; the
 * summary is each test's average over the measurement window.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "iobench/chart.h"
#include "iobench/purge.h"
#include "suite_priv.h"

static int purge_step(struct suite_run *sr, struct ib_diag *d)
{
	int rc;

	if (!sr->is_blk) {
		snprintf(sr->rep.purge, sizeof(sr->rep.purge),
			 "not purged: %s is not a block device", sr->a->target);
		return 0;
	}
	rc = ib_purge(sr->a->target, (dev_t)sr->rdev, sr->a->o.capacity,
		      sr->rep.purge, sizeof(sr->rep.purge), d);
	return rc < 0 ? rc : 0;
}

static int precondition(struct suite_run *sr, struct ib_diag *d)
{
	struct stat st;
	int rc;

	if (stat(sr->a->target, &st) == 0 && S_ISBLK(st.st_mode)) {
		sr->is_blk = true;
		sr->rdev = st.st_rdev;
	}
	rc = suite_run_plan(sr, &sr->pre, purge_step, d);
	if (rc || !sr->have_res)
		return rc ? rc : 1;
	snprintf(sr->rep.precond, sizeof(sr->rep.precond),
		 "128k sequential writes over the region, twice: %llu bytes",
		 (unsigned long long)sr->res.stats[0].dir[1].io_bytes);
	fprintf(sr->msg, "suite %s: %s; preconditioned: %s\n", sr->a->suite->name,
		sr->rep.purge, sr->rep.precond);
	fflush(sr->msg);	/* before the next fork */
	return 0;
}

static int track_index(const struct suite_run *sr, struct ib_diag *d)
{
	unsigned int i;

	for (i = 0; i < sr->n; i++)
		if (!strcmp(sr->it[i].name, sr->a->suite->track))
			return (int)i;
	return ib_diag_set(d, EINVAL, "suite %s: its tracking test %s is not in the run",
			   sr->a->suite->name, sr->a->suite->track);
}

/* One round: its rows into rr, the tracking value; 0, or the run's status. */
static int round_once(struct suite_run *sr, struct ib_suite_row *rr,
		      unsigned int t, struct ib_diag *d)
{
	const struct ib_suite *s = sr->a->suite;
	unsigned int r = sr->rep.rounds;
	char buf[32];
	int rc = suite_run_plan(sr, &sr->plan, NULL, d);

	if (!sr->have_res)
		return rc ? rc : 1;
	if (ib_suite_rows(&sr->rs, sr->it, sr->n, rr) < 0)
		return ib_diag_set(d, ENOMEM, "suite: out of memory") < 0;
	sr->rep.track[r] = ib_suite_metric_of(&rr[t], s->track_metric);
	sr->rep.rounds = r + 1;
	fprintf(sr->msg, "suite %s: round %u: %s %s %s\n", s->name, r + 1, s->track,
		ib_suite_metric_name(s->track_metric),
		s->track_metric == IB_SM_LAT ?
			ib_chart_fmt_ns(buf, sizeof(buf), sr->rep.track[r]) :
			ib_chart_fmt_num(buf, sizeof(buf), (double)(uint64_t)sr->rep.track[r]));
	fflush(sr->msg);
	return rc;
}

static int rounds(struct suite_run *sr, struct ib_suite_row *rr, unsigned int t,
		  struct ib_diag *d)
{
	int rc = 0;

	while (sr->rep.rounds < sr->a->max_rounds) {
		rc = round_once(sr, rr + sr->rep.rounds * sr->n, t, d);
		if (rc || !sr->have_res)
			break;
		if (ib_pts_ss_judge(sr->rep.track, sr->rep.rounds, &sr->rep.ss))
			break;
	}
	return rc;
}

int suite_pts(struct suite_run *sr, struct ib_diag *d)
{
	struct ib_suite_row *rr;
	unsigned int k, first;
	int t, rc;

	t = track_index(sr, d);
	if (t < 0 || suite_plan(sr, &sr->pre, true, false, d) < 0 ||
	    suite_plan(sr, &sr->plan, false, true, d) < 0)
		return 1;
	rc = precondition(sr, d);
	if (rc)
		return rc;
	rr = calloc((size_t)IB_PTS_MAX_ROUNDS * sr->n, sizeof(*rr));
	if (!rr)
		return ib_diag_set(d, ENOMEM, "suite: out of memory") < 0;
	rc = rounds(sr, rr, (unsigned int)t, d);
	k = sr->rep.rounds < IB_PTS_WINDOW ? sr->rep.rounds : IB_PTS_WINDOW;
	first = sr->rep.rounds - k;
	sr->rep.nr = k ? sr->n : 0;
	ib_suite_average(&sr->rep, rr, first, k);
	free(rr);
	return rc;
}
