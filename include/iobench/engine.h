/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_ENGINE_H
#define IOBENCH_ENGINE_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "iobench/job.h"

/*
 * The I/O engine contract.
 *
 * The job loop (loop.c) owns the clock and the statistics; an engine only
 * moves I/O units between the loop and the kernel. Engines never print,
 * never read the clock and never touch stats.
 *
 * Lifecycle, all in the job's own process/thread (io_uring rings are created
 * single-issuer: only the task that called init may queue/commit/reap), after
 * the files are open (fd valid, reg_index -1) and the buffers allocated
 * (ios[i].idx == i, ios[i].buf == buf_base + i * buf_size):
 *   init(ctx)            allocate ctx->data (sized by ctx->nr_ios); register
 *                        buffers/files if asked. 0 or -errno; on failure
 *                        ctx->errmsg says why in one line. -ENOSYS/-EPERM/
 *                        -EOPNOTSUPP mean "this engine is unavailable here"
 *                        (see ib_engine_unavailable()).
 *   queue(ctx, io)       start io (ddir READ or WRITE; offset/len/file_idx/buf
 *                        set; a TRIM is done inline by ib_trim_io(), trim.h). Returns IB_Q_QUEUED (will come back from
 *                        reap), IB_Q_DONE (completed inline: io->res set),
 *                        IB_Q_BUSY (no room: the loop commits and reaps, then
 *                        queues the same io again; the engine kept no state
 *                        for it) or -errno (fatal). An engine holds at most
 *                        nr_ios ios at once (queued + in flight); one more
 *                        gives BUSY.
 *   commit(ctx)          submit everything queued; returns the number handed
 *                        to the kernel (>= 0) or -errno. NULL for sync engines.
 *                        May submit fewer than queued, even 0 when the kernel
 *                        says EAGAIN/EBUSY (the rest stay queued and the next
 *                        commit retries them; reap first).
 *   reap(ctx, min, max, done, timeout_ns)
 *                        wait for at least min (0: don't wait) and at most max
 *                        completions; store them in done[] and return how
 *                        many, or -errno. -EINTR is returned as what was
 *                        reaped so far (possibly 0). min is clamped to what is
 *                        in flight, so it never waits for I/O never submitted.
 *                        timeout_ns bounds the wait (relative, engines never
 *                        read the clock): when it passes, reap returns what
 *                        is complete, fewer than min or 0. IB_WAIT_FOREVER:
 *                        no bound. A timed wait may also end early with
 *                        fewer than min; the loop asks again.
 *                        Completions come in any order. NULL for sync engines.
 *   cleanup(ctx)         release everything; safe after a failed init, once.
 *   probe()              optional (NULL: always usable): in the parent,
 *                        before any job starts, 0 if the kernel lets this
 *                        process use the engine, else -errno (a smallest
 *                        ring/context is made and torn down). The runner
 *                        falls back from a default engine whose probe says
 *                        ib_engine_unavailable().
 * init, queue and cleanup are never NULL.
 *
 * io->res is what an io_uring CQE says: bytes transferred, or -errno.
 * A short transfer is handed back as is; the loop requeues the rest.
 * When an engine knows more about a failed I/O than the errno (hipri on a
 * file that cannot poll, say), it writes one line into ctx->errmsg (cold
 * path only); the job's error report carries it.
 *
 * Engines:
 *   psync (fio's default), sync, pvsync, pvsync2, vsync: IB_ENGINE_SYNC, queue()
 *     completes inline (IB_Q_DONE). vsync does not merge adjacent I/Os.
 *   null: no I/O (IB_ENGINE_NOIO). At iodepth=1 queue() completes inline
 *     (IB_Q_DONE, res = len: no slat), as fio's null engine does there.
 *     Deeper, it is asynchronous: queue() -> QUEUED, commit() counts,
 *     reap() returns committed ios in order with res = len and never waits
 *     (so it ignores timeout_ns): it measures the loop's own overhead.
 *   io_uring (iobench's default), libaio: asynchronous; built when their
 *     library is found.
 */
#define IB_ENGINE_ERRMSG_LEN 256
#define IB_ENGINE_SETUP_LEN 80

enum ib_queue_ret { IB_Q_QUEUED = 0, IB_Q_DONE = 1, IB_Q_BUSY = 2 };

