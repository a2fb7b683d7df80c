/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_OPT_H
#define IOBENCH_OPT_H

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
 * This header is the rows' format; the table and its functions are
 * options.h's (src/front/).
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
	bool any_int;		/* IB_OPT_BOOL: any integer, non-zero on (fio's
				 * set-style options), else 0 or 1 only */
	bool adds;		/* each value adds to the earlier (filename=) */
	/* IB_OPT_STR: the field is a const char * into the job's string
	 * table (job.h), values shorter than size */
	bool str_ptr;
	const char *def;	/* default, as help shows it */
	const char *help;
};

#endif
