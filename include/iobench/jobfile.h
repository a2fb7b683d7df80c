/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_JOBFILE_H
#define IOBENCH_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "iobench/diag.h"
#include "iobench/fio_version.h"
#include "iobench/job.h"
#include "iobench/strtab.h"

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
	struct ib_strtab strs;	/* the sections' strings (job.h) */
	struct ib_job global;
	struct ib_section *secs;
	unsigned int nr, cap;
	/* fio-version= of a [global] section (0: not given) */
	enum ib_fio_version fio_version;
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

/*
 * Job files (fio's INI format, doc/fio-compat.md §5):
 *   [global...]   defaults for the sections below it (several allowed)
 *   [name]        a job named name
 *   key=value     an option; whitespace around '=' and at both ends is
 *                 stripped (fio keeps spaces after '=', so "size = 1m" means
 *                 " 1m" there; we read it as a user expects)
 *   key           a bare flag (time_based)
 *   ; # comments  full-line, and inline: the first ';' or '#' ends the line
 *   include FILE  the option lines of FILE, here (no sections inside)
 *   ${VAR}        environment variable (empty if unset)
 *   $ncpus $pagesize $mb_memory   system values; math goes in "(...)"
 * kb_base applies to every size of its section (or of the command-line
 * defaults), wherever it is written.
 */

/*
 * Read an included file for the parser. `from` is the including file's
 * name, `path` as written after "include". Fills *buf (malloc'd, the
 * parser frees it), *len and the name to use in messages (name, size
 * namelen). Returns 0 or -errno with d set.
 */
typedef int (*ib_jobfile_read_fn)(void *arg, const char *from,
				  const char *path, char **buf, size_t *len,
				  char *name, size_t namelen, struct ib_diag *d);

struct ib_jobfile_env {
	ib_jobfile_read_fn read;	/* NULL: include is an error */
	void *arg;
	const char *(*getenv)(const char *name); /* NULL: no environment */
	unsigned long ncpus;
	unsigned long pagesize;
	unsigned long mb_memory;
};

/*
 * Expand ${VAR} (env->getenv) and $ncpus/$pagesize/$mb_memory in `in` into
 * out (capacity cap). Returns 0, or -EINVAL/-E2BIG with d set.
 */
int ib_jobfile_subst(const char *in, char *out, size_t cap,
		     const struct ib_jobfile_env *env, struct ib_diag *d);
/*
 * After a line or value from `in` was refused: name the first ${VAR} of it
 * that the environment does not set, at the end of d's message (an unset
 * variable expands to nothing, as in fio, and "filename: needs a value"
 * alone would not say why).
 */
void ib_jobfile_note_unset(const char *in, const struct ib_jobfile_env *env,
			   struct ib_diag *d);

/*
 * Parse one job file's text (buf, len) into s. file_idx is 1 for the first
 * job file of the command line, 2 for the next...; the first job of file 2
 * and later gets an implicit stonewall. Errors are "FILE:LINE: message"
 * ("jobs.fio:12: bs: invalid size '4q'").
 */
int ib_jobfile_parse(struct ib_jobset *s, const char *buf, size_t len,
		     const char *filename, unsigned int file_idx,
		     const struct ib_jobfile_env *env, struct ib_diag *d);

#endif
