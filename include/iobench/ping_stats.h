/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PING_STATS_H
#define IOBENCH_PING_STATS_H

#include <stdbool.h>
#include <stdint.h>

/* `iobench ping` (ping.h): ioping's running statistics and request marks. */

#define IB_PING_NSEC		1000000000ll

enum ib_ping_mark {
	IB_PING_MARK_NONE,
	IB_PING_MARK_WARMUP,	/* request number <= -a */
	IB_PING_MARK_TOO_FAST,	/* < -t */
	IB_PING_MARK_TOO_SLOW,	/* > -T */
	IB_PING_MARK_FAST,	/* valid, 2 * time < average (after 5 valid) */
	IB_PING_MARK_SLOW,	/* valid, time > 2 * average (after 5 valid) */
	IB_PING_MARK_EAGAIN,	/* -N: the request returned EAGAIN */
};

/* Text ioping prints in parentheses ("too fast"); NULL for NONE. */
const char *ib_ping_mark_name(enum ib_ping_mark m);

/*
 * One period (-p/-P) or the whole run. count includes warmup, too fast and
 * too slow requests; valid, sum, min, max only the rest. After finish():
 * avg, mdev (population), iops = valid / sum, speed = iops * size,
 * load_* over the wall time since start.
 */
struct ib_ping_stats {
	int64_t start, finish, load_time;
	int64_t count, valid, too_fast, too_slow;
	int64_t min, max;
	double sum, sum2, avg, mdev;
	double iops, speed, load_iops, load_speed;
	int64_t size, load_size;
};

struct ib_ping_limits {
	long long warmup;
	int64_t min_time_ns, max_time_ns;
};

void ib_ping_stats_start(struct ib_ping_stats *s, int64_t now_ns);
/* Account one request (request numbers count from 1 over the whole run). */
enum ib_ping_mark ib_ping_stats_add(struct ib_ping_stats *s, const struct ib_ping_limits *l,
				    long long request, int64_t time_ns);
static inline bool ib_ping_mark_valid(enum ib_ping_mark m)
{
	return m == IB_PING_MARK_NONE || m == IB_PING_MARK_FAST || m == IB_PING_MARK_SLOW;
}
void ib_ping_stats_merge(struct ib_ping_stats *s, const struct ib_ping_stats *o);
void ib_ping_stats_finish(struct ib_ping_stats *s, int64_t now_ns, int64_t req_size);

/* Per-request facts handed to the formatter. */
struct ib_ping_req {
	long long request;	/* 1-based */
	int64_t size;		/* bytes transferred */
	bool write;
	int64_t time_ns;
	enum ib_ping_mark mark;
	int64_t realtime_ns;	/* wall clock for -I/-J (CLOCK_REALTIME) */
	bool burst_end;		/* -b: last request of a burst (blank line) */
};

#endif
