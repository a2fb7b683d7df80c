// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping` command line against ioping 1.3: every option in its short
 * and long forms, the value grammar, and every error with the message the
 * real ioping printed for the same argv (captured here, see the report).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/ping.h"

static struct ib_ping_opts o;
static struct ib_diag d;

/* Parse a space-separated argv (no quoting needed by these tests) */
static int parse(const char *line)
{
	static char buf[512];
	char *argv[64], *save = NULL, *tok;
	int argc = 0;

	snprintf(buf, sizeof(buf), "ioping %s", line);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	d.msg[0] = '\0';
	return ib_ping_parse(&o, argc, argv, &d);
}

static void ok(const char *line)
{
	int ret = parse(line);

	if (ret)
		fprintf(stderr, "%s: %s\n", line, d.msg);
	assert_int_equal(ret, 0);
}

static void bad(const char *line, const char *msg)
{
	assert_int_equal(parse(line), -EINVAL);
	assert_string_equal(d.msg, msg);
}

static void test_defaults(void **state)
{
	(void)state;
	ok("dir");
	assert_int_equal(o.action, IB_PING_RUN);
	assert_string_equal(o.target, "dir");
	assert_int_equal(o.warmup, 1);
	assert_int_equal(o.interval_ns, 1000000000);
	assert_int_equal(o.size, 0);
	assert_int_equal(o.default_size, 4096);
	assert_int_equal(o.temp_work_size, 1 << 20);
	assert_int_equal(o.max_time_ns, INT64_MAX);
	assert_int_equal(o.min_time_ns, 0);
	assert_int_equal(o.count, 0);
	assert_int_equal(o.deadline_ns, 0);
	assert_int_equal(o.write, 0);
	assert_string_equal(o.time_fmt, "%b %d %T");
	assert_false(o.quiet || o.batch || o.json || o.time_info || o.cached || o.direct);
	assert_false(o.interval_set || o.deadline_set || o.hist);
	assert_null(o.json_output);
}

/* Each flag, short then long with one and two dashes */
static void test_flags(void **state)
{
	static const struct { const char *s, *l; size_t off; } f[] = {
		{ "-A", "async", offsetof(struct ib_ping_opts, async) },
		{ "-C", "cached", offsetof(struct ib_ping_opts, cached) },
		{ "-D", "direct", offsetof(struct ib_ping_opts, direct) },
		{ "-N", "nowait", offsetof(struct ib_ping_opts, nowait) },
		{ "-H", "hipri", offsetof(struct ib_ping_opts, hipri) },
		{ "-Y", "sync", offsetof(struct ib_ping_opts, sync) },
		{ "-y", "dsync", offsetof(struct ib_ping_opts, dsync) },
		{ "-k", "keep", offsetof(struct ib_ping_opts, keep) },
		{ "-q", "quiet", offsetof(struct ib_ping_opts, quiet) },
		{ "-L", "linear", offsetof(struct ib_ping_opts, linear) },
		{ "-J", "json", offsetof(struct ib_ping_opts, json) },
		{ "-I", "time", offsetof(struct ib_ping_opts, time_info) },
	};
	char line[64];
	unsigned int i, form;

	(void)state;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		for (form = 0; form < 3; form++) {
			if (form == 0)
				snprintf(line, sizeof(line), "%s t", f[i].s);
			else
				snprintf(line, sizeof(line), "%s%s t", form == 1 ? "-" : "--", f[i].l);
			ok(line);
			assert_true(*(bool *)((char *)&o + f[i].off));
		}
	}
}

static void test_flag_effects(void **state)
{
	(void)state;
	ok("-L t");
	assert_int_equal(o.default_size, 256 << 10);
	ok("-B t");
	assert_true(o.batch && o.quiet);
	ok("-batch t");
	assert_true(o.batch && o.quiet);
	ok("-J t");
	assert_string_equal(o.time_fmt, "%FT%T%z");
	ok("-W t");
	assert_int_equal(o.write, 1);
	ok("-WWW t");
	assert_int_equal(o.write, 3);
	ok("-W -write --write t");
	assert_int_equal(o.write, 3);
	ok("-G t");
	assert_true(o.read_write);
	assert_int_equal(o.write, 1);
	ok("-read-write t");
	assert_true(o.read_write);
	ok("-GWW t");
	assert_int_equal(o.write, 3);
	ok("-CDY t");
	assert_true(o.cached && o.direct && o.sync);
	ok("--hist t");
	assert_true(o.hist);
}

