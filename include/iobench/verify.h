/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_VERIFY_H
#define IOBENCH_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "iobench/csum.h"
#include "iobench/diag.h"

/*
 * Data verification blocks, laid out exactly as fio 3.33 writes them (read
 * off files fio 3.33 wrote, doc/verify.md), so that iobench checks a file
 * fio wrote with the same job, and a block carries enough to tell a stale
 * one (earlier pass), a misdirected one (wrong offset) and a torn one.
 *
 * Each verify interval (the whole block unless verify_interval is smaller)
 * starts with a 40-byte header, all fields little-endian:
 *
 *   0  u16 magic        0xacca
 *   2  u16 verify_type  enum ib_verify_type (fio's numbering)
 *   4  u32 len          the interval's length
 *   8  u64 rand_seed    seed of the random payload (0 with a pattern)
 *  16  u64 offset       the interval's file offset
 *  24  u32 time_sec     fio: its own clock; iobench writes 0 and never
 *  28  u32 time_nsec         checks either (no meaning across programs)
 *  32  u16 thread       job number, from 1
 *  34  u16 numberio     the write's sequence number in the file (the
 *                       generation: which write of this block it is)
 *  36  u32 crc32        fio's crc32c (csum.h) of bytes 0..35
 *
 * then the checksum area (its size is fio's, ib_verify_area_len(): md5 16,
 * crc64 8, crc32/crc32c/xxhash 4, crc16 2, crc7 1, sha1 20, sha256 64,
 * sha512 128, sha3-N N/8, none for meta/pattern), then the payload, which
 * the checksum covers (to the end of the interval).
 *
 * Where fio 3.33's own digest is not the standard one (csum.h has the
 * algorithms), iobench writes the standard one and accepts both:
 *   sha1    fio stores the five digest words in host (little-endian) order;
 *           iobench does the same (a byte swap per word, no loss).
 *   sha256  fio pads with a little-endian bit count and keeps the low byte
 *           of each of the 8 state words over the final padded block;
 *           iobench writes the FIPS digest + 32 zero bytes and accepts
 *           fio's form too (computed exactly, from the same data).
 *   sha512  fio never finishes the hash: the area holds the payload's last
 *           (len - 168) % 128 bytes and the rest is left as it was; iobench
 *           writes the FIPS digest + 64 zero bytes and accepts fio's form
 *           by comparing those bytes (a weak check, fio's own).
 */
#define IB_VHDR_MAGIC 0xaccau
#define IB_VHDR_SIZE 40u
#define IB_VHDR_CRC_OFF 36u

/*
 * fio 3.42's header (written under --fio-version=3.42), 48 bytes:
 *
 *   0  u16 magic        0xacca
 *   2  u8  version      0x81 (IB_VHDR342_VERSION)
 *   3  u8  verify_type
 *   4  u32 len
 *   8  u64 rand_seed
 *  16  u64 offset
 *  24  u32 time_sec, 28 u32 time_nsec (iobench writes 0)
 *  32  u64 numberio     the whole write number, not its low 16 bits
 *  40  u16 thread
 *  42  2 bytes padding  (fio leaves the payload's bytes; iobench 0)
 *  44  u32 crc32        crc32c of bytes 0..43
 *
 * then the checksum area and the payload as in 3.33. A reader tells the
 * two apart per interval: byte 2 is 0x81 and the 3.42 crc checks, else
 * it is read as 3.33's.
 */
#define IB_VHDR342_SIZE 48u
#define IB_VHDR342_CRC_OFF 44u
#define IB_VHDR342_VERSION 0x81u
/* ib_verify_spec.hdr_ver of a 3.42 header (the value of IB_FIO_V342) */
#define IB_VHDR_V342 342u
/* The spec's hdr_ver for a job's verify.hdr_ver (the run's --fio-version,
 * set by the plan; 0, a job no plan built: the default, 3.42's). */
static inline unsigned ib_verify_hdr_ver_of(unsigned job_hdr_ver)
{
	return job_hdr_ver ? job_hdr_ver : IB_VHDR_V342;
}
/* fio's longest pattern (MAX_PATTERN_SIZE) and %o count we keep */
#define IB_VPATTERN_MAX 512u
#define IB_VPATTERN_MAX_OFFS 64u

