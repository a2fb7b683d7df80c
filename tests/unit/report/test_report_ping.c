// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping` output against the real ioping 1.3. tests/data/ping holds
 * what ioping printed while its clock was scripted (capture.sh,
 * fakeclock.c): every request took the latency listed here, which is also
 * what ioping's own -J output reports (checked below). replay() walks
 * ioping's request loop over the same clock, feeds the same numbers to
 * iobench's statistics and formatters and must print the same bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "iobench/ping.h"
#include "iobench/ping_out.h"

#define GAP	1000ll				/* fakeclock: before each request */
#define T0	(1000 * IB_PING_NSEC)		/* fakeclock: first reading */
#define EPOCH	(1700000000 * IB_PING_NSEC)	/* fakeclock: realtime at T0 */

/* capture.sh's latency lists */
static const int64_t lat_a[] = { 1500, 601, 2270, 11600, 9220, 1000, 4000000, 100000,
	123456789, 25000000000ll, 5400000000000ll, 999, 60000000000ll };
static const int64_t lat_b[] = { 18900, 5190, 9330, 5280 };
static const int64_t lat_p[] = { 1860, 601, 551, 641, 851, 671, 630 };
static const int64_t lat_t[] = { 1950, 6560, 10800, 3980, 5388, 7361 };
static const int64_t lat_w[] = { 1380, 891, 812 };
static const int64_t lat_rw[] = { 1300, 1260, 972, 570 };
static const int64_t lat_mm[] = { 1000, 631, 511, 1510, 491, 700, 501, 491 };
static const int64_t lat_burst[] = { 1990, 620, 561, 560, 550 };
static const int64_t lat_none[] = { 1823 };
static const int64_t lat_big[] = { 3000000, 1500000, 2500000 };
static const int64_t lat_rapid[] = { 1000000, 2000000 };

/* The targets as ioping described them (see the fixtures) */
static struct ib_ping_target tgt_dir = { "d", "tmpfs", "tmpfs", 67108864 };
/* the loop device's name changes between captures: taken from file_json */
static struct ib_ping_target tgt_file = { "mnt/f", "ext4", "", 57381888 };
static struct ib_ping_target tgt_dev = { "dev", "block", "device", 33554432 };