/* -R: -q -i 0 -w 3, 64m in a directory; an explicit -i/-w wins in any order */
static void test_rapid(void **state)
{
	(void)state;
	ok("-R t");
	assert_true(o.rapid && o.quiet);
	assert_int_equal(o.interval_ns, 0);
	assert_int_equal(o.deadline_ns, 3000000000ll);
	assert_int_equal(o.temp_work_size, 64 << 20);
	ok("-i 5ms -w 10 -R t");
	assert_int_equal(o.interval_ns, 5000000);
	assert_int_equal(o.deadline_ns, 10000000000ll);
	ok("-rapid -i 5ms -w 10 t");
	assert_int_equal(o.interval_ns, 5000000);
	assert_int_equal(o.deadline_ns, 10000000000ll);
	ok("-RL t");
	assert_true(o.rapid && o.linear);
}

static void test_values(void **state)
{
	(void)state;
	ok("-a 3 -b 4 -c 10 -e 42 -i 10ms -s 64k -S 8m -o 1m -w 5s -t 1us -T 2ms -p 7 -P 2s t");
	assert_int_equal(o.warmup, 3);
	assert_int_equal(o.burst, 4);
	assert_int_equal(o.count, 10);
	assert_int_equal(o.entropy, 42);
	assert_int_equal(o.interval_ns, 10000000);
	assert_true(o.interval_set);
	assert_int_equal(o.size, 65536);
	assert_int_equal(o.work_size, 8 << 20);
	assert_int_equal(o.offset, 1 << 20);
	assert_int_equal(o.deadline_ns, 5000000000ll);
	assert_true(o.deadline_set);
	assert_int_equal(o.min_time_ns, 1000);
	assert_int_equal(o.max_time_ns, 2000000);
	assert_int_equal(o.print_count, 7);
	assert_int_equal(o.print_interval_ns, 2000000000ll);
	ok("-warmup 0 -burst 2 -count 1k -entropy 0x10 -interval 1 -size 1sector "
	   "-work-size 2page -work-offset 3KiB -work-time 1min -min-time 5ns "
	   "-max-time 1hour -print-count 2 -print-interval 100msec t");
	assert_int_equal(o.warmup, 0);
	assert_int_equal(o.burst, 2);
	assert_int_equal(o.count, 1000);
	assert_int_equal(o.entropy, 16);
	assert_int_equal(o.interval_ns, 1000000000);
	assert_int_equal(o.size, 512);
	assert_int_equal(o.work_size, 8192);
	assert_int_equal(o.offset, 3072);
	assert_int_equal(o.deadline_ns, 60000000000ll);
	assert_int_equal(o.min_time_ns, 5);
	assert_int_equal(o.max_time_ns, 3600000000000ll);
	assert_int_equal(o.print_count, 2);
	assert_int_equal(o.print_interval_ns, 100000000);
}

/* -l/-r turn the default interval off; -i keeps its value */
static void test_limits(void **state)
{
	(void)state;
	ok("-l 1m t");
	assert_int_equal(o.speed_limit, 1 << 20);
	assert_int_equal(o.interval_ns, 0);
	ok("-speed-limit 1m -i 2s t");
	assert_int_equal(o.interval_ns, 2000000000ll);
	ok("-i 2s -l 1m t");
	assert_int_equal(o.interval_ns, 2000000000ll);
	ok("-r 0.5 t");
	assert_true(o.rate_limit == 0.5);
	assert_int_equal(o.interval_ns, 0);
	ok("-rate-limit 1/4 t");
	assert_true(o.rate_limit == 0.25);
}

