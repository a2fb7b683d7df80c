// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's verify checksums (definitions in csum.h). The CRCs fio shares with
 * ISA-L come from ISA-L (hardware-accelerated), xxhash from libxxhash, the
 * digests from nettle; crc7 and crc16 are written here from their
 * definitions because no Debian library has those two variants.
 */
#include <errno.h>
#include <string.h>

#include <isa-l/crc.h>
#include <isa-l/crc64.h>

#include "iobench/csum.h"

static const struct {
	const char *name;
	enum ib_csum_type type;
} csum_names[] = {
	{ "crc7", IB_CSUM_CRC7 },	  { "crc16", IB_CSUM_CRC16 },
	{ "crc32", IB_CSUM_CRC32 },	  { "crc32c", IB_CSUM_CRC32C },
	{ "crc32c-intel", IB_CSUM_CRC32C }, { "crc64", IB_CSUM_CRC64 },
	{ "xxhash", IB_CSUM_XXHASH },	  { "md5", IB_CSUM_MD5 },
	{ "sha1", IB_CSUM_SHA1 },	  { "sha256", IB_CSUM_SHA256 },
	{ "sha512", IB_CSUM_SHA512 },	  { "sha3-224", IB_CSUM_SHA3_224 },
	{ "sha3-256", IB_CSUM_SHA3_256 }, { "sha3-384", IB_CSUM_SHA3_384 },
	{ "sha3-512", IB_CSUM_SHA3_512 },
};

static const unsigned csum_lens[IB_CSUM_NR] = {
	[IB_CSUM_CRC7] = 1,	   [IB_CSUM_CRC16] = 2,
	[IB_CSUM_CRC32] = 4,	   [IB_CSUM_CRC32C] = 4,
	[IB_CSUM_CRC64] = 8,	   [IB_CSUM_XXHASH] = 4,
	[IB_CSUM_MD5] = MD5_DIGEST_SIZE, [IB_CSUM_SHA1] = SHA1_DIGEST_SIZE,
	[IB_CSUM_SHA256] = SHA256_DIGEST_SIZE,
	[IB_CSUM_SHA512] = SHA512_DIGEST_SIZE,
	[IB_CSUM_SHA3_224] = SHA3_224_DIGEST_SIZE,
	[IB_CSUM_SHA3_256] = SHA3_256_DIGEST_SIZE,
	[IB_CSUM_SHA3_384] = SHA3_384_DIGEST_SIZE,
	[IB_CSUM_SHA3_512] = SHA3_512_DIGEST_SIZE,
};

int ib_csum_parse(const char *name, enum ib_csum_type *type)
{
	for (size_t i = 0; i < sizeof(csum_names) / sizeof(csum_names[0]); i++) {
		if (!strcmp(name, csum_names[i].name)) {
			*type = csum_names[i].type;
			return 0;
		}
	}
	return -EINVAL;
}

const char *ib_csum_name(enum ib_csum_type type)
{
	for (size_t i = 0; i < sizeof(csum_names) / sizeof(csum_names[0]); i++)
		if (csum_names[i].type == type)
			return csum_names[i].name;
	return NULL;
}

unsigned ib_csum_len(enum ib_csum_type type)
{
	return (unsigned)type < IB_CSUM_NR ? csum_lens[type] : 0;
}

/*
 * Byte-at-a-time tables for the two hand-written CRCs, computed by the
 * compiler from the bit-at-a-time definition (T256 expands STEP8 for each
 * byte value), so there is no table to get wrong and no run-time init.
 */
#define T4(f, n) f(n), f(n + 1), f(n + 2), f(n + 3)
#define T16(f, n) T4(f, n), T4(f, n + 4), T4(f, n + 8), T4(f, n + 12)
#define T64(f, n) T16(f, n), T16(f, n + 16), T16(f, n + 32), T16(f, n + 48)
#define T256(f) T64(f, 0), T64(f, 64), T64(f, 128), T64(f, 192)
#define STEP8(s, x) s(s(s(s(s(s(s(s(x))))))))

