/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SOURCE_FILES_H
#define IOBENCH_SOURCE_FILES_H

#include <stdbool.h>
#include "iobench/diag.h"
#include "iobench/file.h"
#include "iobench/iogen.h"
#include "iobench/iolog.h"
#include "iobench/source.h"

/*
 * openfiles=N below the job's number of files: a source wrapped around the
 * generator (iogen.h picks among at most N active files) that keeps the
 * fds in step. Files start closed (ib_files_open_limited); before an I/O
 * on a closed file it waits until nothing is in flight (NOT_YET: the loop
 * reaps), closes every open file the generator no longer holds a slot for
 * and opens this one, so at most N are ever open. An open that fails ends
 * the source: error (positive errno) and diag say why.
 */
struct ib_files_src {
	struct ib_source src;
	struct ib_iogen *gen;
	struct ib_files *fs;
	const struct ib_job *job;
	bool readonly;
	const unsigned int *inflight;	/* the loop's count */
	struct ib_iolog *iolog;		/* write_iolog's open/close lines */
	uint32_t *live_open;		/* NULL, or the status line's f= count */
	bool held;
	struct ib_io_desc desc;
	unsigned int nr_open;
	unsigned int opens;	/* how many opens it made */
	int error;
	struct ib_diag diag;
};

void ib_files_src_init(struct ib_files_src *s, struct ib_iogen *gen,
		       struct ib_files *fs, const struct ib_job *job,
		       bool readonly, const unsigned int *inflight,
		       struct ib_iolog *iolog);

static inline struct ib_source *ib_files_src_source(struct ib_files_src *s)
{
	return &s->src;
}

/*
 * Setup for openfiles=N: each file opened alone for the page cache
 * options (fileopts) and closed again; every fd ends -1.
 */
int ib_files_open_limited(const struct ib_job *job, struct ib_files *fs,
			  bool readonly, struct ib_diag *d);
/* Does this job run with fewer open files than files? */
bool ib_files_limited(const struct ib_job *job, const struct ib_files *fs);

#endif
