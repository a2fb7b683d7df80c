/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_INTERVAL_H
#define IOBENCH_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/hist.h"
#include "iobench/job.h"
#include "iobench/stats.h"

/*
 * Per-interval statistics (doc/live-statistics.md) without a cost per I/O.
 *
 * The worker already compares its clock with the sampler's next deadline
 * after every reap batch (sampler.h); with intervals on, one more deadline
 * joins it: at each boundary origin + k * interval (one grid for every
 * job of the run, from the runner's start) the worker copies its
 * cumulative counters, one latency kind's Welford stats and histogram
 * into snapshot k of its ring, a small MAP_SHARED area of its own. The
 * parent takes differences of consecutive snapshots: an interval's
 * numbers are exact and consistent (one writer, one copy), and because
 * the snapshots are cumulative the differences telescope: their sums are
 * the final report's totals whatever the parent missed or was late for.
 *
 * A snapshot is written under a sequence lock: seq is odd while the copy
 * is under way; a reader copies, then checks that seq did not move. With
 * two entries the parent has a whole interval to read snapshot k before
 * k + 2 overwrites it. The last snapshot (the job's end, `final`) goes
 * into the entry after the last one written.
 */
#define IB_IV_RING 2

struct ib_iv_dir {
	uint64_t io_bytes;
	uint64_t ios;
	struct ib_lat_stat lat;		/* of the ring's kind */
	struct ib_hist hist;		/* the kind's histogram */
};

struct ib_iv_snap {
	uint64_t seq;		/* odd: being written */
	uint64_t no;		/* its number among the ring's snapshots */
	uint64_t k;		/* interval index: taken at origin + k * ival */
	uint64_t t_ns;		/* when it was taken (CLOCK_MONOTONIC) */
	uint64_t measure_ns;	/* when the measured run started (after ramp) */
	uint32_t gen;		/* measured-run restarts (ramp end): a new base */
	bool final;		/* the job's last one: its totals */
	uint32_t inflight;	/* I/Os in flight when it was taken */
	uint64_t errors;	/* I/O errors counted (total_err) */
	struct ib_iv_dir dir[IB_DDIR_RWT];
};

struct ib_iv_ring {
	struct ib_iv_snap e[IB_IV_RING];
	uint64_t published;	/* snapshots written, final included */
} ib_cacheline_aligned;

/*
 * The latency kind a job's intervals carry: the one its report's
 * percentiles use (total latency with lat_percentiles or when clat is
 * disabled, else completion latency); IB_LAT_NR when it keeps none.
 */
enum ib_lat_kind ib_iv_kind(const struct ib_job *job);

/*
 * Worker side: write st's cumulative numbers as snapshot k at t_ns
 * (final: the job's end). gen counts the resets of st so far.
 */
void ib_iv_publish(struct ib_iv_ring *r, const struct ib_job_stats *st,
		   enum ib_lat_kind kind, uint64_t k, uint64_t t_ns,
		   uint64_t measure_ns, uint32_t gen, unsigned int inflight,
		   bool final);

/*
 * Parent side: copy into *out the newest snapshot that belongs to
 * interval k or before: a boundary snapshot of index <= k, or the final
 * one when taken by bound_ns (UINT64_MAX: any). Returns true when one was
 * read (false: none yet, or the writer was busy on it: try again later).
 */
bool ib_iv_read_upto(const struct ib_iv_ring *r, uint64_t k, uint64_t bound_ns,
		     struct ib_iv_snap *out);

/* dst = cur - base (a new gen: base counts as zero), per direction. */
void ib_iv_delta(struct ib_iv_dir *dst, const struct ib_iv_dir *cur,
		 const struct ib_iv_dir *base);

/*
 * The worker's publisher: its ring (NULL: intervals off), the run's grid
 * (origin, interval) and where it stands on it. Hooked to the sampler's
 * deadline (sampler.h), so that intervals cost nothing per I/O.
 */
struct ib_iv_pub {
	struct ib_iv_ring *ring;
	uint64_t origin_ns;
	uint64_t ival_ns;
	uint64_t due_ns;		/* the next boundary */
	enum ib_lat_kind kind;
	uint32_t gen;
	uint64_t measure_ns;
	const unsigned int *inflight;	/* the loop's count, or NULL */
};

/* A measured run starts at now (job start, ramp end): a new base. */
void ib_iv_pub_restart(struct ib_iv_pub *p, uint64_t now_ns);
/* At a boundary (now >= p->due_ns): snapshot, and the next boundary. */
void ib_iv_pub_take(struct ib_iv_pub *p, const struct ib_job_stats *st,
		    uint64_t now_ns);
/* At the job's end: its final snapshot. */
void ib_iv_pub_final(struct ib_iv_pub *p, const struct ib_job_stats *st,
		     uint64_t now_ns);

/*
 * A snapshot of a job's final slot (a job that ended without writing its
 * final snapshot: killed), at t_ns.
 */
void ib_iv_from_stats(struct ib_iv_snap *out, const struct ib_job_stats *st,
		      enum ib_lat_kind kind, uint64_t t_ns);

#endif
