// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping` statistics: ioping 1.3's accounting of one period or of a
 * whole run, and the marks it puts on requests (ping.h).
 */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "iobench/ping_stats.h"

const char *ib_ping_mark_name(enum ib_ping_mark m)
{
	switch (m) {
	case IB_PING_MARK_WARMUP: return "warmup";
	case IB_PING_MARK_TOO_FAST: return "too fast";
	case IB_PING_MARK_TOO_SLOW: return "too slow";
	case IB_PING_MARK_FAST: return "fast";
	case IB_PING_MARK_SLOW: return "slow";
	case IB_PING_MARK_EAGAIN: return "EAGAIN";
	default: return NULL;
	}
}

void ib_ping_stats_start(struct ib_ping_stats *s, int64_t now_ns)
{
	memset(s, 0, sizeof(*s));
	s->min = INT64_MAX;
	s->max = INT64_MIN;
	s->start = now_ns;
}

/*
 * fast/slow compare with the average of this period's valid requests,
 * the new one included, truncated to whole ns, once more than 5 are valid.
 */
static enum ib_ping_mark judge(const struct ib_ping_stats *s, int64_t t)
{
	long long avg;

	if (s->valid <= 5)
		return IB_PING_MARK_NONE;
	avg = (long long)(s->sum / (double)s->valid);
	if (t * 2 < avg)
		return IB_PING_MARK_FAST;
	if (t > avg * 2)
		return IB_PING_MARK_SLOW;
	return IB_PING_MARK_NONE;
}

enum ib_ping_mark ib_ping_stats_add(struct ib_ping_stats *s, const struct ib_ping_limits *l,
				    long long request, int64_t t)
{
	s->count++;
	if (request <= l->warmup)
		return IB_PING_MARK_WARMUP;
	if (t < l->min_time_ns) {
		s->too_fast++;
		return IB_PING_MARK_TOO_FAST;
	}
	if (t > l->max_time_ns) {
		s->too_slow++;
		return IB_PING_MARK_TOO_SLOW;
	}
	s->valid++;
	s->sum += (double)t;
	s->sum2 += (double)t * (double)t;
	if (t < s->min)
		s->min = t;
	if (t > s->max)
		s->max = t;
	return judge(s, t);
}

void ib_ping_stats_merge(struct ib_ping_stats *s, const struct ib_ping_stats *o)
{
	s->count += o->count;
	s->too_fast += o->too_fast;
	s->too_slow += o->too_slow;
	if (!o->valid)
		return;
	s->valid += o->valid;
	s->sum += o->sum;
	s->sum2 += o->sum2;
	if (o->min < s->min)
		s->min = o->min;
	if (o->max > s->max)
		s->max = o->max;
}

void ib_ping_stats_finish(struct ib_ping_stats *s, int64_t now_ns, int64_t req_size)
{
	s->finish = now_ns;
	s->load_time = now_ns - s->start;
	if (s->valid) {
		s->avg = s->sum / (double)s->valid;
		s->mdev = sqrt(s->sum2 / (double)s->valid - s->avg * s->avg);
	} else {
		s->min = 0;
		s->max = 0;
	}
	if (s->sum != 0)
		s->iops = (double)IB_PING_NSEC * (double)s->valid / s->sum;
	if (s->load_time)
		s->load_iops = (double)IB_PING_NSEC * (double)s->count / (double)s->load_time;
	s->speed = s->iops * (double)req_size;
	s->load_speed = s->load_iops * (double)req_size;
	s->size = s->valid * req_size;
	s->load_size = s->count * req_size;
}
