// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the input as a per-interval stream (--interval-json)
 * through the stream reader, then, when it loads, compared with itself
 * (the table, the over-time view, the gate and the HTML page, into
 * /dev/null): no stream may crash the reader or the comparison.
 */
#include <stdint.h>
#include <stdio.h>
#include "iobench/compare.h"
#include "iobench/plotcmd.h"
#include "iobench/results.h"

#define FUZZ_MAX_INPUT (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void compare_self(const struct ib_results *r)
{
	const struct ib_results *p[] = { r };
	struct ib_diag d = { { 0 } };
	struct ib_gate g;
	struct ib_cmp c;
	FILE *f;

	if (ib_cmp_build(&c, p, 1, p, 1, NULL, &d))
		return;
	f = fopen("/dev/null", "w");
	if (f) {
		ib_cmp_print(f, &c, "a", "b");
		if (!ib_gate_parse(&g, "p99>+10%,iops<-5%", &d))
			ib_gate_check(&g, &c, f);
		ib_page_compare(f, true, &c, "a", "b", p, 1, p, 1, &d);
		fclose(f);
	}
	ib_cmp_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ib_diag d = { { 0 } };
	struct ib_results r;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	(void)ib_results_is_stream((const char *)data, size);
	if (!ib_results_read_stream(&r, (const char *)data, size, "fuzz", &d)) {
		compare_self(&r);
		ib_results_free(&r);
	}
	return 0;
}
