/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_IOGEN_H
#define IOBENCH_IOGEN_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/rand.h"
#include "iobench/randdist.h"
#include "iobench/randperm.h"
#include "iobench/source.h"

struct ib_spr;

/*
 * Decides what the next I/O is: direction, file, offset and length. Pure
 * computation over explicit state, no I/O, so it is unit-tested exactly.
 *
 * - Files (file_service_type): roundrobin:N (default N = 1) serves each
 *   file N I/Os in turn; sequential serves a file until this pass has
 *   done its region's bytes, then the next; random:N picks a file not yet
 *   done in this pass for N I/Os; zipf/pareto/normal pick one per I/O with
 *   that distribution over the files (randdist.h). A pass ends when every
 *   file is done (or, for roundrobin, never needs to).
 * - openfiles=N below the number of files (fio's rule): the choice above
 *   moves on (wrapping) to the first file not done in this pass that is
 *   active or for which one of the N slots is free; a file holds its slot
 *   from its first I/O until its region is done in this pass (files[].active:
 *   source_files.h opens and closes the fds to match).
 * - percentage_random (random types): each I/O is random with that
 *   probability, else it follows the direction's last I/O in its file.
 * - allrandrepeat: every stream from the job's fixed seeds, as randrepeat.
 * - Sequential: each direction keeps its own position per file and wraps to
 *   the region start at its end (a new pass). rw=TYPE:N (job.h rw_seq_add)
 *   puts the next I/O N bytes after the end of the last; one that would
 *   start before the region starts at region length + N (backwards, fio's
 *   rule), one that would not fit wraps to the region start.
 * - Block sizes: bs, a bsrange draw, or a bssplit draw (bssplit.h).
 * - Trims: rw=trim/randtrim trim blocks as reads would read them;
 *   trimwrite/randtrimwrite trim a block, then write the same range (the
 *   write is outside the byte budget: size=64k trims 64k and writes 64k,
 *   as fio does).
 * - Random: block = uniform draw over the aligned slots; with the random map
 *   (default) a used block is replaced by the next free aligned block after it
 *   (wrapping), so each block is done exactly once per pass; the map is
 *   cleared when full (fio's exact sequence). norandommap samples with
 *   replacement. random_generator=tausworthe64: the same with 64-bit draws
 *   at every size. The permutation (randperm.h: each block once per pass,
 *   no map, 280 bytes per file) replaces the map for random_generator=lfsr
 *   (with or without norandommap; with several block sizes it runs over
 *   slots of the smallest block and an I/O may cover blocks again, as
 *   fio's lfsr), and, with random_generator not given, for a job of one
 *   block size (aligned to it) whose maps would exceed IB_IOGEN_MAP_MAX
 *   bytes. rw=randTYPE:N
 *   (rw_seq_nr): the N-1 I/Os after a random one follow it back to back
 *   (unless past the region end), outside the random map; with
 *   rw_sequencer=identical they repeat its offset instead.
 * - random_distribution (randdist.h): zipf, pareto and normal pick one of
 *   the file's granules, zoned ones a zone then an aligned offset in it,
 *   uniformly; an I/O that would pass the region end ends at it. No map.
 * - Mixed: read/write drawn from a seeded stream with rwmixread as the
 *   probability, and bounded so the issued read count never strays more than
 *   IB_MIX_SLACK I/Os from rwmixread% of all issued.
 * - sprandom (sprandom.h): every write's block comes from its sequence
 *   (over write blocks of file 0, before any other rule; new blocks from
 *   the file's permutation when its granule is the write block, so a
 *   randrw's reads use up blocks too, as fio's shared lfsr), the byte
 *   budget is its physical size * loops, and the job ends with the
 *   sequence.
 * - The job ends when io_size * loops bytes were handed out (never with
 *   time_based; the worker stops on the clock then), or after number_ios
 *   I/Os of any direction if that comes first.
 *
 * As an I/O source (source.h, ib_iogen_source()) it is closed-loop: always
 * READY with due_ns = now_ns until the byte budget is done, then END. For a
 * plain job (random, one direction, one file, one block size, the random
 * map) its next() is a shorter copy of the general one, chosen at init.
 */
#define IB_MIX_SLACK 4
#define IB_IOGEN_MAP_MAX (1u << 20)	/* random maps of a job, bytes */

