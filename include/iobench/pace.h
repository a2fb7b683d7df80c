/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PACE_H
#define IOBENCH_PACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/job.h"
#include "iobench/rand.h"

/*
 * Pacing: when each I/O of a rate-limited job is due, think time, and the
 * rate_min check. Pure and deterministic over explicit state: it never reads
 * a clock (every time is a parameter, CLOCK_MONOTONIC ns of the worker's
 * clock), never sleeps and never prints, so it is unit-tested exactly.
 *
 * How the worker uses it
 * ----------------------
 * The I/O source asks ib_pace_next_due(p, ddir, len, now) for the I/O it is
 * about to hand out. If the answer is later than now the source says NOT_YET
 * (due at T) and keeps the I/O; the worker waits for T or a completion
 * (reap with a deadline) and asks again; the I/O keeps its due time. The
 * schedule is absolute from the job's start: the k-th I/O of a direction is
 * due at start + (what the k earlier I/Os cost) / rate, whatever happened to
 * them, so nothing is lost when the job falls behind and a stall is caught
 * up at once. fio does the same in both of its processes (backend.c
 * usec_for_io: bytes issued / rate, or the sum of the Poisson gaps, from the
 * job's start): its due times are not relative to the last completion, so
 * closed mode differs from open only in the two points below.
 *   - Open loop (IB_PACE_OPEN): every I/O carries due_ns; it is issued as
 *     soon as a slot is free at or after due_ns, at whatever depth that
 *     takes, up to iodepth; its latency is measured from due_ns, so time
 *     spent waiting behind a slow device counts (no coordinated omission).
 *     When iodepth is exhausted the schedule still advances: the I/Os due
 *     meanwhile get their own (past) due times when slots free, start late,
 *     and ib_pace_started() counts them; ib_pace_backlog() says how many are
 *     due but not started, ib_pace_note_backlog() keeps the deepest.
 *   - Closed loop (IB_PACE_CLOSED, fio): the same due times, but before
 *     waiting for a due time the worker drains every I/O in flight (fio's
 *     quiesce in io_submit_mode=inline), and latency starts at issue.
 *     ib_pace_lat_origin() and ib_pace_drains() say which.
 * With rw mixes ib_pace_pick() chooses the direction as fio does: the one
 * rwmix drew if it is due, else the other one if that is due, else the one
 * due first. Each direction is paced on its own budget.
 * After each issue the worker calls ib_pace_think() (fio's thinktime), and
 * ib_pace_check_min() with its completed totals (rate_min / rate_iops_min).
 *
 * The option: rate_mode=open|closed, default open whenever a rate is set
 * ------------------------------------------------------------------------
 * fio has no open loop; its documentation only points at io_submit_mode=
 * offload as the way around coordinated omission. Someone who sets
 * rate_iops=5000 describes arrivals: 5000 requests a second that do not wait
 * for the device. The latency such a client sees runs from when it wanted
 * the I/O to start; fio's (from issue) hides every queueing delay exactly
 * when the device cannot keep up, which is when a rate test matters. Below
 * saturation the two agree (each I/O is issued at its due time), so fio job
 * files keep their numbers; above it open loop reports the truth. Hence
 * rate_mode=open by default when rate or rate_iops is set, with lateness
 * (count, total, worst, backlog) reported; rate_mode=closed gives fio's
 * numbers for side-by-side comparison. The name follows the rate_* family
 * (rate_process, rate_cycle) so it sorts and is found with them, and fio
 * has no option of that name (fio 3.33 --cmdhelp=rate_mode: "No such
 * command"), so a job file meant for both cannot mean something else by it.
 *
 * Semantics (fio 3.33, checked against its HOWTO, source and binary)
 * -------------------------------------------------------------------
 * - Rates are per job (numjobs clones each get the full rate; measured:
 *   numjobs=2 rate_iops=1000 gives 1000 IOPS per job) and per direction:
 *   read, write, trim, with no rate for a direction leaving it unpaced.
 * - rate (bytes/s) paces bytes: due = start + bytes before / rate, exact in
 *   integer ns with the remainder carried, so variable block sizes get the
 *   byte rate exactly.
 * - rate_iops paces I/Os: due = start + k / rate_iops. fio 3.33 turns it
 *   into bytes at the smallest block size instead (measured: rate_iops=1000
 *   with bssplit=4k/50:8k/50 or bsrange=4k-8k gives 674 IOPS); later fio
 *   paces I/Os for bssplit. iobench always paces I/Os: rate_iops=N issues N.
 * - rate and rate_iops (and rate_min and rate_iops_min) are mutually
 *   exclusive; a minimum above its rate is refused (ib_pace_cfg_check).
 * - Poisson: exponential gaps by inverse transform from the direction's own
 *   taus88 stream (seed + direction), mean 1e9 / rate_iops ns, or for rate
 *   in bytes len * 1e9 / rate (fio uses the smallest block size there).
 */

enum ib_pace_process {
	IB_PACE_LINEAR = 0,	/* rate_process=linear: fixed gaps */
	IB_PACE_POISSON = 1,	/* rate_process=poisson: exponential gaps */
};