/* reap()'s timeout_ns: wait for min completions however long it takes. */
#define IB_WAIT_FOREVER UINT64_MAX

enum ib_engine_flags {
	IB_ENGINE_SYNC = 1u << 0,	/* queue() completes inline; depth is 1 */
	IB_ENGINE_NOIO = 1u << 1,	/* does no real I/O (null) */
	IB_ENGINE_NOFILES = 1u << 2,	/* needs no real files */
	/* completions can come from the job's own kernel workers (io_uring's
	 * io-wq): the adaptive policy probes a spin before a blocking reap */
	IB_ENGINE_SPIN = 1u << 3,
};

struct ib_file {
	char *path;		/* owned by the ib_files list (heap) */
	int fd;
	int reg_index;		/* index in a registered file table, or -1 */
	bool is_bdev;
	bool noatime;		/* opened O_NOATIME (file.c file_flags) */
	uint64_t real_size;	/* size of the file/device */
	uint64_t io_offset;	/* start of the region this job uses */
	uint64_t io_size;	/* length of that region */
	unsigned int lbs;	/* logical block size (O_DIRECT alignment) */
	/*
	 * What the parent's safety check saw at this path (ib_safety_check):
	 * id_type S_IFBLK (device id_rdev, checked), S_IFREG, or 0 (missing,
	 * or not looked at). Every later open for writing verifies the fd it
	 * got against it (ib_file_verify_fd) before writing.
	 */
	unsigned int id_type;
	dev_t id_rdev;
};

struct ib_io {
	uint64_t offset;	/* absolute byte offset in the file */
	uint32_t len;		/* bytes asked for this submission */
	uint8_t ddir;		/* enum ib_ddir (READ/WRITE/TRIM/SYNC) */
	uint8_t inline_done;	/* loop: completed inside queue(), no slat */
	uint16_t file_idx;	/* index into ctx->files */
	unsigned int idx;	/* index in ctx->ios, == buffer index */
	void *buf;		/* aligned buffer, ctx->buf_size bytes */
	int64_t res;		/* bytes done or -errno, set on completion */
	/* loop-owned bookkeeping (engines don't touch) */
	uint32_t xfer_total;	/* original length, for short-transfer requeue */
	uint32_t xfer_done;
	/* Times, loop clock ns: due <= start <= issue <= done. A closed-loop
	 * source makes due = start; an open-loop one (a trace, a rate) says
	 * when the I/O should have started, so lateness can be measured. */
	uint64_t due_ns;	/* when the source wanted it started */
	uint64_t start_ns;	/* prepared (slat start) */
	uint64_t issue_ns;	/* handed to the kernel (clat start) */
	uint64_t done_ns;	/* completion seen (clat/lat end) */
	void *engine_priv;	/* engine's per-io slot, if it wants one */
};

struct ib_engine_ctx {
	const struct ib_job *job;
	struct ib_file *files;
	unsigned int nr_files;
	struct ib_io *ios;
	unsigned int nr_ios;	/* == iodepth */
	size_t buf_size;	/* bytes per io buffer (max bs, aligned) */
	void *buf_base;		/* nr_ios * buf_size, contiguous, aligned;
				 * times buf_areas */
	/* 1, or 2: the reads' buffers apart, unit i's at nr_ios + i (buf.h:
	 * a read never overwrites the data a later write sends) */
	unsigned int buf_areas;
	unsigned int buf_mem;	/* enum ib_iomem: how buf_base was allocated */
	void *data;		/* engine private */
	char errmsg[IB_ENGINE_ERRMSG_LEN]; /* "" or why init/an I/O failed */
	/* what init set up that no option asked for ("" none), e.g.
	 * "fixedbufs,ring_fd,defer_taskrun": the JSON's effective options */
	char setup[IB_ENGINE_SETUP_LEN];
};

/* How many buffers, of every area (buf_areas 0: set by no one, 1). */
static inline unsigned int ib_ctx_nr_bufs(const struct ib_engine_ctx *c)
{
	return c->nr_ios * (c->buf_areas ? c->buf_areas : 1);
}

