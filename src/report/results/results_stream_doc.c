// SPDX-License-Identifier: GPL-2.0-only
/*
 * A per-interval stream's slots into a results document (results.h): which
 * slots the final report would have (a group_reporting group, or a job),
 * in its order, named as it names them; and telling a stream from a JSON
 * report by its first line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/json_read.h"
#include "iobench/plan.h"
#include "iobench/results.h"
#include "stream_read.h"

static bool grouped(const struct ib_sread *s, unsigned int gid)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->e[i].group && s->e[i].num == gid)
			return true;
	return false;
}

/* The job a slot is ordered by: a job itself, a group its first job. */
static unsigned int first_job(const struct ib_sread *s, const struct ib_sent *e)
{
	unsigned int i, best = UINT32_MAX;

	if (!e->group)
		return e->num;
	for (i = 0; i < s->n; i++)
		if (!s->e[i].group && s->e[i].groupid == e->num && s->e[i].num < best)
			best = s->e[i].num;
	return best;
}

static const struct ib_sent *job_entry(const struct ib_sread *s, unsigned int num)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!s->e[i].group && s->e[i].num == num)
			return &s->e[i];
	return NULL;
}

/* The slots, in the final report's order: by (first) job number. */
static unsigned int pick(const struct ib_sread *s, struct ib_sent **out)
{
	unsigned int i, j, n = 0;
	struct ib_sent *t;

	for (i = 0; i < s->n; i++)
		if (s->e[i].group || !grouped(s, s->e[i].groupid))
			out[n++] = &s->e[i];
	for (i = 1; i < n; i++)	/* insertion sort: few slots, stable */
		for (j = i; j > 0 && first_job(s, out[j - 1]) > first_job(s, out[j]); j--) {
			t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static void slot_fill(const struct ib_sread *s, struct ib_sent *e,
		      struct ib_res_job *job, struct ib_job_stats *st)
{
	const struct ib_sent *first = e->group ? job_entry(s, first_job(s, e)) : e;
	unsigned int dd;

	if (first)
		snprintf(job->name, sizeof(job->name), "%s", first->name);
	else
		snprintf(job->name, sizeof(job->name), "group.%u", e->num);
	job->groupid = e->groupid;
	job->group_reporting = e->group;
	job->clat_percentiles = true;
	for (dd = 0; dd < IB_DDIR_RWT; dd++) {
		struct ib_lat_stat *l = &e->st->dir[dd].lat[e->kind[dd]];

		if (l->n)
			l->mean = e->lat_sum[dd] / (double)l->n;
		if (e->dirs & (1u << dd))
			e->st->dir[dd].runtime_us = (uint64_t)llround(e->span_ms * 1000.0);
	}
	memcpy(st, e->st, sizeof(*st));
}

static int finish(struct ib_sread *s, struct ib_results *r, struct ib_diag *d)
{
	struct ib_sent **slot = calloc(s->n ? s->n : 1, sizeof(*slot));
	unsigned int n, i;

	if (!slot)
		return ib_diag_set(d, ENOMEM, "%s: out of memory", s->name);
	n = pick(s, slot);
	if (!n || n > IB_MAX_JOBS) {
		free(slot);
		return ib_diag_set(d, n ? E2BIG : EINVAL, n ? "%s: more than %d jobs" :
				   "%s: no interval line", s->name, IB_MAX_JOBS);
	}
	if (ib_results_alloc(r, 1, n, 0) ||
	    !(r->series = calloc(n, sizeof(*r->series)))) {
		ib_results_free(r);
		free(slot);
		return ib_diag_set(d, ENOMEM, "%s: out of memory", s->name);
	}
	for (i = 0; i < n; i++) {
		slot_fill(s, slot[i], &r->jobs[i], &r->own_stats[i]);
		r->series[i] = slot[i]->ser;	/* moved */
		memset(&slot[i]->ser, 0, sizeof(slot[i]->ser));
	}
	free(slot);
	return 0;
}

bool ib_results_is_stream(const char *text, size_t len)
{
	static const char lead[] = "{\"type\":\"";	/* how iobench starts a line */
	struct ib_diag d = { { 0 } };
	const char *nl;
	struct ib_jdoc doc;
	bool yes;

	while (len && (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')) {
		text++;
		len--;
	}
	nl = memchr(text, '\n', len);
	if (len >= sizeof(lead) - 1 && !memcmp(text, lead, sizeof(lead) - 1))
		return true;	/* even truncated: its errors name the line */
	if (!len || *text != '{' || ib_json_parse(&doc, text, nl ? (size_t)(nl - text) : len, &d))
		return false;
	yes = doc.root->type == IB_JV_OBJ && ib_jv_str(ib_jv_get(doc.root, "type")) &&
	      ib_jv_get(doc.root, "time_ms");
	ib_jdoc_free(&doc);
	return yes;
}

static struct ib_sread *sread_new(const char *name)
{
	struct ib_sread *s = calloc(1, sizeof(*s));

	if (s)
		s->name = name;
	return s;
}

int ib_results_read_stream(struct ib_results *r, const char *text, size_t len,
			   const char *name, struct ib_diag *d)
{
	struct ib_sread *s = sread_new(name);
	const char *end = text + len, *nl;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	if (!s)
		return ib_diag_set(d, ENOMEM, "%s: out of memory", name);
	while (!ret && text < end) {
		nl = memchr(text, '\n', (size_t)(end - text));
		nl = nl ? nl + 1 : end;
		ret = ib_sread_line(s, text, (size_t)(nl - text), d);
		text = nl;
	}
	if (!ret)
		ret = finish(s, r, d);
	ib_sread_free(s);
	return ret;
}

/* The rest of an open stream, its first line already in line[0..n). */
static int load_lines(struct ib_results *r, FILE *f, char **line, size_t *cap,
		      ssize_t n, const char *path, struct ib_diag *d)
{
	struct ib_sread *s = sread_new(path);
	int ret = 0;

	if (!s)
		return ib_diag_set(d, ENOMEM, "%s: out of memory", path);
	for (; !ret && n > 0; n = getline(line, cap, f))
		ret = ib_sread_line(s, *line, (size_t)n, d);
	if (!ret && ferror(f))
		ret = ib_diag_set(d, EIO, "%s: read error", path);
	if (!ret)
		ret = finish(s, r, d);
	ib_sread_free(s);
	return ret;
}

int ib_results_load_any(struct ib_results *r, const char *path, struct ib_diag *d)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!f)
		return ib_diag_set(d, errno, "%s: %s", path, strerror(errno));
	while ((n = getline(&line, &cap, f)) > 0 && strspn(line, " \t\r\n") == (size_t)n)
		;
	if (n > 0 && ib_results_is_stream(line, (size_t)n)) {
		rewind(f);	/* line numbers count from the file's first */
		ret = load_lines(r, f, &line, &cap, getline(&line, &cap, f), path, d);
	} else {
		ret = ib_results_load(r, path, d);
	}
	free(line);
	fclose(f);
	return ret;
}
