// SPDX-License-Identifier: GPL-2.0-only
/*
 * Offset, length and direction generation. See iogen.h for the rules.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/compiler.h"
#include "iogen_priv.h"

static enum ib_ddir pick_ddir(struct ib_iogen *g)
{
	const struct ib_job *job = g->job;
	int64_t reads, total, mix, debt;
	bool read;

	if (job->rw & IB_RW_TRIM)
		return IB_DDIR_TRIM;	/* trimwrite's writes: gen_next */
	if (!(job->rw & IB_RW_WRITE))
		return IB_DDIR_READ;
	if (!(job->rw & IB_RW_READ))
		return IB_DDIR_WRITE;
	mix = job->rwmixread;
	read = ib_rand_below(&g->dir_rand, 100) < (uint64_t)mix;
	reads = (int64_t)g->issued[IB_DDIR_READ];
	total = reads + (int64_t)g->issued[IB_DDIR_WRITE] + 1;
	/* debt: issued reads minus the share rwmixread asks for, x100 */
	debt = (reads + (read ? 1 : 0)) * 100 - mix * total;
	if (read && debt > IB_MIX_SLACK * 100)
		read = false;
	else if (!read && debt < -IB_MIX_SLACK * 100)
		read = true;
	return read ? IB_DDIR_READ : IB_DDIR_WRITE;
}

static bool map_test(const uint64_t *map, uint64_t b)
{
	return (map[b >> 6] >> (b & 63)) & 1;
}

/* Free granules starting at b, at most want, not past nblocks. */
static uint64_t free_run(const struct ib_gen_file *gf, uint64_t b, uint64_t want)
{
	uint64_t n = 0;

	while (n < want && b + n < gf->nblocks && !map_test(gf->map, b + n))
		n++;
	return n;
}

static uint64_t round_up(uint64_t v, uint64_t step)
{
	if (!(step & (step - 1)))
		return (v + step - 1) & ~(step - 1);
	return (v + step - 1) / step * step;
}

/* First map word >= w that is not full (summary level: 1 bit per word). */
static uint64_t next_open_word(const struct ib_gen_file *gf, uint64_t w)
{
	uint64_t nw = gf->map_words;
	const uint64_t *sum = gf->map + nw;

	while (w < nw) {
		uint64_t open = ~sum[w >> 6] & (~0ull << (w & 63));

		if (open) {
			w = (w & ~63ull) + (uint64_t)__builtin_ctzll(open);
			return w < nw ? w : nw;
		}
		w = (w | 63) + 1;
	}
	return nw;
}

/*
 * From granule b (aligned to step), find the first aligned slot with at least
 * need free granules, wrapping once. Returns the slot, or UINT64_MAX.
 */
static uint64_t next_free_slot(const struct ib_gen_file *gf, uint64_t b,
			       uint64_t step, uint64_t need)
{
	uint64_t scanned = 0, last = gf->nblocks - need;

	while (scanned <= gf->nblocks) {
		uint64_t word, open, nb;

		if (b > last) {
			scanned += gf->nblocks > b ? gf->nblocks - b : 0;
			b = 0;
			continue;
		}
		word = gf->map[b >> 6];
		open = ~word & (~0ull << (b & 63));
		if (!open)
			nb = next_open_word(gf, (b >> 6) + 1) << 6;
		else
			nb = (b & ~63ull) + (uint64_t)__builtin_ctzll(open);
		nb = round_up(nb, step);
		if (nb != b) {
			scanned += nb - b;
			b = nb;
			continue;
		}
		if (free_run(gf, b, need) >= need)
			return b;
		scanned += step;
		b += step;
	}
	return UINT64_MAX;
}

static void map_mark(struct ib_gen_file *gf, uint64_t b, uint64_t n)
{
	uint64_t i, *sum = gf->map + gf->map_words;

	for (i = b; i < b + n; i++) {
		uint64_t w = i >> 6;

		gf->map[w] |= 1ull << (i & 63);
		if (gf->map[w] == MAP_FULL_WORD)
			sum[w >> 6] |= 1ull << (w & 63);
	}
	gf->used += n;
}

/*
 * next_free_slot() for one granule (step 1, need 1), the common case: the
 * first free granule from b on, wrapping once (a free padding bit past
 * nblocks in the last word wraps too). The map must not be full.
 */
