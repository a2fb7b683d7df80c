// SPDX-License-Identifier: GPL-2.0-only
/*
 * One verify block: fill it for writing, check it read back (layouts of fio
 * 3.33 and 3.42 and the fio 3.33 digest forms in verify.h). Pure functions over a buffer: no
 * allocation, no syscall, no printing (the per-I/O path calls them).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "iobench/rand.h"
#include "iobench/verify.h"

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Where one header layout keeps its fields (verify.h). */
struct vlayout {
	unsigned size, crc_off, nio_off, nio_len, thread_off;
};

static const struct vlayout L333 = { IB_VHDR_SIZE, IB_VHDR_CRC_OFF, 34, 2, 32 };
static const struct vlayout L342 = { IB_VHDR342_SIZE, IB_VHDR342_CRC_OFF, 32, 8, 40 };

static uint32_t hdr_crc(const uint8_t *hdr, const struct vlayout *l)
{
	uint8_t out[4];

	ib_csum(IB_CSUM_CRC32C, hdr, l->crc_off, out);
	return (uint32_t)get_le(out, 4);
}

static int crc_ok(const uint8_t *iv, const struct vlayout *l)
{
	return get_le(iv + l->crc_off, 4) == hdr_crc(iv, l);
}

/* The layout of the header at iv (an interval of ivlen bytes): 3.42's
 * when its version byte and crc say so, else 3.33's; a torn header with
 * 3.42's version byte (no 3.33 type has that value) is read as 3.42's. */
static const struct vlayout *layout_of(const uint8_t *iv, size_t ivlen)
{
	if (ivlen >= IB_VHDR342_SIZE && iv[2] == IB_VHDR342_VERSION &&
	    (crc_ok(iv, &L342) || !crc_ok(iv, &L333)))
		return &L342;
	return &L333;
}

/* The random payload of a seed is ib_splitmix64()'s (iobench's, not fio's:
 * fio's payload is covered by its checksum and never regenerated here). */
static void fill_random(uint64_t seed, uint8_t *p, size_t len)
{
	uint64_t x = seed, z;

	for (; len >= 8; p += 8, len -= 8) {
		z = ib_splitmix64(&x);
		memcpy(p, &z, 8);	/* a fixed size: one store */
	}
	z = ib_splitmix64(&x);
	memcpy(p, &z, len);
}

/*
 * fio 3.33's sha256 area: SHA-256's compression over the data padded with a
 * little-endian bit count; the area is that final padded block with its
 * first 8 bytes replaced by the low byte of each state word.
 */
static void sha256_fio(const uint8_t *data, size_t n, uint8_t *area)
{
	struct sha256_ctx c;
	uint8_t tail[2 * 64];
	size_t r = n % 64, padlen = (r < 56 ? 56 - r : 120 - r) + 8;
	size_t tlen = r + padlen;	/* 64 or 128 */

	memcpy(tail, data + n - r, r);
	memset(tail + r, 0, padlen);
	tail[r] = 0x80;
	put64(tail + tlen - 8, (uint64_t)n << 3);
	sha256_init(&c);
	sha256_update(&c, n - r, data);
	sha256_update(&c, tlen, tail);
	memcpy(area, tail + tlen - 64, 64);
	for (int i = 0; i < 8; i++)
		area[i] = (uint8_t)c.state[i];
}

/* The standard area as iobench writes it: the digest (sha1 as fio: words
 * little-endian), zero-padded to the area's size. */
static void area_std(enum ib_verify_type t, const uint8_t *data, size_t n,
		     uint8_t *area)
{
	enum ib_csum_type cs;
	unsigned alen = ib_verify_area_len(t);

	memset(area, 0, alen);
	if (ib_verify_csum(t, &cs))
		return;
	ib_csum(cs, data, n, area);
	if (t == IB_VERIFY_SHA1) {
		for (int w = 0; w < 5; w++) {
			uint8_t *q = area + 4 * w, a = q[0], b = q[1];

			q[0] = q[3], q[1] = q[2], q[2] = b, q[3] = a;
		}
	}
}

static int all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/*
 * Does the stored area match the data? exp gets the area the data gives,
 * in the stored area's form: iobench's (a digest padded with zeros) or, for
 * sha256 and sha512, fio 3.33's when the padding is not zero.
 */
