/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_VRUN_H
#define IOBENCH_VRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/loop.h"
#include "iobench/source.h"
#include "iobench/verify.h"

/*
 * Data verification in a running job (verify=, fio 3.33's model):
 *
 * Write phase. The job's source (the offset generator) is wrapped: each
 * write gets, in the loop's prep hook, a verify block (verify.h) whose
 * numberio is the job's write count and whose payload seed is a function
 * of the job seed, the offset and numberio; a completed write is recorded
 * (offset, length, write number: numberio is its low 16 bits, the seed
 * follows) in completion order. A pass ends after
 * io_size bytes (fio verifies after every loop), or on the clock
 * (time_based). With verify_backlog=N, every N completed writes make the
 * wrapper hand out verify_backlog_batch reads of the oldest unverified
 * records before more writes (fio's inline verify).
 *
 * Verify phase (do_verify=1, the job writes): the records left, with any
 * block a later write overlapped dropped (norandommap, time_based wraps,
 * several loops), are read back in write order by the verify source and
 * checked in the done hook. The reads are the job's reads; the worker
 * gives each phase its own runtime (fio: the write numbers stay the write
 * phase's; backlog reads are in the write phase's time, the read runtime
 * is the verify phases').
 *
 * verify_only: the write phase is a dry run (the generator's offsets are
 * recorded, nothing is written), then the verify phase checks them
 * without numberio or seed (unknown: another run wrote them). A read-only
 * job with verify= checks every block it reads the same way.
 *
 * A writing job's loop serializes overlaps (loop.h): two writes of one
 * block in flight could land in either order, the older one last.
 *
 * A read that does not match while a later write of the job overlaps its
 * block (completed before the read: an async job's next pass overtaking a
 * backlog check; serialized, none is in flight beside it) is not an
 * error: the newer write is checked in its turn.
 * Any other mismatch is EILSEQ, decided by continue_on_error/ignore_error
 * (ioerr.h) as a read error of the loop, and fatal with verify_fatal (bad
 * data only, fio's rule). Each one's fio text (ib_verify_describe) goes to
 * st->verify_msg while whole ones fit, for the parent to print; its main
 * line goes to error_where / first_error_where. verify_dump writes the
 * bad interval as read and as written to "<target name>.<offset>.received"
 * and ".expected" (fio's names; offset: the interval's) in the target's
 * directory (the working directory for a device); blind checks write no
 * expected file (the block's numberio and seed are unknown).
 *
 * The hooks allocate only when the record list grows (doubling).
 *
 * verify_state_save (a job that writes, not verify_only): the records are
 * kept once verified (only those a later write overlapped are dropped:
 * about 24 bytes per block written), and at the job's end, interrupted
 * or not, ib_vstate_save() writes them to the state file. The loop has
 * drained by then: every write issued has completed (listed) or failed
 * (not listed). verify_state_load (verify_only or a read job): the state
 * file's records are the job's one verify phase, checked with their
 * numberio and seed (the saved payload seed), nothing else is read.
 * verify_write_sequence=0: numberio is not compared.
 */
struct ib_vrec {
	uint64_t offset;
	uint64_t seq;		/* the job's write number, from 0 */
	uint32_t len;
	uint16_t file_idx;
};

