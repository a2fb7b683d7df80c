/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_REPORT_H
#define IOBENCH_REPORT_H

#include <stdio.h>
#include "iobench/run.h"
#include "iobench/stats.h"

struct ib_disk_util;	/* disk.h */

/*
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

/* fio's number formatter (fio-compat.md §1.3). buf gets e.g. "395k". */
char *ib_num2str(uint64_t val, unsigned int maxlen, unsigned int base,
		 bool pow2, const char *unit, char *buf, size_t len);

#endif
