// SPDX-License-Identifier: GPL-2.0-only
/*
 * The regression gate of `iobench compare --fail-if` (compare.h): the rule
 * parser and the check of a comparison against the rules.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "iobench/compare.h"

#define NAME_MAX_LEN 8
#define PCT_MAX 1e6

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static int metric_of(const char *name, enum ib_cmp_metric *m)
{
	unsigned int i;

	if (!strcmp(name, "lat")) {
		*m = IB_CMP_MEAN;
		return 0;
	}
	for (i = 0; i < IB_CMP_NR; i++)
		if (!strcmp(name, ib_cmp_metric_name((enum ib_cmp_metric)i))) {
			*m = (enum ib_cmp_metric)i;
			return 0;
		}
	return -1;
}

/* [+-]digits[.digits] or [+-].digits; *end after it. -1: not a number. */
static int parse_pct(const char *s, const char **end, double *v)
{
	double sign = 1.0, x = 0.0, scale = 0.1;
	bool digits = false;

	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? -1.0 : 1.0;
	for (; isdigit((unsigned char)*s) && x < PCT_MAX * 10; s++, digits = true)
		x = x * 10.0 + (*s - '0');
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++, scale /= 10.0, digits = true)
			x += (*s - '0') * scale;
	if (!digits || x > PCT_MAX)
		return -1;
	*end = s;
	*v = sign * x;
	return 0;
}

static int bad(struct ib_diag *d, const char *spec, const char *at, const char *why)
{
	return ib_diag_set(d, EINVAL, "--fail-if: %s at column %u of '%s'", why,
			   (unsigned int)(at - spec) + 1, spec);
}

/* One rule at *s; advances *s past it. */
static int parse_rule(struct ib_gate_rule *r, const char *spec, const char **s,
		      struct ib_diag *d)
{
	char name[NAME_MAX_LEN + 1];
	const char *p = skip_blank(*s), *q = p;
	size_t n;

	while (isalnum((unsigned char)*q) || *q == '.')
		q++;
	n = (size_t)(q - p);
	if (!n || n > NAME_MAX_LEN)
		return bad(d, spec, p, "expected a metric (iops, bw, mean, p50, p90, p99, p99.9)");
	memcpy(name, p, n);
	name[n] = '\0';
	if (metric_of(name, &r->metric) < 0)
		return bad(d, spec, p, "unknown metric (iops, bw, mean, p50, p90, p99, p99.9)");
	p = skip_blank(q);
	if (*p != '<' && *p != '>')
		return bad(d, spec, p, "expected '<' or '>'");
	r->op = *p;
	p = skip_blank(p + 1);
	if (parse_pct(p, &q, &r->pct) < 0)
		return bad(d, spec, p, "expected a percentage such as +10%");
	p = skip_blank(q);
	if (*p != '%')
		return bad(d, spec, p, "expected '%'");
	*s = skip_blank(p + 1);
	return 0;
}

int ib_gate_parse(struct ib_gate *g, const char *spec, struct ib_diag *d)
{
	const char *s = spec;
	int ret;

	memset(g, 0, sizeof(*g));
	for (;;) {
		if (g->n == IB_GATE_MAX)
			return ib_diag_set(d, EINVAL, "--fail-if: at most %d rules", IB_GATE_MAX);
		ret = parse_rule(&g->r[g->n], spec, &s, d);
		if (ret)
			return ret;
		g->n++;
		if (!*s)
			return 0;
		if (*s != ',')
			return bad(d, spec, s, "expected ',' or the end");
		s++;
	}
}

static bool fires(const struct ib_gate_rule *r, const struct ib_cmp_cell *cl)
{
	if (!cl->valid || cl->verdict == IB_CMP_NOISE || isnan(cl->change))
		return false;
	return r->op == '>' ? cl->change > r->pct : cl->change < r->pct;
}

static const char *const ddir_name[3] = { "read", "write", "trim" };

unsigned int ib_gate_check(const struct ib_gate *g, const struct ib_cmp *c,
			   FILE *f)
{
	unsigned int i, k, n = 0;

	for (i = 0; i < c->nr_rows; i++) {
		const struct ib_cmp_row *row = &c->rows[i];

		if (row->side == IB_CMP_ONLY_BASE) {
			n++;
			if (f)
				fprintf(f, "gate: job '%s' %s: missing on the new side\n",
					row->job, ddir_name[row->ddir % 3]);
		}
		if (row->side != IB_CMP_BOTH)
			continue;
		for (k = 0; k < g->n; k++) {
			const struct ib_cmp_cell *cl = &row->m[g->r[k].metric];

			if (!fires(&g->r[k], cl))
				continue;
			n++;
			if (f)
				fprintf(f, "gate: job '%s' %s: %s %+.1f%% %c %+g%% (%s)\n",
					row->job, ddir_name[row->ddir % 3],
					ib_cmp_metric_name(g->r[k].metric), cl->change,
					g->r[k].op, g->r[k].pct,
					ib_cmp_verdict_name(cl->verdict));
		}
	}
	return n;
}
