/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_LIVEVIEW_H
#define IOBENCH_LIVEVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/plan.h"
#include "iobench/results.h"
#include "iobench/runner.h"

/*
 * The live view (doc/live-statistics.md): on a terminal, a table redrawn
 * in place once per interval, one row per job (per group with
 * group_reporting) and a total: IOPS, bandwidth and p99 latency of the
 * last interval per direction, progress, errors; a heading with the
 * elapsed time and the ETA. Its numbers are the per-interval stream's
 * (stream.h), which feeds it. Drawn with ANSI cursor moves: the previous
 * table is overwritten, and erased at the end, before the report.
 */
struct ib_liveview;

int ib_liveview_new(struct ib_liveview **out, const struct ib_plan *run, FILE *tty);
void ib_liveview_free(struct ib_liveview *lv);

/*
 * The stream (stream.h) hands it each interval's lines, then calls
 * ib_liveview_draw(): the table is drawn (v->final: erased).
 */
void ib_liveview_draw(struct ib_liveview *lv, const struct ib_run_view *v);
/* Erase the table (before a status report prints where it is). */
void ib_liveview_erase(struct ib_liveview *lv);
/* A latency cell: "-" for none, else ns, us, ms or s as its size suits. */
void ib_liveview_lat(char *b, size_t len, uint64_t ns);

/*
 * Under MPI (iobench-mpi, doc/mpi.md): a host's line of the view. Each
 * rank's helper makes its view with ib_liveview_new_host(): nothing is
 * drawn; after each interval the host's line goes to *dst (memory it
 * shares with its rank) under a sequence count, which ib_live_host_read()
 * copies whole or not at all. Rank 0 draws every host's line and the
 * total with ib_liveview_hosts() (liveview_hosts.c).
 */
struct ib_live_host {
	uint64_t seq;			/* even: stable; odd: being written */
	char host[IB_HOSTNAME_MAX];	/* filled by the rank */
	int rank;
	uint64_t iops[2], bw[2];	/* read, write: per second (bw: bytes) */
	uint64_t p99[2];		/* ns, over all the host's I/Os; 0: none */
	uint64_t errors;
	uint32_t jobs, running;		/* jobs (rows' jobs), running now */
	uint32_t done_pct;		/* the least advanced row's progress */
	char state;			/* the first running job's letter */
};

int ib_liveview_new_host(struct ib_liveview **out, const struct ib_plan *run,
			 struct ib_live_host *dst);
bool ib_live_host_read(const struct ib_live_host *src, struct ib_live_host *dst);
/*
 * Draw h[0..n) and their total in place of the previous table (*drawn: its
 * lines, 0 at first), elapsed_s since the start; ib_liveview_hosts_erase
 * erases it (before the report).
 */
void ib_liveview_hosts(FILE *tty, const struct ib_live_host *h, unsigned int n,
		       uint64_t elapsed_s, unsigned int *drawn);
void ib_liveview_hosts_erase(FILE *tty, unsigned int *drawn);

#endif