/* fio 3.33's verify types, numbered as in its header's verify_type field. */
enum ib_verify_type {
	IB_VERIFY_NONE = 0,	/* verify=0 */
	IB_VERIFY_META = 1,	/* verify=meta: header only (fio VERIFY_HDR_ONLY) */
	IB_VERIFY_MD5 = 2,
	IB_VERIFY_CRC64 = 3,
	IB_VERIFY_CRC32 = 4,
	IB_VERIFY_CRC32C = 5,	/* also verify=crc32c-intel (fio writes 5) */
	IB_VERIFY_CRC32C_INTEL = 6, /* accepted in a header, never written */
	IB_VERIFY_CRC16 = 7,
	IB_VERIFY_CRC7 = 8,
	IB_VERIFY_SHA256 = 9,
	IB_VERIFY_SHA512 = 10,
	IB_VERIFY_SHA3_224 = 11,
	IB_VERIFY_SHA3_256 = 12,
	IB_VERIFY_SHA3_384 = 13,
	IB_VERIFY_SHA3_512 = 14,
	IB_VERIFY_XXHASH = 15,
	IB_VERIFY_SHA1 = 16,
	IB_VERIFY_PATTERN = 17,	/* header + verify_pattern payload: fio's
				 * type when only verify_pattern is given,
				 * and fio 3.42's verify=pattern_hdr */
	IB_VERIFY_PATTERN_NO_HDR = 18, /* verify=pattern: the pattern only */
	IB_VERIFY_NULL = 19,	/* verify=null: pretend */
	IB_VERIFY_NR
};

/*
 * verify_pattern: fio's syntax, elements written back to back with nothing
 * between them: 0x<hex> (bytes in the order written, an odd digit count
 * gets a leading 0), a decimal int (>= 0: the fewest little-endian bytes,
 * at least one; < 0: 4 bytes two's complement), "a string" (double quotes,
 * no escapes, not empty), %o (the block's offset, 8 bytes little-endian).
 * At most IB_VPATTERN_MAX bytes. interval (verify_pattern_interval, fio
 * 3.42; 0: off): the pattern starts again every interval bytes from the
 * block's start, its %o the block's offset plus where that copy starts.
 */
struct ib_vpattern {
	uint8_t bytes[IB_VPATTERN_MAX];
	unsigned len;
	uint32_t interval;			/* 0: one instance per block */
	unsigned noffs;				/* %o count */
	uint16_t offs[IB_VPATTERN_MAX_OFFS];	/* where each %o goes */
};

/* What a job verifies: fixed for the job. */
struct ib_verify_spec {
	enum ib_verify_type type;
	unsigned interval;	/* verify_interval; 0 = the whole block */
	const struct ib_vpattern *pattern; /* NULL: random payload */
	uint16_t thread;	/* the job's number, from 1 (fio's td number) */
	int check_seed;		/* verify_header_seed: compare rand_seed */
	unsigned hdr_ver;	/* the header written: IB_VHDR_V342's, else
				 * (0 too) 3.33's; read: either */
};

/* One block's identity: what fill writes and what check expects. */
struct ib_vblock {
	uint64_t offset;	/* file offset of the block */
	uint64_t seed;		/* random payload seed (written 0 with a pattern) */
	uint64_t numberio;	/* generation (3.33 headers: its low 16 bits) */
	int check_numberio;	/* check: compare numberio (unknown in verify_only) */
};

/* The header or data field a check found wrong. The header's are checked
 * in fio 3.33's order: magic, length, seed, offset, numberio, header crc,
 * type; then the pattern, then the checksum. */
enum ib_vfield {
	IB_VF_NONE,
	IB_VF_MAGIC,	/* not a verify header (never written, or overwritten) */
	IB_VF_VERSION,	/* 3.42 run: neither a 3.42 nor a valid 3.33 header */
	IB_VF_HDR_CRC,	/* header corrupt (torn) */
	IB_VF_TYPE,	/* written with another verify type */
	IB_VF_LENGTH,	/* written with another block size / interval */
	IB_VF_OFFSET,	/* misdirected: a block of another offset */
	IB_VF_SEED,	/* stale: another pass's payload */
	IB_VF_NUMBERIO,	/* stale: another write of this block */
	IB_VF_PATTERN,	/* a payload byte differs from verify_pattern */
	IB_VF_CHECKSUM,	/* payload differs from its checksum */
};

#define IB_VCSUM_AREA_MAX 128u

