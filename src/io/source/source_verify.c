// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verify phase's source (vrun.h): the recorded writes not verified
 * yet, with overwritten blocks dropped, read back in write order.
 */
#include <stdlib.h>
#include "iobench/compiler.h"
#include "src/io/verify/vrun.h"

/* Hand out the record at head as a read (the prep hook takes v->cur). */
void ib_vrun_take(struct ib_vrun *v, uint64_t now_ns, struct ib_io_desc *out)
{
	const struct ib_vrec *r = &v->recs[v->head++];

	out->ddir = IB_DDIR_READ;
	out->file_idx = r->file_idx;
	out->offset = r->offset;
	out->len = r->len;
	out->due_ns = now_ns;
	v->cur = *r;
	v->cur_set = true;
}

static int vsrc_next(struct ib_source *s, uint64_t now_ns,
		     struct ib_io_desc *out)
{
	struct ib_vrun *v = ib_container_of(s, struct ib_vrun, rsrc);

	if (v->head >= v->nr)
		return IB_SRC_END;
	ib_vrun_take(v, now_ns, out);
	return IB_SRC_READY;
}

/* No write comes from the verify phase (more(), source.h): its reads are
 * no reason for fsync=N to sync the pass's last writes (fio's count goes
 * on after them). */
static bool vsrc_more(const struct ib_source *s)
{
	(void)s;
	return false;
}

static const struct ib_source_ops vsrc_ops = {
	.name = "verify",
	.next = vsrc_next,
	.more = vsrc_more,
};

static int by_place(const void *a, const void *b, void *arg)
{
	const struct ib_vrec *base = arg;
	const struct ib_vrec *x = &base[*(const uint32_t *)a];
	const struct ib_vrec *y = &base[*(const uint32_t *)b];

	if (x->file_idx != y->file_idx)
		return x->file_idx < y->file_idx ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/*
 * Mark dead every record a later write overlaps: over the records sorted
 * by place, each overlapping pair is seen from the one starting first,
 * and the one issued first is dead.
 */
static void mark_overwritten(const struct ib_vrec *r, const uint32_t *idx,
			     uint8_t *dead, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ib_vrec *a = &r[idx[i]];
		uint64_t end = a->offset + a->len;

		for (size_t j = i + 1; j < n; j++) {
			const struct ib_vrec *b = &r[idx[j]];

			if (b->file_idx != a->file_idx || b->offset >= end)
				break;
			/* the older write is dead (seq: issue order) */
			dead[b->seq > a->seq ? idx[i] : idx[j]] = 1;
		}
	}
}

/*
 * Drop the records from index from on that a later write overlapped;
 * head stays on the first unverified record.
 */
static void drop_from(struct ib_vrun *v, size_t from)
{
	size_t n = v->nr - from, k = 0, head = v->head;
	struct ib_vrec *r = v->recs + from;
	uint32_t *idx;
	uint8_t *dead;

	if (n < 2 || n > UINT32_MAX)
		return;
	idx = malloc(n * sizeof(*idx));
	dead = calloc(n, 1);
	if (idx && dead) { /* no memory: verify everything, fio's way */
		for (size_t i = 0; i < n; i++)
			idx[i] = (uint32_t)i;
		qsort_r(idx, n, sizeof(*idx), by_place, r);
		mark_overwritten(r, idx, dead, n);
		for (size_t i = 0; i < n; i++) {
			if (from + i == v->head)
				head = from + k;
			if (!dead[i])
				r[k++] = r[i];
		}
		v->head = v->head >= v->nr ? from + k : head;
		v->nr = from + k;
	}
	free(idx);
	free(dead);
}

void ib_vrun_drop_overwritten(struct ib_vrun *v)
{
	drop_from(v, v->head);
}

void ib_vrun_drop_overwritten_all(struct ib_vrun *v)
{
	drop_from(v, 0);
}

struct ib_source *ib_vrun_verify_source(struct ib_vrun *v)
{
	ib_vrun_drop_overwritten(v);
	v->verifying = true;
	v->rsrc.ops = &vsrc_ops;
	return &v->rsrc;
}
