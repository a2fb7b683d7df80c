// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/verify.h"

#define BS 4096

static uint8_t blk[BS];

static void unhex(const char *s, uint8_t *out)
{
	for (size_t i = 0; s[2 * i]; i++) {
		unsigned v;

		sscanf(s + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void test_names(void **state)
{
	struct ib_diag d = { "" };
	enum ib_verify_type t;

	(void)state;
	assert_int_equal(ib_verify_parse("crc32c-intel", &t, &d), 0);
	assert_int_equal(t, IB_VERIFY_CRC32C);
	assert_int_equal(ib_verify_parse("pattern", &t, &d), 0);
	assert_int_equal(t, IB_VERIFY_PATTERN_NO_HDR);
	assert_int_equal(ib_verify_parse("meta", &t, &d), 0);
	assert_int_equal(t, 1);
	assert_int_equal(ib_verify_parse("xxhash", &t, &d), 0);
	assert_int_equal(t, 15);
	assert_int_equal(ib_verify_parse("0", &t, &d), 0);
	assert_int_equal(t, IB_VERIFY_NONE);
	assert_int_equal(ib_verify_parse("crc33", &t, &d), -EINVAL);
	assert_string_equal(d.msg, "verify: unknown type 'crc33'");
	/* fio 3.42's pattern_hdr: the header, then the pattern (the type
	 * verify_pattern alone implies); its own name, not pattern's */
	assert_int_equal(ib_verify_parse("pattern_hdr", &t, &d), 0);
	assert_int_equal(t, IB_VERIFY_PATTERN);
	assert_string_equal(ib_verify_name(IB_VERIFY_PATTERN), "pattern_hdr");
	assert_string_equal(ib_verify_name(IB_VERIFY_PATTERN_NO_HDR), "pattern");
	assert_string_equal(ib_verify_name(IB_VERIFY_SHA3_384), "sha3-384");
	assert_string_equal(ib_verify_field_name(IB_VF_OFFSET), "offset");
	assert_string_equal(ib_verify_field_name(IB_VF_CHECKSUM), "checksum");
	/* fio's vhdr_* sizes after the 40-byte header */
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_CRC32C), 44);
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_SHA256), 104);
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_SHA512), 168);
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_SHA1), 60);
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_CRC7), 41);
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_META), 40);
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_PATTERN), 40);
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_PATTERN_NO_HDR), 0);
	assert_int_equal(ib_verify_hdr_size(IB_VERIFY_NULL), 0);
}

static void pat(const char *s, const char *want_hex, unsigned noffs)
{
	struct ib_diag d = { "" };
	struct ib_vpattern p;
	uint8_t want[IB_VPATTERN_MAX];

	assert_int_equal(ib_vpattern_parse(s, &p, &d), 0);
	unhex(want_hex, want);
	assert_int_equal(p.len, strlen(want_hex) / 2);
	assert_memory_equal(p.bytes, want, p.len);
	assert_int_equal(p.noffs, noffs);
}

/* Each as fio 3.33 wrote it on this machine (tests/integration too). */
static void test_pattern_parse(void **state)
{
	static const char *bad[] = { "", "0x", "\"\"", "\"a", "0xabz",
		"\"ab\" 0x01", "\"ab\",0x01", "2147483648", "'ab'", "%x" };
	struct ib_diag d = { "" };
	struct ib_vpattern p;

	(void)state;
	pat("0xdeadbeef", "deadbeef", 0);
	pat("0x123", "0123", 0);
	pat("7", "07", 0);
	pat("0", "00", 0);
	pat("300", "2c01", 0);
	pat("70000", "701101", 0);
	pat("-3", "fdffffff", 0);
	pat("\"xy\"", "7879", 0);
	pat("0xab%o\"xy\"-3", "ab00000000000000007879fdffffff", 1);
	pat("%o%o", "00000000000000000000000000000000", 2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ib_vpattern_parse(bad[i], &p, &d), -EINVAL);
	assert_string_equal(d.msg, "verify_pattern: bad element at '%x' in '%x'");
}

