/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_REPORT_H
#define IOBENCH_REPORT_H

#include <stdio.h>
#include "iobench/run.h"
#include "iobench/stats.h"

struct ib_disk_util;	/* disk.h */

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
 * Print the final report for a finished run in every format run asks for.
 * stats[i] belongs to run->jobs[i]. Returns 0 or -errno (an output file
 * could not be written; d says which).
 */
struct ib_report_in {
	const struct ib_run *run;
	const struct ib_job_stats *stats;
	const struct ib_disk_util *disks;
	unsigned int nr_disks;
	int64_t timestamp_ms;	/* epoch ms at the end of the run */
};

/*
 * Lines printed before the run (normal output only): one job header per job
 * ("NAME: (g=0): rw=read, bs=(R) 4096B-4096B, ...", "..." for clone 2),
 * the version line and "Starting N processes".
 */
void ib_report_header(FILE *f, const struct ib_run *run);

int ib_report_normal(FILE *f, const struct ib_report_in *in);
int ib_report_json(FILE *f, const struct ib_report_in *in, bool plus);
int ib_report_terse(FILE *f, const struct ib_report_in *in);

/* fio's number formatter (doc/fio-compat.md §1.3). buf gets e.g. "395k". */
char *ib_num2str(uint64_t val, unsigned int maxlen, unsigned int base,
		 bool pow2, const char *unit, char *buf, size_t len);

#endif