/*
 * CRC-7/MMC (x^7 + x^3 + 1, MSB first), kept shifted left by one in an
 * 8-bit register so the polynomial (0x09 << 1) lines up with bit 7.
 */
#define C7_STEP(r) (((r) & 0x80) ? (((r) << 1) ^ 0x12) & 0xff : ((r) << 1) & 0xff)
#define C7_ENTRY(n) (uint8_t)STEP8(C7_STEP, (unsigned)(n))
static const uint8_t crc7_table[256] = { T256(C7_ENTRY) };

static uint64_t crc7_update(uint64_t crc, const uint8_t *p, size_t len)
{
	uint8_t r = (uint8_t)(crc << 1);

	while (len--)
		r = crc7_table[r ^ *p++];
	return r >> 1;
}

/* CRC-16/ARC (x^16 + x^15 + x^2 + 1, reflected: 0xa001). */
#define C16_STEP(r) (((r) & 1) ? ((r) >> 1) ^ 0xa001 : (r) >> 1)
#define C16_ENTRY(n) (uint16_t)STEP8(C16_STEP, (unsigned)(n))
static const uint16_t crc16_table[256] = { T256(C16_ENTRY) };

static uint64_t crc16_update(uint64_t crc, const uint8_t *p, size_t len)
{
	uint16_t r = (uint16_t)crc;

	while (len--)
		r = (uint16_t)((r >> 8) ^ crc16_table[(r ^ *p++) & 0xff]);
	return r;
}

/*
 * The ISA-L CRCs take and return their own register form: crc32_iscsi none
 * (fio's crc32c is its raw register from ~0), crc32_ieee and
 * crc64_jones_refl complement on the way in and out, so the running value
 * kept for them is the complement of fio's register (init ~0 = register 0).
 */