/*
 * fio 3.42's bytes 992..1011 of a block at 0, verify_pattern=%o"ab"
 * verify_pattern_interval=1000: the pattern anew at 1000, %o = 1000.
 */
static void test_pattern_interval(void **state)
{
	static uint8_t once[BS];
	struct ib_diag d = { "" };
	struct ib_vpattern p;
	uint8_t want[20];

	(void)state;
	assert_int_equal(ib_vpattern_parse("%o\"ab\"", &p, &d), 0);
	p.interval = 1000;
	ib_vpattern_fill(&p, 0, blk, BS);
	unhex("000000000000""6162""e803000000000000""6162""e803", want);
	assert_memory_equal(blk + 992, want, 20);
	unhex("a00f000000000000""6162", want);	/* the last copy, at 4000 */
	assert_memory_equal(blk + 4000, want, 10);
	assert_int_equal(ib_vpattern_at(&p, 0, 1000), 0xe8);
	assert_int_equal(ib_vpattern_at(&p, 0, 4091), 0x0f);
	assert_int_equal(ib_vpattern_at(&p, 0, 999), 0x62);
	assert_int_equal(ib_vpattern_diff(&p, 0, blk, 0, BS), -1);
	assert_int_equal(ib_vpattern_diff(&p, 0, blk, 1500, BS), -1);
	blk[1003] ^= 0x5a;
	assert_int_equal(ib_vpattern_diff(&p, 0, blk, 0, BS), 1003);
	assert_int_equal(ib_vpattern_diff(&p, 0, blk, 1004, BS), -1);
	/* an interval of the block or more: one copy, as without */
	p.interval = BS;
	ib_vpattern_fill(&p, 8192, blk, BS);
	p.interval = 0;
	ib_vpattern_fill(&p, 8192, once, BS);
	assert_memory_equal(blk, once, BS);
}

/* fio's bytes 40..79 of the block at 4096, verify_pattern=0xab%o"xy"-3 */
static void test_pattern_fill(void **state)
{
	struct ib_diag d = { "" };
	struct ib_vpattern p;
	uint8_t want[40];

	(void)state;
	assert_int_equal(ib_vpattern_parse("0xab%o\"xy\"-3", &p, &d), 0);
	ib_vpattern_fill(&p, 4096, blk, BS);
	unhex("79fdffffffab001000000000000078"
	      "79fdffffffab00100000000000007879fdff", want);
	assert_memory_equal(blk + 40, want, 33);
	assert_int_equal(ib_vpattern_at(&p, 4096, 46), 0x00);
	assert_int_equal(ib_vpattern_at(&p, 4096, 47), 0x10);
	assert_int_equal(ib_vpattern_diff(&p, 4096, blk, 0, BS), -1);
	blk[1000] ^= 1;
	assert_int_equal(ib_vpattern_diff(&p, 4096, blk, 0, BS), 1000);
	assert_int_equal(ib_vpattern_diff(&p, 4096, blk, 1001, BS), -1);
	/* an empty (unparsed) pattern fills zeros, and nothing matches it */
	memset(&p, 0, sizeof(p));
	ib_vpattern_fill(&p, 0, blk, 16);
	assert_memory_equal(blk, (uint8_t[16]){ 0 }, 16);
	assert_int_equal(ib_vpattern_diff(&p, 0, blk, 3, 16), 3);
	assert_int_equal(ib_vpattern_parse("0xab%o\"xy\"-3", &p, &d), 0);
	/* shorter than one copy */
	ib_vpattern_fill(&p, 4096, blk, 3);
	assert_memory_equal(blk, "\xab\x00\x10", 3);
}

