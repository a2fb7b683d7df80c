// SPDX-License-Identifier: GPL-2.0-only
/*
 * The offset generator's setup (iogen.h): seeds, granule, per-file random
 * maps or permutations, the per-direction constants of the hot path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "iobench/bssplit.h"
#include "iobench/jobseed.h"
#include "iogen_priv.h"

static uint64_t job_granule(const struct ib_job *job)
{
	uint64_t g = 0, a;
	int d;

	for (d = IB_DDIR_READ; d < IB_DDIR_RWT; d++) {
		if (!ib_job_dir_active(job, d))
			continue;
		a = dir_align(job, d);
		if (job->bs.min[d] < a)
			a = job->bs.min[d];
		if (!g || a < g)
			g = a;
	}
	return g ? g : 4096;
}

static void seed_streams(struct ib_iogen *g, const struct ib_job *job)
{
	uint32_t s[3 + IB_DDIR_RWT] = {
		ib_rand_job_seed(job, IB_STREAM_OFFSET),
		ib_rand_job_seed(job, IB_STREAM_DDIR),
		ib_rand_job_file_seed(job),
		ib_rand_job_bs_seed(job, IB_DDIR_READ),
		ib_rand_job_bs_seed(job, IB_DDIR_WRITE),
		ib_rand_job_bs_seed(job, IB_DDIR_TRIM),
	};
	int d;

	if (!job->randrepeat && !job->randseed_set && !job->allrandrepeat) {
		if (getrandom(s, sizeof(s), 0) != (ssize_t)sizeof(s))
			s[0] ^= (uint32_t)(uintptr_t)g; /* still varies */
	}
	ib_rand_seed(&g->off_rand, s[0]);
	ib_rand_seed(&g->dir_rand, s[1]);
	ib_rand_seed(&g->file_rand, s[2]);
	for (d = IB_DDIR_READ; d < IB_DDIR_RWT; d++)
		ib_rand_seed(&g->bs_rand[d], s[3 + d]);
}

/* Every active direction does one block size, aligned to it. */
static bool one_block_size(const struct ib_job *job, uint64_t granule)
{
	int d;

	for (d = IB_DDIR_READ; d < IB_DDIR_RWT; d++) {
		if (!ib_job_dir_active(job, d))
			continue;
		if (job->bssplit[d].nr || job->bs.min[d] != granule ||
		    job->bs.max[d] != granule || dir_align(job, d) != granule)
			return false;
	}
	return true;
}

/* The permutation instead of the random map? (see iogen.h) */
static bool use_perm(const struct ib_job *job, const struct ib_file *files,
		     unsigned int nr_files, uint64_t granule)
{
	uint64_t bytes = 0;
	unsigned int i;

	if (!ib_job_random(job) || job->rand_dist != IB_DIST_RANDOM)
		return false;
	if (job->rand_gen == IB_RANDGEN_LFSR)
		return true;
	if (job->rand_gen != IB_RANDGEN_AUTO || job->norandommap ||
	    !one_block_size(job, granule))
		return false;
	for (i = 0; i < nr_files && bytes <= IB_IOGEN_MAP_MAX; i++)
		bytes += map_bytes(files[i].io_size / granule);
	return bytes > IB_IOGEN_MAP_MAX;
}

static int init_file(struct ib_iogen *g, unsigned int i, const struct ib_file *f,
		     struct ib_diag *d)
{
	struct ib_gen_file *gf = &g->files[i];

	gf->start = f->io_offset;
	gf->len = f->io_size - f->io_size % g->granule;
	gf->pass_len = gf->len;
	gf->nblocks = gf->len / g->granule;
	if (g->job->rand_dist != IB_DIST_RANDOM) {
		ib_randdist_init(&gf->dist, g->job->rand_dist, g->job->rand_param,
				 g->job->rand_center, gf->nblocks, &g->off_rand);
		return 0;
	}
	if (g->perms) {
		if (gf->nblocks && ib_randperm_init(&g->perms[i], gf->nblocks,
						    ib_rand64(&g->off_rand)) == 0)
			gf->perm = &g->perms[i];
		return 0;
	}
	if (!ib_job_random(g->job) || g->job->norandommap || !gf->nblocks)
		return 0;
	gf->map_words = (gf->nblocks + 63) / 64;
	gf->map = calloc(map_bytes(gf->nblocks), 1);
	if (gf->map)
		return 0;
	gf->map_words = 0;
	if (g->job->softrandommap) { /* with replacement, as norandommap */
		g->maps_dropped++;
		return 0;
	}
	return ib_diag_set(d, ENOMEM, "%s: no memory for the random map of %llu blocks: norandommap=1 or softrandommap=1 to go on without it",
			   f->path, (unsigned long long)gf->nblocks);
}