static inline __attribute__((always_inline)) uint64_t
next_free_block(const struct ib_gen_file *gf, uint64_t b)
{
	uint64_t w, open, nb;
	int turn;

	for (turn = 0; turn < 2; turn++, b = 0) {
		w = b >> 6;
		open = ~gf->map[w] & (~0ull << (b & 63));
		if (!open) {
			w = next_open_word(gf, w + 1);
			if (w >= gf->map_words)
				continue;
			open = ~gf->map[w];
		}
		nb = (w << 6) + (uint64_t)__builtin_ctzll(open);
		if (nb < gf->nblocks)
			return nb;
	}
	return UINT64_MAX;
}

/* map_mark() of one granule. */
static inline __attribute__((always_inline)) void
map_mark1(struct ib_gen_file *gf, uint64_t b)
{
	uint64_t w = b >> 6;

	gf->map[w] |= 1ull << (b & 63);
	if (gf->map[w] == MAP_FULL_WORD)
		gf->map[gf->map_words + (w >> 6)] |= 1ull << (w & 63);
	gf->used++;
}

/* a / b, a shift when b is a power of two (every fixed block size). */
static inline uint64_t udiv(uint64_t a, uint64_t b)
{
	if (!(b & (b - 1)))
		return a >> __builtin_ctzll(b);
	return a / b;
}

/* A uniform draw in [0, n) for n <= 2^32 from 32 random bits. */
static inline __attribute__((always_inline)) uint64_t
below32(struct ib_iogen *g, uint64_t n)
{
	return ((uint64_t)ib_rand32(&g->off_rand) * n) >> 32;
}

/*
 * A uniform offset draw in [0, n): ib_rand_below()'s, inlined here (gcc
 * keeps it out of line otherwise); 64-bit values for tausworthe64.
 */
static inline __attribute__((always_inline)) uint64_t
off_below(struct ib_iogen *g, uint64_t n)
{
	if (ib_likely(n <= UINT32_MAX && g->job->rand_gen != IB_RANDGEN_TAUS64))
		return below32(g, n);
	if (g->job->rand_gen == IB_RANDGEN_TAUS64)
		return (uint64_t)(((unsigned __int128)ib_rand64(&g->off_rand) * n) >> 64);
	return ib_rand_below(&g->off_rand, n);
}

/*
 * The random map's next granule of a one-granule block, searched from
 * granule from (a new pass first when the map is full), marked used.
 */
static inline __attribute__((always_inline)) uint64_t
map_take1(struct ib_gen_file *gf, uint64_t from)
{
	uint64_t slot;

	if (gf->used >= gf->nblocks)
		iogen_map_clear(gf);
	slot = next_free_block(gf, from);
	map_mark1(gf, slot);
	return slot;
}

/*
 * The permutation's next granule as an aligned slot of need granules or
 * more (several block sizes: rounded down to the alignment, and the I/O
 * cut where the region ends).
 */
static bool perm_offset(struct ib_gen_file *gf, uint64_t gran, uint64_t step,
			uint64_t need, uint64_t min, uint64_t *len, uint64_t *off)
{
	uint64_t slot = ib_randperm_next(gf->perm), last;

	if (step == 1 && need == 1 && *len == gran) {
		*off = slot * gran;	/* one block size: one slot */
		return true;
	}
	if (gf->nblocks < need)
		return false;
	last = udiv(gf->nblocks - need, step) * step;
	slot = udiv(slot, step) * step;
	if (slot > last)
		slot = last;
	if ((gf->nblocks - slot) * gran < *len) {
		*len = (gf->nblocks - slot) * gran;
		*len -= *len % min;
	}
	*off = slot * gran;
	return true;
}

/* A drawn length *len beyond limit bytes, the region's rest: fio's
 * (iogen_len_refit()); true when *len changed. */
static bool fit_len(struct ib_iogen *g, enum ib_ddir d, uint64_t limit,
		    uint64_t *len, bool drawn)
{
	if (!drawn || *len <= limit)
		return false;
	*len = iogen_len_refit(g, d, limit);
	return true;
}

static bool rand_offset(struct ib_iogen *g, struct ib_gen_file *gf,
			enum ib_ddir d, uint64_t *len, uint64_t *off, bool drawn)
{
	uint64_t gran = g->granule, step = g->step[d], need = g->need[d];
	uint64_t want = udiv(*len + gran - 1, gran), slot, run;
	int attempt;

