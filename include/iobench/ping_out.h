/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PING_OUT_H
#define IOBENCH_PING_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/hist.h"
#include "iobench/ping.h"
#include "iobench/ping_run.h"
#include "iobench/ping_stats.h"
#include "iobench/ping_target.h"

/* `iobench ping` (ping.h): ioping's output formats (report/report_ping.c). */

/* ioping's number style: "4 KiB", "2.27 us", "1.52 M" (no unit: counts). */
char *ib_ping_fmt_size(long long v, char *buf, size_t len);
char *ib_ping_fmt_time(long long ns, char *buf, size_t len);
char *ib_ping_fmt_int(long long v, char *buf, size_t len);


/* Output settings and the printer's own state (first JSON object). */
struct ib_ping_printer {
	const struct ib_ping_target *target;
	bool quiet, batch, json, time_info;
	bool read_write;	/* -G: the totals line names no direction */
	bool write;		/* -W: "written" */
	bool periodic;		/* -p or -P given */
	const char *time_fmt;	/* strftime, local time */
	unsigned long objects;	/* JSON objects printed so far */
};


/* "[" for -J, nothing otherwise. */
void ib_ping_print_begin(FILE *f, struct ib_ping_printer *p);
/* One request: nothing under -q/-B, a JSON object under -J, else a line. */
void ib_ping_print_request(FILE *f, struct ib_ping_printer *p, const struct ib_ping_req *r);
/* A -p/-P period: the raw line, or a JSON statistics object. */
void ib_ping_print_period(FILE *f, struct ib_ping_printer *p, const struct ib_ping_stats *s,
			  int64_t realtime_ns);
/* The end: JSON stats + "]", -B's raw line, or the statistics block. */
void ib_ping_print_final(FILE *f, struct ib_ping_printer *p, const struct ib_ping_stats *s,
			 int64_t realtime_ns);
/* The raw line (-B, -p, -P): 10 numbers, see ioping(1) RAW STATISTICS */
void ib_ping_print_raw(FILE *f, const struct ib_ping_stats *s);

/* --hist: "latency percentiles" and power-of-two buckets of the valid requests */
void ib_ping_print_hist(FILE *f, const struct ib_hist *h, uint64_t n);

/*
 * --json-output: iobench's own JSON for a ping (not ioping's -J layout):
 * the target, the settings, the statistics block's numbers, latency
 * percentiles and json+-style bins ("value ns" : count).
 */
void ib_ping_write_json(FILE *f, const struct ib_ping_opts *o, const struct ib_ping_prep *p,
			const struct ib_ping_outcome *res);

#endif
