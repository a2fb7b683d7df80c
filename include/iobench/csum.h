/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_CSUM_H
#define IOBENCH_CSUM_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#define XXH_STATIC_LINKING_ONLY /* XXH32_state_t by value: no allocation */
#include <xxhash.h>

/*
 * The checksums of fio's verify= option, each exactly as fio 3.33 defines it
 * (so that a block written by fio checks here), computed by a packaged
 * library where one matches (doc/verify.md "Checksums"):
 *
 *   crc7     CRC-7/MMC: poly 0x09, MSB first, init 0, no final xor
 *            (check "123456789" = 0x75); hand-written, no library has it
 *   crc16    CRC-16/ARC: poly 0x8005 reflected, init 0, no final xor
 *            (check 0xbb3d); hand-written (ISA-L's crc16 is T10-DIF, 0x8bb7)
 *   crc32    poly 0x04c11db7 MSB first, init 0, no final xor (= the bitwise
 *            complement of CRC-32/POSIX without its length suffix; check
 *            0x89a1897f); ISA-L crc32_ieee. Not zlib's crc32 (reflected).
 *   crc32c   Castagnoli, reflected, init ~0, NO final xor (= ~CRC-32C;
 *            check 0x1cf96d7c, i.e. ~0xe3069283); ISA-L crc32_iscsi (SSE4.2
 *            / PCLMUL where the CPU has it). crc32c-intel is an alias.
 *   crc64    poly 0xad93d23594c935a9 (Jones) reflected, init 0, no final
 *            xor = CRC-64/REDIS (check 0xe9c6d914c4b8d9ca); ISA-L
 *            crc64_jones_refl
 *   xxhash   XXH32 with seed 1 (libxxhash)
 *   md5 sha1 sha256 sha512 sha3-224/256/384/512: the standard digests
 *            (nettle: caller-owned fixed-size contexts, no allocation)
 *
 * Integer checksums are written to `out` little-endian (their on-disk order
 * in fio's verify header on x86); digests in their standard byte order.
 */
enum ib_csum_type {
	IB_CSUM_CRC7,
	IB_CSUM_CRC16,
	IB_CSUM_CRC32,
	IB_CSUM_CRC32C,
	IB_CSUM_CRC64,
	IB_CSUM_XXHASH,
	IB_CSUM_MD5,
	IB_CSUM_SHA1,
	IB_CSUM_SHA256,
	IB_CSUM_SHA512,
	IB_CSUM_SHA3_224,
	IB_CSUM_SHA3_256,
	IB_CSUM_SHA3_384,
	IB_CSUM_SHA3_512,
	IB_CSUM_NR
};

/* Longest digest (sha512, sha3-512) in bytes. */
#define IB_CSUM_MAX_LEN 64
/* fio's xxhash seed. */
#define IB_CSUM_XXHASH_SEED 1u

/* An incremental computation. Caller-owned, fixed size, no allocation. */
struct ib_csum_ctx {
	enum ib_csum_type type;
	union {
		uint64_t crc;		/* crc7..crc64: the running register */
		XXH32_state_t xxh;	/* xxhash */
		struct md5_ctx md5;
		struct sha1_ctx sha1;
		struct sha256_ctx sha256;
		struct sha512_ctx sha512;
		struct sha3_224_ctx sha3_224;
		struct sha3_256_ctx sha3_256;
		struct sha3_384_ctx sha3_384;
		struct sha3_512_ctx sha3_512;
	} u;
};

/*
 * fio's name -> type: crc7 crc16 crc32 crc32c crc32c-intel (= crc32c) crc64
 * xxhash md5 sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 sha3-512.
 * 0, or -EINVAL for any other name (verify=meta/pattern/null are not
 * checksums: verify.h parses those).
 */
int ib_csum_parse(const char *name, enum ib_csum_type *type);
/* The canonical name ("crc32c"), or NULL for an out-of-range type. */
const char *ib_csum_name(enum ib_csum_type type);
/* Digest length in bytes (crc7 1, crc16 2, crc32/crc32c/xxhash 4, crc64 8,
 * md5 16, sha1 20, sha256 32, sha512 64, sha3-N N/8), 0 if out of range. */
unsigned ib_csum_len(enum ib_csum_type type);

void ib_csum_init(struct ib_csum_ctx *c, enum ib_csum_type type);
void ib_csum_update(struct ib_csum_ctx *c, const void *buf, size_t len);
/* Write ib_csum_len() bytes to out. The context must be init'ed again
 * before another use. */
void ib_csum_final(struct ib_csum_ctx *c, uint8_t *out);

/* One shot: init + update + final. */
void ib_csum(enum ib_csum_type type, const void *buf, size_t len, uint8_t *out);

/* The little-endian integer in out[0..len) (for the integer checksums;
 * reports print it as fio does, in hex). */
uint64_t ib_csum_value(enum ib_csum_type type, const uint8_t *out);

#endif