	if (gf->perm)
		return perm_offset(gf, gran, step, need, g->job->bs.min[d], len, off);
	if (!gf->map) {
		if (gf->nblocks < need)
			return false;
		slot = off_below(g, (gf->nblocks - need) / step + 1) * step;
		fit_len(g, d, (gf->nblocks - slot) * gran, len, drawn);
		*off = slot * gran;
		return true;
	}
	if (gf->nblocks < need)
		return false;
	if (ib_likely(step == 1 && want == 1)) {	/* need is 1 too */
		*off = map_take1(gf, off_below(g, gf->nblocks)) * gran;
		return true;
	}
	for (attempt = 0; attempt < 2; attempt++) {
		if (gf->used >= gf->nblocks)
			iogen_map_clear(gf);
		slot = off_below(g, udiv(gf->nblocks - need, step) + 1);
		slot = next_free_slot(gf, slot * step, step, need);
		if (slot != UINT64_MAX)
			break;
		iogen_map_clear(gf); /* only unusable fragments left: new pass */
	}
	if (slot == UINT64_MAX)
		return false;
	if (fit_len(g, d, (gf->nblocks - slot) * gran, len, drawn))
		want = udiv(*len + gran - 1, gran);
	run = free_run(gf, slot, want);
	run = udiv(run, need) * need;
	map_mark(gf, slot, run);
	if (run * gran < *len)
		*len = run * gran;
	*off = slot * gran;
	return true;
}

/* Where the I/O after [off, off + len) starts (rw=TYPE:N, see iogen.h). */
static uint64_t seq_next(const struct ib_gen_file *gf, int64_t add,
			 uint64_t off, uint64_t len)
{
	int64_t next = (int64_t)(off + len) + add;

	if (next < 0)
		next = (int64_t)gf->len + add;
	return next < 0 ? 0 : (uint64_t)next;
}

static bool seq_offset(struct ib_iogen *g, struct ib_gen_file *gf,
		       enum ib_ddir d, uint64_t *len, uint64_t *off, bool drawn)
{
	uint64_t min = g->job->bs.min[d];

	if (gf->len < min)
		return false;
	if (gf->pos[d] + min > gf->len)
		gf->pos[d] = 0; /* next pass */
	fit_len(g, d, gf->len - gf->pos[d], len, drawn);
	if (gf->pos[d] + *len > gf->len) {
		*len = gf->len - gf->pos[d];
		*len -= *len % min;
	}
	*off = gf->pos[d];
	gf->pos[d] = seq_next(gf, g->job->rw_seq_add, *off, *len);
	return true;
}

/*
 * The I/O right after direction d's last one in gf (or at its offset
 * again, same), if it fits in the region.
 */
static bool follow_offset(struct ib_gen_file *gf, enum ib_ddir d, uint64_t len,
			  uint64_t *off, bool same)
{
	if (gf->pos[d] + len > gf->len)
		return false;
	*off = gf->pos[d];
	if (!same)
		gf->pos[d] += len;
	return true;
}

/* random_distribution other than random (see iogen.h). */
static bool dist_offset(struct ib_iogen *g, struct ib_gen_file *gf,
			enum ib_ddir d, uint64_t len, uint64_t *off)
{
	uint64_t align = dir_align(g->job, d), zs, zl, start, span, o;

	if (gf->len < len)
		return false;
	if (g->job->rand_dist >= IB_DIST_ZONED) {
		if (!ib_randdist_zone(g->job, d, gf->len, &g->off_rand, &zs, &zl))
			return false;
		start = round_up(zs, align);
		span = zs + zl > start ? zs + zl - start : 0;
		o = start + ib_rand_below(&g->off_rand,
					  span >= len ? (span - len) / align + 1 : 1) * align;
	} else {
		o = ib_randdist_next(&gf->dist, &g->off_rand) * g->granule;
		o -= o % align;
	}
	if (o + len > gf->len) {
		o = gf->len - len;
		o -= o % align;
	}
	*off = o;
	return true;
}

/*
 * rw=randTYPE:N, fio's count: every Nth I/O of the job (the first one
 * too) is drawn, the others follow their direction's last I/O in the file;
 * a follower that would pass the region's end is drawn instead, and the
 * count goes on.
 */
