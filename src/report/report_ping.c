// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping` output in ioping 1.3's formats (ping.h): request lines,
 * the statistics block, the raw lines of -B/-p/-P, -J's JSON array.
 * Formatting only: every number comes in from the caller.
 */
#include <string.h>
#include <time.h>
#include "iobench/json.h"
#include "iobench/ping_out.h"

struct unit {
	const char *txt;
	long long mul;
};

static const struct unit int_units[] = {
	{ "T", 1000000000000ll }, { "G", 1000000000ll }, { "M", 1000000ll },
	{ "k", 1000ll }, { "", 1 },
};

static const struct unit size_units[] = {
	{ "PiB", 1ll << 50 }, { "TiB", 1ll << 40 }, { "GiB", 1ll << 30 },
	{ "MiB", 1ll << 20 }, { "KiB", 1ll << 10 }, { "B", 1 },
};

static const struct unit time_units[] = {
	{ "hour", 3600 * IB_PING_NSEC }, { "min", 60 * IB_PING_NSEC },
	{ "s", IB_PING_NSEC }, { "ms", 1000000ll }, { "us", 1000ll }, { "ns", 1 },
};

/*
 * The largest unit not above v (the last one for anything smaller); no
 * decimals when v is a whole number of units, one from 10 units up, else two.
 */
static char *fmt_units(long long v, const struct unit *u, char *buf, size_t len)
{
	int prec;

	while (v < u->mul && u->mul > 1)
		u++;
	if (v % u->mul == 0)
		prec = 0;
	else if (v >= u->mul * 10)
		prec = 1;
	else
		prec = 2;
	snprintf(buf, len, "%.*f%s%s", prec, (double)v / (double)u->mul,
		 *u->txt ? " " : "", u->txt);
	return buf;
}

char *ib_ping_fmt_size(long long v, char *buf, size_t len)
{
	return fmt_units(v, size_units, buf, len);
}

char *ib_ping_fmt_time(long long ns, char *buf, size_t len)
{
	return fmt_units(ns, time_units, buf, len);
}

char *ib_ping_fmt_int(long long v, char *buf, size_t len)
{
	return fmt_units(v, int_units, buf, len);
}

/* Wall clock as ioping prints it: seconds with "%f", and local time. */
static void stamps(const struct ib_ping_printer *p, int64_t realtime_ns,
		   char *secs, size_t slen, char *local, size_t llen)
{
	time_t sec = (time_t)(realtime_ns / IB_PING_NSEC);
	long nsec = (long)(realtime_ns % IB_PING_NSEC);
	struct tm tm;

	snprintf(secs, slen, "%f", (double)sec + (double)nsec / IB_PING_NSEC);
	localtime_r(&sec, &tm);
	if (!strftime(local, llen, p->time_fmt, &tm))
		local[0] = '\0';
}

/* " (tmpfs tmpfs 64 MiB)" without the leading space */
static void print_desc(FILE *f, const struct ib_ping_target *t)
{
	char b[32];

	fprintf(f, "(%s %s %s)", t->fstype, t->device,
		ib_ping_fmt_size(t->device_size, b, sizeof(b)));
}

static void json_head(FILE *f, struct ib_ping_printer *p, int64_t realtime_ns)
{
	const struct ib_ping_target *t = p->target;
	char secs[64], local[64];

	stamps(p, realtime_ns, secs, sizeof(secs), local, sizeof(local));
	fprintf(f, "%s{\n  \"timestamp\": %s,\n  \"localtime\": ", p->objects++ ? "," : "",
		secs);
	ib_json_quote(f, local);
	fputs(",\n  \"target\": {\n    \"path\": ", f);
	ib_json_quote(f, t->path);
	fputs(",\n    \"fstype\": ", f);
	ib_json_quote(f, t->fstype);
	fputs(",\n    \"device\": ", f);
	ib_json_quote(f, t->device);
	fprintf(f, ",\n    \"device_size\": %lld\n  },\n", (long long)t->device_size);
}

void ib_ping_print_begin(FILE *f, struct ib_ping_printer *p)
{
	if (p->json)
		fputc('[', f);
}

static void json_request(FILE *f, struct ib_ping_printer *p, const struct ib_ping_req *r)
{
	json_head(f, p, r->realtime_ns);
	fprintf(f, "  \"io\": {\n    \"request\": %lld,\n    \"operation\": \"%s\",\n"
		"    \"size\": %lld,\n    \"time\": %llu,\n    \"ignored\": %s\n  }\n}",
		r->request, r->write ? "write" : "read", (long long)r->size,
		(unsigned long long)r->time_ns, ib_ping_mark_valid(r->mark) ? "false" : "true");
}

void ib_ping_print_request(FILE *f, struct ib_ping_printer *p, const struct ib_ping_req *r)
{
	const char *mark = ib_ping_mark_name(r->mark);
	char b[32], secs[64], local[64];

	if (p->quiet)
		return;
	if (p->json) {
		json_request(f, p, r);
		return;
	}
	if (p->time_info) {
		stamps(p, r->realtime_ns, secs, sizeof(secs), local, sizeof(local));
		fprintf(f, "%s ", local);
	}
	fprintf(f, "%s %s %s ", ib_ping_fmt_size(r->size, b, sizeof(b)),
		r->write ? ">>>" : "<<<", p->target->path);
	print_desc(f, p->target);
	fprintf(f, ": request=%lld time=%s", r->request,
		ib_ping_fmt_time(r->time_ns, b, sizeof(b)));
	if (mark)
		fprintf(f, " (%s)", mark);
	fputs(r->burst_end ? "\n\n" : "\n", f);
}

