// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job loop's errors: a failed job, a counted error (continue_on_error),
 * the error dump, and an I/O that completed with an error. See loop.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "iobench/ioerr.h"
#include "loop_priv.h"

/* Bounded formatting into a fixed field; truncation is fine there. */
static void ib_printf_fmt(3, 4) fmt_into(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

void ib_loop_fail(struct ib_loop *l, int err, const char *where)
{
	struct ib_job_stats *st = l->c.st;

	if (!st->error) {
		st->error = err;
		fmt_into(st->error_where, sizeof(st->error_where), "%s", where);
	}
	l->failed = true;
	l->issuing_done = true;
}

bool ib_loop_error_text_needed(const struct ib_loop *l, bool count, bool go_on)
{
	return (count && !l->c.st->first_error) || (!go_on && !l->c.st->error);
}

void ib_loop_error(struct ib_loop *l, int err, bool count, bool go_on,
		   const char *where)
{
	struct ib_job_stats *st = l->c.st;

	if (count) {
		st->total_err++;
		if (!st->first_error) {
			st->first_error = err;
			fmt_into(st->first_error_where,
				 sizeof(st->first_error_where), "%s", where);
		}
	}
	if (!go_on)
		ib_loop_fail(l, err, where);
}

void ib_loop_dump_error(struct ib_loop *l, unsigned int ddir, int err, uint64_t offset,
			uint64_t buflen, const char *path)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };
	struct ib_job_stats *st = l->c.st;
	size_t used = strlen(st->error_dump);
	char line[PATH_MAX + 160];

	if (!l->c.job->error_dump)
		return;
	fmt_into(line, sizeof(line), "io_u error on file %s: %s: %s offset=%llu, buflen=%llu\n",
		 path, strerror(err), ddir < 4 ? names[ddir] : "?",
		 (unsigned long long)offset, (unsigned long long)buflen);
	if (used + strlen(line) < sizeof(st->error_dump))
		memcpy(st->error_dump + used, line, strlen(line) + 1);
	else
		st->error_dump_lost++;
}

/* "write offset=O, buflen=L, file=F: No space left on device (ENOSPC)" */
static void describe_io(const struct ib_loop *l, const struct ib_io *io,
			int err, char *buf, size_t len)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };
	const char *why = l->c.ctx->errmsg;
	char what[128];

	fmt_into(buf, len, "%s offset=%llu, buflen=%u, file=%s: %s%s%s",
		 names[io->ddir], (unsigned long long)(io->offset - io->xfer_done),
		 io->xfer_total, l->c.ctx->files[io->file_idx].path,
		 ib_strerror_named(err, what, sizeof(what)), why[0] ? "; " : "", why);
}

void loop_io_error(struct ib_loop *l, struct ib_io *io, int err)
{
	bool inline_done = (l->c.ops->flags & IB_ENGINE_SYNC) || io->inline_done;
	bool count, go_on;
	char where[256] = "";

	if (io->ddir == IB_DDIR_WRITE && ib_err_fill_end(l->c.job, err)) {
		l->full = true;	/* what fill_device waits for: the end */
		ib_loop_stop(l);
		return;
	}
	go_on = ib_err_decide(l->c.job, io->ddir, err, inline_done, &count);

	if (ib_loop_error_text_needed(l, count, go_on))
		describe_io(l, io, err, where, sizeof(where));
	if (go_on)
		ib_loop_dump_error(l, io->ddir, err, io->offset - io->xfer_done,
				   io->xfer_total, l->c.ctx->files[io->file_idx].path);
	ib_loop_error(l, err, count, go_on, where);
	l->c.ctx->errmsg[0] = '\0'; /* an engine's note is about this I/O only */
}
