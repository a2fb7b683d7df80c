/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_OPTIONS_H
#define IOBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/job.h"
#include "iobench/opt.h"

/*
 * The job option table (the rows' format is opt.h): finding, setting and
 * recording options.
 */

/*
 * A bare write_bw_log / write_iops_log / write_lat_log stores this token;
 * ib_job_fixup() replaces it with the job's name.
 */
#define IB_LOG_JOBNAME "$jobname"

/*
 * Every job option once, in help order: the generic table, then the
 * engines' rows (engine.c's order; a row several engines share comes once).
 * i counts from 0; NULL past the end.
 */
const struct ib_opt *ib_opt_get(unsigned int i);
/* The category titles and type names help prints. */
const char *ib_opt_cat_name(enum ib_opt_cat cat);
const char *ib_opt_type_name(enum ib_opt_type type);

/*
 * Find a job option, generic or an engine's, by name or alias (exact,
 * case-insensitive); NULL if none.
 */
const struct ib_opt *ib_opt_find(const char *name);

/*
 * Is name one of fio's job options (generic or engine-specific, fio 3.33)
 * that iobench does not implement?
 */
bool ib_opt_unsupported(const char *name);
/*
 * If name is such an option, set d ("--verify: fio option not supported by
 * iobench", "--rbdname: option of fio's rbd engine, not supported by
 * iobench"; no "--" unless dashes) and return -ENOTSUP; else return 0.
 */
int ib_opt_refuse(const char *name, bool dashes, struct ib_diag *d);

/*
 * Write into buf the closest known option names to `name` by edit distance,
 * formatted "--a, --b or --c" (prefix "--" or "" per dashes); "" if none
 * is close. Extra names (run-level options) may be passed in NULL-terminated
 * `extra`. Returns the number of suggestions.
 */
unsigned int ib_opt_suggest(const char *name, const char *const *extra,
			    bool dashes, char *buf, size_t len);

/* Message style: command line ("--verify: ...") or job file ("verify: ..."). */
enum ib_opt_ctx { IB_OPT_CTX_CLI = 0, IB_OPT_CTX_FILE = 1 };

/*
 * Parse value for option name and store it in j; value is "" for a bare
 * flag (bool options only; others need a value). Also records
 * "name\0value\0" (canonical name) in j->opts_text, replacing an earlier
 * value of the same option. Returns 0 or -errno with one line in d:
 * "bs: invalid size '4q'", "unknown option 'iodeph' (did you mean
 * --iodepth?)", "--verify: fio option not supported by iobench".
 */
int ib_opt_set(struct ib_job *j, const char *name, const char *value,
	       struct ib_diag *d);
int ib_opt_set_ctx(struct ib_job *j, const char *name, const char *value,
		   enum ib_opt_ctx ctx, struct ib_diag *d);

/*
 * Record "name\0value\0" in a "key\0value\0...\0" text of capacity cap
 * (replacing an earlier entry for name). Returns 0 or -ENOSPC.
 */
int ib_opts_text_put(char *text, unsigned int *len, size_t cap,
		     const char *name, const char *value);
/*
 * Record option o's value as ib_opts_text_put() does; for an option whose
 * values add up (o->adds: filename=), a value already recorded in this
 * text is kept in front, joined with ':', so --showcmd prints every file.
 */
int ib_opts_text_record(char *text, unsigned int *len, size_t cap,
			const struct ib_opt *o, const char *value);
/* The value recorded for name, or NULL. */
const char *ib_opts_text_get(const char *text, unsigned int len,
			     const char *name);

#endif