void ib_ping_print_raw(FILE *f, const struct ib_ping_stats *s)
{
	fprintf(f, "%llu %.0f %.0f %.0f %llu %.0f %llu %.0f %llu %llu\n",
		(unsigned long long)s->valid, s->sum, s->iops, s->speed,
		(unsigned long long)s->min, s->avg, (unsigned long long)s->max, s->mdev,
		(unsigned long long)s->count, (unsigned long long)s->load_time);
}

static void json_stats(FILE *f, struct ib_ping_printer *p, const struct ib_ping_stats *s,
		       int64_t realtime_ns)
{
	json_head(f, p, realtime_ns);
	fprintf(f, "  \"stat\": {\n    \"count\": %llu,\n    \"size\": %llu,\n"
		"    \"time\": %.0f,\n    \"iops\": %f,\n    \"bps\": %.0f,\n"
		"    \"min\": %llu,\n    \"avg\": %.0f,\n    \"max\": %llu,\n"
		"    \"mdev\": %.0f\n  },\n",
		(unsigned long long)s->valid, (unsigned long long)s->size, s->sum, s->iops,
		s->speed, (unsigned long long)s->min, s->avg, (unsigned long long)s->max,
		s->mdev);
	fprintf(f, "  \"load\": {\n    \"count\": %llu,\n    \"size\": %llu,\n"
		"    \"time\": %llu,\n    \"iops\": %f,\n    \"bps\": %.0f\n  }\n}",
		(unsigned long long)s->count, (unsigned long long)s->load_size,
		(unsigned long long)s->load_time, s->load_iops, s->load_speed);
}

void ib_ping_print_period(FILE *f, struct ib_ping_printer *p, const struct ib_ping_stats *s,
			  int64_t realtime_ns)
{
	if (p->json)
		json_stats(f, p, s, realtime_ns);
	else
		ib_ping_print_raw(f, s);
}

/* "3 requests completed in 19.8 us, 12 KiB read, 151.5 k iops, 591.9 MiB/s" */
static void print_valid(FILE *f, const struct ib_ping_printer *p, const struct ib_ping_stats *s)
{
	char n[32], t[32], sz[32], io[32], bw[32];

	fprintf(f, "%s requests completed in %s, %s%s, %s iops, %s/s\n",
		ib_ping_fmt_int(s->valid, n, sizeof(n)),
		ib_ping_fmt_time((long long)s->sum, t, sizeof(t)),
		ib_ping_fmt_size(s->size, sz, sizeof(sz)),
		p->read_write ? "" : p->write ? " written" : " read",
		ib_ping_fmt_int((long long)s->iops, io, sizeof(io)),
		ib_ping_fmt_size((long long)s->speed, bw, sizeof(bw)));
}

/* "[N too fast, ][N too slow, ]generated 4 requests in 30.2 ms, ..." */
static void print_load(FILE *f, const struct ib_ping_stats *s)
{
	char n[32], t[32], sz[32], io[32], bw[32];

	if (s->too_fast)
		fprintf(f, "%s too fast, ", ib_ping_fmt_int(s->too_fast, n, sizeof(n)));
	if (s->too_slow)
		fprintf(f, "%s too slow, ", ib_ping_fmt_int(s->too_slow, n, sizeof(n)));
	fprintf(f, "generated %s requests in %s, %s, %s iops, %s/s\n",
		ib_ping_fmt_int(s->count, n, sizeof(n)),
		ib_ping_fmt_time(s->load_time, t, sizeof(t)),
		ib_ping_fmt_size(s->load_size, sz, sizeof(sz)),
		ib_ping_fmt_int((long long)s->load_iops, io, sizeof(io)),
		ib_ping_fmt_size((long long)s->load_speed, bw, sizeof(bw)));
}

static void print_block(FILE *f, const struct ib_ping_printer *p, const struct ib_ping_stats *s)
{
	char a[32], b[32], c[32], d[32];

	fprintf(f, "\n--- %s ", p->target->path);
	print_desc(f, p->target);
	fputs(" ioping statistics ---\n", f);
	print_valid(f, p, s);
	print_load(f, s);
	fprintf(f, "min/avg/max/mdev = %s / %s / %s / %s\n",
		ib_ping_fmt_time(s->min, a, sizeof(a)),
		ib_ping_fmt_time((long long)s->avg, b, sizeof(b)),
		ib_ping_fmt_time(s->max, c, sizeof(c)),
		ib_ping_fmt_time((long long)s->mdev, d, sizeof(d)));
}

void ib_ping_print_final(FILE *f, struct ib_ping_printer *p, const struct ib_ping_stats *s,
			 int64_t realtime_ns)
{
	if (p->json) {
		json_stats(f, p, s, realtime_ns);
		fputs("]\n", f);
	} else if (p->batch) {
		ib_ping_print_raw(f, s);
	} else if (!(p->quiet && p->periodic)) {
		print_block(f, p, s);
	}
}
