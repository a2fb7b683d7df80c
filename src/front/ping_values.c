// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping` values: ioping 1.3's number grammar with its suffix
 * tables, and the checks ioping makes after parsing (ping.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>
#include "iobench/ping.h"

struct suffix {
	const char *txt;
	double mul;
};

/* Matching is case-insensitive; the first entry that matches wins. */
static const struct suffix count_sfx[] = {
	{ "T", 1e12 }, { "G", 1e9 }, { "M", 1e6 }, { "k", 1e3 }, { "", 1 },
	{ "da", 10 }, { "P", 1e15 }, { "E", 1e18 }, { NULL, 0 },
};

static const struct suffix size_sfx[] = {
	{ "PiB", 0x1p50 }, { "TiB", 0x1p40 }, { "GiB", 0x1p30 }, { "MiB", 0x1p20 },
	{ "KiB", 0x1p10 }, { "B", 1 }, { "", 1 }, { "k", 0x1p10 }, { "kb", 0x1p10 },
	{ "m", 0x1p20 }, { "mb", 0x1p20 }, { "g", 0x1p30 }, { "gb", 0x1p30 },
	{ "t", 0x1p40 }, { "tb", 0x1p40 }, { "pb", 0x1p50 }, { "eb", 0x1p60 },
	{ "sector", 512 }, { "page", 4096 }, { NULL, 0 },
};

static const struct suffix time_sfx[] = {
	{ "hour", 3600e9 }, { "min", 60e9 }, { "s", 1e9 }, { "ms", 1e6 },
	{ "us", 1e3 }, { "ns", 1 }, { "nsec", 1 }, { "usec", 1e3 }, { "msec", 1e6 },
	{ "", 1e9 }, { "sec", 1e9 }, { "m", 60e9 }, { "h", 3600e9 }, { NULL, 0 },
};

static const struct suffix *table(char kind, double *max)
{
	switch (kind) {
	case 'n': *max = INT_MAX; return count_sfx;
	case 'r': *max = 1e9; return count_sfx;
	case 's': *max = (double)LONG_MAX; return size_sfx;
	case 'o': *max = (double)LLONG_MAX; return size_sfx;
	case 't': *max = (double)LLONG_MAX; return time_sfx;
	default: return NULL;
	}
}

/*
 * ioping compares against (double)LLONG_MAX = 2^63, which it accepts and
 * then overflows on; we stop at the first value that does not fit (and
 * treat NaN, which ioping converts to garbage, as an overflow too).
 */
static bool fits(double v, double max)
{
	if (isnan(v) || v < 0)
		return false;
	return max >= 0x1p63 ? v < 0x1p63 : v <= max;
}

int ib_ping_parse_num(const char *s, char kind, double *out, struct ib_diag *d)
{
	double max = 0, val, den;
	const struct suffix *t = table(kind, &max);
	char *end;

	if (!t)
		return ib_diag_set(d, EINVAL, "unknown value kind '%c'", kind);
	val = strtod(s, &end);
	if (*end == '/') {
		if (end == s)
			val = 1;
		den = strtod(end + 1, &end);
		if (den == 0)
			return ib_diag_set(d, EINVAL,
					   "division by zero in parsing argument: %s", s);
		val /= den;
	}
	for (; t->txt; t++) {
		if (strcasecmp(end, t->txt))
			continue;
		val *= t->mul;
		if (!fits(val, max))
			return ib_diag_set(d, EINVAL,
					   "integer overflow at parsing argument: %s", s);
		*out = val;
		return 0;
	}
	return ib_diag_set(d, EINVAL, "invalid suffix: \"%s\"", end);
}

/* interval needed for one request (or one burst) under a limit */
static void raise_interval(struct ib_ping_opts *o, double per_request_ns)
{
	double i = per_request_ns;

	if (o->burst)
		i *= (double)o->burst;
	if (i > (double)INT64_MAX)
		i = (double)INT64_MAX;
	if ((int64_t)i > o->interval_ns)
		o->interval_ns = (int64_t)i;
}

int ib_ping_resolve(struct ib_ping_opts *o, bool *warn_big, struct ib_diag *d)
{
	if (!o->size)
		o->size = o->default_size;
	if (o->size <= 0)
		return ib_diag_set(d, EINVAL, "request size must be greater than zero");
	/* ioping's integer arithmetic: size * 1e9 / speed, 1e9 / rate */
	if (o->speed_limit)
		raise_interval(o, (double)(((__int128)o->size * IB_PING_NSEC) /
					   o->speed_limit));
	if (o->rate_limit != 0)
		raise_interval(o, (double)(long long)(IB_PING_NSEC / o->rate_limit));
	*warn_big = o->size > IB_PING_MAX_RW;
	if (o->work_size)
		o->temp_work_size = o->work_size;
	else if (o->size > o->temp_work_size)
		o->temp_work_size = o->size;
	return 0;
}

int ib_ping_check_target(const struct ib_ping_opts *o, enum ib_ping_kind kind,
			 int64_t size, int64_t *work_size, struct ib_diag *d)
{
	int64_t ws = o->work_size;

	if (kind != IB_PING_DIR && o->write && o->write < 3)
		return ib_diag_set(d, EINVAL, "think twice, then use -WWW to shred this target");
	if (kind == IB_PING_DIR || kind == IB_PING_CHAR)
		size = o->offset + o->temp_work_size;
	if (ws > size || o->offset > size - ws)
		return ib_diag_set(d, EINVAL, "target is too small for this");
	if (!ws)
		ws = size - o->offset;
	if (o->size > ws)
		return ib_diag_set(d, EINVAL, "request size is too big for this target");
	*work_size = ws;
	return 0;
}
