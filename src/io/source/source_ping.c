// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping`'s I/O source: ioping's request loop, paced by due times
 * (ping_source.h). It never reads the clock: the loop's now_ns and the
 * owner's completion time are all it sees.
 */
#include <stddef.h>
#include <string.h>
#include "iobench/compiler.h"
#include "iobench/ping_source.h"

static uint64_t next_offset(struct ib_ping_source *s)
{
	uint64_t nr = s->c.work_size / s->c.size, off;

	if (!s->c.linear)
		return s->c.offset + ib_rand_below(&s->rand, nr ? nr : 1) * s->c.size;
	off = s->lin_pos;
	s->lin_pos += s->c.size;
	if (s->lin_pos + s->c.size > s->c.work_size)
		s->lin_pos = 0;
	return s->c.offset + off;
}

static int ping_next(struct ib_source *src, uint64_t now_ns, struct ib_io_desc *out)
{
	struct ib_ping_source *s = ib_container_of(src, struct ib_ping_source, src);
	long long req;

	if (s->ended)
		return IB_SRC_END;
	if (!s->started) {
		s->started = true;
		s->start_ns = s->time_next = now_ns;
	}
	memset(out, 0, sizeof(*out));
	if (s->issued > s->completed || s->time_next > now_ns) {
		/* a request is still out (never at depth 1), or not yet due */
		out->due_ns = s->time_next > now_ns ? s->time_next : now_ns + 1;
		return IB_SRC_NOT_YET;
	}
	req = ++s->issued;
	if (s->c.read_write)
		out->ddir = (req & 1) ? IB_DDIR_WRITE : IB_DDIR_READ;
	else
		out->ddir = s->c.write ? IB_DDIR_WRITE : IB_DDIR_READ;
	out->offset = next_offset(s);
	out->len = s->c.size;
	out->due_ns = s->time_next;
	return IB_SRC_READY;
}

static bool ping_more(const struct ib_source *src)
{
	/* src is the first member */
	const struct ib_ping_source *s = (const struct ib_ping_source *)(const void *)src;

	return !s->ended;
}

static const struct ib_source_ops ping_ops = {
	.name = "ping",
	.next = ping_next,
	.more = ping_more,
};

void ib_ping_source_init(struct ib_ping_source *s, const struct ib_ping_source_cfg *c)
{
	memset(s, 0, sizeof(*s));
	s->src.ops = &ping_ops;
	s->c = *c;
	ib_rand_seed(&s->rand, c->seed);
}

struct ib_source *ib_ping_source(struct ib_ping_source *s)
{
	return &s->src;
}

bool ib_ping_source_complete(struct ib_ping_source *s, uint64_t now_ns)
{
	s->completed = s->issued;
	if (!s->c.burst || ++s->burst_req == s->c.burst) {
		s->burst_req = 0;
		s->time_next += (uint64_t)s->c.interval_ns;
	}
	if (now_ns > s->time_next)
		s->time_next = now_ns;
	if ((s->c.count && s->completed >= s->c.count) ||
	    (s->c.deadline_ns && s->time_next >= s->start_ns + (uint64_t)s->c.deadline_ns))
		s->ended = true;
	return s->ended;
}