struct ib_verify_mismatch {
	enum ib_vfield field;
	enum ib_verify_type type;	/* the spec's type */
	unsigned interval;		/* index of the bad interval in the block */
	uint64_t hdr_offset;		/* its file offset */
	uint32_t hdr_len;		/* its length */
	uint32_t byte;			/* PATTERN: first bad byte, from the interval */
	unsigned hsize;			/* the interval's header + area size */
	uint64_t expected, received;	/* integer fields: what the reader
					 * wanted and what the header says;
					 * HDR_CRC: calculated, stored;
					 * PATTERN: the byte */
	unsigned csum_len;		/* CHECKSUM: bytes in the two below */
	uint8_t csum_stored[IB_VCSUM_AREA_MAX];	/* the block's area (fio's
						 * "Expected CRC") */
	uint8_t csum_data[IB_VCSUM_AREA_MAX];	/* the area the payload read
						 * gives (fio's "Received CRC") */
};

/* fio's names: 0 md5 crc64 crc32 crc32c crc32c-intel crc16 crc7 sha1 sha256
 * sha512 sha3-224 sha3-256 sha3-384 sha3-512 xxhash meta pattern null.
 * 0 or -EINVAL (d says which name). */
int ib_verify_parse(const char *name, enum ib_verify_type *type,
		    struct ib_diag *d);
/* The name fio prints ("crc32c", "pattern" for both pattern types, ...). */
const char *ib_verify_name(enum ib_verify_type type);
/* The checksum behind a type: 0 and *csum, or -EINVAL for meta, pattern,
 * null, none. */
int ib_verify_csum(enum ib_verify_type type, enum ib_csum_type *csum);
/* Header present? (not none, null, pattern-no-header) */
int ib_verify_has_header(enum ib_verify_type type);
/* Size of the checksum area after the header (0 for no checksum). */
unsigned ib_verify_area_len(enum ib_verify_type type);
/* Header + area: where the checksummed payload starts in an interval
 * (3.33's header; ib_verify_spec_hdr_size: the one s writes). */
unsigned ib_verify_hdr_size(enum ib_verify_type type);
unsigned ib_verify_spec_hdr_size(const struct ib_verify_spec *s);
/* The field's name as reports print it ("offset", "checksum", ...). */
const char *ib_verify_field_name(enum ib_vfield field);

/*
 * Is (spec, block length) usable? 0 or -EINVAL with d: interval must divide
 * len and leave room for the header and area; a pattern type needs a
 * pattern. Fill and check assume a valid pair.
 */
int ib_verify_spec_check(const struct ib_verify_spec *s, size_t len,
			 struct ib_diag *d);

int ib_vpattern_parse(const char *str, struct ib_vpattern *p,
		      struct ib_diag *d);
/* The pattern with %o set to offset, repeated from buf[0] over len bytes
 * (whole pattern copies from where the block starts); with an interval,
 * anew from each multiple of it, %o set to offset + that position. */
void ib_vpattern_fill(const struct ib_vpattern *p, uint64_t offset,
		      void *buf, size_t len);
/* The first byte in buf[from..to) that is not what ib_vpattern_fill(p,
 * offset, buf, ...) put there, or -1. */
long ib_vpattern_diff(const struct ib_vpattern *p, uint64_t offset,
		      const void *buf, size_t from, size_t to);
/* The byte ib_vpattern_fill(p, offset, ...) puts at pos. */
uint8_t ib_vpattern_at(const struct ib_vpattern *p, uint64_t offset, size_t pos);

/*
 * Fill a block of len bytes for writing: the payload (the pattern, or
 * random bytes from b->seed), then per interval the header (offset
 * b->offset + i * interval) and its checksum. No allocation, no syscall.
 */
void ib_verify_fill(const struct ib_verify_spec *s, const struct ib_vblock *b,
		    void *buf, size_t len);

/*
 * Check a block read back against what fill wrote for *b. 0 when every
 * interval is good, else -EILSEQ with *m (if not NULL) describing the first
 * bad field of the first bad interval. No allocation, no syscall.
 */
int ib_verify_check(const struct ib_verify_spec *s, const struct ib_vblock *b,
		    const void *buf, size_t len, struct ib_verify_mismatch *m);

/*
 * m as fio 3.33 words it, for the block of block_len bytes read at block_off
 * from file: fio's lines ("verify: bad header offset 0, wanted 8192 at file
 * F offset 8192, length 4096 (requested block: offset=8192, length=4096)",
 * "crc32c: verify failed at file ... / Expected CRC: ... / Received CRC:
 * ..."), each ending in a newline, "iobench: " where fio says "fio: ", and
 * without fio's io_u flags. snprintf's return.
 */
int ib_verify_describe(const struct ib_verify_mismatch *m, const char *file,
		       uint64_t block_off, size_t block_len, char *buf,
		       size_t size);

#endif
