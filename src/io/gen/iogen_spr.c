// SPDX-License-Identifier: GPL-2.0-only
/*
 * sprandom in the offset generator (iogen.h, sprandom.h): the plan over
 * file 0's region, the byte budget, each write's offset.
 */
#include <errno.h>
#include <stdlib.h>
#include "iobench/sprandom.h"
#include "iogen_priv.h"

/*
 * The new blocks' permutation: the file's own when its blocks are the
 * writes' (randrw: reads and new writes then draw from one permutation, as
 * fio's lfsr, and the sequence ends when together they used it up), else
 * one of its own over the write blocks.
 */
static int spr_perm(struct ib_iogen *g, uint64_t nblocks)
{
	struct ib_gen_file *gf = &g->files[0];

	if (gf->perm && gf->nblocks == nblocks) {
		g->spr_perm = gf->perm;
		return 0;
	}
	g->spr_perm = calloc(1, sizeof(*g->spr_perm));
	g->spr_perm_own = true;
	if (!g->spr_perm)
		return -ENOMEM;
	return ib_randperm_init(g->spr_perm, nblocks, ib_rand64(&g->off_rand));
}

int iogen_spr_init(struct ib_iogen *g, struct ib_diag *d)
{
	const struct ib_job *job = g->job;
	const struct ib_gen_file *gf = &g->files[0];
	uint64_t bs = job->bs.min[IB_DDIR_WRITE], logical;
	struct ib_spr_plan p;
	int ret;

	logical = bs && !(bs & (bs - 1)) ? gf->len & ~(bs - 1) : gf->len;
	ret = ib_spr_plan_init(&p, logical, bs, job->spr_regions, job->spr_op,
			       job->spr_cs, d);
	if (ret)
		return ret;
	if (logical < bs)
		return ib_diag_set(d, EINVAL, "sprandom: the file region (%llu bytes) is smaller than the block (%llu)",
				   (unsigned long long)gf->len, (unsigned long long)bs);
	g->spr = calloc(1, sizeof(*g->spr));
	if (!g->spr)
		return ib_diag_set(d, ENOMEM, "sprandom: no memory");
	ret = spr_perm(g, logical / bs);
	if (!ret)
		ret = ib_spr_init(g->spr, &p, ib_rand32(&g->off_rand), d);
	if (ret)
		return ret == -ENOMEM ? ret : ib_diag_set(d, -ret, "sprandom: setup failed");
	if (!job->time_based)	/* fio: io_size becomes the physical size */
		g->bytes_left = p.physical * job->loops;
	return 0;
}

/*
 * A write: the sequence's next block (*ok false: its end). A read, when
 * reads share the permutation: the end once it is used up (fio's lfsr has
 * no block left for it either); otherwise the usual way (false).
 */
bool iogen_spr_offset(struct ib_iogen *g, enum ib_ddir d, uint64_t *off,
		      bool *ok)
{
	struct ib_randperm *p = g->spr_perm;
	uint64_t b;

	if (d != IB_DDIR_WRITE) {
		if (g->spr_perm_own || (!p->pass && p->i < p->n))
			return false;
		*ok = false;
		return true;
	}
	*ok = ib_spr_next(g->spr, p, &b);
	if (*ok)
		*off = b * g->spr->plan.bs;
	return true;
}

void iogen_spr_free(struct ib_iogen *g)
{
	if (g->spr)
		ib_spr_free(g->spr);
	free(g->spr);
	if (g->spr_perm_own)
		free(g->spr_perm);
	g->spr_perm_own = false;
	g->spr = NULL;
	g->spr_perm = NULL;
}
