// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the job loop does on its clock besides I/O, off the hot path: the
 * sleep until a due time, and, at least once a millisecond, its counters
 * published to the live status and a status report's copy (status.h).
 * See loop.h.
 */
#include <time.h>
#include "loop_priv.h"

/* live counters and a status report's copy: at least this often */
#define PUBLISH_NS 1000000ull

/*
 * Nothing in flight and the source said "not yet": sleep until its due
 * time, but no later than the owner's next time or the next sample, and
 * not past a stop: the stop signal ends the sleep early (one that lands
 * between the check and the sleep is seen when the sleep ends). The last
 * spin_ns of the wait are spent polling the clock, so the I/O starts on
 * time instead of a wake-up's latency late. Meanwhile the status slot
 * says the loop waits: a status report reads its numbers in place.
 */
void loop_wait_due(struct ib_loop *l)
{
	uint64_t now = ib_clock_ns(l->c.clock), until = l->due_ns;
	struct timespec ts;

	if (l->wake_ns < until)
		until = l->wake_ns;
	if (l->smp && l->smp->next_ns < until)
		until = l->smp->next_ns;
	if (l->c.status)
		ib_status_idle(l->c.status);
	while (now + l->c.spin_ns < until && !*l->c.stop) {
		ts.tv_sec = (time_t)((until - l->c.spin_ns - now) / 1000000000u);
		ts.tv_nsec = (long)((until - l->c.spin_ns - now) % 1000000000u);
		nanosleep(&ts, NULL);
		now = ib_clock_ns(l->c.clock);
	}
	while (now < until && !*l->c.stop) /* the last spin_ns: no wake-up delay */
		now = ib_clock_ns(l->c.clock);
	if (l->c.status)
		ib_status_idle(l->c.status);
	l->last_ns = now;
}

void ib_loop_publish(struct ib_loop *l)
{
	struct ib_live *live = &l->c.st->live;
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		__atomic_store_n(&live->io_bytes[d], l->cum_bytes[d], __ATOMIC_RELAXED);
		__atomic_store_n(&live->ios[d], l->cum_ios[d], __ATOMIC_RELAXED);
	}
}

/*
 * Called with everything reaped accounted (no I/O half counted), once
 * PUBLISH_NS of the loop's clock passed since the last time: the live
 * counters for the parent's line, and a status report's copy when the
 * parent asked for one.
 */
void loop_publish_due(struct ib_loop *l, uint64_t now)
{
	l->publish_ns = now + PUBLISH_NS;
	ib_loop_publish(l);
	if (l->c.status)
		ib_status_look(l->c.status, l->c.st);
}
