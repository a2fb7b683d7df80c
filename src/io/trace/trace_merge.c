// SPDX-License-Identifier: GPL-2.0-only
/*
 * merge_blktrace_file / merge_blktrace_scalars / merge_blktrace_iters
 * (fio's HOWTO, "I/O Replay - Merging Traces"): several blktrace captures
 * into one blktrace file, in time order. Each input is its own reader
 * (streaming; reopened for each further iteration), so memory stays one
 * reader per input whatever the traces' sizes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/trace.h"

struct merge_in {
	struct ib_trace *t;
	char *spec;
	double scale;		/* percent */
	unsigned int iters, iter;
	uint64_t base;		/* start of this iteration, merged time */
	uint64_t last;		/* latest merged time of this iteration */
	uint64_t got;		/* records of this iteration */
	bool have, done;
	struct ib_trace_rec head;
};

struct merge {
	struct merge_in *in;
	unsigned int nr;
};

static void merge_free(struct merge *m)
{
	unsigned int i;

	for (i = 0; i < m->nr; i++) {
		ib_trace_close(m->in[i].t);
		free(m->in[i].spec);
	}
	free(m->in);
}

static int open_in(struct merge_in *in, struct ib_diag *d)
{
	int r = ib_trace_open(&in->t, in->spec, d);

	if (r < 0)
		return r;
	if (ib_trace_format(in->t) != IB_TRACE_BLKTRACE)
		return ib_diag_set(d, EINVAL,
				   "%s: not a blktrace capture (merge_blktrace_file merges only those)",
				   ib_trace_input_name(in->t, 0));
	return 0;
}

/* One input per ':'-separated name of spec. */
static int split_spec(struct merge *m, const char *spec, struct ib_diag *d)
{
	char *copy = strdup(spec), *p, *save = NULL;
	struct merge_in *v;

	if (!copy)
		return ib_diag_set(d, ENOMEM, "out of memory");
	for (p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		v = realloc(m->in, (m->nr + 1) * sizeof(*v));
		if (!v || !(p = strdup(p))) {
			free(copy);
			if (v)
				m->in = v;
			return ib_diag_set(d, ENOMEM, "out of memory");
		}
		m->in = v;
		memset(&m->in[m->nr], 0, sizeof(m->in[0]));
		m->in[m->nr].spec = p;
		m->in[m->nr].scale = 100;
		m->in[m->nr++].iters = 1;
	}
	free(copy);
	if (!m->nr)
		return ib_diag_set(d, EINVAL, "read_iolog: no file named in '%s'", spec);
	return 0;
}

static int set_knobs(struct merge *m, const double *scal, unsigned int nscal,
		     const unsigned int *iters, unsigned int niter,
		     struct ib_diag *d)
{
	unsigned int i;

	if (nscal && nscal != m->nr)
		return ib_diag_set(d, EINVAL, "merge_blktrace_scalars: %u values for %u traces",
				   nscal, m->nr);
	if (niter && niter != m->nr)
		return ib_diag_set(d, EINVAL, "merge_blktrace_iters: %u values for %u traces",
				   niter, m->nr);
	for (i = 0; i < m->nr; i++) {
		if (nscal && !(isfinite(scal[i]) && scal[i] > 0))
			return ib_diag_set(d, EINVAL, "merge_blktrace_scalars: value %u is not above 0",
					   i + 1);
		if (niter && iters[i] == 0)
			return ib_diag_set(d, EINVAL, "merge_blktrace_iters: value %u is 0",
					   i + 1);
		if (nscal)
			m->in[i].scale = scal[i];
		if (niter)
			m->in[i].iters = iters[i];
	}
	return 0;
}

/* The next record of one input in merged time; reopens for iterations. */
static int in_next(struct merge_in *in, struct ib_diag *d)
{
	double t;
	int r;

	for (;;) {
		r = ib_trace_next(in->t, &in->head, d);
		if (r < 0)
			return r;
		if (r > 0)
			break;
		ib_trace_close(in->t);
		in->t = NULL;
		if (++in->iter >= in->iters || in->got == 0) {
			in->done = true;
			return 0;
		}
		in->base = in->last;
		in->got = 0;
		r = open_in(in, d);
		if (r < 0)
			return r;
	}
	t = (double)in->head.ts_ns * in->scale / 100.0;
	in->head.ts_ns = in->base + (t >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)t);
	in->last = in->head.ts_ns;
	in->got++;
	in->have = true;
	return 1;
}

static int emit(FILE *f, const struct ib_trace_rec *rec, uint32_t seq,
		const char *out, struct ib_diag *d)
{
	uint8_t buf[IB_BLKTRACE_REC];

	ib_trace_blktrace_encode(rec, rec->ts_ns, seq, buf);
	if (fwrite(buf, sizeof(buf), 1, f) != 1)
		return ib_diag_set(d, errno, "%s: %s", out, strerror(errno));
	return 0;
}

/* Write every record, earliest first (ties: the earlier input). */
static int64_t merge_all(struct merge *m, FILE *f, const char *out,
			 struct ib_diag *d)
{
	struct merge_in *best;
	int64_t n = 0;
	unsigned int i;
	int r;

	for (;;) {
		best = NULL;
		for (i = 0; i < m->nr; i++) {
			struct merge_in *in = &m->in[i];

			if (!in->done && !in->have && (r = in_next(in, d)) < 0)
				return r;
			if (in->have && (!best || in->head.ts_ns < best->head.ts_ns))
				best = in;
		}
		if (!best)
			return n;
		r = emit(f, &best->head, (uint32_t)n, out, d);
		if (r < 0)
			return r;
		best->have = false;
		n++;
	}
}

static int64_t write_out(struct merge *m, const char *out, struct ib_diag *d)
{
	size_t len = strlen(out);
	char *tmp = malloc(len + 8);
	int64_t n;
	FILE *f = NULL;
	int fd;

	if (!tmp)
		return ib_diag_set(d, ENOMEM, "out of memory");
	snprintf(tmp, len + 8, "%s.XXXXXX", out);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "wb"))) {
		n = ib_diag_set(d, errno, "%s: %s", out, strerror(errno));
		if (fd >= 0)
			close(fd), unlink(tmp);
		free(tmp);
		return n;
	}
	n = merge_all(m, f, out, d);
	if (fclose(f) != 0 && n >= 0)
		n = ib_diag_set(d, errno, "%s: %s", out, strerror(errno));
	if (n >= 0 && rename(tmp, out) != 0)
		n = ib_diag_set(d, errno, "%s: %s", out, strerror(errno));
	if (n < 0)
		unlink(tmp);
	free(tmp);
	return n;
}

int64_t ib_trace_merge_blktrace(const char *spec, const double *scalars,
				unsigned int nscal, const unsigned int *iters,
				unsigned int niter, const char *out,
				struct ib_diag *d)
{
	struct merge m = { NULL, 0 };
	unsigned int i;
	int64_t r;

	r = split_spec(&m, spec, d);
	if (!r)
		r = set_knobs(&m, scalars, nscal, iters, niter, d);
	for (i = 0; !r && i < m.nr; i++)
		r = open_in(&m.in[i], d);
	if (!r)
		r = write_out(&m, out, d);
	merge_free(&m);
	return r;
}