enum ib_pace_mode {
	IB_PACE_OPEN = 0,	/* rate_mode=open (the default with a rate) */
	IB_PACE_CLOSED = 1,	/* rate_mode=closed: fio's behaviour */
};

enum ib_think_type {
	IB_THINK_COMPLETE = 0,	/* thinktime_blocks_type=complete (default) */
	IB_THINK_ISSUE = 1,	/* thinktime_blocks_type=issue */
};

/* What the options fill. Times in microseconds as in struct ib_job. */
struct ib_pace_cfg {
	uint64_t rate[IB_DDIR_RWT];		/* bytes/s; 0: none */
	uint64_t rate_iops[IB_DDIR_RWT];	/* I/Os/s; 0: none */
	uint64_t rate_min[IB_DDIR_RWT];		/* bytes/s floor; 0: none */
	uint64_t rate_iops_min[IB_DDIR_RWT];	/* I/Os/s floor; 0: none */
	enum ib_pace_process process;
	uint32_t seed;				/* Poisson streams */
	enum ib_pace_mode mode;
	unsigned int rate_cycle_ms;		/* rate_cycle [1000] */
	uint64_t thinktime_us;			/* 0: no think time */
	uint64_t thinktime_spin_us;		/* busy part, <= thinktime */
	uint64_t thinkcycles;			/* spin turns before each next I/O */
	uint64_t thinktime_blocks;		/* [1] */
	bool thinktime_blocks_set;		/* given explicitly */
	enum ib_think_type thinktime_blocks_type;
	uint64_t thinktime_iotime_us;		/* 0: none */
	bool ignore_thinktime;			/* rate_ignore_thinktime */
	uint64_t late_us;			/* lateness counted above this [0] */
};

/* fio waits this long before the first rate_min check. */
#define IB_PACE_MIN_SETTLE_MS 2000

struct ib_pace_dir {
	uint64_t rate;		/* units per second; 0: unpaced */
	bool by_ios;		/* units are I/Os (rate_iops), else bytes */
	uint64_t due;		/* due time of the next I/O, absolute ns */
	uint64_t rem;		/* linear: carried remainder, < rate */
	uint64_t step_ns;	/* by_ios linear: 1e9 / rate ... */
	uint64_t step_rem;	/* ... and 1e9 % rate */
	double frac;		/* Poisson: sub-ns part carried */
	uint64_t last_gap;	/* the gap the last I/O added, ns */
	uint64_t last_len;	/* bytes of the last I/O handed out */
	uint64_t ios, bytes;	/* handed out */
	struct ib_rand rng;	/* Poisson */
	/* lateness (ib_pace_started, ib_pace_note_backlog) */
	uint64_t late;		/* I/Os started more than late_us after due */
	uint64_t late_sum_ns;	/* their total lateness */
	uint64_t late_max_ns;	/* worst lateness of any I/O */
	uint64_t backlog_max;	/* deepest backlog noted */
	/* rate_min cycle */
	uint64_t min_bytes, min_ios, min_ns;
};

struct ib_pace {
	struct ib_pace_cfg cfg;
	uint64_t start_ns;
	struct ib_pace_dir dir[IB_DDIR_RWT];
	uint64_t think_blocks;	/* the block count at the last stall */
	uint64_t think_ns;	/* end of the last stall (thinktime_iotime) */
};

/* Defaults: no rate, linear, open, rate_cycle 1000, thinktime_blocks 1. */
void ib_pace_cfg_defaults(struct ib_pace_cfg *c);
/*
 * fio's checks, with its messages: -EINVAL "rate and rate_iops are mutually
 * exclusive" or "minimum rate exceeds rate, ddir N"; 0 when fine.
 */
int ib_pace_cfg_check(const struct ib_pace_cfg *c, struct ib_diag *d);
/* Whether the configuration paces or thinks at all (the worker's fast path). */
bool ib_pace_active(const struct ib_pace_cfg *c);
/* Start pacing at start_ns (the job's start). thinktime_spin is capped at thinktime. */
void ib_pace_init(struct ib_pace *p, const struct ib_pace_cfg *c, uint64_t start_ns);

static inline bool ib_pace_rated(const struct ib_pace *p, enum ib_ddir ddir)
{
	return ddir < IB_DDIR_RWT && p->dir[ddir].rate != 0;
}

/*
 * The intended start of the next I/O of ddir, len bytes, in ns, and advance
 * the schedule past it. An unpaced direction is due at once: returns now.
 * A paced one returns its schedule time, which may be before now (late).
 */
uint64_t ib_pace_next_due(struct ib_pace *p, enum ib_ddir ddir, uint64_t len,
			  uint64_t now);
/* The due time next_due would give ddir's next I/O, without advancing. */
uint64_t ib_pace_peek(const struct ib_pace *p, enum ib_ddir ddir, uint64_t now);
/*
 * fio's choice of direction: want (drawn by rwmix) if it is due by now, else
 * when can_switch (a read/write mix whose other direction has a nonzero
 * share) the other one if due, else whichever of the two is due first.
 */
