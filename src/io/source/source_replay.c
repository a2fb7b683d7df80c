// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trace replay as an I/O source: records of the trace reader mapped to
 * I/Os (targets, replay_scale/align/skip) and made due at their recorded
 * times (replay_time_scale, replay_no_stall). See replay.h.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include "iobench/replay.h"

/* --- mapping ------------------------------------------------------------- */

void ib_replay_map_init(struct ib_replay_map *m, const struct ib_job *job,
			enum ib_trace_format fmt)
{
	memset(m, 0, sizeof(*m));
	m->scale = job->replay.scale ? job->replay.scale : 1;
	m->align = job->replay.align;
	m->skip = job->replay.skip;
	m->redirect = job->replay.redirect[0] != '\0';
	m->blktrace = fmt == IB_TRACE_BLKTRACE;
}

static int map_ddir(enum ib_trace_op op)
{
	switch (op) {
	case IB_TRACE_READ:
		return IB_DDIR_READ;
	case IB_TRACE_WRITE:
		return IB_DDIR_WRITE;
	case IB_TRACE_TRIM:
		return IB_DDIR_TRIM;
	case IB_TRACE_SYNC:
	case IB_TRACE_DATASYNC:
		return IB_DDIR_SYNC;
	default:
		return -1; /* file actions and waits: no I/O */
	}
}

/* The target's number for the record's file or device (new ones appended). */
static int map_target(struct ib_replay_map *m, const struct ib_trace *t,
		      const struct ib_trace_rec *rec, bool *is_new,
		      struct ib_diag *d)
{
	uint64_t key = m->blktrace ? rec->dev : rec->file;
	unsigned int i;

	*is_new = false;
	if (m->redirect)
		key = 0;
	for (i = 0; i < m->nr; i++)
		if (m->key[i] == key)
			return (int)i;
	if (m->nr == IB_REPLAY_MAX_TARGETS)
		return ib_diag_set(d, E2BIG, "%s: %s %llu: more than %d files or devices",
				   ib_trace_input_name(t, rec->input),
				   m->blktrace ? "record" : "line",
				   (unsigned long long)rec->recno,
				   IB_REPLAY_MAX_TARGETS);
	*is_new = true;
	m->key[m->nr] = key;
	return (int)m->nr++;
}

int ib_replay_map(struct ib_replay_map *m, const struct ib_trace *t,
		  const struct ib_trace_rec *rec, struct ib_io_desc *out,
		  bool *is_new, struct ib_diag *d)
{
	int ddir = map_ddir(rec->op), idx;
	uint64_t off;

	*is_new = false;
	if (ddir < 0 || (m->skip & (1u << ddir)))
		return 0;
	if (ddir != IB_DDIR_SYNC && (!rec->len || rec->len > UINT32_MAX))
		return ib_diag_set(d, EINVAL, "%s: %s %llu: %s of length %llu cannot be replayed",
				   ib_trace_input_name(t, rec->input),
				   m->blktrace ? "record" : "line",
				   (unsigned long long)rec->recno,
				   ib_trace_op_name(rec->op),
				   (unsigned long long)rec->len);
	idx = map_target(m, t, rec, is_new, d);
	if (idx < 0)
		return idx;
	off = rec->offset / m->scale;
	if (m->align)
		off &= ~(m->align - 1);
	out->ddir = (enum ib_ddir)ddir;
	out->file_idx = (unsigned int)idx;
	out->offset = off; /* a sync's: only logged (fio logs one) */
	out->len = ddir == IB_DDIR_SYNC ? 0 : (uint32_t)rec->len;
	out->datasync = rec->op == IB_TRACE_DATASYNC;
	return 1;
}

/* --- the source ---------------------------------------------------------- */

/* ns * 100 / time_scale without overflow (nor a 128-bit type). */
static uint64_t scale_time(const struct ib_replay *r, uint64_t ns)
{
	uint64_t s = r->time_scale;

	return ns / s * 100 + ns % s * 100 / s;
}

/* The trace ended or failed: no more I/O (the worker reports r->error). */
static bool end_trace(struct ib_replay *r, int ret)
{
	if (ret < 0 && !r->error)
		r->error = -ret;
	r->ended = true;
	return false;
}

/*
 * The end of a pass: 1 when another one starts (the trace reopened, its
 * times from where this pass's last I/O was), 0 when none does, -errno.
 */
