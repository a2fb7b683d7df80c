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
