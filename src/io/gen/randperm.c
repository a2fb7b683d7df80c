// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keyed permutation of [0, n) with cycle-walking. See randperm.h.
 */
#include <errno.h>
#include <string.h>
#include "iobench/rand.h"
#include "iobench/randperm.h"

#define PERM_MAX_N (1ull << 63)

void ib_randperm_set_pass(struct ib_randperm *p, uint64_t pass)
{
	uint64_t s = p->seed;
	unsigned int r;

	/* (seed, pass) -> start: a hash of the seed plus a multiple of pass,
	 * so two (seed, pass) pairs share keys only by a 2^-64 chance */
	s = ib_splitmix64(&s) + pass * 0xa0761d6478bd642full;
	for (r = 0; r < p->rounds; r++)
		p->key[r] = ib_splitmix64(&s);
	p->pass = pass;
	p->i = 0;
}

/* Bits needed for n - 1 (0 for n == 1). */
static unsigned int domain_bits(uint64_t n)
{
	return n > 1 ? 64 - (unsigned int)__builtin_clzll(n - 1) : 0;
}

int ib_randperm_init(struct ib_randperm *p, uint64_t n, uint64_t seed)
{
	unsigned int b;

	memset(p, 0, sizeof(*p));
	if (!n || n > PERM_MAX_N)
		return -EINVAL;
	b = domain_bits(n);
	p->n = n;
	p->seed = seed;
	p->lo_bits = b - b / 2;
	p->lo_mask = (1ull << p->lo_bits) - 1;
	p->hi_mask = (1ull << (b / 2)) - 1;
	p->rounds = b <= IB_PERM_SMALL_BITS ? IB_PERM_SMALL_ROUNDS : IB_PERM_ROUNDS;
	ib_randperm_set_pass(p, 0);
	return 0;
}

uint64_t ib_randperm_at(const struct ib_randperm *p, uint64_t i)
{
	uint64_t y = ib_randperm_enc(p, i);

	while (y >= p->n)
		y = ib_randperm_enc(p, y);
	return y;
}

/* The inverse network: the rounds undone in reverse order. */
static uint64_t perm_dec(const struct ib_randperm *p, uint64_t y)
{
	uint64_t lo = y & p->lo_mask, hi = y >> p->lo_bits;
	int r;

	for (r = (int)p->rounds - 2; r >= 0; r -= 2) {
		lo ^= ib_randperm_f(p->key[r + 1], hi) & p->lo_mask;
		hi ^= ib_randperm_f(p->key[r], lo) & p->hi_mask;
	}
	return (hi << p->lo_bits) | lo;
}

uint64_t ib_randperm_index(const struct ib_randperm *p, uint64_t y)
{
	uint64_t x = perm_dec(p, y);

	while (x >= p->n)
		x = perm_dec(p, x);
	return x;
}
