/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_OPTIONS_H
#define IOBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/job.h"

/*
 * The job option table: the one description of every job option iobench
 * knows. The generic options are options_table.c's; each engine owns its
 * own rows (struct ib_engine_opts, engine.h), in the same format. Parsing
 * (command line and job files), defaults shown in help, ranges, --cmdhelp,
 * --enghelp, the man page's option list and shell completion all read these
 * rows, through ib_opt_find() and ib_opt_get(); nothing else lists options.
 */

enum ib_opt_type {
	IB_OPT_BOOL,		/* bool; bare flag = 1 */
	IB_OPT_UINT,		/* unsigned int, [min, max] */
	IB_OPT_INT,		/* int, [min, max] read as int64 */
	IB_OPT_U64,		/* uint64_t number */
	IB_OPT_SIZE,		/* uint64_t bytes, "4k" */
	IB_OPT_SIZE_PCT,	/* uint64_t bytes at off, or N% into uint8_t at off2 */
	IB_OPT_SIZE_RANGE,	/* "a" or "a-b": uint64_t at off (min) and off2 (max) */
	IB_OPT_BS_LIST,		/* per direction "r,w,t": struct ib_bs */
	IB_OPT_BSRANGE_LIST,	/* per direction "a-b,c-d": struct ib_bs */
	IB_OPT_TIME,		/* uint64_t microseconds; bare number in unit_us */
	IB_OPT_STR,		/* char[size], or a string (.str_ptr) */
	IB_OPT_ENUM,		/* unsigned int from vals[] */
	IB_OPT_PCT_LIST,	/* "99:99.9": percentiles[] */
	IB_OPT_ERR_LIST,	/* "EIO,ENOSPC:28": struct ib_err_list per type */
	IB_OPT_NR_TYPES,
};

/* fio's HOWTO groups, for help output. */
enum ib_opt_cat {
	IB_CAT_DESC,
	IB_CAT_FILE,
	IB_CAT_IOTYPE,
	IB_CAT_BS,
	IB_CAT_BUF,
	IB_CAT_IOSIZE,
	IB_CAT_ENGINE,
	IB_CAT_DEPTH,
	IB_CAT_TIME,
	IB_CAT_PROC,
	IB_CAT_STAT,
	IB_CAT_LOG,
	IB_CAT_ERR,
	IB_CAT_ENGOPT,
	IB_CAT_NR,
};

struct ib_opt_val {
	const char *name;	/* as typed by the user */
	unsigned int val;
	const char *help;	/* NULL: an alias of the entry before */
};

struct ib_opt;
typedef int (*ib_opt_setter)(struct ib_job *j, const struct ib_opt *o,
			     const char *v, struct ib_diag *d);

struct ib_opt {
	const char *name;
	const char *alias[2];	/* fio's other names, NULL if none */
	enum ib_opt_type type;
	enum ib_opt_cat cat;
	size_t off, off2;	/* offsetof(struct ib_job, ...) */
	size_t size;		/* sizeof the field at off; .str_ptr: the limit */
	int64_t min, max;	/* numeric range (max 0: no maximum) */
	uint64_t unit_us;	/* IB_OPT_TIME: unit of a bare number */
	const struct ib_opt_val *vals;	/* IB_OPT_ENUM: NULL-name terminated */
	ib_opt_setter set;	/* custom store (NULL: generic by type) */
	bool bare_ok;		/* may be given without a value (bools always) */
	bool adds;		/* each value adds to the earlier (filename=) */
	/* IB_OPT_STR: the field is a const char * into the job's string
	 * table (job.h), values shorter than size */
	bool str_ptr;
	const char *def;	/* default, as help shows it */
	const char *help;
};

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