static int next_pass(struct ib_replay *r)
{
	struct ib_trace *t;
	int ret;

	if (!r->passes_left || !r->pass_ios || !r->spec)
		return 0; /* the passes are done (or one gave no I/O) */
	if (ib_replay_names_stdin(r->spec))
		lseek(STDIN_FILENO, 0, SEEK_SET);
	ret = ib_trace_open(&t, r->spec, &r->diag);
	if (ret)
		return ret;
	ib_trace_close(r->t);
	r->t = t;
	if (r->passes_left != UINT_MAX)
		r->passes_left--;
	r->pass_ns = r->rec_ns;
	r->pass_ios = 0;
	r->have_first = false;
	return 1;
}

/*
 * Read records up to the next I/O into r->desc, with its time r->rec_ns
 * from the trace's first I/O (v2: the waits so far), scaled. false at the
 * end of the trace or on an error.
 */
static bool fetch(struct ib_replay *r)
{
	struct ib_trace_rec rec;
	bool is_new, timed = ib_trace_format(r->t) != IB_TRACE_IOLOG2;
	int ret;

	while (!r->ended) {
		ret = ib_trace_next(r->t, &rec, &r->diag);
		if (!ret && (ret = next_pass(r)) > 0)
			continue;
		if (ret <= 0)
			return end_trace(r, ret);
		if (rec.op == IB_TRACE_WAIT && !timed)
			r->wait_ns += rec.wait_us * 1000;
		ret = ib_replay_map(&r->map, r->t, &rec, &r->desc, &is_new, &r->diag);
		if (ret < 0)
			return end_trace(r, ret);
		if (!ret)
			continue;
		if (r->desc.file_idx >= r->nr_files)
			return end_trace(r, ib_diag_set(&r->diag, ESTALE,
				"%s: changed since the run was planned (more targets)",
				ib_trace_input_name(r->t, rec.input)));
		if (timed && !r->have_first) {
			r->first_ns = rec.ts_ns;
			r->have_first = true;
		}
		r->rec_ns = timed ? r->pass_ns + scale_time(r, rec.ts_ns > r->first_ns ?
					rec.ts_ns - r->first_ns : 0) :
				    scale_time(r, r->wait_ns);
		r->pass_ios++;
		r->have = true;
		return true;
	}
	return false;
}

static void count_late(struct ib_replay *r, uint64_t late)
{
	struct ib_replay_stats *st = &r->st;

	st->ios++;
	st->late_total_ns += late;
	if (late > st->late_max_ns)
		st->late_max_ns = late;
	if (late > IB_REPLAY_LATE_NS)
		st->late_ios++;
}

static int replay_next(struct ib_source *src, uint64_t now_ns,
		       struct ib_io_desc *out)
{
	struct ib_replay *r = (struct ib_replay *)((char *)src -
						   offsetof(struct ib_replay, src));
	uint64_t due = now_ns;

	if (!r->started) {
		r->started = true;
		r->start_ns = now_ns;
	}
	if (!r->have && !fetch(r))
		return IB_SRC_END;
	if (!r->no_stall) {
		due = r->start_ns + r->rec_ns;
		if (due > now_ns) {
			out->due_ns = due;
			return IB_SRC_NOT_YET;
		}
	}
	*out = r->desc;
	out->due_ns = due;
	r->have = false;
	count_late(r, now_ns - due);
	return IB_SRC_READY;
}

static bool replay_more(const struct ib_source *src)
{
	const struct ib_replay *r = (const struct ib_replay *)
		((const char *)src - offsetof(struct ib_replay, src));

	return r->have || !r->ended;
}

const struct ib_source_ops ib_replay_source_ops = {
	.name = "replay",
	.next = replay_next,
	.more = replay_more,
};

void ib_replay_init_trace(struct ib_replay *r, const struct ib_job *job,
			  struct ib_trace *t, unsigned int nr_files)
{
	memset(r, 0, sizeof(*r));
	r->src.ops = &ib_replay_source_ops;
	r->t = t;
	ib_replay_map_init(&r->map, job, ib_trace_format(t));
	r->nr_files = nr_files;
	r->no_stall = job->replay.no_stall;
	r->time_scale = job->replay.time_scale ? job->replay.time_scale : 100;
	r->spec = job->replay.iolog[0] ? job->replay.iolog : NULL;
	r->passes_left = job->time_based ? UINT_MAX :
			 job->loops > 1 ? job->loops - 1 : 0;
	r->st.on = true;
}

int ib_replay_init(struct ib_replay *r, const struct ib_job *job,
		   unsigned int nr_files, struct ib_diag *d)
{
	struct ib_trace *t;
	int ret = ib_trace_open(&t, job->replay.iolog, d);

	memset(r, 0, sizeof(*r));
	if (ret)
		return ret;
	ib_replay_init_trace(r, job, t, nr_files);
	return 0;
}

void ib_replay_free(struct ib_replay *r)
{
	if (r->t)
		ib_trace_close(r->t);
	r->t = NULL;
}
