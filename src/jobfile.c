// SPDX-License-Identifier: GPL-2.0-only
/*
 * Job sections (shared by the command line and job files) and the job file
 * parser.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/jobfile.h"
#include "iobench/options.h"

void ib_jobset_init(struct ib_jobset *s)
{
	memset(s, 0, sizeof(*s));
	ib_job_defaults(&s->global);
}

void ib_jobset_free(struct ib_jobset *s)
{
	free(s->secs);
	s->secs = NULL;
	s->nr = s->cap = 0;
}

struct ib_section *ib_jobset_open(struct ib_jobset *s, const char *name,
				  bool is_global, unsigned int file_idx,
				  struct ib_diag *d)
{
	struct ib_section *sec;
	unsigned int cap;

	if (s->nr == s->cap) {
		cap = s->cap ? s->cap * 2 : 8;
		sec = realloc(s->secs, cap * sizeof(*sec));
		if (!sec) {
			ib_diag_set(d, ENOMEM, "out of memory");
			return NULL;
		}
		s->secs = sec;
		s->cap = cap;
	}
	sec = &s->secs[s->nr++];
	sec->is_global = is_global;
	sec->file_idx = file_idx;
	if (is_global)
		ib_job_defaults(&sec->job);
	else
		sec->job = s->global;
	memset(sec->job.opts_text, 0, sizeof(sec->job.opts_text));
	sec->job.opts_len = 0;
	if (is_global) {
		snprintf(sec->job.name, sizeof(sec->job.name), "%s", name);
		return sec;
	}
	if (ib_opt_set(&sec->job, "name", name, d)) {
		s->nr--;
		return NULL;
	}
	return sec;
}

int ib_jobset_set(struct ib_jobset *s, struct ib_section *sec,
		  const char *name, const char *value, int ctx,
		  struct ib_diag *d)
{
	const struct ib_opt *o;
	int rc;

	if (!sec->is_global)
		return ib_opt_set_ctx(&sec->job, name, value, (enum ib_opt_ctx)ctx, d);
	rc = ib_opt_set_ctx(&s->global, name, value, (enum ib_opt_ctx)ctx, d);
	if (rc)
		return rc;
	o = ib_opt_find(name);
	if (ib_opts_text_put(sec->job.opts_text, &sec->job.opts_len,
			     sizeof(sec->job.opts_text), o->name, value ? value : ""))
		return ib_diag_set(d, ENOSPC, "%s: too many options in one section", o->name);
	return 0;
}
