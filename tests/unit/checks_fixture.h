/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TESTS_CHECKS_FIXTURE_H
#define TESTS_CHECKS_FIXTURE_H
/*
 * A results document of nj clean jobs for the validity checks and their
 * pages (test_checks.c, test_page_env.c): one host, jobs "j0".. in their
 * own groups, io_uring with O_DIRECT at depth 1, valid evidence that
 * gives no check a cause (2 CPUs, one job per batch, unknown compression
 * and write cache), every check on. Needs cmocka.h, results.h, evidence.h
 * and checks.h first.
 */
#include <stdio.h>

static inline void checks_fixture(struct ib_results *r, struct ib_evidence *ev,
				  unsigned int nj)
{
	unsigned int i;

	assert_int_equal(ib_results_alloc(r, 1, nj, 0), 0);
	for (i = 0; i < nj; i++) {
		ev[i].valid = true;
		ev[i].compress_ratio = -1.0;
		ev[i].write_cache = -1;
		ev[i].cpus = 2;
		ev[i].batch_jobs = 1;
		snprintf(r->jobs[i].name, sizeof(r->jobs[i].name), "j%u", i);
		r->jobs[i].iodepth = 1;
		r->jobs[i].groupid = i;
		snprintf(r->own_stats[i].ioengine, sizeof(r->own_stats[i].ioengine),
			 "io_uring");
		r->own_stats[i].direct = true;
	}
	r->evidence = ev;
	r->checks_mask = IB_CHECKS_ALL;
}
#endif
