/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_JOBFILE_H
#define IOBENCH_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "iobench/diag.h"
#include "iobench/job.h"

/*
 * The sections a command line and its job files describe, in order, before
 * validation and numjobs expansion. Both front ends (cli.c, jobfile.c)
 * append to one struct ib_jobset.
 *
 * `global` is the running set of defaults: options given before the first
 * --name, under --name=global, or in a [global*] section change it, and each
 * new job section starts as a copy of it (with an empty opts_text, so the
 * JSON "job options" show only the job's own options). Global sections are
 * kept too, with their own options in opts_text, so --showcmd can print the
 * same structure back.
 */
struct ib_section {
	struct ib_job job;	/* job: its values; global: its own opts_text */
	bool is_global;
	unsigned int file_idx;	/* 0: command line; n: the nth job file */
};

struct ib_jobset {
	struct ib_job global;
	struct ib_section *secs;
	unsigned int nr, cap;
};

void ib_jobset_init(struct ib_jobset *s);
void ib_jobset_free(struct ib_jobset *s);

/*
 * Open a section: a job named `name` (copy of the current defaults, name
 * set and recorded), or a global section when is_global. Returns the new
 * section or NULL on -ENOMEM (d says so).
 */
struct ib_section *ib_jobset_open(struct ib_jobset *s, const char *name,
				  bool is_global, unsigned int file_idx,
				  struct ib_diag *d);

/*
 * Apply option name=value to section sec (NULL: the defaults before any
 * section). In a global section the value goes to the running defaults
 * and is recorded in the section's own text.
 */
int ib_jobset_set(struct ib_jobset *s, struct ib_section *sec,
		  const char *name, const char *value, int ctx,
		  struct ib_diag *d);

#endif
