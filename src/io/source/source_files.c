// SPDX-License-Identifier: GPL-2.0-only
/*
 * openfiles=N: the generator's I/Os with the fds opened and closed as its
 * choice of files moves on (source_files.h).
 */
#include <errno.h>
#include <unistd.h>
#include "iobench/compiler.h"
#include "source_files.h"

bool ib_files_limited(const struct ib_job *job, const struct ib_files *fs)
{
	return job->openfiles && job->openfiles < fs->nr;
}

/* A view of one file of fs, for the all-files helpers of file.h. */
static struct ib_files one_file(const struct ib_files *fs, unsigned int i)
{
	struct ib_files one = { .f = &fs->f[i], .nr = 1, .direct = fs->direct };

	return one;
}

int ib_files_open_limited(const struct ib_job *job, struct ib_files *fs,
			  bool readonly, struct ib_diag *d)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < fs->nr; i++)
		fs->f[i].fd = -1;
	for (i = 0; !ret && i < fs->nr; i++) {
		struct ib_files one = one_file(fs, i);

		ret = ib_files_open(job, &one, readonly, d);
		if (!ret && !job->create_only)
			ret = ib_files_cache_setup(job, &one, d);
		if (fs->f[i].fd >= 0)
			close(fs->f[i].fd);
		fs->f[i].fd = -1;
	}
	return ret;
}

/* Close the files the generator gave up, then open file i. */
static int switch_to(struct ib_files_src *s, unsigned int i, uint64_t now_ns)
{
	struct ib_files one = one_file(s->fs, i);
	unsigned int k;
	int ret;

	for (k = 0; k < s->fs->nr; k++) {
		struct ib_file *f = &s->fs->f[k];

		if (f->fd < 0 || s->gen->files[k].active)
			continue;
		if (s->job->fsync_on_close && ib_job_writes(s->job))
			fsync(f->fd);
		close(f->fd);
		f->fd = -1;
		s->nr_open--;
		ib_iolog_file(s->iolog, f, "close", now_ns);
	}
	ret = ib_files_open(s->job, &one, s->readonly, &s->diag);
	if (ret)
		return ret;
	s->nr_open++;
	s->opens++;
	if (s->live_open)
		__atomic_store_n(s->live_open, s->nr_open, __ATOMIC_RELAXED);
	ib_iolog_file(s->iolog, &s->fs->f[i], "open", now_ns);
	return 0;
}

static int files_next(struct ib_source *src, uint64_t now_ns,
		      struct ib_io_desc *out)
{
	struct ib_files_src *s = ib_container_of(src, struct ib_files_src, src);
	int ret;

	if (s->error)
		return IB_SRC_END;
	if (!s->held) {
		ret = ib_source_next(ib_iogen_source(s->gen), now_ns, &s->desc);
		if (ret != IB_SRC_READY)
			return ret;
		s->held = true;
	}
	if (s->fs->f[s->desc.file_idx].fd < 0) {
		if (*s->inflight) { /* close nothing under an I/O: drain */
			/* a completion wakes the loop first: no polling */
			out->due_ns = now_ns + 1000000000ull;
			return IB_SRC_NOT_YET;
		}
		ret = switch_to(s, s->desc.file_idx, now_ns);
		if (ret) {
			s->error = -ret;
			return IB_SRC_END;
		}
	}
	s->held = false;
	*out = s->desc;
	out->due_ns = now_ns;
	return IB_SRC_READY;
}

static bool files_more(const struct ib_source *src)
{
	const struct ib_files_src *s =
		ib_container_of(src, const struct ib_files_src, src);

	return !s->error &&
	       (s->held || ib_source_more(ib_iogen_source(s->gen)));
}

static const struct ib_source_ops files_src_ops = {
	.name = "openfiles",
	.next = files_next,
	.more = files_more,
};

void ib_files_src_init(struct ib_files_src *s, struct ib_iogen *gen,
		       struct ib_files *fs, const struct ib_job *job,
		       bool readonly, const unsigned int *inflight,
		       struct ib_iolog *iolog)
{
	*s = (struct ib_files_src){ .src.ops = &files_src_ops, .gen = gen,
		.fs = fs, .job = job, .readonly = readonly, .inflight = inflight,
		.iolog = iolog };
}