static bool random_offset(struct ib_iogen *g, struct ib_gen_file *gf,
			  enum ib_ddir d, uint64_t *len, uint64_t *off, bool drawn)
{
	unsigned int nr = g->job->rw_seq_nr;
	bool same = nr > 1 && g->job->rw_seq_identical, ok;

	if (g->spr && iogen_spr_offset(g, d, off, &ok))
		return ok;
	if (ib_likely(g->plain[d]))	/* no runs, pos unused */
		return rand_offset(g, gf, d, len, off, drawn);
	if (nr > 1 && --g->seq_left) {
		if (follow_offset(gf, d, *len, off, same))
			return true;
	} else {
		if (nr > 1)
			g->seq_left = nr;
		if (g->job->pct_random[d] < 100 &&
		    ib_rand_below(&g->dir_rand, 100) >= g->job->pct_random[d] &&
		    follow_offset(gf, d, *len, off, false))
			return true;	/* sequential: after the last one */
	}
	if (g->job->rand_dist != IB_DIST_RANDOM)
		ok = dist_offset(g, gf, d, *len, off);
	else
		ok = rand_offset(g, gf, d, len, off, drawn);
	if (!ok)
		return false;
	gf->pos[d] = *off + (same ? 0 : *len);
	return true;
}

/* One I/O of len bytes in direction d from file gf handed out. */
static inline void spend(struct ib_iogen *g, struct ib_gen_file *gf,
			 enum ib_ddir d, uint64_t len)
{
	if (ib_unlikely(len > g->bytes_left))	/* a limit's whole last I/O */
		g->bytes_left = 0;
	else if (g->bytes_left != UINT64_MAX)
		g->bytes_left -= len;
	g->ios_left--;
	if (gf->pass_done < gf->pass_len &&
	    (gf->pass_done += len) >= gf->pass_len) {
		g->files_done++;
		if (gf->active) /* openfiles=N: its slot is free */
			g->nr_active--;
		gf->active = false;
	}
	g->issued[d]++;
}

/* trimwrite: the write of the range just trimmed. */
static void write_trimmed(struct ib_iogen *g, struct ib_io_desc *out)
{
	out->file_idx = g->trimmed.file_idx;
	out->offset = g->trimmed.offset;
	out->len = g->trimmed.len;
	out->ddir = IB_DDIR_WRITE;
	g->write_after_trim = false;
	g->zone.bytes += out->len;	/* fio counts it in the zone */
	g->issued[IB_DDIR_WRITE]++;
	g->ios_left--;
}

/*
 * The next I/O's direction and length; *drawn: the length is a draw of a
 * range or split (fio fits it to the region, fit_len(), not to the size:
 * the last I/O is whole past it), not one size or the budget's tail.
 * False: no I/O is left.
 */
static inline bool next_len(struct ib_iogen *g, ib_src_pick_fn pick, void *arg,
			    enum ib_ddir *dp, uint64_t *len, bool *drawn)
{
	const struct ib_job *job = g->job;
	enum ib_ddir d = pick_ddir(g);

	if (pick)
		d = pick(arg, d, (job->rw & IB_RW_READ) && (job->rw & IB_RW_WRITE) &&
			 job->rwmixread != 0 && job->rwmixread != 100);
	if (job->bs.min[d] > g->bytes_left && !g->pass_min &&
	    (job->rw & IB_RW_READ) && (job->rw & IB_RW_WRITE))
		d = d == IB_DDIR_READ ? IB_DDIR_WRITE : IB_DDIR_READ; /* tail */
	*dp = d;
	*drawn = job->bs.min[d] != job->bs.max[d];
	*len = *drawn ? iogen_len_draw(g, d) : job->bs.min[d];
	if (*len > g->bytes_left && !g->pass_min &&
	    !(*drawn && !g->perms && g->bytes_left >= job->bs.min[d])) {
		*len = iogen_tail_len(g, d);
		*drawn = false;
	}
	return *len != 0;
}

