// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data verification in a running job (vrun.h): the write-phase wrapper,
 * the prep and done hooks, and a mismatch's report.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iobench/compiler.h"
#include "iobench/ioerr.h"
#include "iobench/jobseed.h"
#include "iobench/rand.h"
#include "vrun.h"

bool ib_vrun_wanted(const struct ib_job *job, const struct ib_engine_ops *ops)
{
	/* validate.c allowed the null engine only with verify=null */
	(void)ops;
	return job->verify.type != IB_VERIFY_NONE;
}

/* --- the write phase's source ------------------------------------------- */

static int wsrc_next(struct ib_source *s, uint64_t now_ns,
		     struct ib_io_desc *out)
{
	struct ib_vrun *v = ib_container_of(s, struct ib_vrun, wsrc);
	int ret;

	v->cur_set = false;
	if (ib_unlikely(v->backlog_due) && v->head < v->nr) {
		v->backlog_due--;
		ib_vrun_take(v, now_ns, out);
		return IB_SRC_READY;
	}
	if (!v->pass_left)
		return IB_SRC_END;
	ret = ib_source_next(v->inner, now_ns, out);
	if (ret == IB_SRC_READY && v->pass_bytes != UINT64_MAX)
		v->pass_left = out->len < v->pass_left ? v->pass_left - out->len : 0;
	return ret;
}

/* May another write come? (more(), source.h): backlog reads still due
 * after the pass's last write are no reason to sync it, as in fio. */
static bool wsrc_more(const struct ib_source *s)
{
	const struct ib_vrun *v = ib_container_of(s, struct ib_vrun, wsrc);

	return v->pass_left && ib_source_more(v->inner);
}

static const struct ib_source_ops wsrc_ops = {
	.name = "verify-write",
	.next = wsrc_next,
	.more = wsrc_more,
};

/* --- setup ---------------------------------------------------------------- */

int ib_vrun_init(struct ib_vrun *v, const struct ib_job *job,
		 struct ib_engine_ctx *ctx, struct ib_source *inner,
		 uint64_t pass_bytes, struct ib_diag *d)
{
	memset(v, 0, sizeof(*v));
	v->wsrc.ops = &wsrc_ops;
	v->inner = inner;
	v->job = job;
	v->ctx = ctx;
	v->spec.type = (enum ib_verify_type)job->verify.type;
	v->spec.interval = (unsigned int)job->verify.interval;
	v->spec.thread = (uint16_t)job->number;
	v->spec.hdr_ver = ib_verify_hdr_ver_of(job->verify.hdr_ver);
	if (job->verify.pattern[0]) {
		if (ib_vpattern_parse(job->verify.pattern, &v->pattern, d))
			return -EINVAL;
		v->pattern.interval = (uint32_t)job->verify.pattern_interval;
		v->spec.pattern = &v->pattern;
	}
	v->blind = job->verify.only || !(job->rw & IB_RW_WRITE);
	v->spec.check_seed = !v->blind && job->verify.header_seed;
	v->check_nio = !v->blind && job->verify.write_sequence;
	v->keep_all = job->verify.state_save && (job->rw & IB_RW_WRITE) &&
		      !job->verify.only;
	v->seed_base = ib_rand_job_seed(job, IB_STREAM_DATA);
	v->voff = (uint32_t)job->verify.offset;
	v->pass_bytes = v->pass_left = pass_bytes;
	v->unit = calloc(ctx->nr_ios, sizeof(*v->unit));
	if (job->verify.dump)
		v->scratch = malloc(ctx->buf_size);
	if (!v->unit || (job->verify.dump && !v->scratch))
		return ib_diag_set(d, ENOMEM, "verify: no memory for %u units",
				   ctx->nr_ios);
	return 0;
}

void ib_vrun_free(struct ib_vrun *v)
{
	free(v->recs);
	free(v->unit);
	free(v->scratch);
	v->recs = v->unit = NULL;
	v->scratch = NULL;
}

/* --- passes --------------------------------------------------------------- */

/* A full list: forget what was verified (unless the state file wants
 * it), then what was overwritten. */
static void compact(struct ib_vrun *v)
{
	if (v->keep_all) {
		ib_vrun_drop_overwritten_all(v);
		return;
	}
	if (v->head) {
		memmove(v->recs, v->recs + v->head,
			(v->nr - v->head) * sizeof(*v->recs));
		v->nr -= v->head;
		v->head = 0;
	}
	if (v->nr > v->cap / 4 * 3)
		ib_vrun_drop_overwritten(v);
}

static void grow(struct ib_vrun *v)
{
	size_t cap = v->cap ? 2 * v->cap : 4096;
	struct ib_vrec *n = realloc(v->recs, cap * sizeof(*n));

	if (n) {
		v->recs = n;
		v->cap = cap;
	}
}

void ib_vrun_record(struct ib_vrun *v, const struct ib_vrec *r)
{
	if (ib_unlikely(v->nr == v->cap)) {
		if (v->cap)
			compact(v);
		if (!v->cap || v->nr > v->cap / 4 * 3)
			grow(v);
		if (v->nr == v->cap) { /* out of memory: not verified */
			v->lost++;
			return;
		}
	}
	v->recs[v->nr++] = *r;
}

void ib_vrun_dry_pass(struct ib_vrun *v)
{
	struct ib_io_desc d;

	while (v->pass_left && ib_source_next(&v->wsrc, 0, &d) == IB_SRC_READY) {
		struct ib_vrec r = { .offset = d.offset, .len = d.len,
				     .file_idx = (uint16_t)d.file_idx };

		if (d.ddir != IB_DDIR_WRITE)
			continue;
		ib_vrun_record(v, &r);
		v->loop->c.st->dir[IB_DDIR_WRITE].issued++; /* fio counts them */
	}
}

bool ib_vrun_verify_due(const struct ib_vrun *v)
{
	return (v->job->verify.do_verify || v->job->verify.only) && v->head < v->nr;
}

bool ib_vrun_next_pass(struct ib_vrun *v)
{
	if (v->keep_all)	/* the state file lists every pass's */
		v->head = v->nr;
	else
		v->nr = v->head = 0;
	v->verifying = false;
	v->backlog_due = v->since_backlog = 0;
	if (v->pass_bytes == UINT64_MAX || !ib_source_more(v->inner))
		return false;
	v->pass_left = v->pass_bytes;
	return true;
}
