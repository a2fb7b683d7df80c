// SPDX-License-Identifier: GPL-2.0-only
/*
 * A job's syncs: fsync=/fdatasync=/sync_file_range= N, a trace's sync of
 * one file and end_fsync, timed, logged and judged as fio does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "iobench/ioerr.h"
#include "worker_priv.h"

/*
 * A failed fsync/fdatasync (fsync=, fdatasync=) is a write error (fio's
 * rule), completed inline. end_fsync's always fails the job uncounted, as
 * in fio. Returns true when the job goes on.
 */
static bool sync_error(struct worker *w, const struct ib_file *f, int err,
		       bool at_end)
{
	bool count = false, go_on = false;
	char where[256] = "", what[128];

	if (!at_end)
		go_on = ib_err_decide(w->job, IB_DDIR_SYNC, err, true, &count);
	if (ib_loop_error_text_needed(&w->loop, count, go_on))
		fmt_into(where, sizeof(where), "%s file=%s: %s",
			 at_end ? "end_fsync" : "sync", f->path,
			 ib_strerror_named(err, what, sizeof(what)));
	if (go_on)
		ib_loop_dump_error(&w->loop, IB_DDIR_SYNC, err, 0, 0, f->path);
	ib_loop_error(&w->loop, err, count, go_on, where);
	return go_on;
}

enum sync_kind { SYNC_FILE, SYNC_DATA, SYNC_RANGE };

/* The system call of a sync of file i; sync_file_range=: the range
 * written since its last sync. -1 with errno. */
static int sync_call(const struct worker *w, unsigned int i, enum sync_kind k)
{
	const struct worker_wrange *r;
	int fd = w->fs->f[i].fd;

	if (k == SYNC_FILE)
		return fsync(fd);
	if (k == SYNC_DATA)
		return fdatasync(fd);
	r = &w->written[i];
	return r->lo < r->hi ? sync_file_range(fd, (off64_t)r->lo, (off64_t)(r->hi - r->lo),
					       w->job->sfr_flags) : 0;
}

/*
 * One sync of file i (fsync, fdatasync or sync_file_range), logged (write_iolog
 * action: act, at off) and timed; at_end: end_fsync, which the statistics
 * leave out. The null engine syncs nothing, as it does no I/O. Returns
 * whether the job goes on.
 */
static bool sync_one(struct worker *w, unsigned int i, enum sync_kind k,
		     unsigned int act, uint64_t off, bool at_end)
{
	const struct ib_file *f = &w->fs->f[i];
	uint64_t t0 = ib_clock_ns(&w->clock), t1;
	int ret = 0;

	ib_iolog_io(&w->iolog, f, act, off, 0, t0);
	if (!(w->ops->flags & IB_ENGINE_NOIO) && sync_call(w, i, k) < 0)
		ret = -errno;
	t1 = ib_clock_ns(&w->clock);
	w->loop.last_ns = t1;
	if (!at_end)
		ib_stats_add_sync(w->st, ret ? UINT64_MAX : t1 - t0);
	return !ret || sync_error(w, f, -ret, at_end);
}

int worker_written_init(struct worker *w)
{
	unsigned int i;

	w->written = calloc(w->fs->nr ? w->fs->nr : 1, sizeof(*w->written));
	if (!w->written)
		return -ENOMEM;
	for (i = 0; i < w->fs->nr; i++)
		w->written[i].lo = UINT64_MAX;
	return 0;
}

/*
 * A write completed: its file's range since the last sync grows by all of
 * it (a short transfer's earlier parts too: xfer_done bytes before offset).
 */
void worker_written(struct worker *w, const struct ib_io *io)
{
	struct worker_wrange *r;
	uint64_t lo, hi;

	if (io->ddir != IB_DDIR_WRITE || io->res <= 0 || io->file_idx >= w->fs->nr)
		return;
	r = &w->written[io->file_idx];
	lo = io->offset - io->xfer_done;
	hi = io->offset + (uint64_t)io->res;
	if (lo < r->lo)
		r->lo = lo;
	if (hi > r->hi)
		r->hi = hi;
	r->last = io->offset;
}

