/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_ENGINES_PRIV_H
#define IOBENCH_ENGINES_PRIV_H

/* Private to src/io/engine.c and src/io/engines/: the ops each engine file defines. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/uio.h>	/* RWF_* */
#include "src/io/kabi.h"
#include "config.h"
#include "iobench/compiler.h"
#include "iobench/engine.h"
#include "iobench/opt.h"

extern const struct ib_engine_ops ib_engine_psync;
extern const struct ib_engine_ops ib_engine_sync;
extern const struct ib_engine_ops ib_engine_pvsync;
extern const struct ib_engine_ops ib_engine_pvsync2;
extern const struct ib_engine_ops ib_engine_vsync;
extern const struct ib_engine_ops ib_engine_null;
extern const struct ib_engine_ops ib_engine_mmap;
extern const struct ib_engine_ops ib_engine_falloc;
extern const struct ib_engine_ops ib_engine_ftruncate;
extern const struct ib_engine_ops ib_engine_filecreate;
extern const struct ib_engine_ops ib_engine_filestat;
extern const struct ib_engine_ops ib_engine_filedelete;
extern const struct ib_engine_ops ib_engine_posixaio;
extern const struct ib_engine_ops ib_engine_splice;
#if HAVE_LIBURING
extern const struct ib_engine_ops ib_engine_io_uring;
#endif
#if HAVE_LIBAIO
extern const struct ib_engine_ops ib_engine_libaio;
#endif

/* Every engine that has options, built or not (engine.c lists them). */
extern const struct ib_engine_opts ib_engine_opts_io_uring;
extern const struct ib_engine_opts ib_engine_opts_pvsync2;
extern const struct ib_engine_opts ib_engine_opts_libaio;

/* The kernel's IORING_MAX_REG_BUFFERS: fixedbufs registers one per io. */
#define URING_MAX_FIXEDBUFS 16384u

/* Option rows: a field of struct ib_job (as options_table.c's FLD). */
#define ENG_FLD(m) .off = offsetof(struct ib_job, m), \
		   .size = sizeof(((struct ib_job *)0)->m)

/* Rows several engines share: one definition, so they cannot disagree. */
#define ENG_OPT_HIPRI                                                         \
	{ .name = "hipri", .type = IB_OPT_BOOL, .any_int = true,               \
	  .cat = IB_CAT_ENGOPT,                                                \
	  ENG_FLD(engine.hipri), .def = "0",                                   \
	  .help = "Polled I/O (io_uring IOPOLL, pvsync2 RWF_HIPRI)" }
#define ENG_OPT_NOWAIT                                                        \
	{ .name = "nowait", .type = IB_OPT_BOOL, .cat = IB_CAT_ENGOPT,         \
	  ENG_FLD(engine.nowait), .def = "0",                                  \
	  .help = "Fail I/O that would block (RWF_NOWAIT)" }
#define ENG_OPT_UNCACHED                                                      \
	{ .name = "uncached", .type = IB_OPT_UINT, .cat = IB_CAT_ENGOPT,       \
	  ENG_FLD(engine.uncached), .def = "0",                                \
	  .help = "Buffered I/O that leaves nothing in the page cache (RWF_DONTCACHE; not with direct=1)" }
#define ENG_OPT_ATOMIC                                                        \
	{ .name = "atomic", .type = IB_OPT_BOOL, .cat = IB_CAT_ENGOPT,         \
	  ENG_FLD(engine.atomic), .def = "0",                                  \
	  .help = "Torn-write protection: writes with RWF_ATOMIC (direct=1, one power-of-two size in the target's limits)" }
#define ENG_OPT_END { .name = NULL }

/* The RWF_* flags of a job's reads and writes (pvsync2, io_uring, libaio). */
static inline int eng_rwf_flags(const struct ib_job *job)
{
	int flags = 0;

	if (job->engine.hipri)
		flags |= RWF_HIPRI;
	if (job->engine.nowait)
		flags |= RWF_NOWAIT;
	if (job->engine.uncached && !job->direct)
		flags |= RWF_DONTCACHE;
	return flags;
}

/* The RWF_* flags a job's writes add to eng_rwf_flags(): atomic. */
static inline int eng_rwf_write_flags(const struct ib_job *job)
{
	return job->engine.atomic ? RWF_ATOMIC : 0;
}

/* Cold path: copy a constant line into ctx->errmsg. */
static inline void eng_errmsg(struct ib_engine_ctx *ctx, const char *msg)
{
	size_t n = strlen(msg);

	if (n >= sizeof(ctx->errmsg))
		n = sizeof(ctx->errmsg) - 1;
	memcpy(ctx->errmsg, msg, n);
	ctx->errmsg[n] = '\0';
}

/*
 * Cold path: explain an I/O error the errno alone leaves unclear. The
 * first explanation sticks; the worker prints ctx->errmsg with the error.
 */
static inline void eng_note_error(struct ib_engine_ctx *ctx, int64_t res)
{
	const struct ib_job *job = ctx->job;

	if (ctx->errmsg[0])
		return;
	if (res == -EOPNOTSUPP && job->engine.hipri)
		eng_errmsg(ctx, "hipri: this file or device cannot do polled "
				"I/O (needs direct=1 on a block device with poll "
				"queues, e.g. nvme poll_queues>0)");
	else if (res == -EOPNOTSUPP && job->engine.nowait)
		eng_errmsg(ctx, "nowait: this file system does not support "
				"RWF_NOWAIT");
	else if (res == -EAGAIN && job->engine.nowait)
		eng_errmsg(ctx, "nowait: the I/O would have blocked (RWF_NOWAIT)");
	else if (res == -EOPNOTSUPP && job->engine.uncached && !job->direct)
		eng_errmsg(ctx, "uncached: this file system or kernel does not "
				"support uncached buffered I/O (RWF_DONTCACHE, "
				"Linux 6.14 on ext4, xfs, btrfs; not tmpfs)");
}

#endif