static struct ib_vblock id(uint64_t off, uint64_t seed, uint16_t nio)
{
	return (struct ib_vblock){ .offset = off, .seed = seed, .numberio = nio,
				   .check_numberio = 1 };
}

/* The header bytes fill writes (fio's layout, verify.h). */
static void test_header_layout(void **state)
{
	struct ib_verify_spec s = { .type = IB_VERIFY_CRC32C, .thread = 3 };
	struct ib_vblock b = id(0x12345000, 0x1122334455667788ull, 7);
	uint8_t crc[4];

	(void)state;
	ib_verify_fill(&s, &b, blk, BS);
	assert_int_equal(le(blk, 2), 0xacca);
	assert_int_equal(le(blk + 2, 2), 5);
	assert_int_equal(le(blk + 4, 4), BS);
	assert_true(le(blk + 8, 8) == 0x1122334455667788ull);
	assert_true(le(blk + 16, 8) == 0x12345000);
	assert_true(le(blk + 24, 8) == 0);
	assert_int_equal(le(blk + 32, 2), 3);
	assert_int_equal(le(blk + 34, 2), 7);
	ib_csum(IB_CSUM_CRC32C, blk, 36, crc);
	assert_memory_equal(blk + 36, crc, 4);
	ib_csum(IB_CSUM_CRC32C, blk + 44, BS - 44, crc);
	assert_memory_equal(blk + 40, crc, 4);
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, NULL), 0);
}

/* fill then check is clean for every type, whole blocks and intervals */
static void test_roundtrip(void **state)
{
	struct ib_diag d = { "" };
	struct ib_vpattern p;

	(void)state;
	assert_int_equal(ib_vpattern_parse("0x5a%o", &p, &d), 0);
	for (int t = 0; t < IB_VERIFY_NR; t++) {
		for (unsigned iv = 0; iv <= 1024; iv += 512) {
			struct ib_verify_spec s = { .type = t, .interval = iv,
						    .thread = 1, .check_seed = 1 };
			struct ib_vblock b = id(8192, 99, 2);

			if (t == IB_VERIFY_PATTERN || t == IB_VERIFY_PATTERN_NO_HDR)
				s.pattern = &p;
			assert_int_equal(ib_verify_spec_check(&s, BS, &d), 0);
			ib_verify_fill(&s, &b, blk, BS);
			assert_int_equal(ib_verify_check(&s, &b, blk, BS, NULL), 0);
		}
	}
}

static void test_spec_check(void **state)
{
	struct ib_diag d = { "" };
	struct ib_verify_spec s = { .type = IB_VERIFY_SHA512, .interval = 1000 };

	(void)state;
	assert_int_equal(ib_verify_spec_check(&s, BS, &d), -EINVAL);
	assert_string_equal(d.msg, "verify_interval 1000 must divide the block size 4096");
	s.interval = 128;
	assert_int_equal(ib_verify_spec_check(&s, BS, &d), -EINVAL);
	assert_string_equal(d.msg, "verify_interval 128: a sha512 header takes 168 bytes");
	s.interval = 256;
	assert_int_equal(ib_verify_spec_check(&s, BS, &d), 0);
	s.type = IB_VERIFY_PATTERN_NO_HDR;
	assert_int_equal(ib_verify_spec_check(&s, BS, &d), -EINVAL);
	assert_string_equal(d.msg, "verify=pattern needs verify_pattern");
}

/* Rewrite the header crc after editing a field (a consistent but wrong header). */
static void reseal(uint8_t *iv)
{
	ib_csum(IB_CSUM_CRC32C, iv, 36, iv + 36);
}

static void expect(const struct ib_verify_spec *s, const struct ib_vblock *b,
		   enum ib_vfield f, uint64_t exp, uint64_t got, unsigned iv)
{
	struct ib_verify_mismatch m;

	assert_int_equal(ib_verify_check(s, b, blk, BS, &m), -EILSEQ);
	assert_string_equal(ib_verify_field_name(m.field), ib_verify_field_name(f));
	assert_true(m.expected == exp);
	assert_true(m.received == got);
	assert_int_equal(m.interval, iv);
}

