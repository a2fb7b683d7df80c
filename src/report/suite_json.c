// SPDX-License-Identifier: GPL-2.0-only
/*
 * A suite's JSON document (suite_out.h): the run's own document, fio's
 * layout with one "jobs" entry per test, and an "iobench suite" object
 * added at its end, so that compare, report and fio's parsers read it as
 * any run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/json.h"
#include "iobench/report.h"
#include "iobench/suite_out.h"

static const char *steady_word(enum ib_suite_steady s)
{
	return s == IB_STEADY_YES ? "yes" : s == IB_STEADY_NO ? "no" : "unknown";
}

static void json_row(struct ib_json *j, const struct ib_suite_row *r)
{
	ib_json_obj_open(j, NULL);
	ib_json_str(j, "test", r->name);
	ib_json_str(j, "row", r->row);
	ib_json_str(j, "col", r->col);
	ib_json_int(j, "failed", r->failed);
	ib_json_float(j, "iops", r->iops);
	ib_json_float(j, "bw_bytes", r->bw);
	ib_json_uint(j, "ios", r->ios);
	ib_json_uint(j, "p50_ns", r->p50);
	ib_json_uint(j, "p99_ns", r->p99);
	ib_json_uint(j, "p99.9_ns", r->p999);
	ib_json_float(j, "mean_ns", r->mean_ns);
	ib_json_str(j, "steady", steady_word(r->steady));
	ib_json_int(j, "long_enough", r->long_enough);
	ib_json_str(j, "checks", r->why);
	ib_json_obj_close(j);
}

static void json_verdicts(struct ib_json *j, const struct ib_suite_report *s)
{
	unsigned int i;

	ib_json_obj_open(j, "expect");
	ib_json_float(j, "iops", s->expect.iops);
	ib_json_float(j, "bw_bytes", s->expect.bw);
	ib_json_uint(j, "lat_ns", s->expect.lat_ns);
	ib_json_obj_close(j);
	ib_json_arr_open(j, "verdicts");
	for (i = 0; i < s->nv; i++) {
		const struct ib_suite_verdict *v = &s->v[i];

		ib_json_obj_open(j, NULL);
		ib_json_str(j, "test", v->test);
		ib_json_str(j, "metric", v->metric == IB_SM_IOPS ? "iops" :
			    v->metric == IB_SM_BW ? "bw" : "lat");
		ib_json_float(j, "measured", v->measured);
		ib_json_float(j, "limit", v->limit);
		ib_json_int(j, "met", v->met);
		ib_json_float(j, "margin_pct", v->margin_pct);
		ib_json_int(j, "conclusive", v->conclusive);
		ib_json_obj_close(j);
	}
	ib_json_arr_close(j);
}

static void json_pts(struct ib_json *j, const struct ib_suite_report *s)
{
	unsigned int i;

	ib_json_str(j, "purge", s->purge);
	ib_json_str(j, "preconditioning", s->precond);
	ib_json_str(j, "tracking test", s->suite->track);
	ib_json_str(j, "tracking metric", ib_suite_metric_name(s->suite->track_metric));
	ib_json_arr_open(j, "rounds");
	for (i = 0; i < s->rounds; i++) {
		ib_json_obj_open(j, NULL);
		ib_json_uint(j, "round", i + 1);
		ib_json_float(j, "value", s->track[i]);
		ib_json_obj_close(j);
	}
	ib_json_arr_close(j);
	ib_json_obj_open(j, "steady state");
	ib_json_int(j, "reached", s->ss.met);
	ib_json_uint(j, "window_first_round", s->rounds >= IB_PTS_WINDOW ? s->ss.first + 1 : 0);
	ib_json_uint(j, "window_rounds", IB_PTS_WINDOW);
	ib_json_float(j, "average", s->ss.avg);
	ib_json_float(j, "range_pct", s->ss.range_pct);
	ib_json_float(j, "rise_pct", s->ss.rise_pct);
	ib_json_obj_close(j);
}

static void json_suite(struct ib_json *j, const struct ib_suite_report *s)
{
	unsigned int i;

	ib_json_obj_open(j, "iobench suite");
	ib_json_str(j, "name", s->suite->name);
	ib_json_str(j, "target", s->target);
	ib_json_str(j, "note", s->note);
	if (s->suite->kind == IB_SUITE_PTS)
		json_pts(j, s);
	ib_json_arr_open(j, "summary");
	for (i = 0; i < s->nr; i++)
		json_row(j, &s->rows[i]);
	ib_json_arr_close(j);
	json_verdicts(j, s);
	ib_json_obj_close(j);
}

int ib_suite_json(FILE *f, const struct ib_results *r,
		  const struct ib_suite_report *s)
{
	struct ib_json j = { .f = f, .depth = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = ib_report_json(m, r);
	if (fclose(m) || !buf)
		ret = ret ? ret : -ENOMEM;
	/* the document ends "\n}\n": write it up to that, then our member */
	if (!ret && (len < 3 || strcmp(buf + len - 3, "\n}\n")))
		ret = -EINVAL;
	if (!ret) {
		fwrite(buf, 1, len - 3, f);
		j.has_member[1] = true;
		json_suite(&j, s);
		ib_json_end(&j);
	}
	free(buf);
	return ret ? ret : (ferror(f) ? -EIO : 0);
}
