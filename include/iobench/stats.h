/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_STATS_H
#define IOBENCH_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/compiler.h"
#include "iobench/hist.h"
#include "iobench/job.h"
#include "iobench/steadystate.h"

/*
 * Per-job statistics. Plain old data with no pointers: one slot per job lives
 * in a MAP_SHARED region created before fork (shm.c), the job writes only its
 * own slot, the parent reads it after the job has been reaped (and, for the
 * live status line, reads the `live` counters with relaxed atomics).
 */

/* Exact online min/max/mean/variance (Welford). */
struct ib_lat_stat {
	uint64_t n;
	uint64_t min;
	uint64_t max;
	double mean;
	double m2;	/* sum of squared deviations; sample var = m2/(n-1) */
};

/*
 * c samples of value v at once (c >= 1): the same min/max/mean/M2 as c
 * single adds (West's weighted update with integer weights), one division.
 */
static inline void ib_lat_stat_add_n(struct ib_lat_stat *s, uint64_t v,
				     uint64_t c)
{
	uint64_t n = s->n + c;
	double x = (double)v, delta = x - s->mean, mean;

	if (v < s->min || n == c)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n = n;
	/* a count is below 2^63: converted as signed, exactly, no branch */
	mean = s->mean + delta * (double)(int64_t)c / (double)(int64_t)n;
	s->mean = mean;
	s->m2 += delta * (x - mean) * (double)(int64_t)c;
}

/* One sample (the multiplications by c = 1 fold away). */
static inline void ib_lat_stat_add(struct ib_lat_stat *s, uint64_t v)
{
	ib_lat_stat_add_n(s, v, 1);
}

/* Parallel merge of two Welford accumulators (Chan et al.). */
void ib_lat_stat_merge(struct ib_lat_stat *dst, const struct ib_lat_stat *src);
/* Sample standard deviation, 0 for n < 2. */
double ib_lat_stat_stddev(const struct ib_lat_stat *s);

enum ib_lat_kind { IB_LAT_SLAT = 0, IB_LAT_CLAT = 1, IB_LAT_TLAT = 2, IB_LAT_NR = 3 };

struct ib_dir_stats {
	uint64_t io_bytes;
	uint64_t total_ios;	/* completed I/Os */
	uint64_t issued;	/* issued I/Os (issued rwts total=) */
	uint64_t short_ios;
	uint64_t drop_ios;
	uint64_t runtime_us;	/* active time for this direction, after ramp */
	struct ib_lat_stat lat[IB_LAT_NR];
	struct ib_hist hist[IB_LAT_NR];
	struct ib_lat_stat bw_samples;	/* KiB/s per bwavgtime interval */
	struct ib_lat_stat iops_samples;
	/*
	 * With a rate (paced jobs only): the CO-free latency, completion -
	 * intended start (the schedule's due time), and the lateness of the
	 * starts: I/Os started more than rate_late after their due time,
	 * their total and the worst lateness of any I/O (ns), and the deepest
	 * backlog (I/Os due and not started) seen when one started late, and
	 * the I/Os due by the end that never started (the backlog left).
	 * late_hist: every started I/O's lateness (start - due time, 0 when
	 * on time), the scheduler's own added latency when nothing queues.
	 */
	struct ib_lat_stat colat;
	struct ib_hist colat_hist;
	uint64_t late_ios, late_sum_ns, late_max_ns, backlog_max;
	uint64_t unstarted;
	struct ib_hist late_hist;
};

/* fio's "lat (nsec/usec/msec)" distribution of clat */
#define IB_LAT_N_NR 10	/* ns: 2 4 10 20 50 100 250 500 750 1000 */
#define IB_LAT_U_NR 10	/* us: same labels */
#define IB_LAT_M_NR 12	/* ms: same + 2000, >=2000 */
#define IB_DEPTH_NR 7	/* 1 2 4 8 16 32 >=64 / 0 4 8 16 32 64 >=64 */

/* Run-state letters for the live status line (fio's) */
enum ib_state {
	IB_ST_NOT_STARTED = 'P',
	IB_ST_SETUP = 'I',
	IB_ST_RAMP = '/',
	IB_ST_RUNNING = 'R',	/* the worker stores its rw letter instead */
	IB_ST_FSYNC = 'F',
	IB_ST_VERIFY = 'V',	/* reading back what was written (fio's V) */
	IB_ST_FINISHING = 'f',
	IB_ST_EXITED = 'E',
	IB_ST_DONE = '_',
	IB_ST_ERROR = 'X',
	IB_ST_KILLED = 'K',
};

/*
 * A trace replay's timing (replay.h): every replayed I/O, measured from
 * when the trace said it was due to when the loop prepared it.
 */
