// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/csum.h"

static const char *hex(enum ib_csum_type t, const void *buf, size_t len)
{
	static char s[2 * IB_CSUM_MAX_LEN + 1];
	uint8_t out[IB_CSUM_MAX_LEN];

	ib_csum(t, buf, len, out);
	for (unsigned i = 0; i < ib_csum_len(t); i++)
		sprintf(s + 2 * i, "%02x", out[i]);
	return s;
}

static uint64_t value(enum ib_csum_type t, const void *buf, size_t len)
{
	uint8_t out[IB_CSUM_MAX_LEN];

	ib_csum(t, buf, len, out);
	return ib_csum_value(t, out);
}

/* The catalogue check values ("123456789") of each CRC under fio's
 * conventions (csum.h): where fio skips the usual final complement the
 * value is the complement of the catalogue's. */
static void test_crc_check_values(void **state)
{
	const char *s = "123456789";

	(void)state;
	assert_int_equal(value(IB_CSUM_CRC7, s, 9), 0x75);	/* CRC-7/MMC */
	assert_int_equal(value(IB_CSUM_CRC16, s, 9), 0xbb3d);	/* CRC-16/ARC */
	/* CRC-32/POSIX register without the length suffix: ~0x765e7680 */
	assert_int_equal(value(IB_CSUM_CRC32, s, 9), 0x89a1897f);
	assert_int_equal(value(IB_CSUM_CRC32C, s, 9), (uint32_t)~0xe3069283u);
	assert_true(value(IB_CSUM_CRC64, s, 9) == 0xe9c6d914c4b8d9caull);
	/* little-endian in out */
	assert_string_equal(hex(IB_CSUM_CRC32C, s, 9), "7c6df91c");
	assert_string_equal(hex(IB_CSUM_CRC16, s, 9), "3dbb");
	/* empty input: the initial register */
	assert_int_equal(value(IB_CSUM_CRC32C, "", 0), 0xffffffffu);
	assert_int_equal(value(IB_CSUM_CRC32, "", 0), 0);
	assert_true(value(IB_CSUM_CRC64, "", 0) == 0);
}

/* Payloads fio 3.33 wrote (verify_pattern=0xdeadbeef, bs=4k, offset 0)
 * and the checksum it stored for each (tests/integration checks the rest). */
static void test_fio_written_values(void **state)
{
	uint8_t buf[4096];

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t[]){ 0xde, 0xad, 0xbe, 0xef }[i % 4];
	/* the payload starts after the 40-byte header and the area */
	assert_int_equal(value(IB_CSUM_CRC32, buf + 44, 4052), 0xd410ca5a);
	assert_int_equal(value(IB_CSUM_XXHASH, buf + 44, 4052), 0x00b4d62d);
	assert_true(value(IB_CSUM_CRC64, buf + 48, 4048) == 0xe15cd49ea3377198ull);
	assert_int_equal(value(IB_CSUM_CRC16, buf + 42, 4054), 0xfc2f);
}

/* RFC 1321, FIPS 180 and FIPS 202 examples. */
static void test_digest_vectors(void **state)
{
	(void)state;
	assert_string_equal(hex(IB_CSUM_MD5, "", 0), "d41d8cd98f00b204e9800998ecf8427e");
	assert_string_equal(hex(IB_CSUM_MD5, "abc", 3), "900150983cd24fb0d6963f7d28e17f72");
	assert_string_equal(hex(IB_CSUM_SHA1, "abc", 3),
			    "a9993e364706816aba3e25717850c26c9cd0d89d");
	assert_string_equal(hex(IB_CSUM_SHA256, "abc", 3),
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_string_equal(hex(IB_CSUM_SHA512, "abc", 3),
			    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
			    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
	assert_string_equal(hex(IB_CSUM_SHA3_224, "abc", 3),
			    "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf");
	assert_string_equal(hex(IB_CSUM_SHA3_256, "abc", 3),
			    "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
	assert_string_equal(hex(IB_CSUM_SHA3_384, "abc", 3),
			    "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
			    "98d88cea927ac7f539f1edf228376d25");
	assert_string_equal(hex(IB_CSUM_SHA3_512, "abc", 3),
			    "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
			    "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0");
	assert_string_equal(hex(IB_CSUM_SHA256, "123456789", 9),
			    "15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225");
}

/* Any split of the input into updates gives the one-shot result. */
static void test_incremental(void **state)
{
	uint8_t buf[1000], one[IB_CSUM_MAX_LEN], inc[IB_CSUM_MAX_LEN];
	static const size_t cuts[][3] = { { 0, 0, 1000 }, { 1, 63, 999 },
					  { 64, 128, 200 }, { 500, 500, 501 } };

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	for (int t = 0; t < IB_CSUM_NR; t++) {
		ib_csum(t, buf, sizeof(buf), one);
		for (size_t c = 0; c < 4; c++) {
			struct ib_csum_ctx ctx;

			ib_csum_init(&ctx, t);
			ib_csum_update(&ctx, buf, cuts[c][0]);
			ib_csum_update(&ctx, buf + cuts[c][0], cuts[c][1] - cuts[c][0]);
			ib_csum_update(&ctx, buf + cuts[c][1], cuts[c][2] - cuts[c][1]);
			ib_csum_update(&ctx, buf + cuts[c][2], sizeof(buf) - cuts[c][2]);
			ib_csum_final(&ctx, inc);
			assert_memory_equal(one, inc, ib_csum_len(t));
		}
	}
}

static void test_names(void **state)
{
	static const char *names[] = { "crc7", "crc16", "crc32", "crc32c", "crc64",
		"xxhash", "md5", "sha1", "sha256", "sha512", "sha3-224", "sha3-256",
		"sha3-384", "sha3-512" };
	static const unsigned lens[] = { 1, 2, 4, 4, 8, 4, 16, 20, 32, 64, 28, 32, 48, 64 };
	enum ib_csum_type t;

	(void)state;
	for (int i = 0; i < IB_CSUM_NR; i++) {
		assert_int_equal(ib_csum_parse(names[i], &t), 0);
		assert_int_equal(t, i);
		assert_string_equal(ib_csum_name(t), names[i]);
		assert_int_equal(ib_csum_len(t), lens[i]);
	}
	assert_int_equal(ib_csum_parse("crc32c-intel", &t), 0);
	assert_int_equal(t, IB_CSUM_CRC32C);
	assert_int_equal(ib_csum_parse("CRC32C", &t), -EINVAL);
	assert_int_equal(ib_csum_parse("meta", &t), -EINVAL);
	assert_int_equal(ib_csum_parse("", &t), -EINVAL);
	assert_null(ib_csum_name(IB_CSUM_NR));
	assert_int_equal(ib_csum_len(IB_CSUM_NR), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_check_values),
		cmocka_unit_test(test_fio_written_values),
		cmocka_unit_test(test_digest_vectors),
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
