// SPDX-License-Identifier: GPL-2.0-only
/*
 * The offset generator's choice of the next file: file_service_type and
 * openfiles=N (see iogen.h).
 */
#include "iogen_priv.h"

/*
 * File i is done in this pass and passed over. fio finds a file with a
 * random map done by drawing an offset for it and finding the map full:
 * the first time in a pass, that draw is spent (the next file's offsets
 * come after it in the stream).
 */
static void pass_over(struct ib_iogen *g, unsigned int i)
{
	struct ib_gen_file *gf = &g->files[i];

	if (gf->found_full || !gf->map || !ib_job_random(g->job))
		return;
	gf->found_full = true;
	if (g->job->rand_gen == IB_RANDGEN_TAUS64)
		(void)ib_rand64(&g->off_rand);
	else
		(void)ib_rand32(&g->off_rand);
}

/* The first file from i on (wrapping) not done in this pass. */
static unsigned int next_open_file(struct ib_iogen *g, unsigned int i)
{
	unsigned int n;

	if (g->files_done >= g->nr_files) {	/* a new pass */
		for (n = 0; n < g->nr_files; n++) {
			g->files[n].pass_done = 0;
			g->files[n].found_full = false;
		}
		g->files_done = 0;
		if (g->job->file_service != IB_FS_RANDOM)
			i = 0;	/* fio: each pass from the first file */
	}
	for (n = 0; n < g->nr_files && file_done(g, i); n++) {
		pass_over(g, i);
		i = i + 1 == g->nr_files ? 0 : i + 1;
	}
	return i;
}

/* file_service_type's choice of a new file (see iogen.h). */
unsigned int iogen_new_file(struct ib_iogen *g)
{
	unsigned int cur = g->next_file, nr = g->nr_files;

	switch (g->job->file_service) {
	case IB_FS_ROUNDROBIN:	/* fio: a file done is passed over */
		return next_open_file(g, g->file_picked ? (cur + 1) % nr : 0);
	case IB_FS_SEQUENTIAL:
		return next_open_file(g, g->file_picked ? cur : 0);
	case IB_FS_RANDOM:
		return next_open_file(g, (unsigned int)ib_rand_below(&g->file_rand, nr));
	default:
		return (unsigned int)(ib_randdist_next(&g->file_dist, &g->file_rand) >> FILE_SHIFT);
	}
}

/* openfiles=N: may file i take the next I/O (open, or a slot free)? */
static bool can_take(const struct ib_iogen *g, unsigned int i)
{
	return !file_done(g, i) &&
	       (g->files[i].active || g->nr_active < g->open_max);
}

/*
 * openfiles=N (fewer than the files): file_service_type's choice, moved on
 * (wrapping) to the first file that is open or can be opened; a file stays
 * open until its region is done in this pass, as in fio.
 */
unsigned int iogen_limited_file(struct ib_iogen *g)
{
	unsigned int i = next_open_file(g, iogen_new_file(g)), n;

	for (n = 0; n < g->nr_files && !can_take(g, i); n++)
		i = i + 1 == g->nr_files ? 0 : i + 1;
	if (!g->files[i].active) {
		g->files[i].active = true;
		g->nr_active++;
	}
	return i;
}

/* file_service_type's file for the next I/O: the same one while its
 * service keeps it, else a new choice (see iogen.h). */
unsigned int iogen_pick_file(struct ib_iogen *g)
{
	unsigned int fs = g->job->file_service;
	bool stay;

	if (fs == IB_FS_SEQUENTIAL)
		stay = g->file_picked && !file_done(g, g->next_file);
	else
		stay = g->file_left > 0 &&
		       ((fs != IB_FS_RANDOM && fs != IB_FS_ROUNDROBIN) ||
			!file_done(g, g->next_file));
	if (g->open_max && file_done(g, g->next_file))
		stay = false;
	if (stay) {
		g->file_left--;
		return g->next_file;
	}
	g->next_file = g->open_max ? iogen_limited_file(g) : iogen_new_file(g);
	g->file_picked = true;
	g->file_left = g->job->file_service_nr - 1;
	return g->next_file;
}
