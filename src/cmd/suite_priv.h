/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SUITE_PRIV_H
#define IOBENCH_SUITE_PRIV_H

/*
 * `iobench suite`'s driver, private to src/cmd/: suite_main.c (the
 * command, plain suites, the outputs), suite_pts.c (PTS suites' purge,
 * preconditioning and rounds).
 */
#include <stdio.h>
#include "iobench/cmd.h"
#include "iobench/plan.h"
#include "iobench/results.h"
#include "iobench/runner.h"
#include "iobench/suite_out.h"

/* One suite run: its tests, the report being built, the last run's results. */
struct suite_run {
	struct ib_suite_args *a;
	struct ib_suite_item it[IB_SUITE_MAX_TESTS];
	unsigned int n;
	struct ib_suite_report rep;
	FILE *msg;		/* job messages, warnings */
	struct ib_plan plan;	/* the tests (a PTS round) */
	struct ib_result res;	/* the last run ... */
	const struct ib_plan *res_plan;	/* ... of this plan */
	struct ib_results rs;	/* res as a document */
	bool have_res;
	struct ib_plan pre;	/* PTS: the preconditioning */
	bool is_blk;		/* PTS: the target was a block device ... */
	unsigned long long rdev;	/* ... this one, before the checks */
};

/*
 * The job text of the run (precond: the preconditioning section; tests:
 * the tests) parsed into plan as a job file named "suite NAME". 0 or
 * -errno (d says why).
 */
int suite_plan(struct suite_run *sr, struct ib_plan *plan, bool precond,
	       bool tests, struct ib_diag *d);
/*
 * Run plan once into sr->res / sr->rs (the previous run's freed). Before
 * the jobs start (after the safety checks) pre(sr, arg) runs when given.
 * 0, 1 (a job failed or bad input, d or stderr says which), 130.
 */
int suite_run_plan(struct suite_run *sr, const struct ib_plan *plan,
		   int (*pre)(struct suite_run *sr, struct ib_diag *d),
		   struct ib_diag *d);
/* A PTS suite: purge, precondition, rounds; sr->rep filled. As above. */
int suite_pts(struct suite_run *sr, struct ib_diag *d);

#endif