struct ib_gen_file {
	uint64_t start;		/* region start (absolute offset) */
	uint64_t len;		/* region length, a multiple of the granule */
	uint64_t pos[IB_DDIR_RWT]; /* sequential position, relative */
	struct ib_randdist_state dist;	/* zipf, pareto, normal */
	uint64_t *map;		/* random map, 1 bit per granule, then a
				 * summary: 1 bit per full map word */
	uint64_t map_words;	/* 64-bit words of the bits part */
	struct ib_randperm *perm;	/* or the permutation of granules */
	uint64_t nblocks;
	uint64_t used;
	uint64_t pass_len;	/* bytes of a pass: len, or its strides' (holes) */
	uint64_t pass_done;	/* bytes issued in this pass */
	bool active;		/* openfiles=N: holds one of the N slots */
	bool found_full;	/* its map's fullness cost a draw in this pass */
};

/* zonemode=strided's walk (iogen_zone.c); size 0: no zones */
struct ib_gen_zone {
	uint64_t size, range, skip;	/* the job's, range never 0 */
	uint64_t first;		/* the region's start: the first zone */
	uint64_t end;		/* the file's end */
	uint64_t start;		/* the zone being served */
	uint64_t bytes;		/* I/O done in it */
	unsigned int passes;	/* passes ended */
	uint64_t pass_ios_left;	/* ios_left as this pass started */
};

struct ib_iogen {
	struct ib_source src;	/* ops = &ib_iogen_source_ops */
	const struct ib_job *job;
	struct ib_gen_file *files;
	struct ib_randperm *perms;	/* nr_files of them, or NULL */
	unsigned int nr_files;
	unsigned int next_file;	/* the file being served */
	unsigned int file_left;	/* I/Os left before the next pick */
	unsigned int files_done;	/* done in this pass */
	bool file_picked;
	unsigned int open_max;	/* openfiles=N below nr_files, else 0 */
	unsigned int nr_active;	/* files holding a slot (<= open_max) */
	struct ib_rand file_rand;
	struct ib_randdist_state file_dist;
	uint64_t granule;	/* random map unit: smallest block alignment */
	/* per direction, fixed at init (the hot path reads, never derives): */
	uint64_t step[IB_DDIR_RWT];	/* alignment in granules, >= 1 */
	uint64_t need[IB_DDIR_RWT];	/* smallest block in granules, >= 1 */
	bool plain[IB_DDIR_RWT];	/* uniform, no runs, 100% random */
	enum ib_ddir fast_ddir;	/* the direction of a plain job's fast next() */
	uint64_t bytes_left;	/* UINT64_MAX: unlimited (time_based) */
	/* bytes_left is a limit (fio's whole last I/O) when not 0: a new
	 * pass needs this much left, the largest block (trimwrite with
	 * io_size: more than half of it, iogen_budget.c) */
	uint64_t pass_min;
	uint64_t fast_gate;	/* the fast next() looks closer below this */
	uint64_t ios_left;	/* number_ios (UINT64_MAX: no limit) */
	unsigned int seq_left;	/* rw=randTYPE:N: I/Os to the next draw */
	uint64_t issued[IB_DDIR_RWT];
	bool write_after_trim;	/* trimwrite: the trimmed range is next */
	struct ib_io_desc trimmed;
	struct ib_gen_zone zone;
	struct ib_rand off_rand;
	struct ib_rand dir_rand;
	struct ib_rand bs_rand[IB_DDIR_RWT];	/* fio's: one per direction */
	uint32_t bs_r[IB_DDIR_RWT];	/* each one's last draw */
	/* sprandom (sprandom.h): file 0's writes, new blocks from spr_perm */
	struct ib_spr *spr;
	struct ib_randperm *spr_perm;	/* files[0].perm, or its own */
	bool spr_perm_own;
	unsigned int maps_dropped;	/* softrandommap: files without their map */
};

/*
 * Set up for a job over its opened files (regions from files[i].io_offset /
 * io_size). Seeds of IB_STREAM_OFFSET/DDIR/BS (rand.h): randrepeat -> fixed
 * per job number; randseed=N -> from N; otherwise from getrandom(). 0 or
 * -errno (d filled).
 */
int ib_iogen_init(struct ib_iogen *g, const struct ib_job *job,
		  const struct ib_file *files, unsigned int nr_files,
		  struct ib_diag *d);
/* Next I/O into *out (due_ns untouched); false when the budget is done. */
bool ib_iogen_next(struct ib_iogen *g, struct ib_io_desc *out);
/* Bytes the generator will hand out from here, at most (0: no end known). */
uint64_t ib_iogen_plan(const struct ib_iogen *g);
void ib_iogen_free(struct ib_iogen *g);

extern const struct ib_source_ops ib_iogen_source_ops;

/* The generator as the job loop's source (valid after ib_iogen_init()). */
static inline struct ib_source *ib_iogen_source(struct ib_iogen *g)
{
	return &g->src;
}

#endif
