// SPDX-License-Identifier: GPL-2.0-only
/*
 * random_distribution=: parsing and drawing (see randdist.h for the
 * definitions, which are fio's).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "iobench/parse.h"
#include "iobench/randdist.h"
#include "iobench/strtab.h"

#define SPREAD 0x61C8864680B583EBull	/* fio's golden-ratio multiplier */
#define ZETA_MAX 10000000ull		/* zeta(n) summed this far at most */
#define NORMAL_ITERS 12

static const struct {
	const char *name;
	enum ib_rand_dist type;
} dist_names[] = {
	{ "random", IB_DIST_RANDOM }, { "zipf", IB_DIST_ZIPF },
	{ "pareto", IB_DIST_PARETO }, { "normal", IB_DIST_NORMAL },
	{ "zoned", IB_DIST_ZONED }, { "zoned_abs", IB_DIST_ZONED_ABS },
};

static int parse_double(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return end == s || *end || !isfinite(*out) ? -EINVAL : 0;
}

/* "theta[:center]" of zipf, pareto, normal */
static int parse_params(char *s, struct ib_job *j, const char *v,
			struct ib_diag *d)
{
	char *colon = strchr(s, ':');
	double x = 0, c = -1;

	if (colon)
		*colon = '\0';
	if (parse_double(s, &x) || (colon && parse_double(colon + 1, &c)))
		return ib_diag_set(d, EINVAL, "random_distribution=%s: invalid number", v);
	if (colon && (c < 0 || c > 1))
		return ib_diag_set(d, EINVAL, "random_distribution=%s: the center must be in 0..1", v);
	if (j->rand_dist == IB_DIST_ZIPF && (x <= 0 || x == 1.0))
		return ib_diag_set(d, EINVAL, "random_distribution=%s: zipf theta must be above 0 and not 1", v);
	if (j->rand_dist == IB_DIST_PARETO && (x <= 0 || x >= 1))
		return ib_diag_set(d, EINVAL, "random_distribution=%s: pareto h must be between 0 and 1", v);
	if (j->rand_dist == IB_DIST_NORMAL && (x < 0 || x > 100))
		return ib_diag_set(d, EINVAL, "random_distribution=%s: normal deviation must be in 0..100", v);
	j->rand_param = x;
	j->rand_center = c;
	return 0;
}

#define ZONE_SIZE_MISSING UINT64_MAX

/*
 * "pct/size" of one zone. zoned's size may be left out ("20/", "20") or
 * 0: such a zone takes a share of what the given sizes leave (fio's rule,
 * as in its own examples' zoned:50/5:30/15:20/).
 */
static int parse_zone(char *e, bool abs, unsigned int kb_base,
		      struct ib_zones *z)
{
	char *slash = strchr(e, '/'), *end;
	unsigned long pct;
	uint64_t size = ZONE_SIZE_MISSING;
	struct ib_diag d;

	if ((abs && !slash) || z->nr == IB_ZONES_MAX)
		return -EINVAL;
	if (slash)
		*slash = '\0';
	pct = strtoul(e, &end, 10);
	if (end == e || *end || pct > 100)
		return -EINVAL;
	if (abs) {
		if (ib_parse_size(slash + 1, kb_base, &size, &d))
			return -EINVAL;
	} else if (slash && slash[1]) {
		size = strtoul(slash + 1, &end, 10);
		if (*end || size > 100)
			return -EINVAL;
		if (!size)
			size = ZONE_SIZE_MISSING;
	}
	z->pct[z->nr] = (uint8_t)pct;
	z->size[z->nr++] = size;
	return 0;
}

/* zoned: the sizes left out share what the given ones leave, evenly
 * (rounded down, as fio); -ERANGE when the given ones pass 100. */
static int fill_missing_sizes(struct ib_zones *z)
{
	unsigned int i, missing = 0;
	uint64_t given = 0;

	for (i = 0; i < z->nr; i++) {
		if (z->size[i] == ZONE_SIZE_MISSING)
			missing++;
		else
			given += z->size[i];
	}
	if (given > 100)
		return -ERANGE;
	for (i = 0; missing && i < z->nr; i++)
		if (z->size[i] == ZONE_SIZE_MISSING)
			z->size[i] = (100 - given) / missing;
	return 0;
}

static int parse_zone_list(char *list, bool abs, unsigned int kb_base,
			   struct ib_zones *z)
{
	char *save = NULL, *e;
	unsigned int pct = 0, i;
	uint64_t size = 0;