static int area_ok(enum ib_verify_type t, const uint8_t *data, size_t n,
		   const uint8_t *stored, uint8_t *exp)
{
	unsigned alen = ib_verify_area_len(t);
	size_t r = n % 128;

	area_std(t, data, n, exp);
	if (!memcmp(exp, stored, alen))
		return 1;
	if (t == IB_VERIFY_SHA256 && !all_zero(stored + 32, 32)) {
		sha256_fio(data, n, exp);
		return !memcmp(exp, stored, 64);
	}
	/* fio's sha512: the unhashed tail; too short a tail proves nothing */
	if (t == IB_VERIFY_SHA512 && r >= 16 && !all_zero(stored + 64, 64)) {
		memcpy(exp, stored, 128);
		memcpy(exp, data + n - r, r);
		return !memcmp(exp, stored, 128);
	}
	return 0;
}

static void fill_interval(const struct ib_verify_spec *s,
			  const struct ib_vblock *b, uint8_t *iv, size_t ivlen,
			  unsigned i)
{
	unsigned hs = ib_verify_spec_hdr_size(s);
	const struct vlayout *l = s->hdr_ver == IB_VHDR_V342 ? &L342 : &L333;

	put16(iv, IB_VHDR_MAGIC);
	if (l == &L342) {
		iv[2] = IB_VHDR342_VERSION;
		iv[3] = (uint8_t)s->type;
		put16(iv + 42, 0);
		put64(iv + 32, b->numberio);
	} else {
		put16(iv + 2, (uint16_t)s->type);
		put16(iv + 34, (uint16_t)b->numberio);
	}
	put32(iv + 4, (uint32_t)ivlen);
	put64(iv + 8, s->pattern ? 0 : b->seed);
	put64(iv + 16, b->offset + (uint64_t)i * ivlen);
	put32(iv + 24, 0);
	put32(iv + 28, 0);
	put16(iv + l->thread_off, s->thread);
	put32(iv + l->crc_off, hdr_crc(iv, l));
	if (ib_verify_area_len(s->type))
		area_std(s->type, iv + hs, ivlen - hs, iv + l->size);
}

void ib_verify_fill(const struct ib_verify_spec *s, const struct ib_vblock *b,
		    void *buf, size_t len)
{
	size_t ivlen = s->interval ? s->interval : len;
	uint8_t *p = buf;

	if (s->pattern)
		ib_vpattern_fill(s->pattern, b->offset, p, len);
	else
		fill_random(b->seed, p, len);
	if (!ib_verify_has_header(s->type))
		return;
	for (size_t off = 0; off < len; off += ivlen)
		fill_interval(s, b, p + off, ivlen, (unsigned)(off / ivlen));
}

static enum ib_vfield bad(struct ib_verify_mismatch *m, enum ib_vfield f,
			  uint64_t exp, uint64_t got)
{
	m->field = f;
	m->expected = exp;
	m->received = got;
	return f;
}

/*
 * A 3.42 run's header that is neither a 3.42 one nor a sound 3.33 one:
 * fio 3.42 names its version byte first.
 */
static int bad_version(const struct ib_verify_spec *s, const uint8_t *iv,
		       const struct vlayout *l)
{
	return s->hdr_ver == IB_VHDR_V342 && l == &L333 &&
	       iv[2] != IB_VHDR342_VERSION && !crc_ok(iv, l);
}

/*
 * The header's fields in fio's order (its messages name the first bad
 * one): magic, (3.42: version), length, rand_seed, offset, numberio, the
 * header crc, then the verify type.
 */
static enum ib_vfield check_hdr(const struct ib_verify_spec *s,
				const struct ib_vblock *b, const uint8_t *iv,
				const struct vlayout *l,
				struct ib_verify_mismatch *m)
{
	uint16_t type = l == &L342 ? iv[3] : (uint16_t)get_le(iv + 2, 2);
	int same_type = type == s->type ||
			(type == IB_VERIFY_CRC32C_INTEL && s->type == IB_VERIFY_CRC32C);
	uint64_t nio = get_le(iv + l->nio_off, (int)l->nio_len);
	uint64_t want = l == &L342 ? b->numberio : (uint16_t)b->numberio;

