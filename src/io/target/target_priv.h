/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TARGET_PRIV_H
#define IOBENCH_TARGET_PRIV_H

/* Private to src/io/target/: what file.c and file_layout.c share. */
#include <stdbool.h>
#include <stddef.h>
#include "iobench/diag.h"
#include "iobench/file.h"
#include "iobench/job.h"

/* mkdir -p of path's directory part (file.c); existing directories are fine. */
int ib_file_make_parents(const char *path, struct ib_diag *d);

/* The deepest existing directory of path (file.c); "." if none. */
void ib_target_existing_dir(const char *path, char *dir, size_t len);

/*
 * atomic= and uncached= checked against target f (exists: it is there
 * now) before anything is written: 0, or -errno and one line in d
 * (rwf_check.c).
 */
int ib_target_check_rwf(const struct ib_job *job, const struct ib_files *fs,
			const struct ib_file *f, bool exists, struct ib_diag *d);

/*
 * fill_device without size=: the region of f from base, larger than its
 * file system's room (fill.c). 0 or -errno.
 */
int ib_fill_len(const struct ib_job *job, const struct ib_file *f, uint64_t base,
		uint64_t *len, struct ib_diag *d);
/* fill_device: a read job's region of f, cut where its layout found the
 * file system full (whole blocks of bs; fill.c). */
int ib_fill_shrink(const struct ib_job *job, struct ib_file *f, uint64_t bs,
		   struct ib_diag *d);

#endif
