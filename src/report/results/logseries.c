// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio log records -> chart series per direction, optionally averaged over
 * time windows (see logseries.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "logseries.h"

void ib_logseries_init(struct ib_logseries *ls, unsigned int avg_ms,
		       size_t max_points)
{
	memset(ls, 0, sizeof(*ls));
	ls->avg_ms = avg_ms;
	ls->max_points = max_points;
}

static int grow(struct ib_logseries *ls, unsigned int k)
{
	size_t cap = ls->cap[k] ? ls->cap[k] * 2 : 256;
	double *p;

	p = realloc(ls->x[k], cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	ls->x[k] = p;
	p = realloc(ls->y[k], cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	ls->y[k] = p;
	ls->cap[k] = cap;
	return 0;
}

static int point(struct ib_logseries *ls, unsigned int k, double x, double y)
{
	if (ls->max_points && ls->n[k] == ls->max_points)
		return -E2BIG;
	if (ls->n[k] == ls->cap[k] && grow(ls, k))
		return -ENOMEM;
	ls->x[k][ls->n[k]] = x;
	ls->y[k][ls->n[k]++] = y;
	return 0;
}

/* The window in progress of direction k becomes a point. */
static int close_window(struct ib_logseries *ls, unsigned int k)
{
	double end = (double)(ls->win[k] + 1) * ls->avg_ms / 1000.0;
	int ret;

	if (!ls->cnt[k])
		return 0;
	ret = point(ls, k, end, ls->sum[k] / (double)ls->cnt[k]);
	ls->sum[k] = 0;
	ls->cnt[k] = 0;
	return ret;
}

int ib_logseries_add(void *arg, const struct ib_fiolog_rec *r)
{
	struct ib_logseries *ls = arg;
	unsigned int k = r->ddir < 3 ? r->ddir : 2;
	uint64_t w;
	int ret;

	if (!ls->avg_ms)
		return point(ls, k, (double)r->t_ms / 1000.0, (double)r->value);
	w = r->t_ms / ls->avg_ms;
	if (ls->cnt[k] && w > ls->win[k]) {
		ret = close_window(ls, k);
		if (ret)
			return ret;
	}
	if (!ls->cnt[k])
		ls->win[k] = w;
	ls->sum[k] += (double)r->value;
	ls->cnt[k]++;
	return 0;
}

int ib_logseries_finish(struct ib_logseries *ls)
{
	unsigned int k;
	int ret;

	for (k = 0; k < 3; k++) {
		ret = close_window(ls, k);
		if (ret)
			return ret;
	}
	return 0;
}

struct ib_chart_series ib_logseries_get(const struct ib_logseries *ls,
					unsigned int ddir, const char *name)
{
	struct ib_chart_series s = { name, NULL, NULL, 0 };

	if (ddir < 3) {
		s.x = ls->x[ddir];
		s.y = ls->y[ddir];
		s.n = ls->n[ddir];
	}
	return s;
}

void ib_logseries_free(struct ib_logseries *ls)
{
	unsigned int k;

	for (k = 0; k < 3; k++) {
		free(ls->x[k]);
		free(ls->y[k]);
	}
	memset(ls, 0, sizeof(*ls));
}
