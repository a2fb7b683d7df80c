/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CHECKS_H
#define IOBENCH_CHECKS_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/env.h"

/*
 * Validity checks ("numbers you can trust", issue 18): what could make a
 * job's numbers untrustworthy, judged after the run by pure functions over
 * the results document (results.h) and one evidence record per job that
 * the runner fills (evidence.c): device counters over the job's batch,
 * page-cache residency and allocation of its range before it started, a
 * sample of the data it writes, the CPUs it could use, its seeds and the
 * tool's own measured cost (calibrate.c). The record is plain bytes (no
 * pointers), so the checks judge a live run and a document carrying the
 * same evidence alike. A document without evidence (a fio report read
 * back, the golden fixtures) has no checks at all.
 */

enum ib_check_sev { IB_SEV_INFO = 0, IB_SEV_WARNING = 1 };

#define IB_EV_SERIES 128	/* intervals of the rate series */

/* How the job's random seeds came about (rand.h). */
enum ib_seed_source {
	IB_SEED_REPEAT = 0,	/* randrepeat=1: fixed per job number */
	IB_SEED_GIVEN = 1,	/* randseed=N */
	IB_SEED_DRAWN = 2,	/* randrepeat=0: drawn by the runner, run as randseed=N */
};

struct ib_evidence {
	bool valid;			/* the runner filled this record */
	unsigned int batch;		/* stonewall batch (jobs that ran together) */
	unsigned int batch_jobs;	/* job processes/threads in that batch */
	unsigned int cpus;		/* CPUs the run may use (affinity); 0 unknown */
	char governor[IB_ENV_STR];	/* env.h; "" unknown */
	/* the job's settings the checks need beyond struct ib_res_job */
	bool sync_engine;		/* the engine has one I/O in flight */
	bool time_based;
	bool fsyncs;			/* fsync=, fdatasync=, end_fsync=, sync= */
	bool percentiles_given;		/* percentile_list= was given */
	unsigned int iodepth_batch;	/* iodepth_batch_submit as given; 0: not given */
	uint64_t runtime_us;
	uint64_t ramp_time_us;
	/*
	 * The job's completed I/Os per interval of series_ms, sampled by the
	 * parent from the live counters (stats.h) from its batch's start; when
	 * the series is full, pairs merge and the interval doubles. The last,
	 * partial interval is not kept.
	 */
	uint32_t series_ms;
	uint32_t series_n;
	uint64_t series[IB_EV_SERIES];
	uint64_t series_next_ns, series_last;	/* the sampler's state */
	/*
	 * The job process's scheduler time (/proc/PID/schedstat, read as it
	 * exited): on a CPU and runnable waiting for one, over its life. A
	 * process that wants a CPU all along is CPU-bound, however busy the
	 * machine is with others.
	 */
	bool sched_ok;
	uint64_t sched_run_ns, sched_wait_ns, sched_wall_ns;
	uint64_t vol_switches;		/* it blocked (I/O, a wait): /proc/PID/status */
	/* the job's first target (env.h) */
	int target_kind;		/* enum ib_env_kind */
	char disk[IB_ENV_STR];		/* "" on tmpfs and the like */
	char fstype[IB_ENV_STR];	/* files only */
	bool zram, loop;
	int write_cache;		/* 1 write back, 0 through, -1 unknown */
	/* device counters of `disk` over the job's batch (probe.h) */
	bool dev_ok;
	uint64_t dev_read_bytes, dev_write_bytes;
	/* the job's range before its batch started */
	bool resident_ok;
	uint64_t resident_pages, range_pages;
	bool alloc_ok;			/* file: SEEK_DATA; loop: backing; zram: mm_stat */
	uint64_t alloc_size, alloc_data;
	/* written data: compressed/original of a sample (probe.h); -1 none */
	double compress_ratio;
	/* seeds */
	int seed_source;		/* enum ib_seed_source */
	uint64_t seed;			/* randseed=N that replays the job (0x89 default) */
	uint32_t seed_offset, seed_ddir, seed_bs;	/* the streams' seeds */
	/* self-calibration (calibrate.h) */
	bool calibrated;
	double clock_ns;		/* one clock read */
	double tool_ns_per_io;		/* null engine, the job's settings */
};

#define IB_CHECK_MSG 256
#define IB_CHECK_EV_MAX 6

struct ib_check_ev {
	char key[32];
	double val;
	bool is_int;	/* print as an integer */
};

/* One check that fired. */
struct ib_check_hit {
	const char *id;
	enum ib_check_sev sev;
	char msg[IB_CHECK_MSG];
	unsigned int nr_ev;
	struct ib_check_ev ev[IB_CHECK_EV_MAX];
};

struct ib_results;

/* What one check looks at: job `idx` of the document, its evidence. */
struct ib_check_ctx {
	const struct ib_results *res;
	unsigned int idx;
	const struct ib_evidence *ev;
};

/* Fills h (id and severity are set by the caller) and returns true to fire. */
typedef bool (*ib_check_fn)(const struct ib_check_ctx *c, struct ib_check_hit *h);

struct ib_check {
	const char *id;		/* stable: --warnings, JSON "id" */
	enum ib_check_sev sev;
	ib_check_fn fn;
	const char *what;	/* one line for the documentation */
};

extern const struct ib_check ib_checks[];
extern const unsigned int ib_nr_checks;	/* <= 64: one bit each in a mask */

#define IB_CHECKS_ALL (~(uint64_t)0)

/*
 * --warnings=all|none|ID,ID...: the mask of checks to run (bit i is
 * ib_checks[i]). 0, or -EINVAL naming the unknown id.
 */
int ib_checks_parse(const char *spec, uint64_t *mask, struct ib_diag *d);

/*
 * Run the checks of `mask` on job idx of res (res->evidence must be set,
 * else nothing fires): up to max hits into out, in table order. Returns
 * the number of hits.
 */
unsigned int ib_checks_run(const struct ib_results *res, unsigned int idx,
			   uint64_t mask, struct ib_check_hit *out, unsigned int max);

/*
 * The record as the JSON object "iobench evidence" (every field, by its
 * name in the struct) and back (evidence_json.c): false when o is no
 * object; missing keys keep their unknown values.
 */
struct ib_json;
struct ib_jv;
void ib_evidence_json(struct ib_json *j, const struct ib_evidence *ev);
bool ib_evidence_from_json(struct ib_evidence *ev, const struct ib_jv *o);

/* Helpers for the check functions (checks_util.c). */
void ib_check_ev_add(struct ib_check_hit *h, const char *key, double val, bool is_int);
void ib_check_msg(struct ib_check_hit *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
