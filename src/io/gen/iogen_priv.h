// SPDX-License-Identifier: GPL-2.0-only
/*
 * The offset generator's parts (iogen.c, the hot path; iogen_init.c;
 * iogen_budget.c; iogen_file.c): what one calls in another. Private to src/io/gen/.
 */
#ifndef IOBENCH_IOGEN_PRIV_H
#define IOBENCH_IOGEN_PRIV_H

#include <string.h>
#include "iobench/iogen.h"

#define MAP_FULL_WORD UINT64_MAX
#define FILE_SHIFT 10	/* file distributions: 1024 ranges per file (fio) */

static inline uint64_t dir_align(const struct ib_job *job, int d)
{
	return job->bs.align[d] ? job->bs.align[d] : job->bs.min[d];
}

/* Bytes of the random map of nblocks granules (bits plus summary words). */
static inline uint64_t map_bytes(uint64_t nblocks)
{
	return ((nblocks + 63) / 64 + (nblocks + 4095) / 4096) * sizeof(uint64_t);
}

/* The random map cleared: a new pass over its granules. */
static inline void iogen_map_clear(struct ib_gen_file *gf)
{
	memset(gf->map, 0, map_bytes(gf->nblocks));
	gf->used = 0;
}

/*
 * Is gf's region used up for direction d's next I/O (the sequential
 * position at its end, the random map or permutation full)?
 */
static inline bool iogen_region_used(const struct ib_iogen *g,
				     const struct ib_gen_file *gf, enum ib_ddir d)
{
	if (!ib_job_random(g->job))
		return gf->pos[d] + g->job->bs.min[d] > gf->len;
	if (gf->perm)
		return gf->perm->i == gf->perm->n;
	return gf->map && gf->used >= gf->nblocks;
}

/* Is file i's region done in this pass? */
static inline bool file_done(const struct ib_iogen *g, unsigned int i)
{
	return g->files[i].pass_done >= g->files[i].pass_len;
}

/* iogen.c: the iogen source with plain jobs' fast next() (iogen_init.c) */
extern const struct ib_source_ops iogen_fast_ops;

/* iogen_budget.c: bytes_left and pass_min of a job not time_based */
void iogen_budget_init(struct ib_iogen *g, const struct ib_file *files,
		       unsigned int nr_files, uint64_t total);
/* the last I/O of a budget of regions: what fits of direction d */
uint64_t iogen_tail_len(const struct ib_iogen *g, enum ib_ddir d);
/* would d's next I/O from gf start a new pass over it? */
bool iogen_pass_over(const struct ib_iogen *g, const struct ib_gen_file *gf,
		     enum ib_ddir d);
/* the fast next(), below its gate: is the budget at its end? */
bool iogen_fast_end(const struct ib_iogen *g);

/* iogen_file.c: file_service_type's choice of a new file (see iogen.h) */
unsigned int iogen_new_file(struct ib_iogen *g);
/* openfiles=N: that choice, moved on to a file open or that can be opened */
unsigned int iogen_limited_file(struct ib_iogen *g);
/* the file of the next I/O of a job of several files */
unsigned int iogen_pick_file(struct ib_iogen *g);

/*
 * iogen_len.c: a length drawn for direction d of a job of several block
 * sizes (fio's streams and rules); the same draw fitted to limit bytes,
 * drawn again while it does not fit (see there).
 */
uint64_t iogen_len_draw(struct ib_iogen *g, enum ib_ddir d);
uint64_t iogen_len_refit(struct ib_iogen *g, enum ib_ddir d, uint64_t limit);

/* iogen_zone.c: zonemode=strided's walk over the job's one file */
int iogen_zone_init(struct ib_iogen *g, const struct ib_file *f, struct ib_diag *d);
/* before direction d's next I/O: the zone it goes to (false: the end) */
bool iogen_zone_next(struct ib_iogen *g, struct ib_gen_file *gf, enum ib_ddir d);
/* does [off, off + len) of the zone pass the file's end? */
bool iogen_zone_past_end(const struct ib_iogen *g, uint64_t off, uint64_t len);
/* the pass is over: the next one, or false (the job ends) */
bool iogen_zone_new_pass(struct ib_iogen *g, struct ib_gen_file *gf);

/* iogen_spr.c: sprandom's sequence for the job (sprandom.h) */
int iogen_spr_init(struct ib_iogen *g, struct ib_diag *d);
/* true: d's offset is sprandom's, into *off, *ok false at the end */
bool iogen_spr_offset(struct ib_iogen *g, enum ib_ddir d, uint64_t *off,
		      bool *ok);
void iogen_spr_free(struct ib_iogen *g);

#endif
