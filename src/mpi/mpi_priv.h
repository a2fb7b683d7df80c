/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_MPI_PRIV_H
#define IOBENCH_MPI_PRIV_H
/*
 * iobench-mpi's parts. Only mpi_main.c, mpi_sync.c, mpi_gather.c and
 * mpi_stream.c include <mpi.h>; the helper process (mpi_helper.c) and the output files
 * (mpi_out.c) know nothing of MPI.
 */
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include "iobench/diag.h"
#include "iobench/disk.h"
#include "iobench/liveview.h"
#include "iobench/results.h"
#include "iobench/plan.h"
#include "iobench/stats.h"

#define IB_MPI_DISKS_MAX 16
#define IB_MPI_HEADER_MAX 4096	/* a host's job header lines, truncated */

/*
 * What one rank's helper leaves in the mapping it shares with the rank
 * (and what the rank sends to rank 0): pointer-free, sent as bytes.
 */
struct ib_mpi_outcome {
	char host[IB_HOSTNAME_MAX];
	int rank;
	int ret;			/* 0, or -errno: the rank could not run */
	char msg[IB_DIAG_LEN];		/* why (ret), or the first job failure */
	char header[IB_MPI_HEADER_MAX];	/* ib_report_header() after the check */
	unsigned int failed_jobs;
	bool interrupted;		/* stopped early (signal, or another rank) */
	int64_t start_ns;		/* CLOCK_REALTIME when told to start */
	unsigned int nr_disks;
	struct ib_disk_util disks[IB_MPI_DISKS_MAX];
	/* the live view (mpi_main.c decides): this host's line, written by
	 * the helper after each interval, read by the rank */
	struct ib_live_host live;
};

/*
 * The helper: a process forked BEFORE MPI_Init that runs the jobs (the
 * runner forks one process per job; no fork happens in a process that
 * called MPI_Init). Driven over a pipe, results in a MAP_SHARED mapping.
 */
struct ib_mpi_helper {
	pid_t pid;
	int cmd_fd;			/* rank -> helper */
	int rep_fd;			/* helper -> rank: one byte per reply */
	struct ib_mpi_outcome *out;	/* shared */
	struct ib_job_stats *stats;	/* shared, nr_jobs slots */
	size_t map_len;
	bool done;			/* the final reply came (or the helper died) */
	bool stopped;			/* ib_mpi_helper_stop() sent SIGTERM */
	FILE *ivl;			/* --interval-json: this rank's lines, an
					 * unlinked file made before the fork
					 * (the helper writes, the rank reads) */
};

/* Fork the helper for run (parsed); 0 or -errno. Before MPI_Init. */
int ib_mpi_helper_start(struct ib_mpi_helper *h, struct ib_plan *run,
			struct ib_diag *d);
/*
 * Make the plan this rank's (mpiplan.h: its jobs, with split only its
 * share; its file names) and check every target (nothing
 * written); warnings on stderr only if `warn`. Then, once every rank
 * agreed, lay the files out. Each blocks until the helper answers: 0, or
 * -errno with h->out->msg saying why.
 */
int ib_mpi_helper_check(struct ib_mpi_helper *h, int rank, int size, bool split,
			const char *host, bool warn);
int ib_mpi_helper_layout(struct ib_mpi_helper *h);
/*
 * Start the jobs (returns at once; h->out->start_ns is set); with `live`,
 * the helper keeps this host's line of the live view in h->out->live.
 */
int ib_mpi_helper_go(struct ib_mpi_helper *h, bool live);
/* Wait up to ms for the end of the run: true once it has ended. */
bool ib_mpi_helper_poll(struct ib_mpi_helper *h, int ms);
/* Ask the jobs to stop early (SIGTERM: they drain, the report follows). */
void ib_mpi_helper_stop(struct ib_mpi_helper *h);
/* Tell an idle helper to quit (or reap a finished one); frees the mapping. */
void ib_mpi_helper_end(struct ib_mpi_helper *h);

/* This rank in MPI_COMM_WORLD. */
struct ib_mpi_ctx {
	int rank;
	int size;
	bool split;		/* --mpi-split: jobs dealt out across ranks */
	char host[IB_HOSTNAME_MAX];
};

/* --- mpi_sync.c --------------------------------------------------------- */
/*
 * Every rank says ok or not (msg: why) and, with `compare`, the hash of its
 * plan; rank 0 names each rank that said no or whose plan differs from its
 * own (stderr) and all ranks learn the verdict: true to go on.
 */