	if (get_le(iv, 2) != IB_VHDR_MAGIC)
		return bad(m, IB_VF_MAGIC, IB_VHDR_MAGIC, get_le(iv, 2));
	if (bad_version(s, iv, l))
		return bad(m, IB_VF_VERSION, IB_VHDR342_VERSION, iv[2]);
	if (get_le(iv + 4, 4) != m->hdr_len)
		return bad(m, IB_VF_LENGTH, m->hdr_len, get_le(iv + 4, 4));
	if (s->check_seed && !s->pattern && get_le(iv + 8, 8) != b->seed)
		return bad(m, IB_VF_SEED, b->seed, get_le(iv + 8, 8));
	if (get_le(iv + 16, 8) != m->hdr_offset)
		return bad(m, IB_VF_OFFSET, m->hdr_offset, get_le(iv + 16, 8));
	if (b->check_numberio && nio != want)
		return bad(m, IB_VF_NUMBERIO, want, nio);
	if (!crc_ok(iv, l))
		return bad(m, IB_VF_HDR_CRC, hdr_crc(iv, l),
			   get_le(iv + l->crc_off, 4));
	if (!same_type)
		return bad(m, IB_VF_TYPE, (uint64_t)s->type, type);
	return IB_VF_NONE;
}

/*
 * A bad pattern byte's position as fio counts it (vdescribe.c prints it
 * less the header): from the interval's start, or with
 * verify_pattern_interval from the start of the copy it is in, when that
 * starts after the header (fio checks each copy on its own).
 */
static uint32_t pattern_byte(const struct ib_vpattern *p, size_t at, size_t off,
			     unsigned int hs)
{
	size_t seg = p->interval ? at - at % p->interval : 0;

	if (seg > off + hs)
		return (uint32_t)(at - seg + hs);
	return (uint32_t)(at - off);
}

static enum ib_vfield check_interval(const struct ib_verify_spec *s,
				     const struct ib_vblock *b,
				     const uint8_t *blk, size_t off,
				     struct ib_verify_mismatch *m)
{
	const uint8_t *iv = blk + off;
	size_t ivlen = m->hdr_len;
	const struct vlayout *l = layout_of(iv, ivlen);
	unsigned hs = ib_verify_hdr_size(s->type), alen;

	if (hs)
		hs += l->size - IB_VHDR_SIZE;
	m->hsize = hs;
	if (hs && check_hdr(s, b, iv, l, m))
		return m->field;
	if (s->pattern) {
		/* pattern positions count from the block's start */
		long at = ib_vpattern_diff(s->pattern, b->offset, blk,
					   off + hs, off + ivlen);

		if (at >= 0) {
			m->byte = pattern_byte(s->pattern, (size_t)at, off, hs);
			return bad(m, IB_VF_PATTERN,
				   ib_vpattern_at(s->pattern, b->offset, (size_t)at),
				   blk[at]);
		}
	}
	alen = ib_verify_area_len(s->type);
	if (alen && !area_ok(s->type, iv + hs, ivlen - hs, iv + l->size,
			     m->csum_data)) {
		m->csum_len = alen;
		memcpy(m->csum_stored, iv + l->size, alen);
		return bad(m, IB_VF_CHECKSUM, 0, 0);
	}
	return IB_VF_NONE;
}

int ib_verify_check(const struct ib_verify_spec *s, const struct ib_vblock *b,
		    const void *buf, size_t len, struct ib_verify_mismatch *m)
{
	struct ib_verify_mismatch local;
	size_t ivlen = s->interval ? s->interval : len;
	const uint8_t *p = buf;

	if (!m)
		m = &local;
	if (s->type == IB_VERIFY_NONE || s->type == IB_VERIFY_NULL)
		return 0;
	for (size_t off = 0; off < len; off += ivlen) {
		memset(m, 0, offsetof(struct ib_verify_mismatch, csum_stored));
		m->type = s->type;
		m->interval = (unsigned)(off / ivlen);
		m->hdr_offset = b->offset + off;
		m->hdr_len = (uint32_t)ivlen;
		if (check_interval(s, b, p, off, m))
			return -EILSEQ;
	}
	return 0;
}