/* The per-direction constants of the hot path (iogen.h). */
static void init_dirs(struct ib_iogen *g)
{
	const struct ib_job *job = g->job;
	int d;

	for (d = IB_DDIR_READ; d < IB_DDIR_RWT; d++) {
		g->step[d] = dir_align(job, d) / g->granule;
		g->need[d] = job->bs.min[d] / g->granule;
		if (!g->step[d])
			g->step[d] = 1;
		if (!g->need[d])
			g->need[d] = 1;
		g->plain[d] = job->rw_seq_nr <= 1 && job->pct_random[d] >= 100 &&
			      job->rand_dist == IB_DIST_RANDOM;
	}
}

static void fast_init(struct ib_iogen *g);

int ib_iogen_init(struct ib_iogen *g, const struct ib_job *job,
		  const struct ib_file *files, unsigned int nr_files,
		  struct ib_diag *d)
{
	unsigned int i;
	uint64_t total, ios;
	int ret;

	memset(g, 0, sizeof(*g));
	g->src.ops = &ib_iogen_source_ops;
	g->job = job;
	g->granule = job_granule(job);
	g->nr_files = nr_files;
	g->files = calloc(nr_files, sizeof(*g->files));
	if (!g->files)
		return ib_diag_set(d, ENOMEM, "no memory for %u files", nr_files);
	seed_streams(g, job);	/* before the files: distributions draw */
	if (job->file_service >= IB_FS_ZIPF) {
		ib_randdist_init(&g->file_dist, IB_DIST_ZIPF + job->file_service - IB_FS_ZIPF,
				 job->file_service_param, -1,
				 (uint64_t)nr_files << FILE_SHIFT, &g->file_rand);
		g->file_dist.no_spread = true;
	}
	init_dirs(g);
	if (use_perm(job, files, nr_files, g->granule)) {
		g->perms = calloc(nr_files, sizeof(*g->perms));
		if (!g->perms)
			return ib_diag_set(d, ENOMEM, "no memory for %u permutations",
					   nr_files);
	}
	total = 0;
	for (i = 0; i < nr_files; i++) {
		ret = init_file(g, i, &files[i], d);
		if (ret)
			return ret;
		total += g->files[i].len;
	}
	if (job->time_based)
		g->bytes_left = UINT64_MAX;
	else
		iogen_budget_init(g, files, nr_files, total);
	/* fio counts number_ios per loops= pass (its limit is number_ios
	 * times the pass number): with one block size, number_ios * loops;
	 * a trimwrite job's are pairs (fio: number_ios trims and writes) */
	ios = job->number_ios * (ib_job_trimwrite(job) ? 2 : 1);
	g->ios_left = ios && ios <= UINT64_MAX / job->loops ? ios * job->loops : UINT64_MAX;
	g->seq_left = 1;	/* fio: the first I/O is drawn */
	if (job->openfiles && job->openfiles < nr_files)
		g->open_max = job->openfiles;
	if (job->sprandom && (ret = iogen_spr_init(g, d)))
		return ret;
	if (job->zone.mode == IB_ZONE_STRIDED && (ret = iogen_zone_init(g, files, d)))
		return ret;
	fast_init(g);
	return 0;
}

void ib_iogen_free(struct ib_iogen *g)
{
	unsigned int i;

	for (i = 0; g->files && i < g->nr_files; i++)
		free(g->files[i].map);
	iogen_spr_free(g);
	free(g->files);
	free(g->perms);
	g->files = NULL;
	g->perms = NULL;
}

/*
 * The fast next() when every I/O takes gen_next()'s shortest way: random,
 * one direction (no trim), no runs or distribution, one block size equal
 * to the granule, one file with a random map of 32-bit draws.
 */
static void fast_init(struct ib_iogen *g)
{
	const struct ib_job *job = g->job;
	const struct ib_gen_file *gf = g->files;
	unsigned int rw = job->rw & (IB_RW_READ | IB_RW_WRITE | IB_RW_TRIM);
	enum ib_ddir d = rw == IB_RW_READ ? IB_DDIR_READ : IB_DDIR_WRITE;

	if (!ib_job_random(job) || (rw != IB_RW_READ && rw != IB_RW_WRITE) ||
	    g->nr_files != 1 || !g->plain[d] || job->bssplit[d].nr ||
	    job->bs.min[d] != g->granule || job->bs.max[d] != g->granule ||
	    g->step[d] != 1 || !gf->map || gf->perm ||
	    gf->nblocks > UINT32_MAX || job->rand_gen == IB_RANDGEN_TAUS64 ||
	    g->zone.size)
		return;
	g->fast_ddir = d;
	g->fast_gate = g->pass_min > g->granule ? g->pass_min : g->granule;
	g->src.ops = &iogen_fast_ops;
}
