/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_RAND_H
#define IOBENCH_RAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * L'Ecuyer's three-component Tausworthe generator (taus88, period ~2^88),
 * the generator fio uses by default, seeded the documented way (three chained
 * LCG steps x*69069 ^ seed from x = 53, each word raised past its lower bound,
 * then six warm-up steps). State is explicit: one per stream, no globals.
 */
struct ib_rand {
	uint32_t s1, s2, s3;
};

void ib_rand_seed(struct ib_rand *r, uint32_t seed);

/* splitmix64's finaliser: a 64-bit value mixed into a well-spread one. */
static inline uint64_t ib_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* splitmix64: one step of a Weyl sequence *x through ib_mix64(). */
static inline uint64_t ib_splitmix64(uint64_t *x)
{
	return ib_mix64(*x += 0x9e3779b97f4a7c15ull);
}

static inline uint32_t ib_rand32(struct ib_rand *r)
{
	uint32_t b;

	b = ((r->s1 << 13) ^ r->s1) >> 19;
	r->s1 = ((r->s1 & 0xfffffffeu) << 12) ^ b;
	b = ((r->s2 << 2) ^ r->s2) >> 25;
	r->s2 = ((r->s2 & 0xfffffff8u) << 4) ^ b;
	b = ((r->s3 << 3) ^ r->s3) >> 11;
	r->s3 = ((r->s3 & 0xfffffff0u) << 17) ^ b;
	return r->s1 ^ r->s2 ^ r->s3;
}

static inline uint64_t ib_rand64(struct ib_rand *r)
{
	return ((uint64_t)ib_rand32(r) << 32) | ib_rand32(r);
}

/* Uniform in [0, n) for n >= 1 (multiply-shift, no modulo bias worth noting). */
static inline uint64_t ib_rand_below(struct ib_rand *r, uint64_t n)
{
	if (n <= UINT32_MAX)
		return ((uint64_t)ib_rand32(r) * n) >> 32;
	return (uint64_t)(((unsigned __int128)ib_rand64(r) * n) >> 64);
}

/* Fill len bytes with pseudo-random data. */
void ib_rand_fill(struct ib_rand *r, void *buf, size_t len);

/*
 * The independent random streams of a job, each with its own seed so that
 * changing one (a new bsrange, say) leaves the others' sequences alone.
 * The values are part of the seed derivation: never renumber them.
 */
enum ib_rand_stream {
	IB_STREAM_OFFSET = 0,	/* iogen: random offsets */
	IB_STREAM_DDIR = 1,	/* iogen: read/write choice of a mix */
	IB_STREAM_BS = 2,	/* unused: block sizes are fio's (jobseed.h) */
	IB_STREAM_DATA = 3,	/* write buffers and file layout contents */
	IB_STREAM_FILESIZE = 4,	/* filesize=a-b: one draw per file (+ index) */
};

/*
 * Seed of stream s for job number `number`. randseed_set: derived from
 * randseed; otherwise from a fixed base. randrepeat (without randseed=)
 * keeps the offset stream at fio's per-job constant.
 */
uint32_t ib_rand_stream_seed(enum ib_rand_stream s, unsigned int number,
			     bool randrepeat, bool randseed_set,
			     uint64_t randseed);

/*
 * fio's seed number idx of job `number` from base (randseed=, 0x89 by
 * default): base times 0x9e370001 to the power 4 + idx, times number,
 * plus idx, its low 32 bits (a fact of fio 3.33's streams, measured: idx
 * 0, 1, 2 seed the read, write and trim block sizes, 6 the offsets when
 * randrepeat=0).
 */
uint32_t ib_rand_fio_seed(unsigned int idx, unsigned int number, uint64_t base);

#endif