/* The body of ib_iogen_next(), here so the source op gets it inline. */
static inline bool gen_next(struct ib_iogen *g, struct ib_io_desc *out,
			    ib_src_pick_fn pick, void *arg)
{
	enum ib_ddir d;
	struct ib_gen_file *gf;
	uint64_t len, off;
	bool ok, drawn;

	if (g->write_after_trim) {
		write_trimmed(g, out);
		return true;
	}
	if (!g->bytes_left || !g->ios_left || !next_len(g, pick, arg, &d, &len, &drawn))
		return false;
	out->file_idx = g->nr_files == 1 ? 0 : iogen_pick_file(g);
	gf = &g->files[out->file_idx];
	if (ib_unlikely(g->zone.size) && !iogen_zone_next(g, gf, d))
		return false;
	/* fio: no new pass for less than a largest block of a limit */
	if (ib_unlikely(g->bytes_left < g->pass_min) && iogen_pass_over(g, gf, d))
		return false;
	if (ib_job_random(g->job))
		ok = random_offset(g, gf, d, &len, &off, drawn);
	else
		ok = seq_offset(g, gf, d, &len, &off, drawn);
	if (!ok || !len)
		return false;
	if (ib_unlikely(g->zone.size) && iogen_zone_past_end(g, off, len))
		return iogen_zone_new_pass(g, gf) && gen_next(g, out, pick, arg);
	spend(g, gf, d, len);
	g->zone.bytes += len;
	out->ddir = d;
	out->offset = gf->start + off;
	out->len = (uint32_t)len;
	if (d == IB_DDIR_TRIM && ib_job_trimwrite(g->job)) {
		g->trimmed = *out;
		g->write_after_trim = true;
	}
	return true;
}

bool ib_iogen_next(struct ib_iogen *g, struct ib_io_desc *out)
{
	return gen_next(g, out, NULL, NULL);
}

static int iogen_src_next(struct ib_source *src, uint64_t now_ns,
			  struct ib_io_desc *out)
{
	struct ib_iogen *g = ib_container_of(src, struct ib_iogen, src);

	if (!gen_next(g, out, NULL, NULL))
		return IB_SRC_END;
	out->due_ns = now_ns;	/* closed loop: due when asked */
	return IB_SRC_READY;
}

static int iogen_src_next_pick(struct ib_source *src, uint64_t now_ns,
			       ib_src_pick_fn pick, void *arg,
			       struct ib_io_desc *out)
{
	struct ib_iogen *g = ib_container_of(src, struct ib_iogen, src);

	if (!gen_next(g, out, pick, arg))
		return IB_SRC_END;
	out->due_ns = now_ns;
	return IB_SRC_READY;
}

/*
 * iogen_src_next() for the job fast_init() found plain: gen_next() with
 * what is constant for such a job taken out (one direction, one file, one
 * block size of one granule, the random map), the same draws in the same
 * order. The tail of a budget smaller than the block is the end, as there.
 */
static int iogen_src_next_fast(struct ib_source *src, uint64_t now_ns,
			       struct ib_io_desc *out)
{
	struct ib_iogen *g = ib_container_of(src, struct ib_iogen, src);
	struct ib_gen_file *gf = g->files;
	enum ib_ddir d = g->fast_ddir;
	uint64_t gran = g->granule, slot;

	if (!g->ios_left ||
	    (ib_unlikely(g->bytes_left < g->fast_gate) && iogen_fast_end(g)))
		return IB_SRC_END;
	/* fast_init(): nblocks <= 2^32 and 32-bit draws, off_below's way */
	slot = map_take1(gf, below32(g, gf->nblocks));
	spend(g, gf, d, gran);
	out->ddir = d;
	out->file_idx = 0;
	out->offset = gf->start + slot * gran;
	out->len = (uint32_t)gran;
	out->due_ns = now_ns;
	return IB_SRC_READY;
}

/* Bytes left in the budget (a tail too small for a block still counts). */
static bool iogen_src_more(const struct ib_source *src)
{
	const struct ib_iogen *g = ib_container_of(src, const struct ib_iogen, src);

	return (g->bytes_left != 0 && g->ios_left != 0) || g->write_after_trim;
}

const struct ib_source_ops ib_iogen_source_ops = {
	.name = "iogen",
	.next = iogen_src_next,
	.more = iogen_src_more,
	.next_pick = iogen_src_next_pick,
};

/* The same source, plain jobs' next() (fast_init()). */
const struct ib_source_ops iogen_fast_ops = {
	.name = "iogen",
	.next = iogen_src_next_fast,
	.more = iogen_src_more,
	.next_pick = iogen_src_next_pick,
};

