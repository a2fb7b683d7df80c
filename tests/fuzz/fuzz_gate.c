// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the input as a `compare --fail-if` rule list: the
 * parser must accept or refuse it with a message, never crash, and a
 * parsed gate is checked against a small comparison.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/compare.h"

#define FUZZ_MAX_INPUT 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct ib_gate *g)
{
	struct ib_cmp_row row;
	struct ib_cmp c = { &row, 1, 1, 1, 0.05, 5.0 };
	unsigned int m;

	memset(&row, 0, sizeof(row));
	strcpy(row.job, "j");
	for (m = 0; m < IB_CMP_NR; m++)
		row.m[m] = (struct ib_cmp_cell){ true, 100, 80, 100, 100, 80, 80,
						  -20.0, 1.0, 0.01, IB_CMP_SLOWER };
	if (ib_gate_check(g, &c, NULL) > g->n)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ib_diag d = { { 0 } };
	struct ib_gate g;
	char *s;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (ib_gate_parse(&g, s, &d) == 0)
		check(&g);
	else if (!d.msg[0])
		abort();	/* a refusal always says why */
	free(s);
	return 0;
}