/* An I/O started more than this after its due time counts as late. */
#define IB_REPLAY_LATE_NS 1000000ull

struct ib_replay_stats {
	bool on;		/* the job replayed a trace */
	uint64_t ios;		/* I/Os replayed */
	uint64_t late_ios;	/* started more than IB_REPLAY_LATE_NS late */
	uint64_t late_max_ns;	/* the latest one */
	uint64_t late_total_ns;	/* sum over all replayed I/Os */
};

/* Counters the parent may read while the job runs (relaxed atomics). */
struct ib_live {
	uint64_t io_bytes[IB_DDIR_RWT];
	uint64_t ios[IB_DDIR_RWT];
	uint64_t start_ns;	/* when the job started doing I/O (after startdelay) */
	uint32_t state;		/* enum ib_state or the rw letter */
	uint32_t nr_files_open;
	/* the other way, parent to job: the ramp_size of the job's
	 * group_reporting group is done (runner_wait.c) */
	uint32_t group_ramp_over;
	/* bytes the job will do, published as it starts (0: unknown, as
	 * for time_based): what its size, io_size, holes or files came to */
	uint64_t plan_bytes;
} ib_cacheline_aligned;

/* The bytes job j's live counters l run up to: what it published as it
 * started, else its io_size= or size= times loops= (0: unknown). */
static inline uint64_t ib_live_plan(const struct ib_live *l, const struct ib_job *j)
{
	uint64_t p = __atomic_load_n(&l->plan_bytes, __ATOMIC_RELAXED);

	return p ? p : (j->io_size ? j->io_size : j->size) * (j->loops ? j->loops : 1);
}

struct ib_job_stats {
	struct ib_live live;

	/* --- measured: from dir up to elapsed_s, zeroed by ib_stats_reset --- */
	struct ib_dir_stats dir[IB_DDIR_RWT];
	struct ib_lat_stat sync_lat;	/* fsync/fdatasync */
	struct ib_hist sync_hist;
	uint64_t sync_ios;

	uint64_t lat_n[IB_LAT_N_NR];
	uint64_t lat_u[IB_LAT_U_NR];
	uint64_t lat_m[IB_LAT_M_NR];
	uint64_t depth[IB_DEPTH_NR];	/* in-flight depth at submit, per I/O */
	uint64_t submit[IB_DEPTH_NR];	/* I/Os per submit call, per call */
	uint64_t complete[IB_DEPTH_NR];	/* I/Os per reap call, per call */
	uint64_t total_submit_calls;
	uint64_t total_complete_calls;

	/* CPU: getrusage deltas over the measured run */
	uint64_t usr_us, sys_us;
	/* the job thread's CPU time over it to the ns (CLOCK_THREAD_CPUTIME_ID;
	 * usr/sys come in scheduler ticks) */
	uint64_t cpu_ns;
	uint64_t ctx, majf, minf;
	uint64_t job_runtime_ms;	/* wall time of the measured run */

	/* --- kept by ib_stats_reset: identity, outcome --- */
	uint64_t elapsed_s;		/* since the job started, incl. ramp */

	/*
	 * outcome: error is what stopped the job (0: nothing did); total_err
	 * and first_error count the errors continue_on_error covered (ioerr.h).
	 * The report's err= is error, or when nothing stopped the job and
	 * continue_on_error is set, first_error (fio's rule).
	 */
	int error;		/* 0 or positive errno */
	char error_where[256];	/* "read offset=4096, buflen=4096, file=/x: Input/output error (EIO)" */
	uint64_t total_err;
	int first_error;
	char first_error_where[256];
	char verify_msg[1024];	/* verify mismatches, fio's lines: the
				 * first ones, as many whole as fit */
	/*
	 * error_dump=1: one line per non-fatal I/O error, fio's fields ("io_u
	 * error on file F: strerror: DDIR offset=N, buflen=N"), the first
	 * ones, as many whole as fit; the parent prints them to stderr when
	 * the run ends, then how many more did not fit (error_dump_lost).
	 */
	char error_dump[4096];
	uint64_t error_dump_lost;
	int pid;
	int64_t start_time;	/* epoch seconds when the job started */
	/* ms on the job's job_start_clock_id when its I/O started (fio
	 * 3.42's JSON "job_start") */
	int64_t job_start_ms;
	unsigned int exit_signal; /* set by the parent when the job died */
	bool finished;		/* the job reached its end (not killed) */
	bool postrun_ran;	/* exec_postrun ran (the parent says so) */
	struct ib_replay_stats replay;	/* read_iolog= jobs (replay.h) */
	struct ib_ss ss;		/* steady state (dur 0: none asked) */
	bool paced;		/* a rate was set: colat and lateness are measured */
	/* latency_target: the search's answer (reports' "latency" line) */
	uint64_t lat_target_ns;	/* 0: no search */
	uint64_t lat_window_us;
	double lat_percentile;
	unsigned int lat_depth;

