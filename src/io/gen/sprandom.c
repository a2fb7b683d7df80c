// SPDX-License-Identifier: GPL-2.0-only
/*
 * sprandom's model and write sequence. See sprandom.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/sprandom.h"

static double spaced(double a, double b, unsigned int i, unsigned int n)
{
	return n > 1 ? a + (b - a) * (double)i / (double)(n - 1) : a;
}

/* y at x on the polyline (xs, ys), xs increasing; flat past its ends. */
static double interp(double x, const double *xs, const double *ys,
		     unsigned int n)
{
	unsigned int i;

	if (x <= xs[0])
		return ys[0];
	for (i = 0; i + 1 < n; i++)
		if (x <= xs[i + 1])
			return ys[i] + (ys[i + 1] - ys[i]) *
			       (x - xs[i]) / (xs[i + 1] - xs[i]);
	return ys[n - 1];
}

static void fill_invalid(unsigned int n, double op, double *x, double *y,
			 uint32_t *out)
{
	double v_gc = 1.0 - 1.0 / (0.5 / op + 0.7), acc = 0.0, v;
	unsigned int i;

	for (i = 0; i < n; i++) {
		y[i] = spaced(1.0, v_gc, i, n);
		acc += 1.0 / y[i];
		x[i] = acc;
	}
	for (i = 0; i < n; i++) {
		/* the oldest region (0) at the curve's least valid end */
		v = interp(spaced(x[0], x[n - 1], n - 1 - i, n), x, y, n);
		out[i] = (uint32_t)lround((1.0 - v) * IB_SPR_PCT_SCALE);
	}
}

void ib_spr_invalid_pct(unsigned int n, double op, uint32_t *out)
{
	double *x = calloc(n, sizeof(*x)), *y = calloc(n, sizeof(*y));

	if (x && y)
		fill_invalid(n, op, x, y, out);
	else
		memset(out, 0, n * sizeof(*out));	/* no memory: none kept */
	free(x);
	free(y);
}

int ib_spr_plan_init(struct ib_spr_plan *p, uint64_t logical, uint64_t bs,
		     unsigned int regions, double op, uint64_t cache,
		     struct ib_diag *d)
{
	memset(p, 0, sizeof(*p));
	if (!bs || (bs & (bs - 1)))
		return ib_diag_set(d, EINVAL,
				   "sprandom: the write block size (%llu) must be a power of 2",
				   (unsigned long long)bs);
	p->logical = logical;
	p->physical = logical + (uint64_t)ceil((double)logical * op);
	p->physical = (p->physical + bs - 1) & ~(bs - 1);
	p->bs = bs;
	p->regions = regions;
	p->op = op;
	p->cache = cache;
	p->region_bytes = regions ? p->physical / regions : 0;
	p->region_ios = p->region_bytes / bs;
	if (!p->region_ios)
		return ib_diag_set(d, EINVAL,
				   "spr_num_regions=%u: regions of %llu bytes are smaller than the block (%llu) on %llu physical bytes",
				   regions, (unsigned long long)p->region_bytes,
				   (unsigned long long)bs,
				   (unsigned long long)p->physical);
	if (cache > p->region_bytes)
		return ib_diag_set(d, EINVAL,
				   "spr_cs=%llu: larger than a region (%llu bytes: at most %llu regions for this cache)",
				   (unsigned long long)cache,
				   (unsigned long long)p->region_bytes,
				   (unsigned long long)(p->physical / cache));
	return 0;
}

int ib_spr_init(struct ib_spr *s, const struct ib_spr_plan *p, uint32_t seed,
		struct ib_diag *d)
{
	memset(s, 0, sizeof(*s));
	s->plan = *p;
	s->invalid = calloc(p->regions, sizeof(*s->invalid));
	if (!s->invalid)
		return ib_diag_set(d, ENOMEM, "sprandom: no memory for %u regions",
				   p->regions);
	ib_spr_invalid_pct(p->regions, p->op, s->invalid);
	s->left = p->region_ios;
	ib_rand_seed(&s->rand, seed);
	return 0;
}

void ib_spr_free(struct ib_spr *s)
{
	free(s->invalid);
	free(s->prev.b);
	free(s->cur.b);
	memset(s, 0, sizeof(*s));
}

/* Append b; on no memory the block is just not kept (fewer rewrites). */
static void list_push(struct ib_spr_list *l, uint64_t b)
{
	uint64_t *nb;

	if (l->n == l->cap) {
		nb = realloc(l->b, (l->cap ? l->cap * 2 : 1024) * sizeof(*nb));
		if (!nb)
			return;
		l->b = nb;
		l->cap = l->cap ? l->cap * 2 : 1024;
	}
	l->b[l->n++] = b;
}

static bool list_pop(struct ib_spr_list *l, uint64_t *b)
{
	if (l->next == l->n)
		return false;
	*b = l->b[l->next++];
	return true;
}

/* Keep block b for the next region with this region's invalid share. */
static void maybe_keep(struct ib_spr *s, uint64_t b)
{
	/* region n (one past the last) is fully valid, as the last one */
	uint32_t pct = s->region < s->plan.regions ? s->invalid[s->region] : 0;

	if (ib_rand_below(&s->rand, IB_SPR_PCT_SCALE + 1) <= pct)
		list_push(&s->cur, b);
}

/* A kept block of the region before, to rewrite now (kept again maybe). */
static bool rewrite(struct ib_spr *s, uint64_t *block)
{
	if (!list_pop(&s->prev, block))
		return false;
	maybe_keep(s, *block);
	s->rewrites++;
	return true;
}

/* The next region: this one's kept blocks become the ones to rewrite. */
static void next_region(struct ib_spr *s)
{
	struct ib_spr_list t = s->prev;

	s->prev = s->cur;
	s->cur = t;
	s->cur.n = s->cur.next = 0;
	s->region++;
	s->left = s->plan.region_ios - (s->prev.n - s->prev.next);
}

bool ib_spr_next(struct ib_spr *s, struct ib_randperm *perm, uint64_t *block)
{
	bool cache = s->plan.cache != 0;

	if (!cache && rewrite(s, block))
		return true;
	if (!s->left) {
		if (cache && rewrite(s, block))
			return true;
		if (s->region >= s->plan.regions)
			return false;
		next_region(s);
	}
	if (perm->pass || perm->i == perm->n) {
		/* no new block: with a cache, the deferred rewrites still go */
		if (cache && list_pop(&s->prev, block)) {
			s->rewrites++;
			return true;
		}
		return false;
	}
	*block = ib_randperm_next(perm);
	if (s->left)
		s->left--;
	maybe_keep(s, *block);
	return true;
}