	memset(z, 0, sizeof(*z));
	for (e = strtok_r(list, ":", &save); e; e = strtok_r(NULL, ":", &save))
		if (parse_zone(e, abs, kb_base, z))
			return -EINVAL;
	if (!abs && fill_missing_sizes(z))
		return -ERANGE;
	for (i = 0; i < z->nr; i++) {
		pct += z->pct[i];
		size += z->size[i];
	}
	if (!z->nr || pct != 100 || (!abs && size > 100))
		return -ERANGE;
	return 0;
}

/* The first zone given a share of the I/Os but no size (1-based), or 0:
 * fio puts such a zone's I/Os all at its start. */
static unsigned int empty_zone(const struct ib_zones *z)
{
	for (unsigned int i = 0; i < z->nr; i++)
		if (z->pct[i] && !z->size[i])
			return i + 1;
	return 0;
}

static int parse_zones(char *s, struct ib_job *j, unsigned int kb_base,
		       const char *v, struct ib_diag *d)
{
	bool abs = j->rand_dist == IB_DIST_ZONED_ABS;
	struct ib_zones zones[IB_DDIR_RWT], *z;
	char *comma;
	int n = 0, last = -1, rc;
	unsigned int empty;

	j->zones = ib_job_no_zones;
	memset(zones, 0, sizeof(zones));
	for (; s; s = comma ? comma + 1 : NULL, n++) {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (n == IB_DDIR_RWT)
			return ib_diag_set(d, EINVAL, "random_distribution=%s: more than read,write,trim lists", v);
		if (!*s)
			continue;
		rc = parse_zone_list(s, abs, kb_base, &zones[n]);
		if (rc == -ERANGE)
			return ib_diag_set(d, EINVAL, "random_distribution=%s: the zones' percentages must add up to 100%s",
					   v, abs ? "" : " and their sizes to at most 100");
		if (rc)
			return ib_diag_set(d, EINVAL, "random_distribution=%s: invalid zone list (pct/%s:...)",
					   v, abs ? "size" : "pct");
		empty = empty_zone(&zones[n]);
		if (empty)
			return ib_diag_set(d, EINVAL, "random_distribution=%s: zone %u has %u%% of the I/Os but no size",
					   v, empty, zones[n].pct[empty - 1]);
		last = n;
	}
	if (last < 0)
		return ib_diag_set(d, EINVAL, "random_distribution=%s: no zones", v);
	for (n = last + 1; n < IB_DDIR_RWT; n++)
		zones[n] = zones[last];
	z = j->strs ? ib_strtab_alloc(j->strs, sizeof(zones)) : NULL;
	if (!z)
		return ib_diag_set(d, ENOMEM, "random_distribution=%s: no memory", v);
	memcpy(z, zones, sizeof(zones));
	j->zones = z;
	return 0;
}

int ib_randdist_parse(const char *v, unsigned int kb_base, struct ib_job *j,
		      struct ib_diag *d)
{
	char buf[4096], *rest;
	size_t i, n;

	if (strlen(v) >= sizeof(buf))
		return ib_diag_set(d, EINVAL, "random_distribution: value too long");
	strcpy(buf, v);
	n = strcspn(buf, ":=");
	rest = buf[n] ? buf + n + 1 : NULL;
	buf[n] = '\0';
	for (i = 0; i < sizeof(dist_names) / sizeof(dist_names[0]); i++)
		if (!strcasecmp(buf, dist_names[i].name))
			break;
	if (i == sizeof(dist_names) / sizeof(dist_names[0]))
		return ib_diag_set(d, EINVAL, "random_distribution=%s: unknown distribution (random, zipf, pareto, normal, zoned, zoned_abs)", v);
	j->rand_dist = dist_names[i].type;
	j->rand_param = 0;
	j->rand_center = -1;
	if (j->rand_dist == IB_DIST_RANDOM)
		return rest ? ib_diag_set(d, EINVAL, "random_distribution=%s: random takes no value", v) : 0;
	if (!rest || !*rest)
		return ib_diag_set(d, EINVAL, "random_distribution=%s: needs a value", v);
	if (j->rand_dist >= IB_DIST_ZONED)
		return parse_zones(rest, j, kb_base, v, d);
	return parse_params(rest, j, v, d);
}

/* A uniform draw in [0, 1] as fio takes it (32-bit draw / its maximum). */
static double unit(struct ib_rand *r)
{
	return (double)ib_rand32(r) / (double)UINT32_MAX;
}

