// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prints the records a trace reader returns, one line each, for the
 * integration tests (tests/integration/test_trace_capture.py):
 *   TS_NS OP FILE OFFSET LENGTH pid=PID dev=MAJ:MIN
 * FILE is '-' for blktrace (no names); a wait prints its time as OFFSET.
 * Usage: trace_dump SPEC                 (as read_iolog= takes it)
 *        trace_dump --merge OUT SPEC     (merge_blktrace_file=OUT, then OUT)
 * Exit 0, or 1 with the reader's diag line on stderr.
 */
#include <stdio.h>
#include <string.h>
#include "iobench/trace.h"

static int dump(const char *spec)
{
	struct ib_diag d = { { 0 } };
	struct ib_trace_rec rec;
	struct ib_trace *t;
	int r = ib_trace_open(&t, spec, &d);

	while (r >= 0 && (r = ib_trace_next(t, &rec, &d)) > 0)
		printf("%llu %s %s %llu %llu pid=%u dev=%u:%u\n",
		       (unsigned long long)rec.ts_ns, rec.name ? rec.name : "-",
		       ib_trace_op_name(rec.op),
		       (unsigned long long)(rec.op == IB_TRACE_WAIT ?
					    rec.wait_us : rec.offset),
		       (unsigned long long)rec.len, rec.pid, rec.dev >> 20,
		       rec.dev & 0xfffff);
	ib_trace_close(t);
	if (r < 0)
		fprintf(stderr, "trace_dump: %s\n", d.msg);
	return r < 0;
}

int main(int argc, char **argv)
{
	struct ib_diag d = { { 0 } };
	int64_t n;

	if (argc == 4 && !strcmp(argv[1], "--merge")) {
		n = ib_trace_merge_blktrace(argv[3], NULL, 0, NULL, 0, argv[2], &d);
		if (n < 0) {
			fprintf(stderr, "trace_dump: %s\n", d.msg);
			return 1;
		}
		return dump(argv[2]);
	}
	if (argc != 2) {
		fprintf(stderr, "usage: trace_dump SPEC | --merge OUT SPEC\n");
		return 2;
	}
	return dump(argv[1]);
}
