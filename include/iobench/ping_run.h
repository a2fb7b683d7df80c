/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PING_RUN_H
#define IOBENCH_PING_RUN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/hist.h"
#include "iobench/ping.h"
#include "iobench/ping_stats.h"
#include "iobench/ping_target.h"

/*
 * `iobench ping` around ioping's pure parts (ping.h): the target made
 * ready (run/ping_prep.c), the request loop on iobench's job loop, engines
 * and clock (front/ping_run.c); what iobench adds to ioping's output,
 * --hist and --json-output, is ping_out.h's (report/report_ping_hist.c).
 */

/* A target opened and sized the way ioping does it (ping.h's notes). */
struct ib_ping_prep {
	enum ib_ping_kind kind;
	int fd;				/* -1: not open */
	char path[PATH_MAX];		/* what fd is: the target or DIR/ioping.tmp */
	struct ib_ping_target tgt;	/* for the request lines */
	int64_t size;			/* file or device size, 0 for a directory */
	uint64_t work_offset;		/* -o */
	int64_t work_size;		/* effective working set */
};

/*
 * Check and open o->target: a directory gets an unnamed O_TMPFILE (or,
 * with -k, DIR/ioping.tmp, reused when already filled) filled with random
 * data over the working set; a file or device is opened read-only unless
 * -W's rules are met, and a block device is written only when iobench's
 * safety checks (safety.h) pass too. -D, -Y, -y and fadvise(RANDOM) are
 * applied. Warnings (non-fatal) go to warn. Returns 0, or -errno with
 * ioping's message in d (exit status 2). p->fd is -1 on failure.
 */
int ib_ping_prepare(const struct ib_ping_opts *o, struct ib_ping_prep *p, FILE *warn,
		    struct ib_diag *d);
/* Close the target (an O_TMPFILE vanishes with it). Safe more than once. */
void ib_ping_release(struct ib_ping_prep *p);

/* What a run measured, for --hist and --json-output. */
struct ib_ping_outcome {
	struct ib_ping_stats total;	/* finished */
	struct ib_hist *hist;		/* valid requests' times (ns), heap */
	uint64_t hist_n;
	const char *engine;		/* the engine that ran */
	bool interrupted;		/* SIGINT ended it */
	bool started;			/* set up: a failure now is a runtime one */
};

/*
 * Where the request loop's output goes, in the order ioping prints it:
 * begin before the first request, request after each one, period when a
 * -p/-P period ends, final after the last; flush where ioping flushes its
 * stdout (after a period line, after each request unless -q, at the end).
 * cmd/ping_main.c's sink is ioping's printer (ping_out.h).
 */
struct ib_ping_sink {
	void *arg;
	void (*begin)(void *arg);
	void (*request)(void *arg, const struct ib_ping_req *q);
	void (*period)(void *arg, const struct ib_ping_stats *s, int64_t realtime_ns);
	void (*final)(void *arg, const struct ib_ping_stats *s, int64_t realtime_ns);
	void (*flush)(void *arg);
};

/*
 * Run the requests on p through the job loop, handing each request to out
 * as it completes, then the final statistics. stop ends the
 * run after the current request (SIGINT; set before the run: no request
 * at all, the statistics of none). Returns 0 (res filled; free
 * res->hist), or -errno with the reason in d: exit status 3 ("request
 * failed: ...") once res->started, else 2 (the engine could not start).
 */
int ib_ping_run(const struct ib_ping_opts *o, struct ib_ping_prep *p,
		const struct ib_ping_sink *out,
		const volatile sig_atomic_t *stop, struct ib_ping_outcome *res,
		FILE *warn, struct ib_diag *d);

#endif