bool ib_mpi_agree(const struct ib_mpi_ctx *c, bool ok, uint64_t hash,
		  bool compare, const char *msg);
/*
 * Clock offsets of every rank against rank 0 (ping-pong, min round trip):
 * offset[r] = rank r's CLOCK_REALTIME - rank 0's, rtt[r] the round trip.
 * Collective; the arrays (size entries) are filled on rank 0 only.
 */
void ib_mpi_clock(const struct ib_mpi_ctx *c, int64_t *offset, int64_t *rtt);
int64_t ib_mpi_realtime_ns(void);
/*
 * Until every rank's run has ended (a collective every 100 ms): a rank
 * whose run failed, or that got SIGINT/SIGTERM (*sig), makes every rank
 * stop its jobs early; they drain and report as usual. With a view (the
 * same on every rank: NULL or not), every rank's host line goes to rank 0
 * at each step, which draws the hosts' table on view->tty when a line
 * changed, and erases it at the end.
 */
struct ib_mpi_view {
	FILE *tty;			/* rank 0's; NULL on the others */
	struct ib_live_host *all;	/* rank 0: size lines */
	uint64_t seen;			/* sum of the lines' sequences drawn */
	unsigned int drawn;
};
void ib_mpi_run_loop(const struct ib_mpi_ctx *c, struct ib_mpi_helper *h,
		     volatile sig_atomic_t *sig, struct ib_mpi_view *view);

/* --- mpi_gather.c ------------------------------------------------------- */
/*
 * Every rank's outcome and stats slots to rank 0 (collective). On rank 0:
 * res gets one host per rank (hostname, rank, clock alignment), the jobs
 * each ran (host-major, from rank 0's plan: all plans are equal), their
 * slots as the ranks sent them, the disks; *outs the outcomes (size
 * entries, free()). Returns 0, or -ENOMEM on rank 0.
 */
int ib_mpi_gather(const struct ib_mpi_ctx *c, const struct ib_plan *run,
		  const struct ib_mpi_helper *h, const int64_t *offset,
		  const int64_t *rtt, struct ib_results *res,
		  struct ib_mpi_outcome **outs);

/* One rank's job header lines, with its host, for rank 0 to print. */
struct ib_mpi_head {
	char host[IB_HOSTNAME_MAX];
	char text[IB_MPI_HEADER_MAX];
};

/*
 * Every rank's job header lines (h->out->header) to rank 0 (collective):
 * there, size entries (free()), elsewhere NULL.
 */
struct ib_mpi_head *ib_mpi_gather_headers(const struct ib_mpi_ctx *c,
					  const struct ib_mpi_helper *h);

/* --- mpi_stream.c ------------------------------------------------------ */
/*
 * --interval-json: every rank's lines (h->ivl) to rank 0 after the run,
 * one rank after the other (collective), each line with "hostname" and
 * "rank" put first; rank 0 writes them to f. 0, or -errno on rank 0 (a
 * write failed; the others' lines are still received).
 */
int ib_mpi_stream_gather(const struct ib_mpi_ctx *c, const struct ib_mpi_helper *h,
			 FILE *f);

/* --- mpi_out.c ---------------------------------------------------------- */
/* Rank 0's report files (mpi_out.c). */
struct ib_mpi_out {
	FILE *main;		/* --output or stdout */
	FILE *json;		/* --json-output, or main */
	FILE *stream;		/* --interval-json, or NULL */
	unsigned int formats;	/* ib_formats_selected() */
};

/* Open them (before any I/O); 0, or -1 with d saying why. */
int ib_mpi_out_open(const struct ib_plan *run, struct ib_mpi_out *o,
		    struct ib_diag *d);
/* A host's job header lines (normal format only), each prefixed label. */
void ib_mpi_out_header(struct ib_mpi_out *o, const char *label, const char *text);
/*
 * Every selected format of res (NULL: none, the run was refused), then
 * close; 0 or -errno (d names the file that could not be written).
 */
int ib_mpi_out_report(const struct ib_plan *run, struct ib_mpi_out *o,
		      const struct ib_results *res, struct ib_diag *d);
/* "iobench-mpi: host H rank R: ..." lines for every failure; the count. */
unsigned int ib_mpi_name_failures(FILE *f, const struct ib_results *res,
				  const struct ib_mpi_outcome *out);

#endif
