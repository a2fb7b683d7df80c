/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_REPORT_H
#define IOBENCH_REPORT_H

#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iobench/results.h"

/*
 * Reports in fio 3.33's formats (doc/fio-compat.md §1-§3). tests/unit/test_report.c
 * and test_json.c feed the numbers of real fio runs (tests/data/golden) to
 * these functions and expect fio's own text, byte for byte.
 *
 * Deliberate differences from fio:
 * - the version line is "iobench-VERSION"; JSON has "iobench version" next
 *   to "fio version" : "fio-3.33"; terse keeps "fio-3.33" in field 2;
 * - JSON is always one valid document: strings are fully escaped, a
 *   non-finite float prints as 0, nothing else is ever written into it;
 * - latencies up to 2^43 ns (2.4 h) keep their own bucket (fio clamps
 *   everything above 17.2 s into its last one);
 * - JSON "eta" is 0 for finished jobs (fio may print INT_MAX);
 * - dm/md slaves are followed one level deep (fio recurses).
 *
 * Every formatter takes only the results document (results.h) and the
 * stream, and returns 0 or -errno: -EIO when the stream has its error flag
 * set (the caller flushes, and names the file and errno), -ENOMEM, -EINVAL
 * (bad terse version). They print nothing else anywhere.
 */

/*
 * Lines printed before the run (normal output only): one job header per job
 * ("NAME: (g=0): rw=read, bs=(R) 4096B-4096B, ...", "..." for clone 2),
 * the version line and "Starting N processes". The engine shown is
 * res->stats[i].ioengine, the one the runner chose (res->stats may be NULL,
 * or the field empty: the job's ioengine).
 */
int ib_report_header(FILE *f, const struct ib_results *res);

int ib_report_normal(FILE *f, const struct ib_results *res);
int ib_report_json(FILE *f, const struct ib_results *res);
int ib_report_json_plus(FILE *f, const struct ib_results *res);	/* + "bins" */
int ib_report_terse(FILE *f, const struct ib_results *res);

/*
 * The formats, as one table (formats.c): --output-format parses its names
 * with ib_format_find(), main.c prints every selected row in `rank` order.
 * A new format is one enum ib_output_fmt bit (plan.h) and one row here.
 */
struct ib_format {
	const char *name;	/* --output-format token */
	unsigned int bit;	/* enum ib_output_fmt */
	/* NULL for an alias row (minimal, csv: another name of terse) */
	int (*print)(FILE *f, const struct ib_results *res);
	bool own_file;		/* goes to --json-output=FILE when that is given */
	bool human;		/* has the pre-run header; shares its stream with job messages */
	unsigned int rank;	/* print order when several share a stream */
};

extern const struct ib_format ib_formats[];
extern const unsigned int ib_nr_formats;

/* The row named `name` (any case; aliases included), or NULL. */
const struct ib_format *ib_format_find(const char *name);
/* "normal, json, ..." (every name, in table order) into buf. */
void ib_format_names(char *buf, size_t len);
/*
 * The formats to print for the bits asked for: --json-output=FILE
 * (json_file) alone implies json; json+ replaces json (one document).
 */
unsigned int ib_formats_selected(unsigned int bits, bool json_file);
/* Does a machine-readable format (not `human`) go to the main stream? */
bool ib_formats_machine_on_main(unsigned int selected, bool json_file);

#endif
