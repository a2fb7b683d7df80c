/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_REPLAY_H
#define IOBENCH_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/job.h"
#include "iobench/source.h"
#include "iobench/stats.h"
#include "iobench/trace.h"

/*
 * Trace replay (read_iolog=, fio's replay_* options): the trace readers
 * (trace.h) as an I/O source of the job loop (source.h).
 *
 * Two passes over the trace, both through the same mapping (below):
 *   ib_replay_plan    in the parent, after parsing (ib_plan_replays,
 *                     plan.h; the job is validated again after it) and
 *                     before anything is opened: runs
 *                     merge_blktrace_file's merge, reads the whole trace
 *                     and makes the job describe it (filename= the targets,
 *                     rw= the directions present, bs= the smallest and
 *                     largest lengths, size= the largest end for regular
 *                     files). The runner's usual checks then apply as to
 *                     any job: a replay with writes is refused on a mounted
 *                     or signature-bearing device, files are laid out to
 *                     the trace's extent. It also refuses, with one line
 *                     naming the trace file and its line (iolog) or record
 *                     (blktrace): a bad trace, an I/O ending beyond a block
 *                     device, a write under --readonly (before anything is
 *                     opened for writing). On error the job is unchanged
 *                     and nothing was written.
 *   the source        in the job: the trace again, record by record.
 *
 * Mapping a record to an I/O (ib_replay_map):
 *   - targets: replay_redirect= takes every I/O; otherwise an iolog's file
 *     names, or for blktrace the device the record names (/dev/NAME from
 *     /sys/dev/block/MAJ:MIN). Targets are numbered in the order of their
 *     first I/O, which is the order of the job's filename= list.
 *   - offset / replay_scale, then rounded down to replay_align.
 *   - trims are IB_DDIR_TRIM I/Os; sync and datasync lines (blktrace: a
 *     flush without data) are IB_DDIR_SYNC descs of len 0 (the offset
 *     the line has, which write_iolog logs as fio does; datasync set for
 *     datasync), which the loop runs after a drain
 *     (loop.h). replay_skip= directions (read, write, trim, sync) and
 *     add/open/close/wait lines give no I/O. Every target is open for the
 *     whole job, so open and close lines only name files.
 * Timing: an I/O is due at its recorded time (from the first I/O of the
 * trace, i.e. the source's first call) times 100 / replay_time_scale;
 * version 2 iologs have no times: each wait line (HOWTO: microseconds since
 * the previous wait) pushes the due time of what follows. replay_no_stall:
 * every I/O is due at once, the loop issues as fast as iodepth allows.
 * The loop keeps up to iodepth I/Os in flight, so a trace's own
 * concurrency is reproduced up to iodepth.
 *
 * Repeats: loops=N replays the trace N times, and time_based replays it
 * again and again until the runtime ends. Each pass reads the trace anew
 * (standard input: its copy, from the start) and is due from where the
 * previous pass's last I/O was (v2 iologs: the waits go on adding up).
 * fio 3.33 replays once whatever loops= and time_based say: it has no
 * reset logic for a trace, which its author calls a gap to fill
 * (axboe/fio#749); iobench fills it.
 *
 * Lateness (struct ib_replay_stats in the job's stats): every replayed I/O
 * is measured from its due time to when the loop prepared it.
 */

/* The most distinct targets one trace may name. */
#define IB_REPLAY_MAX_TARGETS 256

struct ib_replay_map {
	uint64_t scale, align;		/* 1, 0: as recorded */
	unsigned int skip;		/* 1u << enum ib_ddir */
	bool redirect;			/* one target for all */
	bool blktrace;			/* keys are devices, else iolog indexes */
	unsigned int nr;		/* targets met so far */
	uint64_t key[IB_REPLAY_MAX_TARGETS];
};

void ib_replay_map_init(struct ib_replay_map *m, const struct ib_job *job,
			enum ib_trace_format fmt);
/*
 * The I/O a record stands for: 1 (out filled, its file_idx the target's
 * number; due_ns untouched), 0 (no I/O, see above), -E2BIG with a diag
 * line when the trace names more than IB_REPLAY_MAX_TARGETS targets.
 * *is_new says the record's target was met for the first time.
 */
int ib_replay_map(struct ib_replay_map *m, const struct ib_trace *t,
		  const struct ib_trace_rec *rec, struct ib_io_desc *out,
		  bool *is_new, struct ib_diag *d);

/*
 * Is "-" (standard input) one of the ':'-separated names of spec? The plan
 * then copies standard input into a memory file that becomes fd 0, and the
 * job reads that from its start (one job only: numjobs=1).
 */
bool ib_replay_names_stdin(const char *spec);

/*
 * Several traces (read_iolog=A:B:...) without merge_blktrace_file: as in
 * fio 3.33, each clone of the job replays one of them, clone i the
 * (i mod N)-th, so numjobs=1 replays A only. Keeps that name alone in
 * job->replay.iolog (a new string) and returns 1 (each clone is then planned
 * on its own); 0 (unchanged) for a single trace or a merge; -ENOMEM.
 */
int ib_replay_per_clone(struct ib_job *job);

/* See above. readonly: --readonly. 0 or -errno (d: one line). */
int ib_replay_plan(struct ib_job *job, bool readonly, struct ib_diag *d);

/* The replay source. */
struct ib_replay {
	struct ib_source src;		/* ops = &ib_replay_source_ops */
	struct ib_trace *t;
	struct ib_replay_map map;
	unsigned int nr_files;		/* the job's targets */
	bool no_stall;
	unsigned int time_scale;	/* percent */
	bool have;			/* desc holds the next I/O */
	bool started;
	bool ended;
	bool have_first;
	struct ib_io_desc desc;
	uint64_t first_ns;		/* recorded time of the first I/O */
	uint64_t rec_ns;		/* desc's time from it (scaled) */
	uint64_t wait_ns;		/* v2: waits so far (scaled) */
	uint64_t start_ns;		/* the loop's time at the first call */
	/* loops= / time_based: the trace again from its start, each pass
	 * due where the previous one's last I/O was (see above) */
	const char *spec;		/* the job's read_iolog (reopened) */
	unsigned int passes_left;	/* after this one; UINT_MAX: forever */
	uint64_t pass_ns;		/* this pass's start, from the first */
	uint64_t pass_ios;		/* I/Os this pass gave so far */
	int error;			/* a reader error (diag), 0 */
	struct ib_diag diag;
	struct ib_replay_stats st;
};

/*
 * Open job->replay.iolog (the merged file with merge_blktrace_file) for a
 * job with nr_files targets (the plan's). 0 or -errno.
 */
int ib_replay_init(struct ib_replay *r, const struct ib_job *job,
		   unsigned int nr_files, struct ib_diag *d);
/* The same over an open trace (tests); r takes t. */
void ib_replay_init_trace(struct ib_replay *r, const struct ib_job *job,
			  struct ib_trace *t, unsigned int nr_files);
void ib_replay_free(struct ib_replay *r);

extern const struct ib_source_ops ib_replay_source_ops;

static inline struct ib_source *ib_replay_source(struct ib_replay *r)
{
	return &r->src;
}

#endif