static char *slurp(const char *name)
{
	char path[4200], *buf;
	FILE *f;
	long len;

	snprintf(path, sizeof(path), "%s/ping/%s.out", IB_TESTS_DATA, name);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

static void parse_args(struct ib_ping_opts *o, const char *args, const char *path)
{
	static char buf[256];
	char *argv[32], *save = NULL, *tok;
	struct ib_diag d;
	int argc = 0;
	bool big;

	snprintf(buf, sizeof(buf), "ioping -e 1 %s %s", args, path);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	assert_int_equal(ib_ping_parse(o, argc, argv, &d), 0);
	assert_int_equal(ib_ping_resolve(o, &big, &d), 0);
}

/* ioping's loop state over the scripted clock */
struct loop {
	const struct ib_ping_opts *o;
	struct ib_ping_printer p;
	struct ib_ping_limits lim;
	struct ib_ping_stats part, total;
	int64_t mono, time_next, deadline, period_deadline;
	long long burst_req;
	bool stamped;	/* realtime read since the last request */
};

static int64_t realtime(const struct loop *l)
{
	return EPOCH + l->mono - T0;
}

static void one_request(FILE *f, struct loop *l, long long req, int64_t lat)
{
	const struct ib_ping_opts *o = l->o;
	struct ib_ping_req r = { .request = req, .size = o->size, .time_ns = lat };

	l->mono += GAP + lat;
	if (!o->burst || ++l->burst_req == o->burst) {
		l->burst_req = 0;
		l->time_next += o->interval_ns;
	}
	if (l->mono > l->time_next)
		l->time_next = l->mono;
	r.write = o->read_write ? (req & 1) : o->write > 0;
	r.mark = ib_ping_stats_add(&l->part, &l->lim, req, lat);
	r.realtime_ns = realtime(l);
	r.burst_end = o->burst && !l->burst_req;
	l->stamped = !o->quiet && (o->json || o->time_info);
	ib_ping_print_request(f, &l->p, &r);
	if ((o->print_count && l->part.valid >= o->print_count) ||
	    (o->print_interval_ns && l->time_next >= l->period_deadline)) {
		ib_ping_stats_finish(&l->part, l->mono, o->size);
		ib_ping_print_period(f, &l->p, &l->part, realtime(l));
		l->stamped |= o->json;
		ib_ping_stats_merge(&l->total, &l->part);
		ib_ping_stats_start(&l->part, l->mono);
		l->period_deadline = l->mono + o->print_interval_ns;
	}
}

static char *replay(const char *args, const struct ib_ping_target *t, const int64_t *lat,
		    unsigned int n)
{
	struct ib_ping_opts o;
	struct loop l = { .o = &o, .mono = T0, .time_next = T0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	long long req;
	int64_t stamp;

	parse_args(&o, args, t->path);
	l.p = (struct ib_ping_printer){ .target = t, .quiet = o.quiet, .batch = o.batch,
		.json = o.json, .time_info = o.time_info, .read_write = o.read_write,
		.write = o.write > 0, .periodic = o.print_count || o.print_interval_ns,
		.time_fmt = o.time_fmt };
	l.lim = (struct ib_ping_limits){ o.warmup, o.min_time_ns, o.max_time_ns };
	ib_ping_stats_start(&l.part, T0);
	ib_ping_stats_start(&l.total, T0);
	ib_ping_print_begin(f, &l.p);
	l.deadline = o.deadline_ns ? T0 + o.deadline_ns : 0;
	l.period_deadline = T0 + o.print_interval_ns;
	for (req = 1;; req++) {
		one_request(f, &l, req, lat[(req - 1) % n]);
		if ((o.count && req >= o.count) || (l.deadline && l.time_next >= l.deadline))
			break;
		if (l.time_next > l.mono)
			l.mono = l.time_next;	/* nanosleep */
	}
	stamp = realtime(&l);
	l.mono += GAP;
	if (!l.stamped)
		stamp = realtime(&l);
	ib_ping_stats_finish(&l.part, l.mono, o.size);
	ib_ping_stats_merge(&l.total, &l.part);
	ib_ping_stats_finish(&l.total, l.mono, o.size);
	ib_ping_print_final(f, &l.p, &l.total, stamp);
	fclose(f);
	return buf;
}

static void golden(const char *name, const char *args, const struct ib_ping_target *t,
		   const int64_t *lat, unsigned int n)
{
	char *want = slurp(name), *got = replay(args, t, lat, n);

	if (strcmp(want, got))
		fprintf(stderr, "--- ioping (%s)\n%s--- iobench\n%s", name, want, got);
	assert_string_equal(got, want);
	free(want);
	free(got);
}

#define N(a) (sizeof(a) / sizeof(a[0]))

static void test_dir(void **state)
{
	(void)state;
	golden("dir", "-c 13 -i 10ms", &tgt_dir, lat_a, N(lat_a));
	golden("dir_json", "-c 13 -i 10ms -J", &tgt_dir, lat_a, N(lat_a));
	golden("dir_batch", "-c 13 -i 10ms -B", &tgt_dir, lat_a, N(lat_a));
	golden("dir_time", "-c 3 -i 10ms -I", &tgt_dir, lat_a, N(lat_a));
	golden("dir_quiet", "-c 13 -i 10ms -q", &tgt_dir, lat_a, N(lat_a));
}

static char *slurp(const char *name);

/* The "device" ioping reported in a -J fixture */
static void json_device(const char *name, char *dev, size_t len)
{
	char *text = slurp(name), *p = strstr(text, "\n    \"device\": \"");

	assert_non_null(p);
	p += strlen("\n    \"device\": \"");
	snprintf(dev, len, "%.*s", (int)strcspn(p, "\""), p);
	free(text);
}

static void test_file_dev(void **state)
{
	(void)state;
	json_device("file_json", tgt_file.device, sizeof(tgt_file.device));
	assert_int_equal(strncmp(tgt_file.device, "/dev/loop", 9), 0);
	golden("file_write", "-c 3 -i 0 -WWW", &tgt_file, lat_b, N(lat_b));
	golden("file", "-c 4 -i 0", &tgt_file, lat_b, N(lat_b));
	golden("file_json", "-c 4 -i 0 -J", &tgt_file, lat_b, N(lat_b));
	golden("dev", "-c 4 -i 0", &tgt_dev, lat_b, N(lat_b));
	golden("dev_json", "-c 2 -i 0 -J", &tgt_dev, lat_b, N(lat_b));
	golden("dev_batch", "-c 4 -i 0 -B", &tgt_dev, lat_b, N(lat_b));
}

static void test_periods(void **state)
{
	(void)state;
	golden("period", "-c 7 -i 0 -p 3", &tgt_dir, lat_p, N(lat_p));
	golden("period_quiet", "-c 7 -i 0 -p 3 -q", &tgt_dir, lat_p, N(lat_p));
	golden("period_batch", "-c 5 -i 0 -p 2 -B", &tgt_dir, lat_p, N(lat_p));
	golden("period_json", "-c 4 -i 0 -p 2 -J", &tgt_dir, lat_p, N(lat_p));
	golden("ptime", "-w 1s -i 100ms -P 300ms", &tgt_dir, lat_t, N(lat_t));
	golden("ptime_quiet", "-w 1s -i 100ms -P 300ms -q", &tgt_dir, lat_t, N(lat_t));
}

static void test_modes(void **state)
{
	(void)state;
	golden("write", "-c 3 -i 0 -W", &tgt_dir, lat_w, N(lat_w));
	golden("rw", "-c 4 -i 0 -G", &tgt_dir, lat_rw, N(lat_rw));
	golden("rw_json", "-c 2 -i 0 -G -J", &tgt_dir, lat_rw, N(lat_rw));
	golden("minmax", "-c 8 -i 0 -t 600ns -T 1us", &tgt_dir, lat_mm, N(lat_mm));
	golden("burst", "-c 5 -i 0 -b 2", &tgt_dir, lat_burst, N(lat_burst));
	golden("none", "-c 1 -i 0", &tgt_dir, lat_none, N(lat_none));
	golden("none_batch", "-c 1 -i 0 -B", &tgt_dir, lat_none, N(lat_none));
	golden("big", "-c 3 -i 0 -s 1m -S 8m", &tgt_dir, lat_big, N(lat_big));
	golden("linear", "-c 3 -i 0 -L -S 1m", &tgt_dir, lat_b, N(lat_b));
	golden("odd_size", "-c 2 -i 0 -s 1536", &tgt_dir, lat_b, N(lat_b));
	golden("rapid", "-R -S 1m", &tgt_dir, lat_rapid, N(lat_rapid));
	golden("json_quiet", "-c 5 -i 0 -p 2 -q -J", &tgt_dir, lat_p, N(lat_p));
	golden("json_time", "-c 2 -i 0 -J -I%s", &tgt_dir, lat_b, N(lat_b));
}

/* The latencies above are the ones ioping itself reported in its -J output */
static void json_times(const char *name, const int64_t *lat, unsigned int n)
{
	char *text = slurp(name), *line, *save = NULL;
	bool in_io = false;
	unsigned int i = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "  \"io\": {"))
			in_io = true;
		else if (!strncmp(line, "  }", 3))
			in_io = false;
		else if (in_io && !strncmp(line, "    \"time\": ", 12))
			assert_int_equal(strtoll(line + 12, NULL, 10), lat[i++ % n]);
	}
	assert_true(i > 0);
	free(text);
}

