/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_RESULTS_H
#define IOBENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/disk.h"
#include "iobench/fio_version.h"
#include "iobench/job.h"
#include "iobench/stats.h"

struct ib_plan;		/* plan.h */
struct ib_evidence;	/* checks.h */
struct ib_env;		/* env.h */
struct ib_result;	/* runner.h */

/*
 * The results of a run as one document: the only input of every report
 * formatter (report.h). Built from a live run by ib_results_from_run(), or
 * read back from iobench's own JSON or fio 3.33's json/json+
 * (ib_results_read_json(), results_read.c), so that compare, plots and a
 * multi-host merge work on the same structure.
 *
 * Layout (R2 of the architecture review): hosts[], and per job a
 * pointer-free description record (jobs[i]) and its statistics slot carried
 * whole (stats[i], struct ib_job_stats), so a field added to the slot
 * reaches every formatter without touching this file. Both per-job arrays
 * are plain bytes: an MPI gather can copy them as they are.
 *
 * Group aggregates ("Run status group", JSON bw_agg) and group_reporting
 * merges are not stored: the formatters derive them from jobs[] and
 * stats[] by one function (ib_rep_build, report_common.c), so a results
 * document merged from several hosts can never disagree with them.
 */
#define IB_HOSTNAME_MAX 64

/*
 * One host of a multi-host run (iobench-mpi: one per MPI rank; a run on
 * one machine has one host with only its name set). The clock fields align
 * the hosts' time series: offset = this host's CLOCK_REALTIME minus host
 * 0's, measured by ping-pong with the given round trip; start_ns is when
 * this host was told to start, on host 0's clock (epoch ns).
 */
struct ib_res_host {
	char name[IB_HOSTNAME_MAX];
	int rank;
	int64_t clock_offset_ns;
	int64_t clock_rtt_ns;
	int64_t start_ns;
};

/* What the reports need from a job's description (job.h has the meaning). */
struct ib_res_job {
	unsigned int host;		/* index into hosts[] */
	char name[IB_NAME_MAX];
	char description[IB_NAME_MAX];
	unsigned int clone;
	unsigned int groupid;
	bool group_reporting;
	bool thread;
	/* header line: rw, bs, ioengine, iodepth */
	unsigned int rw;
	struct ib_bs bs;
	char ioengine[32];
	unsigned int iodepth;
	bool direct;			/* direct= as the job asked (requested) */
	/* how the numbers are shown */
	unsigned int continue_on_error;
	bool gtod_reduce;
	bool disable_lat, disable_clat, disable_slat;
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	unsigned int nr_percentiles;
	double percentiles[IB_MAX_PERCENTILES];
	unsigned int percentile_precision;
	unsigned int kb_base;
	unsigned int unit_base;
	unsigned int significant_figures;
	unsigned int unified_rw_rep;	/* enum ib_unified */
	/* read from JSON without bins (fio's or iobench's plain json): the
	 * latency histograms hold the percentiles only, no real shape */
	bool hist_from_pct;
	/* JSON "job options": "key\0value\0...\0" as ib_job.opts_text */
	char opts_text[IB_OPTS_TEXT_MAX];
	unsigned int opts_len;
};

struct ib_res_disk {
	unsigned int host;
	struct ib_disk_util util;
};

/*
 * A job slot's intervals, read back from a per-interval stream
 * (--interval-json, results_stream.c): per line of at least 100 ms from the
 * job's last restart, its end (ms from the run's start), IOPS and p99
 * latency per direction (ns, from the line's bins; NAN: no sample).
 */
struct ib_res_iv {
	uint64_t time_ms;
	double iops[IB_DDIR_RWT];
	double p99[IB_DDIR_RWT];
};
struct ib_res_series {
	struct ib_res_iv *iv;
	unsigned int nr, cap;
};

/*
 * jobs[] (and stats[]) and disks[] are ordered by host: host 0's first.
 * With more than one host the formatters use fio's client-mode layout
 * (report_hosts.c): per-host blocks, then an "All clients" block.
 */
