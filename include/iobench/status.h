/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_STATUS_H
#define IOBENCH_STATUS_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/compiler.h"
#include "iobench/stats.h"

/*
 * A status report's copy of a running job's statistics (--status-interval,
 * SIGUSR1; doc/live-statistics.md), whole and consistent: the parent does
 * not read the slot the job is writing, it asks the job for a copy.
 *
 * The parent stores a new request number in `asked`; the job, at its next
 * look (at least once a millisecond, after accounting a batch: no I/O is
 * half counted), sees it differ from `answered`, copies its statistics
 * into `st`, then stores the number it answered in `answered` (release).
 * Once the parent reads its own number there (acquire), `st` is stable:
 * the job writes it again only for a newer request. A job that does not
 * answer in time (asleep until a slow rate's next I/O, blocked on a
 * stalled target, outside its loop) is read in place: such a job is not
 * changing its numbers.
 *
 * One slot per job in shared memory made before the jobs start; its pages
 * are touched only when a report asks.
 */
struct ib_status_slot {
	uint32_t asked;		/* parent: the latest request */
	uint32_t answered;	/* job: the request st answers */
	uint64_t t_ns;		/* ib_now_ns() when st was copied */
	struct ib_job_stats st;
} ib_cacheline_aligned;

/* Job side, after accounting: a request not answered yet? Answer it. */
void ib_status_answer(struct ib_status_slot *s, const struct ib_job_stats *st);

static inline void ib_status_look(struct ib_status_slot *s,
				  const struct ib_job_stats *st)
{
	/* answered: only this job writes it */
	if (ib_unlikely(__atomic_load_n(&s->asked, __ATOMIC_RELAXED) != s->answered))
		ib_status_answer(s, st);
}

/* Parent side: ask for copy number no; has the job made it? */
void ib_status_ask(struct ib_status_slot *s, uint32_t no);
bool ib_status_answered(const struct ib_status_slot *s, uint32_t no);

#endif