static void test_latencies_from_ioping(void **state)
{
	(void)state;
	json_times("dir_json", lat_a, N(lat_a));
	json_times("file_json", lat_b, N(lat_b));
	json_times("dev_json", lat_b, N(lat_b));
	json_times("period_json", lat_p, N(lat_p));
	json_times("rw_json", lat_rw, N(lat_rw));
}

static const char *sz(long long v)
{
	static char b[32];

	return ib_ping_fmt_size(v, b, sizeof(b));
}

static const char *tm(long long v)
{
	static char b[32];

	return ib_ping_fmt_time(v, b, sizeof(b));
}

static const char *it(long long v)
{
	static char b[32];

	return ib_ping_fmt_int(v, b, sizeof(b));
}

/* Units and rounding, with lines of real ioping runs on this machine */
static void test_units(void **state)
{
	(void)state;
	assert_string_equal(sz(4096), "4 KiB");
	assert_string_equal(sz(1000), "1000 B");
	assert_string_equal(sz(0), "0 B");
	assert_string_equal(sz(25276510208ll), "23.5 GiB");
	assert_string_equal(sz(57381888), "54.7 MiB");
	assert_string_equal(sz(33554432), "32 MiB");
	assert_string_equal(sz(1071443968), "1021.8 MiB");
	assert_string_equal(sz(1536), "1.50 KiB");
	assert_string_equal(sz(1ll << 50), "1 PiB");
	assert_string_equal(sz(1ll << 60), "1024 PiB");
	assert_string_equal(tm(601), "601 ns");
	assert_string_equal(tm(1000), "1 us");
	assert_string_equal(tm(2270), "2.27 us");
	assert_string_equal(tm(9999), "10.00 us");
	assert_string_equal(tm(10000), "10 us");
	assert_string_equal(tm(11600), "11.6 us");
	assert_string_equal(tm(123456789), "123.5 ms");
	assert_string_equal(tm(25000000000ll), "25 s");
	assert_string_equal(tm(90000000000ll), "1.50 min");
	assert_string_equal(tm(5400000000000ll), "1.50 hour");
	assert_string_equal(tm(0), "0 ns");
	assert_string_equal(it(0), "0");
	assert_string_equal(it(148), "148");
	assert_string_equal(it(1990), "1.99 k");
	assert_string_equal(it(96100), "96.1 k");
	assert_string_equal(it(1520000), "1.52 M");
	assert_string_equal(it(3000000000ll), "3 G");
	assert_string_equal(it(12000000000000ll), "12 T");
}

