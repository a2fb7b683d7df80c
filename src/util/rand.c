// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include "iobench/rand.h"

static uint32_t raise_past(uint32_t x, uint32_t bound)
{
	return x < bound ? x + bound : x;
}

void ib_rand_seed(struct ib_rand *r, uint32_t seed)
{
	int i;

	r->s1 = raise_past(53u * 69069u ^ seed, 1);
	r->s2 = raise_past(r->s1 * 69069u ^ seed, 7);
	r->s3 = raise_past(r->s2 * 69069u ^ seed, 15);
	for (i = 0; i < 6; i++)
		ib_rand32(r);
}

void ib_rand_fill(struct ib_rand *r, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t v;

	while (len >= sizeof(v)) {
		v = ib_rand64(r);
		memcpy(p, &v, sizeof(v));
		p += sizeof(v);
		len -= sizeof(v);
	}
	if (len) {
		v = ib_rand64(r);
		memcpy(p, &v, len);
	}
}

static uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

uint32_t ib_rand_stream_seed(enum ib_rand_stream s, unsigned int number,
			     bool randrepeat, bool randseed_set,
			     uint64_t randseed)
{
	uint32_t base;

	if (s == IB_STREAM_OFFSET && randrepeat && !randseed_set)
		return 0xb1899bedu * number;
	base = randseed_set ? (uint32_t)(randseed ^ (randseed >> 32)) : 0x89u;
	return mix32(base * 0x9e370001u + number * 0x85ebca6bu + (uint32_t)s);
}

uint32_t ib_rand_fio_seed(unsigned int idx, unsigned int number, uint64_t base)
{
	uint64_t seed = base;
	unsigned int i;

	for (i = 0; i < 4 + idx; i++)
		seed *= 0x9e370001ull;
	return (uint32_t)(seed * number + idx);
}
