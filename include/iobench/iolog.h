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
 * write_iolog=FILE: every I/O issued, in fio's iolog format, version 3 by
 * default (write_iolog_version=3, as fio 3.x writes it), each line starting
 * with the time in microseconds since the log was opened:
 *   fio version 3 iolog
 *   USEC PATH add
 *   USEC PATH open
 *   USEC PATH read|write|trim OFFSET LENGTH
 *   USEC PATH sync|datasync 0 0
 *   USEC PATH close
 * write_iolog_version=2 leaves the times out ("fio version 2 iolog"), for
 * older tools.
 * Clones of a job with numjobs > 1 write FILE.CLONE so they don't clobber
 * each other. Formatted by hand into a 1 MiB buffer, written with write(2)
 * when it fills (no stdio on the per-I/O path). As the other logs (log.h),
 * the first write error is kept and reported by ib_iolog_close().
 */
struct ib_iolog {
	int fd;
	char *buf;		/* NULL: no log (a zeroed struct is one) */
	size_t len;		/* bytes waiting in buf */
	int err;		/* first write error, -errno, or 0 */
	unsigned int version;	/* 2 or 3 */
	uint64_t start_ns;	/* ib_now_ns() at open: time 0 of a v3 log */
	bool limited;		/* openfiles=N: open/close lines as they happen */
	char path[PATH_MAX + 16];
};

/*
 * The log file this clone of job writes (FILE or FILE.CLONE) into buf.
 * Returns false (buf unusable) when the name does not fit.
 */
bool ib_iolog_path(const struct ib_job *job, char *buf, size_t len);
int ib_iolog_open(struct ib_iolog *l, const struct ib_job *job,
		  const struct ib_files *fs, struct ib_diag *d);
/* ib_iolog_io's ddir for a "datasync" line (the others: enum ib_ddir). */
#define IB_IOLOG_DATASYNC 4
#define IB_IOLOG_SFR 5	/* sync_file_range= (fio's action name) */
/* One I/O issued (prepared) at now_ns, the loop's clock (ib_now_ns base). */
void ib_iolog_io(struct ib_iolog *l, const struct ib_file *f,
		 unsigned int ddir, uint64_t offset, uint64_t len,
		 uint64_t now_ns);
/*
 * openfiles=N (source_files.h): "open" or "close" of f at now_ns (l may
 * be NULL: no log). With fewer open files than files, ib_iolog_open and
 * ib_iolog_close write open and close lines only for the files open then
 * (fd >= 0).
 */
void ib_iolog_file(struct ib_iolog *l, const struct ib_file *f,
		   const char *what, uint64_t now_ns);
/*
 * Write the close lines, flush and close. Returns 0, or the first write
 * error of the whole log as -errno (d: "write_iolog: PATH: reason").
 */
int ib_iolog_close(struct ib_iolog *l, const struct ib_files *fs, struct ib_diag *d);

#endif
