/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_LOG_H
#define IOBENCH_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/job.h"

/*
 * fio-format latency / bandwidth / IOPS logs (write_lat_log, write_bw_log,
 * write_iops_log). Files: PREFIX_{slat,clat,lat,bw,iops}.N.log with
 * N = job->number; lines "msec, value, ddir, bs, prio" with an offset
 * column before prio when log_offset=1 (fio 3.33's format).
 *
 * log_avg_msec=0: one line per I/O. The lat logs get the I/O's latencies,
 * the bw log bytes*10^6/clat_ns (what fio prints per I/O) and the iops log 1.
 * log_avg_msec=N: lat logs get per-direction averages every N ms (and a
 * final partial window at close); bw/iops logs get one line per sampler
 * interval (the sampler then uses N ms instead of bwavgtime, as fio does).
 * log_max_value=1: the lat logs' windows give their maximum instead.
 * per_job_logs=0: the files are PREFIX_{kind}.log, without the job number;
 * the runner refuses two jobs that would then write the same file
 * (ib_logs_shared()).
 * write_hist_log=PREFIX with log_hist_msec=N: PREFIX_clat_hist.N.log, fio's
 * histogram log (fiohist.h has the format): per direction, when N ms have
 * passed since its last row, a row "msec, ddir, bs, bin_0..bin_1855" of
 * the completion latencies since that row (bin j is hist.h's bucket j, the
 * last bin takes the slower ones; bs is the I/O's that closed the row);
 * what is left at the job's end makes one last row. log_hist_msec=0: the
 * file stays empty (fio's). log_hist_coarseness=c (0..6): each field sums
 * 2^c bins, 1856 >> c fields.
 * The prio column is 1 for an I/O of the realtime class (prioclass=1),
 * else 0; log_prio=1 (fio 3.42): the job's I/O priority as 0xNNNN (class
 * << 13 | hint << 3 | level, procopts.h). log_issue_time=1 (fio 3.42,
 * with write_lat_log and log_offset): a last column, in the slat and clat
 * logs the I/O's issue time in ns since the job started (the time
 * column's origin), 0 in the other logs. Averaged lines have prio 0 and
 * issue time 0.
 * log_unix_epoch=1: times are milliseconds since the Unix epoch (the
 * job's start read from CLOCK_REALTIME when the logs open, plus the time
 * since), not since the job started.
 *
 * Writes go to a private buffer that is flushed with write(2) when full:
 * no stdio on the hot path. One struct per worker; not shared.
 */
enum ib_log_kind {
	IB_LOG_SLAT = 0, IB_LOG_CLAT, IB_LOG_LAT, IB_LOG_BW, IB_LOG_IOPS,
	IB_LOG_HIST, IB_LOG_NR,
};

/* Bins of a histogram log row (fio's 29 groups of 64 buckets). */
#define IB_LOG_HIST_BINS 1856

struct ib_log_file {
	int fd;			/* -1: not enabled */
	uint64_t t0_ms;		/* added to times (log_unix_epoch), else 0 */
	int err;		/* first write error (-errno) */
	size_t len;
	char *buf;
	char *path;		/* heap: removed if it cannot be written in full */
};

/* The optional columns of a log line. */
struct ib_log_cols {
	bool offset;		/* log_offset */
	bool prio_hex;		/* log_prio */
	bool issue;		/* log_issue_time */
};

struct ib_logs {
	struct ib_log_file file[IB_LOG_NR];
	unsigned int avg_ms;
	bool log_offset;
	bool prio_hex;		/* log_prio */
	bool issue_time;	/* log_issue_time */
	unsigned int prio;	/* the job's I/O priority (ioprio value) */
	bool per_io;		/* the worker must call ib_logs_lat() per I/O */
	uint64_t win_end_ms;	/* end of the current averaging window */
	uint64_t sum[3][IB_DDIR_RWT];	/* slat/clat/lat sums in the window */
	uint64_t cnt[3][IB_DDIR_RWT];
	uint64_t max[3][IB_DDIR_RWT];
	unsigned int max_value;	/* log_window_value: 0 mean, 1 max, 2 both */
	unsigned int hist_ms;	/* log_hist_msec */
	unsigned int hist_coarse;	/* log_hist_coarseness: 2^c bins per field */
	uint64_t hist_last_ms[IB_DDIR_RWT];
	uint64_t hist_bs[IB_DDIR_RWT];
	uint64_t *hist;		/* IB_DDIR_RWT * IB_LOG_HIST_BINS counts */
};

/* Would jobs a and b write the same log file (per_job_logs=0, a prefix)? */
bool ib_logs_shared(const struct ib_job *a, const struct ib_job *b);

/* Open the job's enabled logs (none enabled: all fds -1, returns 0). */
int ib_logs_open(struct ib_logs *l, const struct ib_job *job, struct ib_diag *d);
/*
 * Per completed I/O when l->per_io; t_ns since the job started (its
 * completion). UINT64_MAX = not measured.
 */
void ib_logs_lat(struct ib_logs *l, uint64_t t_ns, enum ib_ddir ddir, uint32_t bs,
		 uint64_t offset, uint64_t slat, uint64_t clat, uint64_t lat);
/* One sampler value (IB_LOG_BW: KiB/s, IB_LOG_IOPS: IOPS); averaged mode only. */
void ib_logs_sample(struct ib_logs *l, enum ib_log_kind kind, uint64_t t_ms,
		    enum ib_ddir ddir, uint64_t value);
/* Flush averaging windows ending at t_ms (used at job end). */
void ib_logs_flush_avg(struct ib_logs *l, uint64_t t_ms);
/* Flush and close everything; returns the first write error, if any. */
int ib_logs_close(struct ib_logs *l, struct ib_diag *d);
/* A log's name: PREFIX_KIND.NUMBER.log; number 0 (per_job_logs=0): PREFIX_KIND.log */
void ib_log_path(char *buf, size_t size, const char *prefix, enum ib_log_kind k,
		 unsigned int number);
const char *ib_log_kind_name(enum ib_log_kind k);
/* Append one formatted log line into buf (returns its length); for tests. */
size_t ib_log_format(char *buf, uint64_t t_ms, uint64_t value, unsigned int ddir,
		     uint64_t bs, bool with_offset, uint64_t offset);
/*
 * The same with c's columns: prio the ioprio value (c->prio_hex: 0xNNNN,
 * else 1 for the realtime class, 0 otherwise), issue the issue time (ns).
 * At most IB_LOG_LINE_MAX bytes.
 */
#define IB_LOG_LINE_MAX 160
size_t ib_log_line(char *buf, const struct ib_log_cols *c, uint64_t t_ms,
		   uint64_t value, unsigned int ddir, uint64_t bs, uint64_t offset,
		   unsigned int prio, uint64_t issue);

#endif