/* Attached values, "=", prefixes, operands anywhere, "--", optional -I */
static void test_forms(void **state)
{
	(void)state;
	ok("-c5 -i0 t");
	assert_int_equal(o.count, 5);
	assert_int_equal(o.interval_ns, 0);
	ok("--count=3 t");
	assert_int_equal(o.count, 3);
	ok("-count=4 t");
	assert_int_equal(o.count, 4);
	ok("-cou 6 t");
	assert_int_equal(o.count, 6);
	ok("--si 4k t");
	assert_int_equal(o.size, 4096);
	ok("-print-c 9 t");
	assert_int_equal(o.print_count, 9);
	ok("t -c 1");
	assert_string_equal(o.target, "t");
	assert_int_equal(o.count, 1);
	ok("-c 1 -- -x");
	assert_string_equal(o.target, "-x");
	ok("-");
	assert_string_equal(o.target, "-");
	ok("-qc 2 t");
	assert_true(o.quiet);
	assert_int_equal(o.count, 2);
	ok("-ca t");	/* a prefix of -cached, not -c a */
	assert_true(o.cached);
	ok("-I t");
	assert_true(o.time_info);
	assert_string_equal(o.time_fmt, "%b %d %T");
	ok("-I%s t");
	assert_string_equal(o.time_fmt, "%s");
	ok("-time=%T t");
	assert_string_equal(o.time_fmt, "%T");
	ok("-time t");
	assert_string_equal(o.time_fmt, "%b %d %T");
	ok("-I%s -J t");
	assert_string_equal(o.time_fmt, "%FT%T%z");
	ok("-J -I%s t");
	assert_string_equal(o.time_fmt, "%s");
	ok("--json-output=out.json t");
	assert_string_equal(o.json_output, "out.json");
	ok("--json-output out2.json t");
	assert_string_equal(o.json_output, "out2.json");
}

static void test_help_version(void **state)
{
	(void)state;
	ok("-h");
	assert_int_equal(o.action, IB_PING_HELP);
	ok("--help -Z");	/* stops at -h like ioping */
	assert_int_equal(o.action, IB_PING_HELP);
	ok("-help");
	assert_int_equal(o.action, IB_PING_HELP);
	ok("-v");
	assert_int_equal(o.action, IB_PING_VERSION);
	ok("-version");
	assert_int_equal(o.action, IB_PING_VERSION);
	ok("-qv");
	assert_int_equal(o.action, IB_PING_VERSION);
	bad("-Z -h", "unrecognized option '-Z'");
}

/* What ioping 1.3 printed after "ioping: " for the same argv */
static void test_errors(void **state)
{
	(void)state;
	bad("", "no destination specified");
	bad("-c 5", "no destination specified");
	bad("--", "no destination specified");
	bad("a b", "more than one destination specified");
	/* --hist's text would be dropped from -J's and -B's output */
	bad("-J --hist t", "--hist prints text, not with -J (--json-output=FILE has the percentiles)");
	bad("--hist -B t", "--hist prints text, not with -B (--json-output=FILE has the percentiles)");
	bad("-c", "option requires an argument -- 'c'");
	bad("-s", "option requires an argument -- 's'");
	bad("-count", "option '-count' requires an argument");
	bad("--count", "option '--count' requires an argument");
	bad("-si", "option '-size' requires an argument");
	bad("-Z t", "unrecognized option '-Z'");
	bad("-x", "unrecognized option '-x'");
	bad("-foo t", "unrecognized option '-foo'");
	bad("--foo t", "unrecognized option '--foo'");
	bad("-ZW t", "unrecognized option '-ZW'");
	bad("-WZ t", "invalid option -- 'Z'");
	bad("-d t", "option '-d' is ambiguous; possibilities: '-direct' '-dsync'");
	bad("-pr 1 t", "option '-pr' is ambiguous; possibilities: '-print-count' '-print-interval'");
	bad("--w 1 t", "option '--w' is ambiguous; possibilities: '--write' '--work-size' "
	    "'--work-offset' '--work-time' '--warmup'");
	bad("-keep=1 t", "option '-keep' doesn't allow an argument");
	bad("--keep=1 t", "option '--keep' doesn't allow an argument");
	bad("-c x t", "invalid suffix: \"x\"");
	bad("-c 10x t", "invalid suffix: \"x\"");
	bad("-cZ t", "invalid suffix: \"Z\"");
	bad("-s 3q t", "invalid suffix: \"q\"");
	bad("-s 1p t", "invalid suffix: \"p\"");
	bad("-s 4da t", "invalid suffix: \"da\"");
	bad("-w 1y t", "invalid suffix: \"y\"");
	bad("-i 1d t", "invalid suffix: \"d\"");
	bad("-t 1x t", "invalid suffix: \"x\"");
	bad("-s -1 t", "integer overflow at parsing argument: -1");
	bad("-a -1 t", "integer overflow at parsing argument: -1");
	bad("-c 99999999999 t", "integer overflow at parsing argument: 99999999999");
	bad("-r 2G t", "integer overflow at parsing argument: 2G");
	bad("-s inf t", "integer overflow at parsing argument: inf");
	bad("-s nan t", "integer overflow at parsing argument: nan");	/* ours */
	bad("-i 1/0 t", "division by zero in parsing argument: 1/0");
	bad("-s 1/0 t", "division by zero in parsing argument: 1/0");
	bad("-P x t", "invalid suffix: \"x\"");
	bad("-p 1x t", "invalid suffix: \"x\"");
	bad("-b 1x t", "invalid suffix: \"x\"");
	bad("-l 1x t", "invalid suffix: \"x\"");
	bad("-o -4 t", "integer overflow at parsing argument: -4");
	bad("-S 1x t", "invalid suffix: \"x\"");
	bad("-T 1x t", "invalid suffix: \"x\"");
}