static void zipf_setup(struct ib_randdist_state *s)
{
	uint64_t i, to = s->n < ZETA_MAX ? s->n : ZETA_MAX;

	s->zetan = 0;
	for (i = 1; i <= to; i++)
		s->zetan += pow(1.0 / (double)i, s->theta);
	s->zeta2 = 1.0 + pow(0.5, s->theta);
	s->alpha = 1.0 / (1.0 - s->theta);
	s->eta = (1.0 - pow(2.0 / (double)s->n, 1.0 - s->theta)) /
		 (1.0 - s->zeta2 / s->zetan);
}

void ib_randdist_init(struct ib_randdist_state *s, unsigned int type,
		      double param, double c, uint64_t n, struct ib_rand *r)
{
	memset(s, 0, sizeof(*s));
	s->type = type;
	s->n = n ? n : 1;
	if (s->type == IB_DIST_NORMAL) {
		if (param != 0.0) {
			s->stddev = (uint64_t)ceil((double)s->n * param / 100.0);
			if (s->stddev > s->n / 2)
				s->stddev = s->n / 2;
		}
		s->off = c < 0 ? 0 : (uint64_t)((int64_t)(s->n * 2) +
					       (int64_t)floor((double)s->n * (c - 0.5))) % s->n;
		return;
	}
	s->off = c < 0 ? ib_rand32(r) % s->n : (uint64_t)((double)s->n * c) % s->n;
	if (s->type == IB_DIST_ZIPF) {
		s->theta = param;
		zipf_setup(s);
	} else if (s->type == IB_DIST_PARETO) {
		s->pow_h = log(param) / log(1.0 - param);
	}
}

static uint64_t zipf_rank(const struct ib_randdist_state *s, struct ib_rand *r)
{
	double u = unit(r), z = u * s->zetan;

	if (z < 1.0)
		return 0;
	if (z < 1.0 + pow(0.5, s->theta))
		return 1;
	return (uint64_t)((double)s->n * pow(s->eta * u - s->eta + 1.0, s->alpha));
}

static uint64_t normal_rank(const struct ib_randdist_state *s, struct ib_rand *r)
{
	uint64_t sum = 0;
	int64_t dev;
	int i;

	for (i = 0; i < NORMAL_ITERS; i++)
		sum += ib_rand32(r) % (s->n + 1);
	sum = (sum + NORMAL_ITERS - 1) / NORMAL_ITERS;
	if (!s->stddev)
		return sum;
	dev = (int64_t)((double)s->stddev * ((double)ib_rand32(r) / 4294967296.0)) -
	      (int64_t)(s->stddev / 2);
	while ((int64_t)sum + dev >= (int64_t)s->n || (int64_t)sum + dev < 0)
		dev /= 2;
	return (uint64_t)((int64_t)sum + dev);
}

uint64_t ib_randdist_rank(const struct ib_randdist_state *s, struct ib_rand *r)
{
	switch (s->type) {
	case IB_DIST_ZIPF:
		return zipf_rank(s, r);
	case IB_DIST_PARETO:
		return (uint64_t)((double)(s->n - 1) * pow(unit(r), s->pow_h));
	case IB_DIST_NORMAL:
		return normal_rank(s, r);
	default:
		return ib_rand_below(r, s->n);
	}
}

uint64_t ib_randdist_next(const struct ib_randdist_state *s, struct ib_rand *r)
{
	uint64_t rank = ib_randdist_rank(s, r);

	if (s->no_spread)
		return (rank % s->n + s->off) % s->n;
	return ((rank * SPREAD) % s->n + s->off) % s->n;
}

bool ib_randdist_zone(const struct ib_job *job, int d, uint64_t region_len,
		      struct ib_rand *r, uint64_t *start, uint64_t *len)
{
	const struct ib_zones *z = &job->zones[d];
	bool abs = job->rand_dist == IB_DIST_ZONED_ABS;
	unsigned int pick = (unsigned int)ib_rand_below(r, 100) + 1, sum = 0, i;
	uint64_t at = 0, size = 0;

	for (i = 0; i < z->nr; i++) {
		size = abs ? z->size[i] : z->size[i] * region_len / 100;
		sum += z->pct[i];
		if (z->pct[i] && pick <= sum)
			break;
		at += size;
	}
	if (i == z->nr || at >= region_len)
		return false;
	*start = at;
	*len = at + size > region_len ? region_len - at : size;
	return *len > 0;
}
