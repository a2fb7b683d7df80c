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
 * the job writes it again only for a newer request.
 *
 * A job asleep until its next I/O is due (a rate, thinktime: nothing in
 * flight) would answer only when it wakes. It keeps `idle` odd while it
 * waits instead, and the parent reads its numbers in place: whole when
 * `idle` held the same odd value before and after the read. A job that
 * answers neither way in time (blocked on a stalled target, outside its
 * loop) is read in place too: it is not changing its numbers either.
 *
 * One slot per job in shared memory made before the jobs start; its pages
 * are touched only when a report asks.
 */
struct ib_status_slot {
	uint32_t asked;		/* parent: the latest request */
	uint32_t answered;	/* job: the request st answers */
	uint32_t idle;		/* job: odd while waiting for a due time */
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

/* Job side: around a wait with nothing in flight (its numbers unchanged). */
static inline void ib_status_idle(struct ib_status_slot *s)
{
	__atomic_store_n(&s->idle, s->idle + 1, __ATOMIC_RELEASE);
}

/* Parent side: ask for copy number no; has the job made it? */
void ib_status_ask(struct ib_status_slot *s, uint32_t no);
bool ib_status_answered(const struct ib_status_slot *s, uint32_t no);
/* Is the job waiting now (its numbers can be read in place)? */
bool ib_status_is_idle(const struct ib_status_slot *s);
/*
 * Copy the job's numbers *live into *out, or a job answering request no
 * its copy (*t_ns: when they were taken; else left alone). True when
 * the numbers are one moment's: the job's copy, or read in place while
 * the job waited (idle odd and unchanged across the read).
 */
bool ib_status_read(const struct ib_status_slot *s, uint32_t no,
		    const struct ib_job_stats *live, struct ib_job_stats *out,
		    uint64_t *t_ns);

#endif
