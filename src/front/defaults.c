// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job before any option is given: every option at the option table's
 * default (fio's but for defaults=iobench). Fix-up and validation are
 * validate.c; turning jobs into the run's plan is plan.c.
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include "iobench/job.h"
#include "iobench/job_setup.h"
#include "options_priv.h"

/*
 * The job before any option: every option at its table default (.def, the
 * text help shows), set as if given but not recorded and not counted as
 * given, over the fields no option's default describes.
 */
static void build_defaults(struct ib_job *j)
{
	const struct ib_opt *o;
	struct ib_diag d;
	unsigned int i;

	memset(j, 0, sizeof(*j));
	for (i = 0; i < IB_JOB_NR_STRS; i++)
		*ib_job_str_at(j, i) = "";
	for (i = 0; i < IB_JOB_NR_TABS; i++)
		*ib_job_tab_at(j, i) = ib_job_tabs[i].none;
	j->opts_text = "";
	j->kb_base = 1024;	/* the sizes below are read with it */
	/* each .def parses (test_options.c: test_defaults_match_help) */
	for (i = 0; (o = ib_opt_get(i)); i++)
		if (o->def)
			(void)ib_opt_store(j, o, o->def, &d);
	/* set as if given, but a default */
	j->ioengine_given = j->direct_given = false;
	j->norandommap_given = false;
	j->scramble_given = false;
	j->rate.thinktime_blocks_set = false;
	j->rand_gen = IB_RANDGEN_AUTO;
	/* defaults no value of their option can give: randseed= turns
	 * randrepeat off, sqthread_poll_cpu= takes a CPU, not "any" */
	j->randseed = 0x89;
	j->engine.sqthread_poll_cpu = -1;
}

/*
 * Parsing every default costs ~15 us, and the runner asks once per job
 * (iomode.c: numjobs=4096 would take 60 ms): built once, then copied. The
 * copy is a constant of the option table (its strings are static text).
 */
static struct ib_job defaults_once;
static pthread_once_t defaults_built = PTHREAD_ONCE_INIT;

static void build_defaults_once(void)
{
	build_defaults(&defaults_once);
}

void ib_job_defaults(struct ib_job *j)
{
	pthread_once(&defaults_built, build_defaults_once);
	memcpy(j, &defaults_once, sizeof(*j));
}
