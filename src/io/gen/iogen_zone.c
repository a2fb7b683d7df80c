// SPDX-License-Identifier: GPL-2.0-only
/*
 * zonemode=strided (job.h struct ib_job_zone): the offset generator's one
 * file region becomes the zone being served. fio's rules, each seen in its
 * write_iolog (doc/options.md):
 * - a zone is zonerange bytes from its start; zonesize bytes of I/O (every
 *   direction, trims and trimwrite's writes too) are done in it, then the
 *   next zone starts zonerange + zoneskip further on; a start at or past
 *   the file's end goes back to the region's start;
 * - at a zone's start, and after each zonerange bytes of I/O in it, every
 *   sequential position goes back to the zone's start and the random map
 *   is cleared (zonesize above zonerange goes over the zone again);
 * - a sequential position at or past zonerange goes back to the zone's
 *   start; random offsets are drawn over the zone's zonerange;
 * - the pass ends where the next I/O would pass the file's end, or where
 *   the zone's random map is used up before either rule above clears it;
 *   the next pass starts over from the first zone while loops= has passes
 *   left, then only with io_size= (and a largest block of it left) or
 *   time_based. Within a pass the walk goes on over the whole budget.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iogen_priv.h"

/* Every position to the zone's start, the random map or permutation anew. */
static void zone_reset(struct ib_iogen *g, struct ib_gen_file *gf)
{
	int d;

	for (d = IB_DDIR_READ; d < IB_DDIR_RWT; d++)
		gf->pos[d] = 0;
	if (gf->map)
		iogen_map_clear(gf);
	if (gf->perm && gf->nblocks)
		ib_randperm_init(gf->perm, gf->nblocks, ib_rand64(&g->off_rand));
}

/*
 * Serve the zone at start: the file region is that zone (a random job's
 * zonerange, set once; a sequential one's goes on to the file's end).
 */
static void zone_enter(struct ib_iogen *g, struct ib_gen_file *gf, uint64_t start)
{
	struct ib_gen_zone *z = &g->zone;

	z->start = start;
	z->bytes = 0;
	gf->start = start;
	if (!ib_job_random(g->job))
		gf->len = z->end > start ? z->end - start : 0;
	zone_reset(g, gf);
}

/*
 * The pass is over: the next one from the first zone, if there is one
 * (see above; never after a pass that did no I/O). False: the job ends.
 */
bool iogen_zone_new_pass(struct ib_iogen *g, struct ib_gen_file *gf)
{
	const struct ib_job *job = g->job;
	struct ib_gen_zone *z = &g->zone;
	bool more;

	z->passes++;
	more = job->time_based || z->passes < job->loops ||
	       ((job->io_size || job->io_size_pct) && g->bytes_left >= g->pass_min);
	if (!more || g->ios_left == z->pass_ios_left) {
		g->bytes_left = 0;
		return false;
	}
	z->pass_ios_left = g->ios_left;
	zone_enter(g, gf, z->first);
	return true;
}

/* Does the I/O [off, off + len) of the zone pass the file's end? */
bool iogen_zone_past_end(const struct ib_iogen *g, uint64_t off, uint64_t len)
{
	return g->zone.start + off + len > g->zone.end;
}

/*
 * Before direction d's next I/O from gf (the job's one file): the next
 * zone or the zone again, as the rules above say; false where the pass
 * ends and no new one starts (the job is over).
 */
bool iogen_zone_next(struct ib_iogen *g, struct ib_gen_file *gf, enum ib_ddir d)
{
	struct ib_gen_zone *z = &g->zone;
	uint64_t next;

	if (z->bytes >= z->size) {
		next = z->start + z->range + z->skip;
		zone_enter(g, gf, next >= z->end ? z->first : next);
	} else if (z->bytes % z->range == 0) {
		zone_reset(g, gf);
	}
	if (!ib_job_random(g->job) && gf->pos[d] >= z->range)
		gf->pos[d] = 0;
	/* the file's end, or the zone's random map used up */
	return !iogen_region_used(g, gf, d) || iogen_zone_new_pass(g, gf);
}

/*
 * Zones for a job with them (validate.c: one file, random blocks no larger
 * than a zone): the walk starts at the region's start and goes to the
 * file's end; a random job's region is a zone's blocks, its random map
 * sized for them. 0 or -errno (d filled).
 */
int iogen_zone_init(struct ib_iogen *g, const struct ib_file *f, struct ib_diag *d)
{
	const struct ib_job *job = g->job;
	struct ib_gen_zone *z = &g->zone;
	struct ib_gen_file *gf = g->files;

	z->size = job->zone.size;
	z->range = job->zone.range ? job->zone.range : job->zone.size;
	z->skip = job->zone.skip;
	z->first = f->io_offset;
	z->end = f->real_size > f->io_offset ? f->real_size : f->io_offset + f->io_size;
	z->pass_ios_left = g->ios_left;
	gf->pass_len = UINT64_MAX;	/* iogen_zone_new_pass() ends passes */
	if (ib_job_random(job)) {	/* draws past the file's end end a pass */
		gf->nblocks = z->range / g->granule;
		gf->len = gf->nblocks * g->granule;
		gf->map_words = (gf->nblocks + 63) / 64;
	}
	if (gf->map) {
		free(gf->map);
		gf->map = calloc(map_bytes(gf->nblocks), 1);
		if (!gf->map)
			return ib_diag_set(d, ENOMEM, "%s: no memory for the random map",
					   f->path);
	}
	zone_enter(g, gf, z->first);
	return 0;
}
