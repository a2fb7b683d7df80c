// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verify blocks in fio 3.33's on-disk layout (verify.h): fill a block for
 * writing, check one read back, and say which field is wrong.
 */
#include <errno.h>
#include <string.h>

#include "iobench/verify.h"

static const struct {
	const char *name;
	enum ib_verify_type type;
} verify_names[] = {
	{ "0", IB_VERIFY_NONE },	  { "md5", IB_VERIFY_MD5 },
	{ "crc64", IB_VERIFY_CRC64 },	  { "crc32", IB_VERIFY_CRC32 },
	{ "crc32c", IB_VERIFY_CRC32C },	  { "crc32c-intel", IB_VERIFY_CRC32C },
	{ "crc16", IB_VERIFY_CRC16 },	  { "crc7", IB_VERIFY_CRC7 },
	{ "sha1", IB_VERIFY_SHA1 },	  { "sha256", IB_VERIFY_SHA256 },
	{ "sha512", IB_VERIFY_SHA512 },	  { "sha3-224", IB_VERIFY_SHA3_224 },
	{ "sha3-256", IB_VERIFY_SHA3_256 }, { "sha3-384", IB_VERIFY_SHA3_384 },
	{ "sha3-512", IB_VERIFY_SHA3_512 }, { "xxhash", IB_VERIFY_XXHASH },
	{ "meta", IB_VERIFY_META },	  { "pattern", IB_VERIFY_PATTERN_NO_HDR },
	{ "pattern_hdr", IB_VERIFY_PATTERN }, { "null", IB_VERIFY_NULL },
};
#define NNAMES (sizeof(verify_names) / sizeof(verify_names[0]))

static const struct {
	enum ib_csum_type csum;
	unsigned area;		/* 0: no checksum */
} verify_types[IB_VERIFY_NR] = {
	[IB_VERIFY_MD5] = { IB_CSUM_MD5, 16 },
	[IB_VERIFY_CRC64] = { IB_CSUM_CRC64, 8 },
	[IB_VERIFY_CRC32] = { IB_CSUM_CRC32, 4 },
	[IB_VERIFY_CRC32C] = { IB_CSUM_CRC32C, 4 },
	[IB_VERIFY_CRC32C_INTEL] = { IB_CSUM_CRC32C, 4 },
	[IB_VERIFY_CRC16] = { IB_CSUM_CRC16, 2 },
	[IB_VERIFY_CRC7] = { IB_CSUM_CRC7, 1 },
	[IB_VERIFY_SHA256] = { IB_CSUM_SHA256, 64 },
	[IB_VERIFY_SHA512] = { IB_CSUM_SHA512, 128 },
	[IB_VERIFY_SHA3_224] = { IB_CSUM_SHA3_224, 28 },
	[IB_VERIFY_SHA3_256] = { IB_CSUM_SHA3_256, 32 },
	[IB_VERIFY_SHA3_384] = { IB_CSUM_SHA3_384, 48 },
	[IB_VERIFY_SHA3_512] = { IB_CSUM_SHA3_512, 64 },
	[IB_VERIFY_XXHASH] = { IB_CSUM_XXHASH, 4 },
	[IB_VERIFY_SHA1] = { IB_CSUM_SHA1, 20 },
};

static const char *const field_names[] = {
	[IB_VF_NONE] = "none",		[IB_VF_MAGIC] = "magic",
	[IB_VF_VERSION] = "header version",
	[IB_VF_HDR_CRC] = "header crc",	[IB_VF_TYPE] = "verify type",
	[IB_VF_LENGTH] = "length",	[IB_VF_OFFSET] = "offset",
	[IB_VF_SEED] = "rand_seed",	[IB_VF_NUMBERIO] = "numberio",
	[IB_VF_PATTERN] = "pattern",	[IB_VF_CHECKSUM] = "checksum",
};

int ib_verify_parse(const char *name, enum ib_verify_type *type,
		    struct ib_diag *d)
{
	for (size_t i = 0; i < NNAMES; i++) {
		if (!strcmp(name, verify_names[i].name)) {
			*type = verify_names[i].type;
			return 0;
		}
	}
	return ib_diag_set(d, -EINVAL, "verify: unknown type '%s'", name);
}

const char *ib_verify_name(enum ib_verify_type type)
{
	if (type == IB_VERIFY_CRC32C_INTEL)
		return "crc32c-intel";
	for (size_t i = 0; i < NNAMES; i++)
		if (verify_names[i].type == type)
			return verify_names[i].name;
	return NULL;
}

int ib_verify_csum(enum ib_verify_type type, enum ib_csum_type *csum)
{
	if ((unsigned)type >= IB_VERIFY_NR || !verify_types[type].area)
		return -EINVAL;
	*csum = verify_types[type].csum;
	return 0;
}

int ib_verify_has_header(enum ib_verify_type type)
{
	return type != IB_VERIFY_NONE && type != IB_VERIFY_NULL &&
	       type != IB_VERIFY_PATTERN_NO_HDR && type < IB_VERIFY_NR;
}

unsigned ib_verify_area_len(enum ib_verify_type type)
{
	return (unsigned)type < IB_VERIFY_NR ? verify_types[type].area : 0;
}

unsigned ib_verify_hdr_size(enum ib_verify_type type)
{
	if (!ib_verify_has_header(type))
		return 0;
	return IB_VHDR_SIZE + ib_verify_area_len(type);
}

unsigned ib_verify_spec_hdr_size(const struct ib_verify_spec *s)
{
	unsigned hs = ib_verify_hdr_size(s->type);

	return hs && s->hdr_ver == IB_VHDR_V342 ?
		hs + IB_VHDR342_SIZE - IB_VHDR_SIZE : hs;
}

const char *ib_verify_field_name(enum ib_vfield field)
{
	if ((unsigned)field >= sizeof(field_names) / sizeof(field_names[0]))
		return NULL;
	return field_names[field];
}

int ib_verify_spec_check(const struct ib_verify_spec *s, size_t len,
			 struct ib_diag *d)
{
	size_t iv = s->interval ? s->interval : len;

	if ((unsigned)s->type >= IB_VERIFY_NR)
		return ib_diag_set(d, -EINVAL, "verify: bad type %d", s->type);
	if (!iv || len % iv)
		return ib_diag_set(d, -EINVAL,
				   "verify_interval %zu must divide the block size %zu",
				   iv, len);
	if (iv < ib_verify_spec_hdr_size(s) || iv > UINT32_MAX)
		return ib_diag_set(d, -EINVAL,
				   "verify_interval %zu: a %s header takes %u bytes",
				   iv, ib_verify_name(s->type),
				   ib_verify_spec_hdr_size(s));
	if ((s->type == IB_VERIFY_PATTERN ||
	     s->type == IB_VERIFY_PATTERN_NO_HDR) && (!s->pattern || !s->pattern->len))
		return ib_diag_set(d, -EINVAL, "verify=%s needs verify_pattern",
				   ib_verify_name(s->type));
	return 0;
}