/* The bytes of every buffer. */
static inline size_t ib_ctx_buf_bytes(const struct ib_engine_ctx *c)
{
	return c->buf_size * ib_ctx_nr_bufs(c);
}

/* Buffer k (0 .. nr_ios * buf_areas - 1): unit k's, then the reads'. */
static inline void *ib_ctx_buf(const struct ib_engine_ctx *c, size_t k)
{
	return (char *)c->buf_base + k * c->buf_size;
}

/* Which buffer io->buf lies in (a registered buffer's index): the unit's,
 * or its read buffer's (no division on the I/O path). */
static inline unsigned int ib_ctx_buf_index(const struct ib_engine_ctx *c,
					    const struct ib_io *io)
{
	const char *reads = ib_ctx_buf(c, c->nr_ios);

	return io->idx + ((const char *)io->buf >= reads ? c->nr_ios : 0);
}

struct ib_opt;
struct ib_diag;

/*
 * An engine's own job options, in one place: its option rows (the option
 * table's format, options.h: fields of struct ib_job) and the checks only
 * the engine knows. The parser, --cmdhelp, --enghelp, the man page, and the
 * "option given for an engine that lacks it" check all read these rows.
 * They live in an always-compiled file (sync.c for pvsync2,
 * io_uring_opts.c, libaio_opts.c), not with the engine's I/O code, so that a
 * binary built without liburing or libaio still knows the options and
 * refuses them with a clear message. Rows that several engines share (hipri,
 * nowait) are the same row (engines.h), so parsing never depends on which
 * engine's row was found.
 */
struct ib_engine_opts {
	const char *engine;		/* "io_uring" */
	const char *library;		/* what building it needs ("liburing"),
					 * NULL: always built */
	const struct ib_opt *rows;	/* ended by a NULL name */
	/*
	 * Optional; after ib_job_fixup(), only for a job using this engine:
	 * 0, or -errno with one line naming the option in d.
	 */
	int (*validate)(const struct ib_job *j, struct ib_diag *d);
};

struct ib_engine_ops {
	const char *name;	/* its options: ib_engine_opts_find(name) */
	const char *help;	/* one line for --enghelp */
	unsigned int flags;
	int (*init)(struct ib_engine_ctx *ctx);
	int (*queue)(struct ib_engine_ctx *ctx, struct ib_io *io);
	int (*commit)(struct ib_engine_ctx *ctx);
	int (*reap)(struct ib_engine_ctx *ctx, unsigned int min,
		    unsigned int max, struct ib_io **done, uint64_t timeout_ns);
	void (*cleanup)(struct ib_engine_ctx *ctx);
	int (*probe)(void);
	/*
	 * Optional: the files were renewed between loops (new files under the
	 * same fds, file.h ib_files_renew); 0 or -errno.
	 */
	int (*files_renewed)(struct ib_engine_ctx *ctx);
};

/* Look up an engine built into this binary; NULL if unknown. */
const struct ib_engine_ops *ib_engine_find(const char *name);
/* Is `name` an engine fio has that this binary was built without or lacks? */
bool ib_engine_known_unbuilt(const char *name);
/* NULL-terminated list of the engines built in. */
const struct ib_engine_ops *const *ib_engine_list(void);

/*
 * Engine options. Every engine iobench has, built into this binary or not,
 * that has options; in help order (io_uring, pvsync2, libaio). NULL-ended.
 */
const struct ib_engine_opts *const *ib_engine_opts_list(void);
/* The options of engine `engine` (built or not); NULL if it has none. */
const struct ib_engine_opts *ib_engine_opts_find(const char *engine);
/* The row of engine option `name` (or an alias, any case); NULL if none. */
const struct ib_opt *ib_engine_opt_find(const char *name);
/*
 * The engines having option `opt` (canonical name), in list order: up to
 * max names into names[]; returns how many there are.
 */
unsigned int ib_engine_opt_owners(const char *opt, const char **names,
				  unsigned int max);
/* Does engine `engine` (built or not) have the option `opt` ("hipri")? */
bool ib_engine_has_option(const char *engine, const char *opt);

/* Does an init() error mean "engine unavailable on this system"? */
static inline bool ib_engine_unavailable(int err)
{
	return err == -ENOSYS || err == -EPERM || err == -EOPNOTSUPP;
}

#endif