enum ib_ddir ib_pace_pick(const struct ib_pace *p, enum ib_ddir want,
			  bool can_switch, uint64_t now);

/* Where latency starts: due_ns in open mode, issue_ns in closed mode. */
static inline uint64_t ib_pace_lat_origin(const struct ib_pace *p,
					  uint64_t due_ns, uint64_t issue_ns)
{
	return p->cfg.mode == IB_PACE_OPEN ? due_ns : issue_ns;
}

/* Closed mode drains the I/O in flight before waiting for a due time. */
static inline bool ib_pace_drains(const struct ib_pace *p)
{
	return p->cfg.mode == IB_PACE_CLOSED;
}

/* How far ddir is behind its schedule at now, ns (0: on time or ahead). */
uint64_t ib_pace_lag_ns(const struct ib_pace *p, enum ib_ddir ddir, uint64_t now);
/*
 * How many I/Os of ddir are due at or before now and not handed out yet.
 * Exact for linear rate_iops; for rate in bytes counted in I/Os of the last
 * size (1 before any); for Poisson the arrivals the direction's stream will
 * give (drawn on a copy, at most 1<<20). 0 for an unpaced direction.
 */
uint64_t ib_pace_backlog(const struct ib_pace *p, enum ib_ddir ddir, uint64_t now);
/* An I/O due at due_ns started at start_ns: count its lateness. */
void ib_pace_started(struct ib_pace *p, enum ib_ddir ddir, uint64_t due_ns,
		     uint64_t start_ns);
/* Remember a backlog depth (the worker samples ib_pace_backlog when full). */
void ib_pace_note_backlog(struct ib_pace *p, enum ib_ddir ddir, uint64_t depth);

/* A think-time stall: spin first, then sleep. */
struct ib_think_plan {
	uint64_t spin_ns;
	uint64_t sleep_ns;
};

/*
 * After each I/O issue: is a thinktime stall due? issued and completed are
 * the job's totals over read/write/trim; thinktime_blocks counts one or the
 * other (thinktime_blocks_type). fio's rule: stall when thinktime_iotime has
 * passed since the last stall ended (or the start), or when thinktime_blocks
 * more blocks were counted since the last stall; with thinktime_iotime and no
 * explicit thinktime_blocks only the time counts. left_ns is the runtime left
 * (UINT64_MAX: none), which caps the stall. On true the worker drains the
 * I/O in flight, spins plan->spin_ns, sleeps plan->sleep_ns, then calls
 * ib_pace_think_done().
 */
bool ib_pace_think(struct ib_pace *p, uint64_t issued, uint64_t completed,
		   uint64_t now, uint64_t left_ns, struct ib_think_plan *plan);
/*
 * The stall lasted total_ns and ended at now. With rate_ignore_thinktime the
 * schedules move on by the stall, less one gap for linear (so the next I/O
 * is due at once and no catch-up burst follows, as fio does); without it the
 * stall is caught up. fio moves only the direction of the last I/O; iobench
 * moves every paced direction.
 */
void ib_pace_think_done(struct ib_pace *p, uint64_t total_ns, uint64_t now);

/*
 * rate_min / rate_iops_min, called as fio does after each I/O with the
 * completed totals per direction. Per direction with a minimum and some bytes
 * done: nothing in the first IB_PACE_MIN_SETTLE_MS of the job; then every
 * rate_cycle ms the rate over the cycle is compared with the minimum (bytes
 * when rate_min is set, else I/Os; rates in whole units per second, times in
 * whole ms, as fio). Below: -EIO, the job fails with fio's message, e.g.
 * "job1: rate_iops_min=1000 not met, got 93 IOPS". 0 otherwise.
 */
int ib_pace_check_min(struct ib_pace *p, uint64_t now,
		      const uint64_t bytes[IB_DDIR_RWT],
		      const uint64_t ios[IB_DDIR_RWT], const char *job_name,
		      struct ib_diag *d);

/*
 * The rate limits on fio's status line, summed over the jobs running (not
 * those in ramp_time or setting up) and the directions each does (dirs: bit
 * 1 << ddir, trim included; rate_iops=300 on a read job counts 300, on
 * randrw 600): ", MIN-MAX" in bytes/s when any rate or rate_min is set ("Jobs: 1 (f=1), 200KiB/s-1536KiB/s: [m(1)]..."), else
 * ", MIN-MAX IOPS" ("Jobs: 1 (f=1), 0-300 IOPS: ..."), else nothing (all
 * four checked against fio 3.33).
 */
struct ib_pace_rates {
	uint64_t min_bps, max_bps, min_iops, max_iops;
};

void ib_pace_rates_add(struct ib_pace_rates *s, const struct ib_pace_cfg *c,
		       unsigned int dirs);
/* Writes the text (maybe "") into buf; returns its length. */
size_t ib_pace_rates_str(const struct ib_pace_rates *s, char *buf, size_t len);

#endif
