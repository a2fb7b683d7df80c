// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio log reader: the three layouts, chunking at every byte, blanks and
 * CRLF, every kind of bad line, callbacks that stop the parse, and the
 * lines iobench's own log writer produces.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/fiolog.h"
#include "iobench/log.h"

#define MAXREC 16

struct got {
	struct ib_fiolog_rec r[MAXREC];
	unsigned int n;
	int stop_at;		/* return -EINTR on this record (-1: never) */
};

static int collect(void *arg, const struct ib_fiolog_rec *r)
{
	struct got *g = arg;

	if ((int)g->n == g->stop_at)
		return -EINTR;
	if (g->n < MAXREC)
		g->r[g->n] = *r;
	g->n++;
	return 0;
}

/* Parse s fed in chunks of step bytes; returns the parse's result. */
static int parse(const char *s, size_t step, struct got *g, struct ib_diag *d)
{
	struct ib_fiolog p;
	size_t len = strlen(s), i;
	int ret = 0;

	memset(g, 0, sizeof(*g));
	g->stop_at = -1;
	ib_fiolog_init(&p);
	for (i = 0; i < len && !ret; i += step)
		ret = ib_fiolog_feed(&p, s + i, len - i < step ? len - i : step,
				     collect, g, d);
	return ret ? ret : ib_fiolog_end(&p, collect, g, d);
}

static void test_fio333_layout(void **state)
{
	const char *log = "1, 20736, 0, 4096, 0\n2, 9984, 1, 4096, 0\r\n"
			  "\n   \n1003,5,2,512,3";	/* no final newline */
	struct ib_diag d = { { 0 } };
	struct got g;
	size_t step;

	(void)state;
	for (step = 1; step <= strlen(log); step++) {
		assert_int_equal(parse(log, step, &g, &d), 0);
		assert_int_equal(g.n, 3);
		assert_int_equal(g.r[0].t_ms, 1);
		assert_int_equal(g.r[0].value, 20736);
		assert_int_equal(g.r[0].ddir, 0);
		assert_int_equal(g.r[0].bs, 4096);
		assert_int_equal(g.r[0].nfields, 5);
		assert_int_equal(g.r[1].value, 9984);
		assert_int_equal(g.r[1].ddir, 1);
		assert_int_equal(g.r[2].t_ms, 1003);
		assert_int_equal(g.r[2].ddir, 2);
		assert_int_equal(g.r[2].bs, 512);
		assert_int_equal(g.r[2].prio, 3);
		assert_int_equal(g.r[2].offset, 0);
	}
}

static void test_offset_and_old_layouts(void **state)
{
	struct ib_diag d = { { 0 } };
	struct got g;

	(void)state;
	assert_int_equal(parse("5, 100, 1, 8192, 1048576, 0\n", 7, &g, &d), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.r[0].nfields, 6);
	assert_int_equal(g.r[0].offset, 1048576);
	assert_int_equal(g.r[0].prio, 0);
	assert_int_equal(parse("5, 18446744073709551615, 0, 4096\n", 3, &g, &d), 0);
	assert_int_equal(g.r[0].nfields, 4);
	assert_true(g.r[0].value == UINT64_MAX);
}

/* What iobench's own writer (log.c) produces reads back as written */
static void test_iobench_lines(void **state)
{
	char buf[512];
	size_t n = 0;
	struct ib_diag d = { { 0 } };
	struct got g;

	(void)state;
	n += ib_log_format(buf + n, 12, 34567, 1, 4096, true, 8192);
	n += ib_log_format(buf + n, 13, 1, 0, 512, true, 0);
	buf[n] = '\0';
	assert_int_equal(parse(buf, 5, &g, &d), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.r[0].t_ms, 12);
	assert_int_equal(g.r[0].value, 34567);
	assert_int_equal(g.r[0].offset, 8192);
	assert_int_equal(g.r[1].bs, 512);
}

static void expect_error(const char *log, const char *msg)
{
	struct ib_diag d = { { 0 } };
	struct got g;

	assert_int_equal(parse(log, 4, &g, &d), -EINVAL);
	assert_string_equal(d.msg, msg);
}

static void test_errors(void **state)
{
	char longline[IB_FIOLOG_LINE + 8];

	(void)state;
	expect_error("1, 2, 0\n", "line 1: not a fio log record (time, value, ddir, bs[, offset], prio)");
	expect_error("1, 2, 0, 4096, 0, 0, 0\n", "line 1: not a fio log record (time, value, ddir, bs[, offset], prio)");
	expect_error("1, 2, 3, 4096, 0\n", "line 1: not a fio log record (time, value, ddir, bs[, offset], prio)");
	expect_error("\n1, -2, 0, 4096, 0\n", "line 2: not a fio log record (time, value, ddir, bs[, offset], prio)");
	expect_error("1, 2, 0, 4096, 0,\n", "line 1: not a fio log record (time, value, ddir, bs[, offset], prio)");
	expect_error("1; 2, 0, 4096, 0\n", "line 1: not a fio log record (time, value, ddir, bs[, offset], prio)");
	expect_error("18446744073709551616, 2, 0, 4096, 0\n", "line 1: not a fio log record (time, value, ddir, bs[, offset], prio)");
	expect_error("1, 2, 0, 4096, 4294967296\n", "line 1: not a fio log record (time, value, ddir, bs[, offset], prio)");
	expect_error("1, 2, 0, 4096, 0\n1, 2, 0, 4096, 8, 0\n", "line 2: 6 fields, the first record had 5");
	memset(longline, '1', sizeof(longline));
	longline[sizeof(longline) - 1] = '\0';
	expect_error(longline, "line 1: too long");
}

static void test_nul_and_stop(void **state)
{
	struct ib_fiolog p;
	struct ib_diag d = { { 0 } };
	struct got g = { .stop_at = 1 };

	(void)state;
	ib_fiolog_init(&p);
	assert_int_equal(ib_fiolog_feed(&p, "1, 2\0", 5, collect, &g, &d), -EINVAL);
	assert_string_equal(d.msg, "line 1: NUL byte");
	ib_fiolog_init(&p);
	assert_int_equal(ib_fiolog_feed(&p, "1,2,0,4,0\n1,2,0,4,0\n1,2,0,4,0\n", 30,
					collect, &g, &d), -EINTR);
	assert_int_equal(g.n, 1);
	assert_int_equal(p.lineno, 2);
	assert_int_equal(p.records, 2);
	/* an empty input is no record and no error */
	ib_fiolog_init(&p);
	assert_int_equal(ib_fiolog_end(&p, collect, &g, &d), 0);
	assert_int_equal(p.records, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio333_layout),
		cmocka_unit_test(test_offset_and_old_layouts),
		cmocka_unit_test(test_iobench_lines),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_nul_and_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
