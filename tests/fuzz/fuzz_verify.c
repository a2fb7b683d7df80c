// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: verify blocks read back from a disk are untrusted. The
 * input's first line is a verify_pattern (parsed, and used when it parses);
 * the first byte after it picks the verify type and interval, the rest is a
 * 1 KiB block (zero-padded) checked as if read at offset 0, its mismatch
 * described. Then the same block is filled and must check clean.
 */
#include <stdint.h>
#include <string.h>
#include "iobench/verify.h"

#define BLK 1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_one(const struct ib_verify_spec *s, uint8_t *blk)
{
	struct ib_vblock b = { .offset = 0, .seed = 1, .check_numberio = 1 };
	struct ib_verify_mismatch m;
	char text[1024];

	if (ib_verify_check(s, &b, blk, BLK, &m))
		ib_verify_describe(&m, "f", 0, BLK, text, sizeof(text));
	ib_verify_fill(s, &b, blk, BLK);
	if (ib_verify_check(s, &b, blk, BLK, &m))
		__builtin_trap();	/* fill must check clean */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned intervals[] = { 0, 256, 512, 1024 };
	struct ib_diag d = { "" };
	struct ib_verify_spec s = { .thread = 1 };
	struct ib_vpattern p;
	const uint8_t *nl = memchr(data, '\n', size < 600 ? size : 600);
	char line[601];
	uint8_t blk[BLK] = { 0 }, sel;
	size_t n;

	if (!nl || (size_t)(nl - data) + 1 >= size)
		return 0;
	n = (size_t)(nl - data);
	memcpy(line, data, n);
	line[n] = '\0';
	if (!ib_vpattern_parse(line, &p, &d))
		s.pattern = &p;
	sel = nl[1];
	s.type = (enum ib_verify_type)(sel % IB_VERIFY_NR);
	s.interval = intervals[(sel >> 5) & 3];
	s.check_seed = sel >> 7;
	n = size - n - 2;
	memcpy(blk, nl + 2, n < BLK ? n : BLK);
	if (ib_verify_spec_check(&s, BLK, &d))
		return 0;
	check_one(&s, blk);
	return 0;
}