/* The marks: warmup by number, too fast/slow by limit, fast/slow after 5 valid */
static void test_marks(void **state)
{
	struct ib_ping_limits l = { 2, 100, 10000 };
	struct ib_ping_stats s;

	(void)state;
	ib_ping_stats_start(&s, 0);
	assert_int_equal(ib_ping_stats_add(&s, &l, 1, 5), IB_PING_MARK_WARMUP);
	assert_int_equal(ib_ping_stats_add(&s, &l, 2, 50000), IB_PING_MARK_WARMUP);
	assert_int_equal(ib_ping_stats_add(&s, &l, 3, 99), IB_PING_MARK_TOO_FAST);
	assert_int_equal(ib_ping_stats_add(&s, &l, 4, 10001), IB_PING_MARK_TOO_SLOW);
	for (long long r = 5; r < 10; r++)
		assert_int_equal(ib_ping_stats_add(&s, &l, r, 1000), IB_PING_MARK_NONE);
	/* 6th valid: avg (5000 + 1100) / 6 = 1016; 1100 is neither */
	assert_int_equal(ib_ping_stats_add(&s, &l, 10, 1100), IB_PING_MARK_NONE);
	assert_int_equal(ib_ping_stats_add(&s, &l, 11, 5000), IB_PING_MARK_SLOW);
	assert_int_equal(ib_ping_stats_add(&s, &l, 12, 400), IB_PING_MARK_FAST);
	assert_int_equal(s.count, 12);
	assert_int_equal(s.valid, 8);
	assert_int_equal(s.too_fast, 1);
	assert_int_equal(s.too_slow, 1);
	assert_int_equal(s.min, 400);
	assert_int_equal(s.max, 5000);
	assert_string_equal(ib_ping_mark_name(IB_PING_MARK_TOO_FAST), "too fast");
	assert_string_equal(ib_ping_mark_name(IB_PING_MARK_EAGAIN), "EAGAIN");
	assert_null(ib_ping_mark_name(IB_PING_MARK_NONE));
	assert_false(ib_ping_mark_valid(IB_PING_MARK_WARMUP));
	assert_true(ib_ping_mark_valid(IB_PING_MARK_SLOW));
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void cleanup(const char *root)
{
	static const char *const names[] = { "proc/self/mountinfo", "proc/mounts",
		"dev/vda1", "dev/root", "dev/sdz", "proc/self", "proc", "dev", "" };
	char path[512];

	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		assert_int_equal(remove(path), 0);
	}
}

