/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_IOLOG_H
#define IOBENCH_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/file.h"
#include "iobench/job.h"

/*
 * write_iolog=FILE: every I/O issued, in fio's iolog version 2 format:
 *   fio version 2 iolog
 *   PATH add
 *   PATH open
 *   PATH read|write OFFSET LENGTH      (also: PATH sync|datasync 0 0)
 *   PATH close
 * Clones of a job with numjobs > 1 write FILE.CLONE so they don't clobber
 * each other. Buffered: one fwrite-sized flush per 1 MiB of log.
 */
struct ib_iolog {
	FILE *f;
	char *buf;
};

/*
 * The log file this clone of job writes (FILE or FILE.CLONE) into buf.
 * Returns false (buf unusable) when the name does not fit.
 */
bool ib_iolog_path(const struct ib_job *job, char *buf, size_t len);
int ib_iolog_open(struct ib_iolog *l, const struct ib_job *job,
		  const struct ib_files *fs, struct ib_diag *d);
void ib_iolog_io(struct ib_iolog *l, const struct ib_file *f,
		 unsigned int ddir, uint64_t offset, uint64_t len);
void ib_iolog_close(struct ib_iolog *l, const struct ib_files *fs);

#endif
