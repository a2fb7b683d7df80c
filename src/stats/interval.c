// SPDX-License-Identifier: GPL-2.0-only
/*
 * Interval snapshots: the worker's copy under a sequence lock, the
 * parent's consistent read and differences (interval.h).
 */
#include <string.h>
#include "iobench/interval.h"

enum ib_lat_kind ib_iv_kind(const struct ib_job *job)
{
	if (!job->disable_lat && (job->lat_percentiles || job->disable_clat))
		return IB_LAT_TLAT;
	if (!job->disable_clat)
		return IB_LAT_CLAT;
	return IB_LAT_NR;
}

static void fill(struct ib_iv_snap *e, const struct ib_job_stats *st,
		 enum ib_lat_kind kind)
{
	unsigned int d;

	e->errors = st->total_err;
	for (d = 0; d < IB_DDIR_RWT; d++) {
		e->dir[d].io_bytes = st->dir[d].io_bytes;
		e->dir[d].ios = st->dir[d].total_ios;
		if (kind == IB_LAT_NR) {
			memset(&e->dir[d].lat, 0, sizeof(e->dir[d].lat));
			continue; /* the histogram stays zero */
		}
		e->dir[d].lat = st->dir[d].lat[kind];
		e->dir[d].hist = st->dir[d].hist[kind];
	}
}

void ib_iv_publish(struct ib_iv_ring *r, const struct ib_job_stats *st,
		   enum ib_lat_kind kind, uint64_t k, uint64_t t_ns,
		   uint64_t measure_ns, uint32_t gen, unsigned int inflight,
		   bool final)
{
	uint64_t no = r->published;
	struct ib_iv_snap *e = &r->e[no % IB_IV_RING];
	uint64_t seq = e->seq;

	__atomic_store_n(&e->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	e->no = no;
	e->k = k;
	e->t_ns = t_ns;
	e->measure_ns = measure_ns;
	e->gen = gen;
	e->final = final;
	e->inflight = inflight;
	fill(e, st, kind);
	__atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
	__atomic_store_n(&r->published, no + 1, __ATOMIC_RELEASE);
}

/* One entry, copied whole and unchanged while copied; false otherwise. */
static bool read_entry(const struct ib_iv_snap *e, struct ib_iv_snap *out)
{
	uint64_t s1 = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);

	if (s1 & 1)
		return false;
	memcpy(out, (const void *)e, sizeof(*out));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&e->seq, __ATOMIC_RELAXED) == s1 && out->seq == s1;
}

static bool fits(const struct ib_iv_snap *e, uint64_t k, uint64_t bound_ns)
{
	return e->final ? e->t_ns <= bound_ns : e->k <= k;
}

bool ib_iv_read_upto(const struct ib_iv_ring *r, uint64_t k, uint64_t bound_ns,
		     struct ib_iv_snap *out)
{
	uint64_t n = __atomic_load_n(&r->published, __ATOMIC_ACQUIRE), i;

	/* newest first: entry n-1, then n-2 (a later write may be under way) */
	for (i = 0; i < IB_IV_RING && i < n; i++) {
		const struct ib_iv_snap *e = &r->e[(n - 1 - i) % IB_IV_RING];

		if (!read_entry(e, out))
			continue;
		if (out->no == n - 1 - i && fits(out, k, bound_ns))
			return true;
	}
	return false;
}

void ib_iv_delta(struct ib_iv_dir *dst, const struct ib_iv_dir *cur,
		 const struct ib_iv_dir *base)
{
	unsigned int i;

	dst->io_bytes = cur->io_bytes - base->io_bytes;
	dst->ios = cur->ios - base->ios;
	dst->lat = cur->lat;
	for (i = 0; i < IB_HIST_NR; i++)
		dst->hist.count[i] = cur->hist.count[i] - base->hist.count[i];
}

void ib_iv_from_stats(struct ib_iv_snap *out, const struct ib_job_stats *st,
		      enum ib_lat_kind kind, uint64_t t_ns)
{
	memset(out, 0, sizeof(*out));
	out->t_ns = t_ns;
	out->final = true;
	out->k = UINT64_MAX;
	fill(out, st, kind);
}

static uint64_t next_boundary(const struct ib_iv_pub *p, uint64_t now_ns)
{
	uint64_t k = now_ns > p->origin_ns ? (now_ns - p->origin_ns) / p->ival_ns : 0;

	return p->origin_ns + (k + 1) * p->ival_ns;
}

void ib_iv_pub_restart(struct ib_iv_pub *p, uint64_t now_ns)
{
	if (!p->ring)
		return;
	p->gen++;
	p->measure_ns = now_ns;
	p->due_ns = next_boundary(p, now_ns);
}

static unsigned int inflight(const struct ib_iv_pub *p)
{
	return p->inflight ? *p->inflight : 0;
}

void ib_iv_pub_take(struct ib_iv_pub *p, const struct ib_job_stats *st,
		    uint64_t now_ns)
{
	uint64_t k = (now_ns - p->origin_ns) / p->ival_ns;

	ib_iv_publish(p->ring, st, p->kind, k, now_ns, p->measure_ns, p->gen,
		      inflight(p), false);
	p->due_ns = next_boundary(p, now_ns);
}

void ib_iv_pub_final(struct ib_iv_pub *p, const struct ib_job_stats *st,
		     uint64_t now_ns)
{
	if (!p->ring)
		return;
	ib_iv_publish(p->ring, st, p->kind, UINT64_MAX, now_ns, p->measure_ns,
		      p->gen, 0, true);
	p->due_ns = UINT64_MAX;
}