static double v(const char *s, char kind)
{
	double x = -1;

	assert_int_equal(ib_ping_parse_num(s, kind, &x, &d), 0);
	return x;
}

/* The suffix tables, case-insensitive, fractions, strtod forms */
static void test_grammar(void **state)
{
	(void)state;
	assert_true(v("4k", 's') == 4096 && v("4K", 's') == 4096 && v("4kib", 's') == 4096);
	assert_true(v("4kb", 's') == 4096 && v("1m", 's') == 1048576 && v("1MiB", 's') == 1048576);
	assert_true(v("1g", 's') == 0x1p30 && v("1gb", 's') == 0x1p30 && v("1GiB", 's') == 0x1p30);
	assert_true(v("1t", 's') == 0x1p40 && v("1tb", 's') == 0x1p40 && v("1TiB", 's') == 0x1p40);
	assert_true(v("1pb", 's') == 0x1p50 && v("1PiB", 's') == 0x1p50);
	assert_true(v("1eb", 'o') == 0x1p60);
	assert_true(v("3sector", 's') == 1536 && v("2page", 's') == 8192);
	assert_true(v("10B", 's') == 10 && v("10", 's') == 10 && v("1.5k", 's') == 1536);
	assert_true(v("1e3", 's') == 1000 && v("0x10", 's') == 16 && v(" 4k", 's') == 4096);
	assert_true(v("1/2k", 's') == 512 && v("/4", 'n') == 0.25 && v("", 'n') == 0);
	assert_true(v("1k", 'n') == 1000 && v("1m", 'n') == 1e6 && v("1G", 'n') == 1e9);
	assert_true(v("2da", 'n') == 20 && v("0.5", 'r') == 0.5);
	assert_int_equal(ib_ping_parse_num("1T", 'r', &(double){ 0 }, &d), -EINVAL);
	assert_true(v("1", 't') == 1e9 && v("1s", 't') == 1e9 && v("1sec", 't') == 1e9);
	assert_true(v("1ms", 't') == 1e6 && v("1msec", 't') == 1e6 && v("1MS", 't') == 1e6);
	assert_true(v("1us", 't') == 1e3 && v("1usec", 't') == 1e3);
	assert_true(v("1ns", 't') == 1 && v("1nsec", 't') == 1);
	assert_true(v("1m", 't') == 60e9 && v("1min", 't') == 60e9);
	assert_true(v("1h", 't') == 3600e9 && v("1hour", 't') == 3600e9);
	assert_true(v("2147483647", 'n') == INT_MAX);
	assert_int_equal(ib_ping_parse_num("2147483648", 'n', &(double){ 0 }, &d), -EINVAL);
	assert_true(v("1G", 'r') == 1e9);
	assert_int_equal(ib_ping_parse_num("1", 'x', &(double){ 0 }, &d), -EINVAL);
}