/* ROOT/proc/self/mountinfo, ROOT/proc/mounts, ROOT/dev/{vda1,root->vda1,sdz->/dev/null} */
static void make_root(char *root)
{
	char path[512];

	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/self", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/dev", root);
	assert_int_equal(mkdir(path, 0700), 0);
	put(root, "dev/vda1", "");
	snprintf(path, sizeof(path), "%s/dev/root", root);
	assert_int_equal(symlink("vda1", path), 0);
	snprintf(path, sizeof(path), "%s/dev/sdz", root);
	assert_int_equal(symlink("/dev/null", path), 0);
	put(root, "proc/self/mountinfo",
	    "22 1 0:21 / /proc rw - proc proc rw\n"
	    "25 1 253:1 / / rw,relatime shared:1 - ext4 /dev/root rw\n"
	    "30 25 0:27 / /dev/shm rw - tmpfs tmpfs rw,size=1k\n");
	put(root, "proc/mounts", "/dev/sdz /data xfs rw 0 0\n");
}

/* mountinfo, realpath under the root, the /proc/mounts fallback, nothing */
static void test_describe_fs(void **state)
{
	char root[] = "/dev/shm/ib_ping_rootXXXXXX";
	struct ib_ping_target t = { 0 };
	struct ib_diag d;
	struct stat st;

	(void)state;
	make_root(root);
	assert_int_equal(ib_ping_describe_fs(root, makedev(253, 1), &t, &d), 0);
	assert_string_equal(t.fstype, "ext4");
	assert_string_equal(t.device, "/dev/vda1");
	assert_int_equal(ib_ping_describe_fs(root, makedev(0, 27), &t, &d), 0);
	assert_string_equal(t.fstype, "tmpfs");
	assert_string_equal(t.device, "tmpfs");
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_int_equal(ib_ping_describe_fs(root, st.st_rdev, &t, &d), 0);
	assert_string_equal(t.fstype, "xfs");
	assert_string_equal(t.device, "/dev/sdz");
	assert_int_equal(ib_ping_describe_fs(root, makedev(9, 9), &t, &d), 0);
	assert_string_equal(t.fstype, "");
	assert_string_equal(t.device, "");
	/* the real machine: /dev/shm is a tmpfs */
	assert_int_equal(stat("/dev/shm", &st), 0);
	assert_int_equal(ib_ping_describe_fs(NULL, st.st_dev, &t, &d), 0);
	assert_string_equal(t.fstype, "tmpfs");
	assert_string_equal(t.device, "tmpfs");
	ib_ping_describe_dev(&t, IB_PING_BLOCK, 33554432);
	assert_string_equal(t.fstype, "block");
	assert_string_equal(t.device, "device");
	assert_int_equal(t.device_size, 33554432);
	ib_ping_describe_dev(&t, IB_PING_CHAR, 5);
	assert_string_equal(t.fstype, "character");
	assert_int_equal(t.device_size, 0);
	cleanup(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_file_dev),
		cmocka_unit_test(test_periods),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_latencies_from_ioping),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_describe_fs),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
