// SPDX-License-Identifier: GPL-2.0-only
/* The I/O buffers' memory by iomem=/mem= (buf.h ib_bufmem_alloc). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>
#include "iobench/safe_open.h"
#include "iobench/buf.h"

static int map_file(struct ib_engine_ctx *ctx, const char *path, size_t len,
		    struct ib_diag *d)
{
	int fd = ib_safety_open(path, O_RDWR | O_CREAT, d), err;

	if (fd == -ELOOP)
		return fd;
	if (fd < 0)
		return ib_diag_set(d, -fd, "iomem=mmap:%s: open: %s", path,
				   strerror(-fd));
	if (ftruncate(fd, (off_t)len) < 0) {
		err = errno;
		close(fd);
		unlink(path);
		return ib_diag_set(d, err, "iomem=mmap:%s: ftruncate: %s", path,
				   strerror(err));
	}
	ctx->buf_base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	unlink(path);
	if (ctx->buf_base == MAP_FAILED) {
		ctx->buf_base = NULL;
		return ib_diag_set(d, err, "iomem=mmap:%s: mmap: %s", path, strerror(err));
	}
	return 0;
}

static int map_anon(struct ib_engine_ctx *ctx, size_t len, bool shared,
		    struct ib_diag *d)
{
	int flags = MAP_ANONYMOUS | (shared ? MAP_SHARED : MAP_PRIVATE);

	ctx->buf_base = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (ctx->buf_base == MAP_FAILED) {
		ctx->buf_base = NULL;
		return ib_diag_set(d, errno, "iomem=%s: mmap of %zu bytes: %s",
				   shared ? "mmapshared" : "mmap", len, strerror(errno));
	}
	return 0;
}

static int attach_shm(struct ib_engine_ctx *ctx, size_t len, struct ib_diag *d)
{
	int id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600), err;
	void *p;

	if (id < 0)
		return ib_diag_set(d, errno, "iomem=shm: shmget of %zu bytes: %s",
				   len, strerror(errno));
	p = shmat(id, NULL, 0);
	err = errno;
	shmctl(id, IPC_RMID, NULL);	/* gone with the last detach */
	if (p == (void *)-1)
		return ib_diag_set(d, err, "iomem=shm: shmat: %s", strerror(err));
	ctx->buf_base = p;
	return 0;
}

int ib_bufmem_alloc(struct ib_engine_ctx *ctx, const struct ib_job *job,
		    struct ib_diag *d)
{
	size_t len = ib_ctx_buf_bytes(ctx);

	ctx->buf_mem = job->iomem;
	switch (job->iomem) {
	case IB_IOMEM_SHM:
		return attach_shm(ctx, len, d);
	case IB_IOMEM_MMAP:
		return job->iomem_file[0] ? map_file(ctx, job->iomem_file, len, d) :
					    map_anon(ctx, len, false, d);
	case IB_IOMEM_MMAPSHARED:
		return map_anon(ctx, len, true, d);
	default:
		break;
	}
	ctx->buf_mem = IB_IOMEM_MALLOC;
	if (posix_memalign(&ctx->buf_base, 4096, len)) {
		ctx->buf_base = NULL;
		return ib_diag_set(d, ENOMEM, "no memory for %u buffers of %zu bytes",
				   ctx->nr_ios, ctx->buf_size);
	}
	return 0;
}

void ib_bufmem_free(struct ib_engine_ctx *ctx)
{
	if (!ctx->buf_base)
		return;
	if (ctx->buf_mem == IB_IOMEM_SHM)
		shmdt(ctx->buf_base);
	else if (ctx->buf_mem == IB_IOMEM_MMAP || ctx->buf_mem == IB_IOMEM_MMAPSHARED)
		munmap(ctx->buf_base, ib_ctx_buf_bytes(ctx));
	else
		free(ctx->buf_base);
	ctx->buf_base = NULL;
}