static uint64_t crc_update(enum ib_csum_type t, uint64_t crc, const void *buf,
			   size_t len)
{
	const uint8_t *p = buf;

	/* ISA-L takes int lengths: feed it in chunks below 2 GiB */
	while (len) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		if (t == IB_CSUM_CRC32C)
			crc = crc32_iscsi((unsigned char *)p, (int)n, (uint32_t)crc);
		else if (t == IB_CSUM_CRC32)
			crc = crc32_ieee((uint32_t)crc, p, n);
		else if (t == IB_CSUM_CRC64)
			crc = crc64_jones_refl(crc, p, n);
		else if (t == IB_CSUM_CRC16)
			crc = crc16_update(crc, p, n);
		else
			crc = crc7_update(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
}

static uint64_t crc_init(enum ib_csum_type t)
{
	switch (t) {
	case IB_CSUM_CRC32C:
	case IB_CSUM_CRC32:
		return 0xffffffffu;
	case IB_CSUM_CRC64:
		return ~0ull;
	default:
		return 0;
	}
}

static uint64_t crc_final(enum ib_csum_type t, uint64_t crc)
{
	if (t == IB_CSUM_CRC32)
		return ~crc & 0xffffffffu;
	if (t == IB_CSUM_CRC64)
		return ~crc;
	return crc;
}

static void put_le(uint8_t *out, uint64_t v, unsigned len)
{
	for (unsigned i = 0; i < len; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

uint64_t ib_csum_value(enum ib_csum_type type, const uint8_t *out)
{
	uint64_t v = 0;
	unsigned len = ib_csum_len(type);

	if (len > 8)
		len = 8;
	for (unsigned i = 0; i < len; i++)
		v |= (uint64_t)out[i] << (8 * i);
	return v;
}

static int is_crc(enum ib_csum_type t)
{
	return t <= IB_CSUM_CRC64;
}

void ib_csum_init(struct ib_csum_ctx *c, enum ib_csum_type type)
{
	c->type = type;
	switch (type) {
	case IB_CSUM_XXHASH:
		XXH32_reset(&c->u.xxh, IB_CSUM_XXHASH_SEED);
		break;
	case IB_CSUM_MD5: md5_init(&c->u.md5); break;
	case IB_CSUM_SHA1: sha1_init(&c->u.sha1); break;
	case IB_CSUM_SHA256: sha256_init(&c->u.sha256); break;
	case IB_CSUM_SHA512: sha512_init(&c->u.sha512); break;
	case IB_CSUM_SHA3_224: sha3_224_init(&c->u.sha3_224); break;
	case IB_CSUM_SHA3_256: sha3_256_init(&c->u.sha3_256); break;
	case IB_CSUM_SHA3_384: sha3_384_init(&c->u.sha3_384); break;
	case IB_CSUM_SHA3_512: sha3_512_init(&c->u.sha3_512); break;
	default:
		c->u.crc = crc_init(type);
		break;
	}
}

void ib_csum_update(struct ib_csum_ctx *c, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	switch (c->type) {
	case IB_CSUM_XXHASH: XXH32_update(&c->u.xxh, p, len); break;
	case IB_CSUM_MD5: md5_update(&c->u.md5, len, p); break;
	case IB_CSUM_SHA1: sha1_update(&c->u.sha1, len, p); break;
	case IB_CSUM_SHA256: sha256_update(&c->u.sha256, len, p); break;
	case IB_CSUM_SHA512: sha512_update(&c->u.sha512, len, p); break;
	case IB_CSUM_SHA3_224: sha3_224_update(&c->u.sha3_224, len, p); break;
	case IB_CSUM_SHA3_256: sha3_256_update(&c->u.sha3_256, len, p); break;
	case IB_CSUM_SHA3_384: sha3_384_update(&c->u.sha3_384, len, p); break;
	case IB_CSUM_SHA3_512: sha3_512_update(&c->u.sha3_512, len, p); break;
	default:
		c->u.crc = crc_update(c->type, c->u.crc, p, len);
		break;
	}
}

void ib_csum_final(struct ib_csum_ctx *c, uint8_t *out)
{
	unsigned n = ib_csum_len(c->type);

	switch (c->type) {
	case IB_CSUM_XXHASH: put_le(out, XXH32_digest(&c->u.xxh), 4); break;
	case IB_CSUM_MD5: md5_digest(&c->u.md5, n, out); break;
	case IB_CSUM_SHA1: sha1_digest(&c->u.sha1, n, out); break;
	case IB_CSUM_SHA256: sha256_digest(&c->u.sha256, n, out); break;
	case IB_CSUM_SHA512: sha512_digest(&c->u.sha512, n, out); break;
	case IB_CSUM_SHA3_224: sha3_224_digest(&c->u.sha3_224, n, out); break;
	case IB_CSUM_SHA3_256: sha3_256_digest(&c->u.sha3_256, n, out); break;
	case IB_CSUM_SHA3_384: sha3_384_digest(&c->u.sha3_384, n, out); break;
	case IB_CSUM_SHA3_512: sha3_512_digest(&c->u.sha3_512, n, out); break;
	default:
		put_le(out, crc_final(c->type, c->u.crc), n);
		break;
	}
}

void ib_csum(enum ib_csum_type type, const void *buf, size_t len, uint8_t *out)
{
	struct ib_csum_ctx c;

	if (is_crc(type)) {
		/* the hot path: no context, one library call */
		uint64_t crc = crc_update(type, crc_init(type), buf, len);

		put_le(out, crc_final(type, crc), ib_csum_len(type));
		return;
	}
	if (type == IB_CSUM_XXHASH) {
		put_le(out, XXH32(buf, len, IB_CSUM_XXHASH_SEED), 4);
		return;
	}
	ib_csum_init(&c, type);
	ib_csum_update(&c, buf, len);
	ib_csum_final(&c, out);
}
