// SPDX-License-Identifier: GPL-2.0-only
/*
 * A status report's copy of a running job's statistics, asked for by the
 * parent and made by the job (status.h).
 */
#include <string.h>
#include "iobench/clock.h"
#include "iobench/status.h"

void ib_status_answer(struct ib_status_slot *s, const struct ib_job_stats *st)
{
	uint32_t no = __atomic_load_n(&s->asked, __ATOMIC_ACQUIRE);

	memcpy(&s->st, st, sizeof(s->st));
	s->t_ns = ib_now_ns();
	__atomic_store_n(&s->answered, no, __ATOMIC_RELEASE);
}

void ib_status_ask(struct ib_status_slot *s, uint32_t no)
{
	__atomic_store_n(&s->asked, no, __ATOMIC_RELEASE);
}

bool ib_status_answered(const struct ib_status_slot *s, uint32_t no)
{
	return __atomic_load_n(&s->answered, __ATOMIC_ACQUIRE) == no;
}

bool ib_status_is_idle(const struct ib_status_slot *s)
{
	return __atomic_load_n(&s->idle, __ATOMIC_ACQUIRE) & 1;
}

bool ib_status_read(const struct ib_status_slot *s, uint32_t no,
		    const struct ib_job_stats *live, struct ib_job_stats *out,
		    uint64_t *t_ns)
{
	uint32_t idle;

	if (ib_status_answered(s, no)) {
		memcpy(out, &s->st, sizeof(*out));
		*t_ns = s->t_ns;
		return true;
	}
	idle = __atomic_load_n(&s->idle, __ATOMIC_ACQUIRE);
	memcpy(out, (const void *)live, sizeof(*out));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return (idle & 1) && __atomic_load_n(&s->idle, __ATOMIC_RELAXED) == idle;
}
