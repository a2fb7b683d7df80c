// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio log records -> series: every record, averaged windows (ends, means,
 * gaps, a late record), the point cap, and reading a real log text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "src/report/results/logseries.h"

static void add(struct ib_logseries *ls, uint64_t t, uint64_t v, unsigned int dd,
		int want)
{
	struct ib_fiolog_rec r = { .t_ms = t, .value = v, .ddir = dd, .bs = 4096 };

	assert_int_equal(ib_logseries_add(ls, &r), want);
}

static void test_every_record(void **state)
{
	struct ib_logseries ls;
	struct ib_chart_series s;
	unsigned int i;

	(void)state;
	ib_logseries_init(&ls, 0, 0);
	for (i = 0; i < 1000; i++)	/* past the first growth */
		add(&ls, i, 10 * i, i % 3 == 2 ? 1 : 0, 0);
	assert_int_equal(ib_logseries_finish(&ls), 0);
	s = ib_logseries_get(&ls, 0, "r");
	assert_string_equal(s.name, "r");
	assert_int_equal(s.n, 667);
	assert_true(s.x[0] == 0 && s.y[0] == 0);
	assert_true(s.x[1] == 0.001 && s.y[1] == 10);
	s = ib_logseries_get(&ls, 1, "w");
	assert_int_equal(s.n, 333);
	assert_true(s.x[0] == 0.002 && s.y[0] == 20);
	assert_int_equal(ib_logseries_get(&ls, 2, "t").n, 0);
	assert_int_equal(ib_logseries_get(&ls, 7, "x").n, 0);
	ib_logseries_free(&ls);
	assert_null(ls.x[0]);
}

static void test_windows(void **state)
{
	struct ib_logseries ls;
	struct ib_chart_series s;

	(void)state;
	ib_logseries_init(&ls, 100, 0);
	add(&ls, 5, 10, 0, 0);
	add(&ls, 99, 20, 0, 0);		/* window 0: mean 15, at 0.1 s */
	add(&ls, 50, 7, 1, 0);		/* writes: their own windows */
	add(&ls, 100, 30, 0, 0);	/* window 1: 30 and a late 60 */
	add(&ls, 90, 60, 0, 0);
	add(&ls, 450, 1, 0, 0);		/* windows 2, 3 empty: no point */
	assert_int_equal(ib_logseries_finish(&ls), 0);
	s = ib_logseries_get(&ls, 0, "r");
	assert_int_equal(s.n, 3);
	assert_true(s.x[0] == 0.1 && s.y[0] == 15);
	assert_true(s.x[1] == 0.2 && s.y[1] == 45);
	assert_true(s.x[2] == 0.5 && s.y[2] == 1);
	s = ib_logseries_get(&ls, 1, "w");
	assert_int_equal(s.n, 1);
	assert_true(s.x[0] == 0.1 && s.y[0] == 7);
	/* finishing twice adds nothing */
	assert_int_equal(ib_logseries_finish(&ls), 0);
	assert_int_equal(ib_logseries_get(&ls, 0, "r").n, 3);
	ib_logseries_free(&ls);
}

static void test_cap(void **state)
{
	struct ib_logseries ls;

	(void)state;
	ib_logseries_init(&ls, 0, 2);
	add(&ls, 1, 1, 0, 0);
	add(&ls, 2, 1, 0, 0);
	add(&ls, 3, 1, 1, 0);		/* per direction */
	add(&ls, 3, 1, 0, -E2BIG);
	ib_logseries_free(&ls);
	ib_logseries_init(&ls, 10, 1);
	add(&ls, 1, 1, 0, 0);
	add(&ls, 11, 1, 0, 0);		/* closes window 0: the one point */
	assert_int_equal(ib_logseries_finish(&ls), -E2BIG);
	ib_logseries_free(&ls);
}

/* As the callback of the log reader, on fio 3.33 lines */
static void test_from_reader(void **state)
{
	const char *log = "0, 100, 0, 4096, 0\n3, 300, 0, 4096, 0\n"
			  "12, 50, 1, 4096, 0\n14, 500, 0, 4096, 0\n";
	struct ib_diag d = { { 0 } };
	struct ib_logseries ls;
	struct ib_fiolog p;
	struct ib_chart_series s;

	(void)state;
	ib_logseries_init(&ls, 10, 0);
	ib_fiolog_init(&p);
	assert_int_equal(ib_fiolog_feed(&p, log, strlen(log), ib_logseries_add,
					&ls, &d), 0);
	assert_int_equal(ib_fiolog_end(&p, ib_logseries_add, &ls, &d), 0);
	assert_int_equal(ib_logseries_finish(&ls), 0);
	s = ib_logseries_get(&ls, 0, "r");
	assert_int_equal(s.n, 2);
	assert_true(s.x[0] == 0.01 && s.y[0] == 200);
	assert_true(s.x[1] == 0.02 && s.y[1] == 500);
	assert_int_equal(ib_logseries_get(&ls, 1, "w").n, 1);
	ib_logseries_free(&ls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_record),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_from_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