struct ib_results {
	struct ib_res_host *hosts;
	unsigned int nr_hosts;
	struct ib_res_job *jobs;
	/*
	 * nr_jobs slots, stats[i] belongs to jobs[i]. Borrowed from the run's
	 * shared mapping by ib_results_from_run() (no copy of ~200 KiB per
	 * job), owned (own_stats) when read from a file.
	 */
	const struct ib_job_stats *stats;
	struct ib_job_stats *own_stats;
	unsigned int nr_jobs;
	struct ib_res_disk *disks;
	unsigned int nr_disks;
	int64_t timestamp_ms;		/* epoch ms at the end of the run */
	unsigned int terse_version;	/* 2..5 (read back: 3) */
	/* the format of fio's the writers print (fio_version.h); read back:
	 * the document's "fio version" */
	enum ib_fio_version fio_version;
	/* [global] options, "key\0value\0...\0" as ib_plan.global_opts_text */
	char global_opts_text[IB_OPTS_TEXT_MAX];
	unsigned int global_opts_len;
	/*
	 * iobench's own, borrowed from the run (which must outlive r), owned
	 * (own_*) when read back from iobench's JSON, NULL in fio's JSON or a
	 * document built by a test: evidence[i] for
	 * jobs[i] (checks.h) turns the validity checks, seeds and tool
	 * overhead on; env turns the "environment" object on. checks_mask
	 * picks the checks (--warnings), show_env prints env and the seeds
	 * in the human report (--env).
	 */
	const struct ib_evidence *evidence;
	const struct ib_env *env;
	struct ib_evidence *own_evidence;	/* read back: evidence, owned */
	struct ib_env *own_env;			/* read back: env, owned */
	uint64_t checks_mask;
	bool show_env;
	/* read back from a per-interval stream: nr_jobs series, else NULL */
	struct ib_res_series *series;
};

/*
 * Build r from a run: one host (this machine's name), jobs[i] from
 * run->jobs[i], stats borrowed from res->stats (which must outlive r),
 * res's disks copied, the given timestamp. res may be NULL before the run:
 * no stats (NULL) and no disks, enough for ib_report_header() only.
 * Returns 0 or -ENOMEM (r is then empty).
 */
int ib_results_from_run(struct ib_results *r, const struct ib_plan *run,
			const struct ib_result *res, int64_t timestamp_ms);
/*
 * Leave out of r (just built by ib_results_from_run() from run) the jobs
 * run with stats=0: jobs[], stats[] and evidence[] keep the others, in
 * order, the slots copied (owned). Nothing changes when every job has
 * stats. Returns 0 or -ENOMEM.
 */
int ib_results_drop_nostats(struct ib_results *r, const struct ib_plan *run);
/* "<name:rank> ": how a host's lines are prefixed (report_hosts.c). */
void ib_res_host_label(const struct ib_res_host *h, char *buf, size_t len);
/* Copy a job's description fields into a results record. */
void ib_res_job_from(struct ib_res_job *dst, const struct ib_job *j);
/*
 * Allocate nr_hosts hosts, nr_jobs jobs with owned, zeroed stats and
 * nr_disks disks (all zeroed). Returns 0 or -ENOMEM.
 */
int ib_results_alloc(struct ib_results *r, unsigned int nr_hosts,
		     unsigned int nr_jobs, unsigned int nr_disks);
void ib_results_free(struct ib_results *r);

/*
 * Read a JSON report (iobench's, or fio 3.33's json / json+) into r
 * (results_read.c, which says what comes back exactly). One host (its name
 * unknown: ""), one job record per JSON job entry (a group_reporting entry
 * is one record), stats owned by r. A client-mode report ("client_stats":
 * fio's, iobench-mpi's) gives one host per hostname and rank (fio: port),
 * its jobs ordered by host, without the "All clients" entries. Returns 0 or -errno: -EINVAL with the
 * byte offset for bad JSON, or for a document without a "jobs" array;
 * -E2BIG beyond IB_JSON_READ_MAX bytes or IB_MAX_JOBS jobs; -ENOMEM.
 */
int ib_results_read_json(struct ib_results *r, const char *text, size_t len,
			 struct ib_diag *d);
/* The same from a file; d's message starts with the path. */
int ib_results_load(struct ib_results *r, const char *path, struct ib_diag *d);

/*
 * A per-interval stream (--interval-json, NDJSON) read back as a results
 * document (results_stream.c): one job slot per job, or per group for a
 * group_reporting group (named as its first job, as the final report
 * does), whose totals are the sums of its lines from its last restart (the
 * stream's exactness: the final report's I/Os, bytes, latency samples,
 * histogram, min and max), its runtime the sum of their spans, its
 * iops/bw samples the lines of at least 100 ms; series[] holds those
 * lines. ib_results_is_stream: the first non-blank line starts as iobench
 * starts a line ({"type":") or is one JSON object with "type" and
 * "time_ms" (a report's first line is neither). Errors: -EINVAL
 * "NAME:LINE: reason" for a malformed line, -E2BIG beyond IB_MAX_JOBS
 * slots, -ENOMEM. ib_results_load_any: a file, a JSON report or a stream
 * told apart by its content.
 */
bool ib_results_is_stream(const char *text, size_t len);
int ib_results_read_stream(struct ib_results *r, const char *text, size_t len,
			   const char *name, struct ib_diag *d);
int ib_results_load_any(struct ib_results *r, const char *path, struct ib_diag *d);

#endif
