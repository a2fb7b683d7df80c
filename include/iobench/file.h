/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_FILE_H
#define IOBENCH_FILE_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include "iobench/diag.h"
#include "iobench/engine.h"
#include "iobench/job.h"

/*
 * Targets of a job. Three steps:
 *   ib_files_resolve  paths only (filename= list or JOBNAME.CLONE.N in
 *                     directory=); no I/O.
 *   ib_files_prepare  in the parent, before any job starts: sizes (stat,
 *                     BLKGETSIZE64), the region each file gives this job,
 *                     O_DIRECT: does the filesystem take it (an O_RDONLY
 *                     open, or an O_TMPFILE one in the directory a missing
 *                     file goes to) and the alignment against the kernel's
 *                     answer. A job that asked for direct=1 fails there; one
 *                     that has it only by default gets direct = false and
 *                     direct_why says why. Writes nothing, so every job is
 *                     checked before any layout.
 *   ib_files_layout   then: create missing files and directories, extend
 *                     short regular files (never truncated).
 *                     Nothing is opened for writing for a job that does not
 *                     write, nor ever under readonly.
 *   ib_files_open     in the job: open with the job's flags (O_DIRECT if
 *                     `direct`).
 */
struct ib_files {
	struct ib_file *f;
	unsigned int nr;
	bool direct;		/* open with O_DIRECT (resolve: job->direct) */
	char direct_why[320];	/* "" or why a default direct=1 runs buffered */
};

int ib_files_resolve(const struct ib_job *job, struct ib_files *fs,
		     struct ib_diag *d);
int ib_files_prepare(const struct ib_job *job, struct ib_files *fs,
		     struct ib_diag *d);
/* How many regular files were opened O_NOATIME (fio opens only devices so). */
unsigned int ib_files_noatime(const struct ib_files *fs);
/* How many regular files are shorter than the region the job uses. */
unsigned int ib_files_need_layout(const struct ib_files *fs);
/*
 * Creates missing files (and missing directories on their paths) and
 * extends short ones. Stops with -EINTR between 1 MiB chunks once *stop
 * (may be NULL) is set.
 */
int ib_files_layout(const struct ib_job *job, struct ib_files *fs,
		    bool readonly, FILE *msg, const volatile sig_atomic_t *stop,
		    struct ib_diag *d);
/*
 * create_serialize=0: ib_files_layout for each task at the same time, one
 * thread each (a task whose thread cannot start is laid out in the
 * caller); returns when all are done, each with its ret and diag. Tasks
 * must not share a path (ib_files_share_path).
 */
struct ib_layout_task {
	const struct ib_job *job;
	struct ib_files *fs;
	bool readonly;
	FILE *msg;
	const volatile sig_atomic_t *stop;
	int ret;
	struct ib_diag d;
	pthread_t tid;
	bool started;
};
void ib_files_layout_parallel(struct ib_layout_task *t, unsigned int n);
bool ib_files_share_path(const struct ib_files *a, const struct ib_files *b);
/* Regions from size=/offset= alone, for engines that touch no files. */
int ib_files_virtual(const struct ib_job *job, struct ib_files *fs,
		     struct ib_diag *d);
int ib_files_open(const struct ib_job *job, struct ib_files *fs,
		  bool readonly, struct ib_diag *d);
/*
 * unlink_each_loop, between two loops: each regular file is unlinked and
 * opened again, with O_CREAT when the job writes (an empty new file, as in
 * fio, which does not lay it out again); the new fd takes the old one's
 * number. A job that only reads fails here with ENOENT, as in fio.
 */
int ib_files_renew(const struct ib_job *job, struct ib_files *fs,
		   bool readonly, struct ib_diag *d);
/* Close every open fd; unlink regular files if job->unlink. */
void ib_files_close(const struct ib_job *job, struct ib_files *fs);
void ib_files_free(struct ib_files *fs);

/*
 * fd was just opened at f->path to write: is it what the safety check saw
 * (engine.h: id_type, id_rdev)? A block device must be the very device
 * checked; anything else must be a regular file (a path that was missing
 * may have been created since). 0, or -EXDEV with one line in d naming
 * the path, what it is now and what was checked; the caller closes fd
 * and writes nothing.
 */
int ib_file_verify_fd(const struct ib_file *f, int fd, struct ib_diag *d);

/*
 * fill_device with writes: the bytes the open files fs can take (fill.c),
 * what each holds past its region's start plus the free space of each
 * file system they are on, counted once; 0: unknown. The status line's
 * plan, where the regions are each larger than the file system.
 */
uint64_t ib_fill_plan(const struct ib_files *fs);

/*
 * fileopts.c: the page cache and allocation options.
 * ib_files_prealloc: allocate bytes [from, need) of the open file fd (path
 * for messages) as fallocate= says; like fio, only native, posix (which
 * allocate) and truncate make the file `need` long, none and keep leave
 * its size to the writes.
 * ib_files_cache_setup: in the job, after ib_files_open: pre_read (read
 * each region once through the job's fd), else invalidate (fadvise
 * DONTNEED for files, BLKFLSBUF for devices), then fadvise_hint.
 * Both return 0 or -errno with d set.
 */
int ib_files_prealloc(const struct ib_job *job, int fd, const char *path,
		      uint64_t from, uint64_t need, struct ib_diag *d);
int ib_files_cache_setup(const struct ib_job *job, struct ib_files *fs,
			 struct ib_diag *d);

#endif
