// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobench's own additions to the reports (the validity checks, checks.h): the checks that fired
 * under each job, the tool overhead, the random seeds and the environment,
 * in the human report and in JSON. Everything here prints only when the
 * results document carries the run's evidence (checks.h) or environment,
 * so a fio report read back prints as fio's.
 */
#include <stdio.h>
#include <string.h>
#include "iobench/checks.h"
#include "iobench/env.h"
#include "iobench/env_out.h"
#include "iobench/json.h"
#include "../report_common.h"

#define MAX_HITS 32

static const char *sev_name(enum ib_check_sev s)
{
	return s == IB_SEV_WARNING ? "warning" : "info";
}

static unsigned int entry_first(const struct ib_results *res, const struct ib_rep_entry *e)
{
	return (unsigned int)(e->job - res->jobs);
}

static bool seen(const struct ib_check_hit *h, unsigned int n, const char *id)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (h[i].id == id)
			return true;
	return false;
}

/*
 * The checks of an entry: every job it merges (the same id said once, as
 * the first job that fired it says it).
 */
static unsigned int entry_hits(const struct ib_results *res, const struct ib_rep_entry *e,
			       struct ib_check_hit *out)
{
	struct ib_check_hit tmp[MAX_HITS];
	unsigned int first = entry_first(res, e), i, k, n = 0, m, left = e->nr_jobs;

	for (i = first; i < res->nr_jobs && left; i++) {
		if (res->jobs[i].groupid != e->job->groupid)
			continue;
		left--;
		m = ib_checks_run(res, i, res->checks_mask, tmp, MAX_HITS);
		for (k = 0; k < m && n < MAX_HITS; k++)
			if (!seen(out, n, tmp[k].id))
				out[n++] = tmp[k];
	}
	return n;
}

static const struct ib_evidence *entry_ev(const struct ib_results *res,
					  const struct ib_rep_entry *e)
{
	const struct ib_evidence *ev;

	if (!res->evidence)
		return NULL;
	ev = &res->evidence[entry_first(res, e)];
	return ev->valid ? ev : NULL;
}

void ib_report_checks_text(FILE *f, const struct ib_results *res, const struct ib_rep_entry *e)
{
	const struct ib_evidence *ev = entry_ev(res, e);
	struct ib_check_hit h[MAX_HITS];
	unsigned int n, i;

	if (!ev)
		return;
	if (ev->calibrated && ev->tool_ns_per_io > 0)
		fprintf(f, "  tool overhead: %.0f ns per I/O, ceiling %.0f IOPS per job\n",
			ev->tool_ns_per_io, 1e9 / ev->tool_ns_per_io);
	n = entry_hits(res, e, h);
	for (i = 0; i < n; i++)
		fprintf(f, "  %s [%s]: %s\n", sev_name(h[i].sev), h[i].id, h[i].msg);
}

static void json_hit(struct ib_json *j, const struct ib_check_hit *h)
{
	unsigned int k;

	ib_json_obj_open(j, NULL);
	ib_json_str(j, "id", h->id);
	ib_json_str(j, "severity", sev_name(h->sev));
	ib_json_str(j, "message", h->msg);
	ib_json_obj_open(j, "evidence");
	for (k = 0; k < h->nr_ev; k++) {
		if (h->ev[k].is_int)
			ib_json_uint(j, h->ev[k].key, (unsigned long long)h->ev[k].val);
		else
			ib_json_float(j, h->ev[k].key, h->ev[k].val);
	}
	ib_json_obj_close(j);
	ib_json_obj_close(j);
}

static const char *const seed_src[] = { "randrepeat", "randseed", "drawn" };

static void json_seed(struct ib_json *j, const struct ib_evidence *ev)
{
	char replay[64];

	ib_json_obj_open(j, "random seed");
	ib_json_str(j, "source", seed_src[ev->seed_source % 3]);
	ib_json_uint(j, "randseed", ev->seed);
	ib_json_uint(j, "offset_seed", ev->seed_offset);
	ib_json_uint(j, "ddir_seed", ev->seed_ddir);
	ib_json_uint(j, "bs_seed", ev->seed_bs);
	if (ev->seed_source == IB_SEED_REPEAT)
		snprintf(replay, sizeof(replay), "randrepeat=1");
	else
		snprintf(replay, sizeof(replay), "randseed=%llu", (unsigned long long)ev->seed);
	ib_json_str(j, "replay", replay);
	ib_json_obj_close(j);
}

void ib_report_checks_json(struct ib_json *j, const struct ib_results *res,
			   const struct ib_rep_entry *e)
{
	const struct ib_evidence *ev = entry_ev(res, e);
	struct ib_check_hit h[MAX_HITS];
	unsigned int n, i;

	if (!ev)
		return;
	json_seed(j, ev);
	if (ev->calibrated && ev->tool_ns_per_io > 0) {
		ib_json_obj_open(j, "tool overhead");
		ib_json_float(j, "clock_ns", ev->clock_ns);
		ib_json_float(j, "ns_per_io", ev->tool_ns_per_io);
		ib_json_float(j, "ceiling_iops", 1e9 / ev->tool_ns_per_io);
		ib_json_obj_close(j);
	}
	n = entry_hits(res, e, h);
	ib_json_arr_open(j, "iobench checks");
	for (i = 0; i < n; i++)
		json_hit(j, &h[i]);
	ib_json_arr_close(j);
	/*
	 * Read back, the checks run again on it: a job's own, not a
	 * group_reporting entry's (its numbers are merged, the checks were
	 * judged per job).
	 */
	if (e->nr_jobs == 1)
		ib_evidence_json(j, ev);
}

void ib_report_env_text(FILE *f, const struct ib_results *res)
{
	unsigned int i;

	if (!res->show_env)
		return;
	if (res->env) {
		fputc('\n', f);
		ib_env_text(f, res->env);
	}
	if (!res->evidence)
		return;
	fputs("\nRandom seeds (replay a job with the option shown):\n", f);
	for (i = 0; i < res->nr_jobs; i++) {
		const struct ib_evidence *ev = &res->evidence[i];

		if (!ev->valid)
			continue;
		if (ev->seed_source == IB_SEED_REPEAT)
			fprintf(f, "  %s (job %u): randrepeat=1, offset seed %u\n",
				res->jobs[i].name, i + 1, ev->seed_offset);
		else
			fprintf(f, "  %s (job %u): randseed=%llu (%s)\n", res->jobs[i].name,
				i + 1, (unsigned long long)ev->seed,
				ev->seed_source == IB_SEED_GIVEN ? "given" : "drawn for this run");
	}
}
