// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the fio log reader and the fio histogram log reader
 * on the input, fed in chunks whose size the first byte picks (so lines
 * split at every place get tried); the values read then go into a
 * histogram, a time series and an averaged one (ib_logseries) drawn by the
 * chart builders and the text histogram, into memory.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/chart.h"
#include "src/report/results/fiohist.h"
#include "iobench/fiolog.h"
#include "src/report/results/logseries.h"
#include "src/report/texthist.h"

#define FUZZ_MAX_INPUT 65536
#define MAXPTS 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct sink {
	struct ib_hist *h;
	struct ib_logseries ls;	/* averaged over 7 ms windows */
	double x[MAXPTS], y[MAXPTS];
	size_t n;
};

static int add(void *arg, const struct ib_fiolog_rec *r)
{
	struct sink *s = arg;

	ib_hist_add(s->h, r->value);
	ib_logseries_add(&s->ls, r);
	if (s->n < MAXPTS) {
		s->x[s->n] = (double)r->t_ms;
		s->y[s->n++] = (double)r->value;
	}
	return 0;
}

static int add_row(void *arg, const struct ib_fiohist_row *r)
{
	struct sink *s = arg;

	ib_hist_merge(s->h, r->h);
	return 0;
}

static void read_hist(struct sink *s, const uint8_t *data, size_t size,
		      size_t step)
{
	struct ib_fiohist *p = malloc(sizeof(*p));
	struct ib_diag d;
	size_t i;
	int ret = 0;

	if (!p)
		return;
	ib_fiohist_init(p);
	for (i = 1; i < size && !ret; i += step)
		ret = ib_fiohist_feed(p, (const char *)data + i,
				      size - i < step ? size - i : step, add_row, s, &d);
	if (!ret)
		ib_fiohist_end(p, add_row, s, &d);
	free(p);
}

static void draw(struct sink *s)
{
	static const double pct[] = { 50, 99, 99.9 };
	struct ib_chart_series ser = { "fuzz", s->x, s->y, s->n };
	struct ib_chart_opts o = { "fuzz", NULL, NULL, 0, 0, false };
	struct ib_diag d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	ib_chart_hist(f, &o, s->h, pct, 3, &d);
	ib_chart_lines(f, &o, &ser, 1, &d);
	ib_chart_curve(f, &o, &ser, 1, true, &d);
	ib_logseries_finish(&s->ls);
	ser = ib_logseries_get(&s->ls, 0, "avg");
	ib_chart_lines(f, &o, &ser, 1, &d);
	ib_texthist_print(f, s->h, pct, 3, 80, true, &d);
	fclose(f);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ib_diag d = { { 0 } };
	struct ib_fiolog p;
	struct sink *s;
	size_t step, i;
	int ret = 0;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->h = calloc(1, sizeof(*s->h)))) {
		free(s);
		return 0;
	}
	ib_logseries_init(&s->ls, 7, MAXPTS);
	step = 1 + data[0] % 64;
	ib_fiolog_init(&p);
	for (i = 1; i < size && !ret; i += step)
		ret = ib_fiolog_feed(&p, (const char *)data + i,
				     size - i < step ? size - i : step, add, s, &d);
	if (!ret)
		ib_fiolog_end(&p, add, s, &d);
	read_hist(s, data, size, step);
	draw(s);
	ib_logseries_free(&s->ls);
	free(s->h);
	free(s);
	return 0;
}