static void test_mismatch_header(void **state)
{
	struct ib_verify_spec s = { .type = IB_VERIFY_CRC32C, .thread = 1,
				    .check_seed = 1 };
	struct ib_vblock b = id(4096, 5, 9);
	uint8_t crc[4];
	uint64_t stored;

	(void)state;
	ib_verify_fill(&s, &b, blk, BS);
	blk[0] ^= 0xff;				/* never written */
	expect(&s, &b, IB_VF_MAGIC, 0xacca, 0xac35, 0);
	ib_verify_fill(&s, &b, blk, BS);
	stored = le(blk + 36, 4);
	blk[25] ^= 1;				/* torn header (a time byte) */
	ib_csum(IB_CSUM_CRC32C, blk, 36, crc);
	expect(&s, &b, IB_VF_HDR_CRC, le(crc, 4), stored, 0);
	ib_verify_fill(&s, &b, blk, BS);
	blk[2] = IB_VERIFY_MD5;
	reseal(blk);
	expect(&s, &b, IB_VF_TYPE, IB_VERIFY_CRC32C, IB_VERIFY_MD5, 0);
	ib_verify_fill(&s, &b, blk, BS);
	blk[5] = 0x02;				/* len 4096 -> 512 */
	reseal(blk);
	expect(&s, &b, IB_VF_LENGTH, 4096, 512, 0);
	/* fio's order: a bad offset is named before the header crc */
	ib_verify_fill(&s, &b, blk, BS);
	blk[17] ^= 0x5a;
	expect(&s, &b, IB_VF_OFFSET, 4096, 4096 ^ (0x5a << 8), 0);
}

static void test_mismatch_stale(void **state)
{
	struct ib_verify_spec s = { .type = IB_VERIFY_XXHASH, .thread = 1,
				    .check_seed = 1 };
	struct ib_vblock b = id(4096, 5, 9), w;

	(void)state;
	w = id(8192, 5, 9);			/* misdirected: block 8192 here */
	ib_verify_fill(&s, &w, blk, BS);
	expect(&s, &b, IB_VF_OFFSET, 4096, 8192, 0);
	w = id(4096, 6, 9);			/* another pass's payload */
	ib_verify_fill(&s, &w, blk, BS);
	expect(&s, &b, IB_VF_SEED, 5, 6, 0);
	s.check_seed = 0;			/* verify_header_seed=0 */
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, NULL), 0);
	w = id(4096, 5, 8);			/* an earlier write */
	ib_verify_fill(&s, &w, blk, BS);
	expect(&s, &b, IB_VF_NUMBERIO, 9, 8, 0);
	b.check_numberio = 0;			/* verify_only: unknown */
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, NULL), 0);
}

static void test_mismatch_data(void **state)
{
	struct ib_verify_spec s = { .type = IB_VERIFY_CRC32C, .interval = 1024,
				    .thread = 1 };
	struct ib_vblock b = id(4096, 5, 9);
	struct ib_verify_mismatch m;
	struct ib_diag d = { "" };
	struct ib_vpattern p;
	uint8_t crc[4];

	(void)state;
	ib_verify_fill(&s, &b, blk, BS);
	blk[2048 + 500] ^= 0x10;		/* interval 2's payload */
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), -EILSEQ);
	assert_int_equal(m.field, IB_VF_CHECKSUM);
	assert_int_equal(m.interval, 2);
	assert_true(m.hdr_offset == 4096 + 2048);
	assert_int_equal(m.hdr_len, 1024);
	assert_int_equal(m.csum_len, 4);
	assert_memory_equal(m.csum_stored, blk + 2048 + 40, 4);
	ib_csum(IB_CSUM_CRC32C, blk + 2048 + 44, 1024 - 44, crc);
	assert_memory_equal(m.csum_data, crc, 4);

	assert_int_equal(ib_vpattern_parse("0x5a%o", &p, &d), 0);
	s = (struct ib_verify_spec){ .type = IB_VERIFY_PATTERN, .pattern = &p,
				     .thread = 1 };
	ib_verify_fill(&s, &b, blk, BS);
	blk[100] = 0x77;			/* pattern index 100 % 9 = 1 */
	expect(&s, &b, IB_VF_PATTERN, 0x00, 0x77, 0);
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), -EILSEQ);
	assert_int_equal(m.byte, 100);
	blk[100] = 0x00;			/* the offset's low byte again */
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, NULL), 0);
	s.type = IB_VERIFY_NULL;
	memset(blk, 0, BS);
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, NULL), 0);
}