struct ib_vrun {
	struct ib_source wsrc;		/* write phase: wraps inner */
	struct ib_source rsrc;		/* verify phase: the records */
	struct ib_source *inner;
	const struct ib_job *job;
	struct ib_engine_ctx *ctx;
	struct ib_loop *loop;		/* set by the owner after ib_loop_init */
	struct ib_verify_spec spec;
	struct ib_vpattern pattern;
	uint64_t seed_base;
	uint32_t voff;			/* verify_offset */
	uint64_t pass_bytes;		/* UINT64_MAX: no pass end */
	uint64_t pass_left;
	uint64_t seq;			/* writes prepared so far */
	struct ib_vrec *recs;		/* completed writes, in order */
	size_t nr, cap, head;		/* head: next to verify */
	struct ib_vrec *unit;		/* per I/O unit: the block in it */
	struct ib_vrec cur;		/* what the source just handed out */
	bool cur_set;
	bool verifying;			/* in a verify phase: nothing was
					 * written again (overlaps dropped) */
	bool blind;			/* verify_only or a read-only job:
					 * numberio and seed unknown */
	bool check_nio;			/* verify_write_sequence, not blind */
	bool keep_all;			/* verify_state_save: keep verified
					 * records for the state file */
	bool loaded;			/* verify_state_load: records from
					 * the state file */
	unsigned int backlog_due;	/* backlog reads still to hand out */
	unsigned int since_backlog;
	uint64_t mismatches;
	uint64_t rewritten;		/* bad reads of blocks written again
					 * meanwhile: not errors */
	uint64_t lost;			/* records not kept (no memory) */
	void *scratch;			/* verify_dump: the expected block */
};

/* Does the job verify at all (verify= set, an engine doing I/O)? */
bool ib_vrun_wanted(const struct ib_job *job, const struct ib_engine_ops *ops);

/*
 * Set up over ctx (units allocated) wrapping inner, whose passes are
 * pass_bytes long (UINT64_MAX: one endless pass). 0 or -errno (d).
 */
int ib_vrun_init(struct ib_vrun *v, const struct ib_job *job,
		 struct ib_engine_ctx *ctx, struct ib_source *inner,
		 uint64_t pass_bytes, struct ib_diag *d);
void ib_vrun_free(struct ib_vrun *v);

/* The write phase's source (the wrapper) and the verify phase's. */
static inline struct ib_source *ib_vrun_write_source(struct ib_vrun *v)
{
	return &v->wsrc;
}
struct ib_source *ib_vrun_verify_source(struct ib_vrun *v);

/* verify_only's dry run of one pass: record what the pass would write. */
void ib_vrun_dry_pass(struct ib_vrun *v);
/* May another write pass come (the inner source has more)? Starts it. */
bool ib_vrun_next_pass(struct ib_vrun *v);
/* Is there a verify phase after the pass (do_verify, records to check)? */
bool ib_vrun_verify_due(const struct ib_vrun *v);

/*
 * Append a completed write's record. When the list is full, the records
 * already verified (backlog) go first, then those a later write overlapped;
 * it doubles only when that freed less than a quarter: a long time_based
 * run keeps about one record per block of its region, not one per write.
 */
void ib_vrun_record(struct ib_vrun *v, const struct ib_vrec *r);
/* Drop the unverified records a later write overlapped (write order kept). */
void ib_vrun_drop_overwritten(struct ib_vrun *v);
/* The same over every record, verified ones too (head follows). */
void ib_vrun_drop_overwritten_all(struct ib_vrun *v);
/* Hand out the record at head as a read of the current phase. */
void ib_vrun_take(struct ib_vrun *v, uint64_t now_ns, struct ib_io_desc *out);

/*
 * Verify state files (vstate.c; the format is in doc/fio-compat.md).
 * The name fio gives job's: "local-NAME-N-verify.state", NAME the job's
 * name with '/' as '.', N its number from 0 (fio's thread index).
 */
void ib_vstate_name(const struct ib_job *job, char *out, size_t len);
/* Write v's records (overwritten ones dropped first) to path, through a
 * temporary file renamed over it. 0 or -errno (d). */
int ib_vstate_save(struct ib_vrun *v, const char *path, struct ib_diag *d);
/* Make path's records v's, to verify with their numberio and seed: the
 * verify type must be the job's and the files within its own. 0 or
 * -errno (d). */
int ib_vstate_load(struct ib_vrun *v, const char *path, struct ib_diag *d);

/* The loop hooks (arg: the ib_vrun). */
void ib_vrun_prep(void *arg, struct ib_io *io);
void ib_vrun_done(void *arg, const struct ib_io *io);

#endif
