/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SOURCE_H
#define IOBENCH_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/job.h"

/*
 * An I/O source: where the job loop (loop.h) gets its next I/O from. The
 * loop asks only when it has a free unit to put the I/O in, and a source
 * answers one of three things:
 *
 *   IB_SRC_READY    *out is the next I/O; out->due_ns is when it should
 *                   start (<= now_ns). A closed-loop source, which issues
 *                   as fast as completions allow, says now_ns.
 *   IB_SRC_NOT_YET  nothing before out->due_ns (> now_ns): the loop reaps
 *                   or sleeps until then (or a completion, or a stop) and
 *                   asks again. Nothing was consumed.
 *   IB_SRC_END      the stream is over; the loop drains what is in flight.
 *
 * now_ns is the loop's latest clock reading (loop clock, ns), possibly a
 * little stale under gtod_reduce. A source never reads the clock for the
 * loop, never blocks, never prints, and is called only from the job's own
 * process. The offset generator (iogen.h) is the first source; a trace
 * replay, a verify read-back or a rate-paced generator fit the same ops.
 *
 * more(src): may another write still come (READY or NOT_YET)? The fsync=N
 * rule asks it so no sync is issued after the job's last write, nor for
 * reads alone: a source that knows it hands out no more writes says false
 * (a verify phase's reads, a verify pass's last backlog reads). It must
 * not change what next() returns.
 */
enum ib_src_ret { IB_SRC_READY = 0, IB_SRC_NOT_YET = 1, IB_SRC_END = 2 };

struct ib_io_desc {
	enum ib_ddir ddir;
	unsigned int file_idx;
	uint64_t offset;	/* absolute */
	uint32_t len;
	uint64_t due_ns;	/* intended start (READY) or retry time (NOT_YET) */
	/* ddir IB_DDIR_SYNC (a trace's sync, see loop.h): fdatasync, not
	 * fsync; len is 0 (offset: what the trace says, for the logs).
	 * Read only for syncs. */
	bool datasync;
};

struct ib_source;

/*
 * A wrapper's say in the direction (see next_pick): gets the direction the
 * source drew and whether the other of read/write may be taken instead;
 * returns the direction to use.
 */
typedef enum ib_ddir (*ib_src_pick_fn)(void *arg, enum ib_ddir drawn,
					bool can_switch);

struct ib_source_ops {
	const char *name;
	int (*next)(struct ib_source *src, uint64_t now_ns,
		    struct ib_io_desc *out);
	bool (*more)(const struct ib_source *src);
	/*
	 * Optional (NULL: the source alone decides directions): next(), with
	 * the direction the source drew passed through pick(arg, ...) first.
	 * The rate-paced source (source_paced.h) serves whichever direction
	 * is due this way, as fio does with rwmix and per-direction rates.
	 */
	int (*next_pick)(struct ib_source *src, uint64_t now_ns,
			 ib_src_pick_fn pick, void *arg, struct ib_io_desc *out);
};

/* Embedded in the source's own state; the ops find it by container_of. */
struct ib_source {
	const struct ib_source_ops *ops;
};

static inline int ib_source_next(struct ib_source *src, uint64_t now_ns,
				 struct ib_io_desc *out)
{
	return src->ops->next(src, now_ns, out);
}

static inline bool ib_source_more(const struct ib_source *src)
{
	return src->ops->more(src);
}

#endif