/* Blocks fio 3.33 wrote (bs=4k, offset 0, verify_pattern=0xdeadbeef): the
 * pattern, then fio's header and checksum area over it. */
static void fio_block(const char *hdr, const char *area, struct ib_vpattern *p)
{
	struct ib_diag d = { "" };

	assert_int_equal(ib_vpattern_parse("0xdeadbeef", p, &d), 0);
	ib_vpattern_fill(p, 0, blk, BS);
	unhex(hdr, blk);
	unhex(area, blk + 40);
}

static void fio_case(enum ib_verify_type t, const char *hdr, const char *area)
{
	struct ib_verify_spec s = { .type = t, .thread = 1 };
	struct ib_vblock b = { .offset = 0 };
	struct ib_verify_mismatch m;
	struct ib_vpattern p;

	fio_block(hdr, area, &p);
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), 0);
	s.pattern = &p;
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), 0);
	s.pattern = NULL;
	blk[BS - 1] ^= 1;
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), -EILSEQ);
	assert_int_equal(m.field, IB_VF_CHECKSUM);
	b.offset = 4096;
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), -EILSEQ);
	assert_int_equal(m.field, IB_VF_OFFSET);
}

static void test_fio_blocks(void **state)
{
	(void)state;
	fio_case(IB_VERIFY_CRC64, "caac0300001000000000000000000000000000000000000000000000"
		 "4e265a07010000008603b10d", "987137a39ed45ce1");
	fio_case(IB_VERIFY_CRC32, "caac0400001000000000000000000000000000000000000000000000"
		 "7b96171a010000000c867d64", "5aca10d4");
	fio_case(IB_VERIFY_CRC16, "caac0700001000000000000000000000000000000000000000000000"
		 "1c18ce07010000006dcabb0b", "2ffc");
	fio_case(IB_VERIFY_XXHASH, "caac0f00001000000000000000000000000000000000000000000000"
		 "4591de06010000007034074c", "2dd6b400");
	/* fio's sha256 form: state low bytes over the padded last block */
	fio_case(IB_VERIFY_SHA256, "caac0900001000000000000000000000000000000000000000000000"
		 "2dd88a1a01000000a78e8f90",
		 "f9063f9b5d0344aedeadbeefdeadbeefdeadbeefdeadbeef80"
		 "00000000000000000000000000000000000000000000000000000000000000"
		 "c07c000000000000");
	/* fio's sha512 form: the payload's last 88 bytes, unhashed */
	fio_case(IB_VERIFY_SHA512, "caac0a00001000000000000000000000000000000000000000000000"
		 "dc88182301000000c6344175", "");
}

/* verify=meta: fio's header alone (random payload, never checked) */
static void test_fio_meta(void **state)
{
	struct ib_verify_spec s = { .type = IB_VERIFY_META, .thread = 1 };
	struct ib_vblock b = { .offset = 0 };
	struct ib_verify_mismatch m;

	(void)state;
	memset(blk, 0x33, BS);
	unhex("caac0100001000003c5409c501cca400000000000000000000000000"
	      "00b7191101000000d9152b75", blk);
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), 0);
	s.check_seed = 1;
	b.seed = 0xa4cc01c509543cull;
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), 0);
	b.seed = 1;
	assert_int_equal(ib_verify_check(&s, &b, blk, BS, &m), -EILSEQ);
	assert_int_equal(m.field, IB_VF_SEED);
	assert_true(m.received == 0xa4cc01c509543cull);
}