/* -s 0 means the default; limits raise the interval (times the burst) */
static void test_resolve(void **state)
{
	bool big;

	(void)state;
	ok("-s 0 t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_int_equal(o.size, 4096);
	assert_false(big);
	assert_int_equal(o.temp_work_size, 1 << 20);
	ok("-L t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_int_equal(o.size, 256 << 10);
	ok("-s 4m t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_int_equal(o.temp_work_size, 4 << 20);
	ok("-s 4k -S 16m t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_int_equal(o.temp_work_size, 16 << 20);
	ok("-l 1m -s 64k t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_int_equal(o.interval_ns, 62500000);
	ok("-l 1m -s 64k -b 4 t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_int_equal(o.interval_ns, 250000000);
	ok("-l 1m -s 64k -i 1s t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_int_equal(o.interval_ns, 1000000000);
	ok("-r 3 t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_int_equal(o.interval_ns, 333333333);
	ok("-s 3g t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_true(big);
	ok("-s 2147479552 t");
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	assert_false(big);
	ok("t");
	o.size = -5;
	assert_int_equal(ib_ping_resolve(&o, &big, &d), -EINVAL);
	assert_string_equal(d.msg, "request size must be greater than zero");
}

static int check(const char *line, enum ib_ping_kind kind, int64_t size, int64_t *ws)
{
	bool big;

	ok(line);
	assert_int_equal(ib_ping_resolve(&o, &big, &d), 0);
	return ib_ping_check_target(&o, kind, size, ws, &d);
}

/* -W needs -WWW but for a directory; the working set must fit */
static void test_target_checks(void **state)
{
	int64_t ws = 0;

	(void)state;
	assert_int_equal(check("-W t", IB_PING_DIR, 0, &ws), 0);
	assert_int_equal(ws, 1 << 20);
	assert_int_equal(check("-W t", IB_PING_FILE, 1 << 22, &ws), -EINVAL);
	assert_string_equal(d.msg, "think twice, then use -WWW to shred this target");
	assert_int_equal(check("-WW t", IB_PING_BLOCK, 1 << 22, &ws), -EINVAL);
	assert_string_equal(d.msg, "think twice, then use -WWW to shred this target");
	assert_int_equal(check("-G t", IB_PING_FILE, 1 << 22, &ws), -EINVAL);
	assert_int_equal(check("-GWW t", IB_PING_FILE, 1 << 22, &ws), 0);
	assert_int_equal(check("-WWW t", IB_PING_BLOCK, 1 << 25, &ws), 0);
	assert_int_equal(ws, 1 << 25);
	assert_int_equal(check("-o 1m t", IB_PING_BLOCK, 1 << 25, &ws), 0);
	assert_int_equal(ws, (1 << 25) - (1 << 20));
	assert_int_equal(check("-S 1g t", IB_PING_FILE, 4 << 20, &ws), -EINVAL);
	assert_string_equal(d.msg, "target is too small for this");
	assert_int_equal(check("-S 2m -o 3m t", IB_PING_FILE, 4 << 20, &ws), -EINVAL);
	assert_string_equal(d.msg, "target is too small for this");
	assert_int_equal(check("-s 64m t", IB_PING_FILE, 4 << 20, &ws), -EINVAL);
	assert_string_equal(d.msg, "request size is too big for this target");
	assert_int_equal(check("-S 8k -s 16k t", IB_PING_DIR, 0, &ws), -EINVAL);
	assert_string_equal(d.msg, "request size is too big for this target");
	assert_int_equal(check("-R t", IB_PING_DIR, 0, &ws), 0);
	assert_int_equal(ws, 64 << 20);
	assert_int_equal(check("-o 1m t", IB_PING_CHAR, 0, &ws), 0);
	assert_int_equal(ws, 1 << 20);
}

static void test_usage(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	ib_ping_usage(f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: iobench ping [OPTION...] DIRECTORY|FILE|DEVICE\n"));
	for (const char *p = "ACDGLNHWYRkabceisSowlrtTBIJpPqhv"; *p; p++) {
		char opt[4] = { '-', *p, ',', 0 };

		assert_non_null(strstr(buf, opt));
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_flag_effects),
		cmocka_unit_test(test_rapid),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_target_checks),
		cmocka_unit_test(test_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
