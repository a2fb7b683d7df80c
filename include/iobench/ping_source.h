/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PING_SOURCE_H
#define IOBENCH_PING_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/rand.h"
#include "iobench/source.h"

/*
 * `iobench ping`'s I/O source (io/source/source_ping.c): ioping's request loop as
 * a job loop source (source.h). One request at a time (the loop runs it at
 * depth 1): READY when its time has come, NOT_YET with due_ns until then,
 * END once the run is over.
 *
 * Pacing is ioping's: the first request starts at once; after each one
 * the owner calls ib_ping_source_complete(), which advances time_next by
 * the interval (per burst of -b requests), pulls it up to now when late,
 * and ends the run after -c requests or once time_next reaches the -w
 * deadline. Offsets: whole requests of the working set, random (taus88
 * seeded from -e) or, with -L, sequential and wrapping. Directions: -W
 * every request writes; -G odd requests write, even ones read.
 */
struct ib_ping_source_cfg {
	uint64_t offset;	/* working set start (absolute) */
	uint64_t work_size;	/* bytes, >= size */
	uint32_t size;		/* request size */
	int64_t interval_ns;
	long long burst;	/* 0: none */
	long long count;	/* 0: until stopped */
	int64_t deadline_ns;	/* -w, relative to the first request; 0: none */
	bool linear, write, read_write;
	uint32_t seed;
};

struct ib_ping_source {
	struct ib_source src;
	struct ib_ping_source_cfg c;
	struct ib_rand rand;
	long long issued;	/* requests handed out (the last one's number) */
	long long completed;
	long long burst_req;
	uint64_t start_ns;	/* the first request's due time */
	uint64_t time_next;	/* when the next request is due */
	uint64_t lin_pos;	/* -L: next offset in the working set */
	bool started, ended;
};

/* Set up; nothing is due before the first next() call (its now_ns). */
void ib_ping_source_init(struct ib_ping_source *s, const struct ib_ping_source_cfg *c);
struct ib_source *ib_ping_source(struct ib_ping_source *s);

/*
 * The request handed out last completed at now_ns: advance the pacing.
 * Returns true when it was the last one (-c reached, -w deadline passed).
 */
bool ib_ping_source_complete(struct ib_ping_source *s, uint64_t now_ns);

/* No request after the current one (SIGINT, a failure). */
static inline void ib_ping_source_end(struct ib_ping_source *s)
{
	s->ended = true;
}

#endif