	/*
	 * How the job ran, set by the runner before the header is printed
	 * (iomode.h): the engine used and whether the files were opened
	 * O_DIRECT; the *_fallback texts say why a default was not used.
	 */
	char ioengine[32];
	bool direct_requested;	/* direct=1, given or by default */
	bool direct;		/* opened with O_DIRECT */
	char ioengine_fallback[160];
	char direct_fallback[320];
	char clocksource[16];	/* "cpu" (TSC) or "clock_gettime"; "" unknown */
	/* adaptive batching (loop_batch.c): on, and the probes each way won
	 * (IB_BATCH_ALL: batched, IB_BATCH_ONE: one I/O per call) */
	bool batch_adaptive;
	unsigned int batch_won[2];
	unsigned int batch_spin_won[2];	/* spin probes won: [0] none, [1] spin */
	char engine_setup[80];	/* ib_engine_ctx.setup of the job's engine */
	unsigned int noatime_files;	/* regular files opened O_NOATIME */
	/* the reads had buffers of their own, so that no write sent the data
	 * a read brought (buf.h; fio writes it) */
	bool read_buffers_apart;
};

/*
 * Zero everything measured (the section from dir up to elapsed_s); keeps
 * live, elapsed_s, the errors (an error in the ramp still counts, as in
 * fio), pid and start_time. Used at ramp end. The live counters belong to
 * the worker (it publishes them); ib_stats_add_io() does not touch them.
 */
void ib_stats_reset(struct ib_job_stats *s);
/* Drop the latencies recorded (a job that ended inside its ramp_time:
 * fio reports its I/O counts and none of its latencies). */
void ib_stats_drop_lat(struct ib_job_stats *s);
/*
 * What ib_stats_add_io() records for a job: each latency kind's
 * min/max/mean/stddev (IB_KEEP_LAT(k)) unless the job disables it, and its
 * histogram (IB_KEEP_HIST(k)) only where a report reads it: clat's always
 * (percentiles, lat table, compare, HTML), slat's with slat_percentiles,
 * total latency's with lat_percentiles or as the one left when clat is
 * disabled. Two histogram adds fewer per I/O by default.
 */
#define IB_KEEP_LAT(k)	(1u << (k))
#define IB_KEEP_HIST(k)	(1u << (IB_LAT_NR + (k)))
unsigned int ib_stats_keep(const struct ib_job *job);
/*
 * Account `count` completed I/Os of the same direction, size and latencies
 * (count >= 1); keep is ib_stats_keep() of their job. Latencies in ns;
 * slat/lat may be skipped by the caller by passing UINT64_MAX (e.g. sync
 * engines have no slat). A reap batch's I/Os submitted together share one
 * clock reading each for start, issue and completion, so the loop accounts
 * them as one run.
 */
void ib_stats_add_ios(struct ib_job_stats *s, unsigned int keep,
		      enum ib_ddir ddir, uint64_t bytes, uint64_t slat,
		      uint64_t clat, uint64_t lat, uint64_t count);
/* One completed I/O: ib_stats_add_ios() with count 1. */
void ib_stats_add_io(struct ib_job_stats *s, unsigned int keep,
		     enum ib_ddir ddir, uint64_t bytes, uint64_t slat,
		     uint64_t clat, uint64_t lat);
/* Account one CO-free latency (completion - due time), ns. */
static inline void ib_stats_add_colat(struct ib_job_stats *s, enum ib_ddir d,
				      uint64_t colat)
{
	ib_lat_stat_add(&s->dir[d].colat, colat);
	ib_hist_add(&s->dir[d].colat_hist, colat);
}
/* Account one fsync/fdatasync (lat UINT64_MAX: not measured). */
void ib_stats_add_sync(struct ib_job_stats *s, uint64_t lat_ns);
/* Bucket index helpers shared by the worker and reports. */
unsigned int ib_depth_bucket(unsigned int depth);	/* 1,2,4,..,>=64 */
unsigned int ib_batch_bucket(unsigned int n);		/* 0,4,8,..,>=64 */
/*
 * One direction's dst += src, as for group_reporting: counts and bytes
 * added, runtime the longer, latencies merged (Welford, histograms), the
 * bw/iops sample stats added field by field (fio's rule). Also folds the
 * directions into one for unified_rw_reporting.
 */
void ib_stats_merge_dir(struct ib_dir_stats *dst, const struct ib_dir_stats *src);
/* dst += src for group_reporting (sums, Welford merge, histogram add). */
void ib_stats_merge(struct ib_job_stats *dst, const struct ib_job_stats *src);

#endif
