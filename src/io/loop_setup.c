// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job loop's units and queues: made and freed. See loop.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "loop_priv.h"

int ib_loop_init(struct ib_loop *l, const struct ib_loop_cfg *cfg,
		 struct ib_diag *d)
{
	unsigned int i, depth = cfg->ctx->nr_ios;

	memset(l, 0, sizeof(*l));
	l->c = *cfg;
	l->keep = ib_stats_keep(cfg->job);
	l->wake_ns = UINT64_MAX;
	l->last_ns = ib_clock_ns(cfg->clock);
	l->free_ios = calloc(depth, sizeof(void *));
	l->pending = calloc(depth, sizeof(void *));
	l->requeue = calloc(depth, sizeof(void *));
	l->done = calloc(depth, sizeof(void *));
	l->recs = calloc(depth, sizeof(*l->recs));
	if (cfg->serialize && !(cfg->ops->flags & IB_ENGINE_SYNC)) {
		l->busy = calloc(depth, 1);
		if (!l->busy)
			return ib_diag_set(d, ENOMEM, "no memory for %u I/O units",
					   depth);
	} else {
		l->c.serialize = false;	/* one I/O at a time anyway */
	}
	if (!l->free_ios || !l->pending || !l->requeue || !l->done || !l->recs)
		return ib_diag_set(d, ENOMEM, "no memory for %u I/O units", depth);
	for (i = 0; i < depth; i++)
		l->free_ios[l->nr_free++] = &cfg->ctx->ios[i];
	/* sync engines, and the null engine at depth 1, complete inline */
	l->stamp_issue = cfg->lat_on && ((cfg->ops->flags & IB_ENGINE_SYNC) ||
					 ((cfg->ops->flags & IB_ENGINE_NOIO) &&
					  depth == 1));
	ib_loop_batch_init(l);
	return 0;
}

void ib_loop_free(struct ib_loop *l)
{
	free(l->free_ios);
	free(l->pending);
	free(l->requeue);
	free(l->done);
	free(l->recs);
	free(l->busy);
	l->busy = NULL;
	l->free_ios = l->pending = l->requeue = l->done = NULL;
	l->recs = NULL;
}
