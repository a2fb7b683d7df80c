// SPDX-License-Identifier: GPL-2.0-only
/*
 * The offset generator's byte budget (iogen.h): what one pass is (the
 * regions, the strides of holes, or a limit as fio counts it), what the
 * job will do in all, and where the budget cuts an I/O or ends a pass.
 * Set up once; the rest is looked at only near the budget's end.
 */
#include "iogen_priv.h"

/*
 * Does a pass end only at its size? A random job without a random map (or
 * of a random_distribution other than random) draws whole blocks anywhere
 * in the regions, and a sequential job mixing reads and writes moves one
 * position per direction, each about its share of the size in: fio issues
 * whole I/Os until the size is reached (size=100k bs=3k: 34 reads; rw=rw:
 * 34 reads and writes; with rwmixread=0 or 100 the one position reaches
 * the end as in a job of one direction: 33).
 */
static bool size_ends_pass(const struct ib_iogen *g)
{
	const struct ib_job *job = g->job;
	int d;

	if (job->zone.mode == IB_ZONE_STRIDED)
		return true;	/* zones wrap: the size alone ends it */
	if (!ib_job_random(job))
		return (job->rw & IB_RW_READ) && (job->rw & IB_RW_WRITE) &&
		       !(job->rw & IB_RW_TRIM) && !job->rw_seq_add &&
		       job->rwmixread && job->rwmixread < 100;
	if (g->perms || job->rw_seq_nr > 1 ||
	    (!job->norandommap && job->rand_dist == IB_DIST_RANDOM))
		return false;
	for (d = IB_DDIR_READ; d < IB_DDIR_RWT; d++)
		if (ib_job_dir_active(job, d) && job->pct_random[d] < 100)
			return false;
	return true;
}

/*
 * A sequential job with holes (rw=TYPE:N, N > 0), one direction, one block
 * size: fio ends its pass over a file where the next I/O would start past
 * the region, not at size= bytes (size=100k bs=4k rw=read:8k: 9 reads), and
 * the file is done then (file_service_type=sequential moves on). Only a
 * skip from before the file's end to past it (a region up to the end of its
 * file) starts the region again: that file is never done, and size= is
 * then a limit. Returns 1 with *bytes the I/O of a pass (the regions
 * unrounded: strides need not fall on the granule), 0 where a file wraps,
 * -1 where this is not such a job. An I/O never goes past the region,
 * where fio's may.
 */
static int holes_pass(struct ib_iogen *g, const struct ib_file *files,
		      unsigned int nr_files, uint64_t *bytes)
{
	const struct ib_job *job = g->job;
	int d, dirs = 0, dd = IB_DDIR_READ, wraps = 0;
	uint64_t bs, step, n, end, region;
	unsigned int i;

	if (ib_job_random(job) || job->rw_seq_add <= 0)
		return -1;
	for (d = IB_DDIR_READ; d < IB_DDIR_RWT; d++)
		if (ib_job_dir_active(job, d)) {
			dirs++;
			dd = d;
		}
	bs = job->bs.min[dd];
	if (dirs != 1 || job->bssplit[dd].nr || job->bs.max[dd] != bs)
		return -1;
	step = bs + (uint64_t)job->rw_seq_add;
	*bytes = 0;
	for (i = 0; i < nr_files; i++) {
		struct ib_gen_file *gf = &g->files[i];

		region = files[i].io_size;
		if (region < bs)
			continue;
		n = (region - bs) / step + 1;	/* starts k * step, k < n */
		end = files[i].io_offset + (n - 1) * step + bs;
		gf->len = region;
		gf->pass_len = n * bs;
		*bytes += n * bs;
		/* fio: the next start, n * step, is taken relative to the
		 * region and compared with the file's size: past it, the
		 * strides go round and the file is never done */
		if (end < files[i].real_size && n * step >= files[i].real_size) {
			gf->pass_len = UINT64_MAX;
			wraps = 1;
		}
	}
	return !wraps;
}

