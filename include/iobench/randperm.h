/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_RANDPERM_H
#define IOBENCH_RANDPERM_H

#include <stdint.h>

/*
 * Random coverage in constant memory: a keyed pseudo-random permutation of
 * the block numbers [0, n), for any n in [1, 2^63]. Walking a counter
 * i = 0..n-1 through it yields every block exactly once per pass, in an
 * order that passes the same uniformity and independence tests as the
 * taus88 draws of today's random map (tests/unit/test_randperm.c), with a
 * state of 264 bytes whatever n is (the random map costs n/8 bytes): one
 * per file keeps a job under 1 MiB up to 3900 files.
 *
 * Construction: an alternating ("unbalanced") Feistel network over b bits,
 * b = the bit length of n - 1 (so the domain 2^b < 2n), split into a high
 * half of b/2 bits and a low half of b - b/2 bits. Each of IB_PERM_ROUNDS
 * rounds XORs one half with a keyed hash of the other, alternating halves;
 * a round is invertible whatever the hash (x ^= F(other) undoes itself), so
 * the network is a bijection of [0, 2^b) for any key (the construction of
 * Luby-Rackoff and of the FFX/FF1 format-preserving ciphers, which use it
 * with unequal halves the same way). Cycle-walking keeps it inside [0, n):
 * y = E(x); while (y >= n) y = E(y); a bijection of [0, n) (Black and
 * Rogaway, "Ciphers with arbitrary finite domains", 2002).
 *
 * Why this and not a Tausworthe walk or fio's LFSR: an LFSR or any linear
 * recurrence emits x_{j+1} = A x_j, a fixed linear relation between
 * consecutive offsets (fio's HOWTO warns its lfsr is not truly random); a
 * counter through a keyed nonlinear bijection has no such relation, is
 * random-access (perm(i) for any i, and its inverse), needs no state per
 * offset, and a fresh key per pass makes passes differ.
 *
 * Cost of the cycle walk: over a pass, every point of [n, 2^b) is visited
 * at most once (it lies on one cycle, between two points of [0, n)), so a
 * whole pass costs at most 2^b < 2n evaluations of E: at most 2 per offset
 * on average, a bound, not an expectation. One offset may walk longer (at
 * most 2^b - n + 1 steps), rarely: tools/randperm_bench.c measures the mean
 * and the longest walk.
 *
 * Rounds: IB_PERM_ROUNDS (6) once both halves have 4 bits or more
 * (n > 128). Tiny halves mix slowly: with 6 rounds the orders of n = 5 or
 * n = 31 blocks across seeds are measurably far from uniform (a chi-square
 * of (perm(0), perm(1)) over seeds ~7 sd high at n = 31), so domains of 7
 * bits or less get IB_PERM_SMALL_ROUNDS (24), which brings them in line
 * (tests/unit/test_randperm.c); their cost does not matter.
 *
 * Keys: one 64-bit key per round derived from (seed, pass) by splitmix64,
 * so a job's seed (ib_rand_job_seed) fixes every pass and each pass has its
 * own order.
 *
 * How iogen chooses it (iogen.h, doc/fio-compat.md): random_generator=lfsr
 * always; random_generator not given, for a job of one block size whose
 * random maps would pass IB_IOGEN_MAP_MAX (1 MiB); the bitmap map (fio's
 * exact sequence) otherwise. Over slots of the smallest block, with
 * bsrange/bssplit a longer I/O covers several slots, so some blocks repeat
 * within a pass (fio's lfsr has the same limit); the default keeps the
 * bitmap for such jobs.
 */
#define IB_PERM_ROUNDS 6		/* even: rounds go in pairs */
#define IB_PERM_SMALL_ROUNDS 24
#define IB_PERM_SMALL_BITS 7	/* domains of 2^7 or less */

struct ib_randperm {
	uint64_t n;		/* domain size, 1..2^63 */
	uint64_t i;		/* next counter value of this pass, 0..n-1 */
	uint64_t pass;		/* 0-based pass number (keys depend on it) */
	uint64_t seed;
	uint64_t lo_mask;	/* low half: lo_bits bits */
	uint64_t hi_mask;	/* high half, already shifted down */
	unsigned int lo_bits;
	unsigned int rounds;	/* IB_PERM_ROUNDS or IB_PERM_SMALL_ROUNDS */
	uint64_t key[IB_PERM_SMALL_ROUNDS];
	uint64_t walks;		/* E evaluations so far (statistics) */
	uint64_t longest;	/* longest cycle walk seen */
};

/*
 * Set up the permutation of [0, n) for pass 0 under seed. 0, or -EINVAL
 * when n is 0 or above 2^63 (then *p must not be used).
 */
int ib_randperm_init(struct ib_randperm *p, uint64_t n, uint64_t seed);

/* Start pass `pass` (new keys), counter back to 0. */
void ib_randperm_set_pass(struct ib_randperm *p, uint64_t pass);

/* The permutation of this pass at i (i < n); no state changes. */
uint64_t ib_randperm_at(const struct ib_randperm *p, uint64_t i);

/* Its inverse: the i with ib_randperm_at(p, i) == y (y < n). */
uint64_t ib_randperm_index(const struct ib_randperm *p, uint64_t y);

/* One round-function value: 32 keyed, well-mixed bits of x. */
static inline uint64_t ib_randperm_f(uint64_t key, uint64_t x)
{
	uint64_t h = (x ^ key) * 0x9e3779b97f4a7c15ull;

	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	return h >> 32;
}

/* The Feistel network over [0, 2^b) with `rounds` rounds. */
static inline uint64_t ib_randperm_feistel(const struct ib_randperm *p,
					   uint64_t x, unsigned int rounds)
{
	uint64_t lo = x & p->lo_mask, hi = x >> p->lo_bits;
	unsigned int r;

	for (r = 0; r < rounds; r += 2) {
		hi ^= ib_randperm_f(p->key[r], lo) & p->hi_mask;
		lo ^= ib_randperm_f(p->key[r + 1], hi) & p->lo_mask;
	}
	return (hi << p->lo_bits) | lo;
}

/* E: the network of p (a constant round count in the common case). */
static inline uint64_t ib_randperm_enc(const struct ib_randperm *p, uint64_t x)
{
	if (__builtin_expect(p->rounds == IB_PERM_ROUNDS, 1))
		return ib_randperm_feistel(p, x, IB_PERM_ROUNDS);
	return ib_randperm_feistel(p, x, IB_PERM_SMALL_ROUNDS);
}

/*
 * The next block of the current pass; after the last one of a pass the
 * next pass starts (new keys). Never fails, no allocation.
 */
static inline uint64_t ib_randperm_next(struct ib_randperm *p)
{
	uint64_t y, steps = 1;

	if (p->i == p->n)
		ib_randperm_set_pass(p, p->pass + 1);
	y = ib_randperm_enc(p, p->i++);
	while (y >= p->n) {
		y = ib_randperm_enc(p, y);
		steps++;
	}
	p->walks += steps;
	if (steps > p->longest)
		p->longest = steps;
	return y;
}

#endif