static const char *describe(const struct ib_verify_mismatch *m, uint64_t off)
{
	static char text[1024];
	int n = ib_verify_describe(m, "/f", off, BS, text, sizeof(text));

	assert_int_equal(n, strlen(text));
	return text;
}

/* fio 3.33's words for the same failures (its ", flags=8" left out) */
static void test_describe(void **state)
{
	struct ib_verify_spec s = { .type = IB_VERIFY_CRC32C, .thread = 1 };
	struct ib_vblock b = id(0, 1, 0), w = id(8192, 1, 0);
	struct ib_verify_mismatch m;
	char small[10];

	(void)state;
	ib_verify_fill(&s, &b, blk, BS);		/* block 0 at 8192 */
	assert_int_equal(ib_verify_check(&s, &w, blk, BS, &m), -EILSEQ);
	assert_string_equal(describe(&m, 8192),
		"verify: bad header offset 0, wanted 8192 at file /f offset 8192, "
		"length 4096 (requested block: offset=8192, length=4096)\n");
	ib_verify_fill(&s, &w, blk, BS);
	blk[0] = 0;
	assert_int_equal(ib_verify_check(&s, &w, blk, BS, &m), -EILSEQ);
	assert_string_equal(describe(&m, 8192),
		"verify: bad magic header ac00, wanted acca at file /f offset 8192, "
		"length 4096 (requested block: offset=8192, length=4096)\n");
	memset(&m, 0, sizeof(m));
	m = (struct ib_verify_mismatch){ .field = IB_VF_CHECKSUM, .csum_len = 4,
		.type = IB_VERIFY_CRC32C, .hdr_offset = 4096, .hdr_len = 4096 };
	unhex("0b5c4cb7", m.csum_stored);
	unhex("3783c0c0", m.csum_data);
	assert_string_equal(describe(&m, 4096),
		"crc32c: verify failed at file /f offset 4096, length 4096 "
		"(requested block: offset=4096, length=4096)\n"
		"       Expected CRC: 0b5c4cb7\n       Received CRC: 3783c0c0\n");
	m = (struct ib_verify_mismatch){ .field = IB_VF_PATTERN, .byte = 3000,
		.type = IB_VERIFY_PATTERN, .expected = 0xde, .received = 0x84,
		.hdr_offset = 8192, .hdr_len = 4096 };
	assert_string_equal(describe(&m, 8192),
		"iobench: got pattern '84', wanted 'de'. Bad bits 4\n"
		"iobench: bad pattern block offset 2960\n"
		"pattern: verify failed at file /f offset 8192, length 4096 "
		"(requested block: offset=8192, length=4096)\n");
	m = (struct ib_verify_mismatch){ .field = IB_VF_TYPE, .expected = 18,
		.received = 17 };
	assert_string_equal(describe(&m, 0),
			    "iobench: verify type mismatch (17 media, 18 given)\n");
	assert_int_equal(ib_verify_describe(&m, "/f", 0, BS, small, sizeof(small)), 51);
	assert_string_equal(small, "iobench: ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_pattern_parse),
		cmocka_unit_test(test_pattern_fill),
		cmocka_unit_test(test_pattern_interval),
		cmocka_unit_test(test_header_layout),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_spec_check),
		cmocka_unit_test(test_mismatch_header),
		cmocka_unit_test(test_mismatch_stale),
		cmocka_unit_test(test_mismatch_data),
		cmocka_unit_test(test_fio_blocks),
		cmocka_unit_test(test_fio_meta),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
