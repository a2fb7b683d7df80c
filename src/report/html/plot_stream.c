// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench plot` of a per-interval stream (--interval-json, stream.h):
 * IOPS over time and p99 latency over time, a line per job or group.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "iobench/json_read.h"
#include "page_priv.h"

#define MAX_SERIES 64

/* One line of points: x (s), y. */
struct pts {
	double *x, *y;
	size_t n, cap;
};

struct sser {
	char name[80];
	struct pts iops, p99;
};

struct sset {
	struct sser s[MAX_SERIES];
	unsigned int n;
	bool any_p99;
};

bool ib_plot_is_stream(const char *path)
{
	static const char want[] = "{\"type\":\"";
	FILE *f = fopen(path, "r");
	bool ok = f != NULL;
	unsigned int i = 0;
	int c;

	while (ok && i < sizeof(want) - 1 && (c = fgetc(f)) != EOF)
		ok = c == want[i++];
	if (f)
		fclose(f);
	return ok && i == sizeof(want) - 1;
}

static struct sser *series_for(struct sset *set, const char *name)
{
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->s[i].name, name))
			return &set->s[i];
	if (set->n == MAX_SERIES)
		return NULL;
	snprintf(set->s[set->n].name, sizeof(set->s[0].name), "%s", name);
	return &set->s[set->n++];
}

static int add_point(struct pts *p, double x, double y)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
		double *a = realloc(p->x, cap * sizeof(double));

		if (a)
			p->x = a;
		a = a ? realloc(p->y, cap * sizeof(double)) : NULL;
		if (!a)
			return -ENOMEM;
		p->y = a;
		p->cap = cap;
	}
	p->x[p->n] = x;
	p->y[p->n++] = y;
	return 0;
}

static double num(const struct ib_jv *o, const char *key)
{
	double v = 0.0;

	return ib_jv_double(ib_jv_get(o, key), &v) ? v : 0.0;
}

/* The line's name: "JOBNAME.N", or "group.N". */
static void line_name(const struct ib_jv *o, char *buf, size_t len)
{
	const char *type = ib_jv_str(ib_jv_get(o, "type"));
	const char *job = ib_jv_str(ib_jv_get(o, "jobname"));

	if (type && !strcmp(type, "group"))
		snprintf(buf, len, "group.%.0f", num(o, "groupid"));
	else
		snprintf(buf, len, "%.60s.%.0f", job ? job : "?", num(o, "job"));
}

/* One line: its IOPS (every direction) and p99 (the largest), NAN if none. */
static int add_line(struct sset *set, const struct ib_jv *o)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	double iops = 0.0, p99 = NAN, v, x;
	struct sser *s;
	char name[80];
	unsigned int d;

	if (ib_jv_get(o, "final") && ib_jv_get(o, "final")->type == IB_JV_TRUE &&
	    num(o, "span_ms") < 100.0)
		return 0; /* a job's end just after a boundary: no rate worth a point */
	for (d = 0; d < 3; d++) {
		const struct ib_jv *dj = ib_jv_get(o, dirs[d]);
		const struct ib_jv *pct = ib_jv_get(ib_jv_get(dj, "lat_ns"), "percentile");

		if (!dj)
			continue;
		iops += num(dj, "iops");
		if (ib_jv_double(ib_jv_get(pct, "99.000000"), &v) && (isnan(p99) || v > p99))
			p99 = v;
	}
	line_name(o, name, sizeof(name));
	s = series_for(set, name);
	if (!s)
		return 0; /* beyond MAX_SERIES: not drawn */
	x = num(o, "time_ms") / 1000.0;
	if (isnan(p99))
		return add_point(&s->iops, x, iops);
	set->any_p99 = true;
	return add_point(&s->iops, x, iops) ? -ENOMEM : add_point(&s->p99, x, p99);
}

static int read_stream(struct sset *set, const char *path, struct ib_diag *d)
{
	FILE *f = fopen(path, "r");
	struct ib_jdoc doc;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	if (!f)
		return ib_diag_set(d, errno, "%s: %s", path, strerror(errno));
	while (!ret && (n = getline(&line, &cap, f)) > 0) {
		if (n == 1)
			continue;
		ret = ib_json_parse(&doc, line, (size_t)n, d);
		if (ret) {
			ib_diag_prefix(d, "%s", path);
			break;
		}
		ret = add_line(set, doc.root);
		ib_jdoc_free(&doc);
	}
	free(line);
	fclose(f);
	return ret;
}

static int draw(struct ib_plot_out *o, const struct sset *set, bool p99,
		const char *path, struct ib_diag *d)
{
	struct ib_chart_series ser[MAX_SERIES];
	struct ib_chart_opts co = { p99 ? "p99 latency per interval" : "IOPS per interval",
				    "time (s)", p99 ? "latency" : "IOPS", 0, 0, p99 };
	char caption[320];
	unsigned int i;
	int ret;

	for (i = 0; i < set->n; i++) {
		const struct pts *p = p99 ? &set->s[i].p99 : &set->s[i].iops;

		ser[i] = (struct ib_chart_series){ set->s[i].name, p->x, p->y, p->n };
	}
	if (!o->html && o->drawn)
		return 0;
	if (o->html)
		ib_html_figure_open(o->f);
	ret = ib_chart_lines(o->f, &co, ser, set->n, d);
	snprintf(caption, sizeof(caption), "%s: %s", path, co.title);
	if (o->html)
		ib_html_figure_close(o->f, caption);
	o->drawn = true;
	return ret;
}

int ib_plot_stream(struct ib_plot_out *o, const char *path, struct ib_diag *d)
{
	struct sset *set = calloc(1, sizeof(*set));
	unsigned int i;
	int ret;

	if (!set)
		return ib_diag_set(d, ENOMEM, "out of memory");
	ret = read_stream(set, path, d);
	if (!ret && set->n)
		ret = draw(o, set, false, path, d);
	if (!ret && set->n && set->any_p99)
		ret = draw(o, set, true, path, d);
	for (i = 0; i < set->n; i++) {
		free(set->s[i].iops.x);
		free(set->s[i].iops.y);
		free(set->s[i].p99.x);
		free(set->s[i].p99.y);
	}
	free(set);
	return ret;
}
