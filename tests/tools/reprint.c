// SPDX-License-Identifier: GPL-2.0-only
/*
 * reprint FORMAT FILE: read a JSON report (iobench's, or fio 3.33's json or
 * json+) into the results document and print it again in FORMAT (normal,
 * json, json+, terse). The round-trip tests' entry point until the front
 * end has `iobench compare`. Exit 0, or 1 with one line on stderr.
 */
#include <stdio.h>
#include <string.h>
#include "iobench/report.h"
#include "iobench/results.h"

int main(int argc, char **argv)
{
	const struct ib_format *fmt = argc == 3 ? ib_format_find(argv[1]) : NULL;
	struct ib_diag d = { { 0 } };
	struct ib_results r;
	unsigned int i;
	int ret;

	if (!fmt) {
		fprintf(stderr, "usage: reprint normal|json|json+|terse FILE\n");
		return 1;
	}
	for (i = 0; !fmt->print && i < ib_nr_formats; i++)	/* an alias */
		if (ib_formats[i].bit == fmt->bit && ib_formats[i].print)
			fmt = &ib_formats[i];
	if (ib_results_load(&r, argv[2], &d) < 0) {
		fprintf(stderr, "reprint: %s\n", d.msg);
		return 1;
	}
	ret = fmt->print(stdout, &r);
	if (!ret && fflush(stdout))
		ret = -1;
	ib_results_free(&r);
	if (ret) {
		fprintf(stderr, "reprint: cannot write the report\n");
		return 1;
	}
	return 0;
}
