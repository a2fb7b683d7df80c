// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the input as a JSON report, through the strict JSON
 * reader and the results reader (iobench/fio json, json+), then, when it
 * loads, through every formatter (into /dev/null): no document may crash
 * the reader or make a formatter misbehave.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "iobench/json_read.h"
#include "iobench/report.h"
#include "iobench/results.h"

#define FUZZ_MAX_INPUT (1 << 20)	/* real json+ files are ~100 KiB */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void print_all(const struct ib_results *r)
{
	FILE *f = fopen("/dev/null", "w");
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < ib_nr_formats; i++)
		if (ib_formats[i].print)
			ib_formats[i].print(f, r);
	ib_report_header(f, r);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ib_diag d = { { 0 } };
	struct ib_results r;
	struct ib_jdoc doc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!ib_json_parse(&doc, (const char *)data, size, &d))
		ib_jdoc_free(&doc);
	if (!ib_results_read_json(&r, (const char *)data, size, &d)) {
		print_all(&r);
		ib_results_free(&r);
	}
	return 0;
}
