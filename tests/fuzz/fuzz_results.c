// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the input as a JSON report, through the strict JSON
 * reader and the results reader (iobench/fio json, json+), then, when it
 * loads, through every formatter and the HTML page (into /dev/null); a
 * curve document through the curve reader and its chart: no document may
 * crash the reader or make a formatter misbehave.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "iobench/curve.h"
#include "iobench/curve_out.h"
#include "iobench/json_read.h"
#include "iobench/plotcmd.h"
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
	ib_page_write(f, "fuzz", &r, (const char *const[]){ "fuzz" }, 1, false,
		      &(struct ib_diag){ { 0 } });
	fclose(f);
}

/* A curve document read back and drawn. */
static void curve(const struct ib_jv *root)
{
	struct ib_curve *c = malloc(sizeof(*c));
	struct ib_diag d = { { 0 } };
	FILE *f;

	if (c && ib_curve_from_json(c, root, &d) == 1 && (f = fopen("/dev/null", "w"))) {
		ib_page_curve_svg(f, c, &d);
		fclose(f);
	}
	free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ib_diag d = { { 0 } };
	struct ib_results r;
	struct ib_jdoc doc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!ib_json_parse(&doc, (const char *)data, size, &d)) {
		curve(doc.root);
		ib_jdoc_free(&doc);
	}
	if (!ib_results_read_json(&r, (const char *)data, size, &d)) {
		print_all(&r);
		ib_results_free(&r);
	}
	return 0;
}
