// SPDX-License-Identifier: GPL-2.0-only
/*
 * The evidence for the validity checks (checks.h): the environment, each
 * job's target before and after its batch, the tool's own cost, the seed.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/clock.h"
#include "iobench/evidence.h"
#include "runner_priv.h"

/* Does job i's first file region (and its target) equal job k's? */
static bool same_region(const struct ib_runner *r, unsigned int i, unsigned int k)
{
	const struct ib_files *a = &r->slots[i].args.files, *b = &r->slots[k].args.files;
	const struct ib_evidence *x = &r->res->evidence[i], *y = &r->res->evidence[k];

	return a->nr && b->nr && x->valid && y->valid &&
	       a->f[0].io_offset == b->f[0].io_offset &&
	       a->f[0].io_size == b->f[0].io_size &&
	       x->target_kind == y->target_kind && x->zram == y->zram &&
	       x->loop == y->loop && !strcmp(x->disk, y->disk) &&
	       !strcmp(a->f[0].path, b->f[0].path);
}

void runner_evidence_before(struct ib_runner *r, unsigned int first, unsigned int end,
			    unsigned int batch)
{
	unsigned int i, n = 0, probed = end;

	if (!r->res->evidence)
		return;
	for (i = first; i < end; i++)
		n += !r->slots[i].failed_setup;
	for (i = first; i < end; i++) {
		struct ib_evidence *ev = &r->res->evidence[i];

		ev->batch = batch;
		ev->batch_jobs = n;
		if (probed < end && same_region(r, i, probed)) {
			ib_evidence_before_as(ev, &r->res->evidence[probed]);
			r->slots[i].dev_start = r->slots[probed].dev_start;
			continue;
		}
		ib_evidence_before(ev, &r->slots[i].args.files, &r->slots[i].dev_start);
		probed = i;
	}
	for (i = first; i < end; i++)
		ib_evidence_series_start(&r->res->evidence[i], ib_now_ns());
}

void runner_evidence_after(struct ib_runner *r, unsigned int first, unsigned int end)
{
	unsigned int i;

	if (!r->res->evidence)
		return;
	for (i = first; i < end; i++)
		ib_evidence_after(&r->res->evidence[i], &r->slots[i].dev_start);
}

#define CALIB_BUDGET_US 50000ull	/* the whole calibration, about */
#define CALIB_MIN_US 10000ull		/* per job section */

/*
 * To the picosecond: JSON keeps 6 decimals, so a report read back derives
 * the same ceiling from it.
 */
static double ps_round(double ns)
{
	return round(ns * 1000.0) / 1000.0;
}

/* The tool's own cost, per job section (clones share their first's). */
void runner_calibrate(struct ib_runner *r, const struct ib_clock *clock)
{
	const struct ib_plan *run = r->run;
	struct ib_evidence *ev = r->res->evidence, *from = NULL;
	unsigned int i, sections = 0;
	uint64_t budget;
	double clock_ns = ps_round(ib_calib_clock_ns(clock)), ns;
	struct ib_diag d;

	for (i = 0; i < run->nr_jobs; i++)
		sections += run->jobs[i].clone == 0;
	budget = sections ? CALIB_BUDGET_US / sections : CALIB_BUDGET_US;
	if (budget < CALIB_MIN_US)
		budget = CALIB_MIN_US;
	for (i = 0; i < run->nr_jobs && !runner_stop_requested; i++) {
		if (run->jobs[i].clone == 0) {
			from = NULL;
			if (i && budget * i > 5 * CALIB_BUDGET_US)
				continue; /* many sections: the first ones only */
			if (ib_calib_tool(r->slots[i].args.job, clock, budget, &ns, &d) < 0)
				continue;
			from = &ev[i];
			ev[i].tool_ns_per_io = ps_round(ns);
		} else if (from) {
			ev[i].tool_ns_per_io = from->tool_ns_per_io;
		} else {
			continue;
		}
		ev[i].calibrated = true;
		ev[i].clock_ns = clock_ns;
	}
}

/* The environment and each job's static evidence, once the files exist. */
void runner_gather_evidence(struct ib_runner *r, const char *const *paths,
			    unsigned int npaths)
{
	struct ib_result *res = r->res;
	unsigned int i;

	res->env = calloc(1, sizeof(*res->env));
	res->evidence = runner_parent_calloc(r->run->nr_jobs, sizeof(*res->evidence));
	if (!res->env || !res->evidence) {
		free(res->env);
		runner_parent_free(res->evidence, r->run->nr_jobs, sizeof(*res->evidence));
		res->env = NULL;
		res->evidence = NULL;
		return;
	}
	ib_env_collect(res->env, paths, npaths, NULL);
	for (i = 0; i < r->run->nr_jobs; i++) {
		struct slot *s = &r->slots[i];

		ib_evidence_job(&res->evidence[i], s->args.job, &s->args.files, s->ops,
				res->env);
		if (s->own_job)
			res->evidence[i].seed_source = IB_SEED_DRAWN;
	}
}

/*
 * randrepeat=0 without randseed= (and without allrandrepeat=1, which keeps
 * every stream on the job's fixed seeds): the seed is drawn here, not in
 * the job, so the report can say it and randseed=N replays the job exactly.
 */
int runner_own_seed(struct slot *s, struct ib_diag *d)
{
	const struct ib_job *job = s->args.job;

	if (job->randrepeat || job->randseed_set || job->allrandrepeat)
		return 0;
	s->own_job = malloc(sizeof(*s->own_job));
	if (!s->own_job)
		return ib_diag_set(d, ENOMEM, "job '%s': no memory", job->name);
	*s->own_job = *job;
	s->own_job->randseed = ib_evidence_draw_seed();
	s->own_job->randseed_set = true;
	s->args.job = s->own_job;
	return 0;
}