/*
 * Bytes of one pass: the regions (the strides of holes_pass()), or a
 * limit on what is issued (*limit set): io_size, io_size=N% of each file's
 * region (fio's sum of the regions' N%; 0% and 100% are the regions), a
 * size= below the files that filesize= sized, or the regions' bytes where
 * a pass ends only at it (size_ends_pass()) or holes start a region again.
 * fio issues whole I/Os until it reaches a limit (the last one crosses it)
 * and starts a new pass only while a largest block of it is left
 * (pass_min).
 */
static uint64_t pass_bytes(struct ib_iogen *g, const struct ib_file *files,
			   unsigned int nr_files, uint64_t total, bool *limit)
{
	const struct ib_job *job = g->job;
	uint64_t sum = 0;
	unsigned int i;
	int holes;

	*limit = true;
	if (job->io_size_pct && job->io_size_pct < 100) {
		for (i = 0; i < nr_files; i++)
			sum += files[i].io_size * job->io_size_pct / 100;
	} else if (job->io_size) {
		sum = job->io_size;
	} else if (job->filesize_min && job->size && job->size < total) {
		sum = job->size;
	} else {
		holes = holes_pass(g, files, nr_files, &sum);
		if (holes == 1 || (holes < 0 && !size_ends_pass(g))) {
			*limit = false;
			return holes == 1 ? sum : total;
		}
		/* the regions' bytes, as a limit */
		for (sum = 0, i = 0; i < nr_files; i++)
			sum += g->files[i].len ? files[i].io_size : 0;
	}
	return sum;
}

/*
 * The budget of a job that is not time_based: L passes; a limit over loops
 * is cumulative (pass k ends at k times it, fio), and with one, pass_min.
 */
void iogen_budget_init(struct ib_iogen *g, const struct ib_file *files,
		       unsigned int nr_files, uint64_t total)
{
	const struct ib_job *job = g->job;
	bool limit;
	uint64_t pass = pass_bytes(g, files, nr_files, total, &limit);

	g->bytes_left = pass <= UINT64_MAX / job->loops ?
			pass * job->loops : UINT64_MAX;
	g->pass_min = limit ? ib_job_max_bs(job) : 0;
	/* trimwrite: io_size caps the writes of a pass, but a new pass
	 * starts only while the trims and writes so far are below it (fio:
	 * io_size=2m over 256k trims 1 MiB and writes 1 MiB, io_size=128k
	 * does 128 KiB of each) */
	if (ib_job_trimwrite(job) && limit &&
	    (job->io_size || job->io_size_pct) && job->loops == 1 &&
	    pass / 2 + 1 > g->pass_min)
		g->pass_min = pass / 2 + 1;
}

uint64_t ib_iogen_plan(const struct ib_iogen *g)
{
	uint64_t bs = ib_job_max_bs(g->job);

	if (g->bytes_left == UINT64_MAX)
		return 0;
	if (g->ios_left != UINT64_MAX && bs && g->ios_left <= g->bytes_left / bs)
		return g->ios_left * bs;	/* number_ios ends it first */
	return g->bytes_left;
}

/*
 * The last I/O of the budget: the largest bssplit size that fits (as fio
 * picks), else the budget rounded down to the smallest block size.
 */
uint64_t iogen_tail_len(const struct ib_iogen *g, enum ib_ddir d)
{
	const struct ib_bssplit *s = &g->job->bssplit[d];
	uint64_t best = 0;
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->perc[i] && s->bs[i] <= g->bytes_left && s->bs[i] > best)
			best = s->bs[i];
	return best ? best : g->bytes_left - g->bytes_left % g->job->bs.min[d];
}

/*
 * Would the next I/O of direction d from gf start a new pass over it?
 * Not with zones: iogen_zone.c ends their passes itself.
 */
bool iogen_pass_over(const struct ib_iogen *g, const struct ib_gen_file *gf,
		     enum ib_ddir d)
{
	return !g->zone.size && iogen_region_used(g, gf, d);
}

/*
 * The fast next()'s end, looked at with less than a block, or than a
 * limit's largest block, left: a budget of regions ends there, a limit
 * only when it is spent or a new pass would start (iogen_pass_over()).
 */
bool iogen_fast_end(const struct ib_iogen *g)
{
	if (!g->pass_min)
		return g->bytes_left < g->granule;
	return !g->bytes_left || (g->bytes_left < g->pass_min &&
				  iogen_pass_over(g, g->files, g->fast_ddir));
}