/*
 * The sync of file i by fsync=/fdatasync=/sync_file_range= N (k), or
 * end_fsync's: logged at the file's last write (a sync_file_range at its
 * range's start), and the range starts again.
 */
static bool sync_written(struct worker *w, unsigned int i, enum sync_kind k,
			 bool at_end)
{
	static const unsigned int act[] = {
		[SYNC_FILE] = IB_DDIR_SYNC, [SYNC_DATA] = IB_IOLOG_DATASYNC,
		[SYNC_RANGE] = IB_IOLOG_SFR,
	};
	struct worker_wrange *r = w->written ? &w->written[i] : NULL;
	uint64_t off = 0;
	bool go_on;

	if (r && r->lo < r->hi)
		off = k == SYNC_RANGE ? r->lo : r->last;
	go_on = sync_one(w, i, k, act[k], off, at_end);
	if (r) {
		r->lo = UINT64_MAX;
		r->hi = 0;
	}
	return go_on;
}

/*
 * fsync=/fdatasync=/sync_file_range= N: a sync of each open file written
 * since its last sync, each timed and counted (fio syncs one file per N
 * writes, the one its next I/O goes to, written or not); end_fsync
 * (at_end): an fsync (fdatasync= alone: fdatasync) of every open file.
 * The loop is drained.
 */
void worker_do_sync(struct worker *w, bool at_end)
{
	/* validate.c: sync_file_range= is a job's only kind of sync */
	enum sync_kind k = w->job->sfr_every && !at_end ? SYNC_RANGE :
			   w->job->fdatasync_every && !w->job->fsync_every ?
			   SYNC_DATA : SYNC_FILE;
	unsigned int i;

	set_state(w, IB_ST_FSYNC);
	for (i = 0; i < w->fs->nr; i++) {
		const struct worker_wrange *r = w->written ? &w->written[i] : NULL;

		if (w->fs->f[i].fd < 0) /* openfiles=N: closed */
			continue;
		if (!at_end && r && r->lo >= r->hi)
			continue; /* nothing written since its last sync */
		if (!sync_written(w, i, k, at_end))
			return;
	}
	set_state(w, w->ramp_end_ns ? IB_ST_RAMP : run_letter(w->job));
}

/*
 * end_syncfs: one syncfs(2) through the first open file, untimed and
 * uncounted as end_fsync; a failure fails the job.
 */
void worker_do_syncfs(struct worker *w)
{
	char where[256], what[128];
	unsigned int i;

	for (i = 0; i < w->fs->nr && w->fs->f[i].fd < 0; i++)
		;
	if (i == w->fs->nr || (w->ops->flags & IB_ENGINE_NOIO))
		return;
	set_state(w, IB_ST_FSYNC);
	if (syncfs(w->fs->f[i].fd) < 0) {
		int err = errno;

		fmt_into(where, sizeof(where), "end_syncfs file=%s: %s", w->fs->f[i].path,
			 ib_strerror_named(err, what, sizeof(what)));
		ib_loop_error(&w->loop, err, false, false, where);
	}
	w->loop.last_ns = ib_clock_ns(&w->clock);
}

/* The loop's sync hook: fsync=/fdatasync= N writes are done. */
void worker_sync_hook(void *arg, struct ib_loop *l)
{
	(void)l;
	worker_do_sync(arg, false);
}

/*
 * The loop's file_sync hook: a trace's sync or datasync of one file (the
 * loop drained), timed and logged as fsync=N's are.
 */
void worker_file_sync_hook(void *arg, struct ib_loop *l,
			   const struct ib_io_desc *d)
{
	struct worker *w = arg;

	(void)l;
	if (d->file_idx >= w->fs->nr)
		return; /* a no-files engine: no file to sync */
	sync_one(w, d->file_idx, d->datasync ? SYNC_DATA : SYNC_FILE,
		 d->datasync ? IB_IOLOG_DATASYNC : IB_DDIR_SYNC, d->offset, false);
}
