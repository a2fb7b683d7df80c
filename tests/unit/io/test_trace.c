// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace readers (include/iobench/trace.h): exact records of fio iologs
 * (v2, v3, several files, gzip, stdin) and of blktrace records built here
 * in both byte orders (per-CPU files merged, the merge_blktrace function),
 * and the exact diag line of every kind of bad trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>
#include "iobench/trace.h"

static char dir[] = "/dev/shm/ib_trace_XXXXXX";

#define MAX_RECS 64

struct recs {
	struct ib_trace_rec r[MAX_RECS];
	char names[MAX_RECS][64];
	unsigned int n;
};

static const char *path(const char *name)
{
	static char p[4][PATH_MAX];
	static unsigned int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

static void put_file(const char *name, const void *data, size_t len)
{
	FILE *f = fopen(path(name), "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void put_text(const char *name, const char *text)
{
	put_file(name, text, strlen(text));
}

/* Every record of spec into *out; returns the reader's last result. */
static int read_all(const char *spec, struct recs *out, struct ib_diag *d)
{
	struct ib_trace *t;
	int r = ib_trace_open(&t, spec, d);

	memset(out, 0, sizeof(*out));
	if (r < 0)
		return r;
	while (out->n < MAX_RECS && (r = ib_trace_next(t, &out->r[out->n], d)) > 0) {
		if (out->r[out->n].name)
			snprintf(out->names[out->n], 64, "%s", out->r[out->n].name);
		out->n++;
	}
	ib_trace_close(t);
	return r;
}

static void check(const struct recs *rs, unsigned int i, enum ib_trace_op op,
		  const char *name, uint64_t off, uint64_t len, uint64_t ts,
		  uint64_t recno)
{
	const struct ib_trace_rec *r = &rs->r[i];

	assert_true(i < rs->n);
	assert_int_equal(r->op, op);
	if (name)
		assert_string_equal(rs->names[i], name);
	else
		assert_null(r->name);
	assert_int_equal(r->offset, off);
	assert_int_equal(r->len, len);
	assert_int_equal(r->ts_ns, ts);
	assert_int_equal(r->recno, recno);
}

static void expect_error(const char *spec, int err, const char *fmt, ...)
{
	char want[IB_DIAG_LEN];
	struct ib_diag d = { { 0 } };
	struct recs rs;
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	r = read_all(spec, &rs, &d);
	assert_string_equal(d.msg, want);
	assert_int_equal(r, -err);
}

static const char v2_all[] =
	"fio version 2 iolog\n"
	"# a comment\n"
	"/dev/a add\n"
	"/dev/b add\n"
	"\n"
	"/dev/a open\n"
	"  /dev/b\topen  \n"
	"/dev/a read 0 4096\n"
	"/dev/a write 4096 8192\n"
	"/dev/b trim 1048576 65536\n"
	"/dev/a sync 0 0\n"
	"/dev/b datasync 0 0\n"
	"/dev/a wait 5000 0\n"
	"/dev/a close\n"
	"/dev/b close\r\n";

static void check_v2_all(const struct recs *rs)
{
	assert_int_equal(rs->n, 12);
	check(rs, 0, IB_TRACE_ADD, "/dev/a", 0, 0, 0, 3);
	check(rs, 1, IB_TRACE_ADD, "/dev/b", 0, 0, 0, 4);
	check(rs, 2, IB_TRACE_OPEN, "/dev/a", 0, 0, 0, 6);
	check(rs, 3, IB_TRACE_OPEN, "/dev/b", 0, 0, 0, 7);
	check(rs, 4, IB_TRACE_READ, "/dev/a", 0, 4096, 0, 8);
	check(rs, 5, IB_TRACE_WRITE, "/dev/a", 4096, 8192, 0, 9);
	check(rs, 6, IB_TRACE_TRIM, "/dev/b", 1048576, 65536, 0, 10);
	check(rs, 7, IB_TRACE_SYNC, "/dev/a", 0, 0, 0, 11);
	check(rs, 8, IB_TRACE_DATASYNC, "/dev/b", 0, 0, 0, 12);
	check(rs, 9, IB_TRACE_WAIT, NULL, 0, 0, 0, 13);
	assert_int_equal(rs->r[9].wait_us, 5000);
	check(rs, 10, IB_TRACE_CLOSE, "/dev/a", 0, 0, 0, 14);
	check(rs, 11, IB_TRACE_CLOSE, "/dev/b", 0, 0, 0, 15);
	assert_int_equal(rs->r[4].file, 0);
	assert_int_equal(rs->r[6].file, 1);
}

static void test_v2_every_action(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_trace *t;
	struct recs rs;

	(void)state;
	put_text("v2.log", v2_all);
	assert_int_equal(read_all(path("v2.log"), &rs, &d), 0);
	check_v2_all(&rs);
	assert_int_equal(ib_trace_open(&t, path("v2.log"), &d), 0);
	assert_int_equal(ib_trace_format(t), IB_TRACE_IOLOG2);
	assert_int_equal(ib_trace_inputs(t), 1);
	assert_string_equal(ib_trace_input_name(t, 0), path("v2.log"));
	ib_trace_close(t);
}

static void test_v3_timestamps(void **state)
{
	struct ib_diag d = { { 0 } };
	struct recs rs;

	(void)state;
	put_text("v3.log", "fio version 3 iolog\n"
		 "22 /f add\n"
		 "122 /f open\n"
		 "126 /f write 0 4096\n"
		 "100129 /f read 4096 512\n"
		 "300180 /f close\n");
	assert_int_equal(read_all(path("v3.log"), &rs, &d), 0);
	assert_int_equal(rs.n, 5);
	check(&rs, 0, IB_TRACE_ADD, "/f", 0, 0, 22000, 2);
	check(&rs, 1, IB_TRACE_OPEN, "/f", 0, 0, 122000, 3);
	check(&rs, 2, IB_TRACE_WRITE, "/f", 0, 4096, 126000, 4);
	check(&rs, 3, IB_TRACE_READ, "/f", 4096, 512, 100129000, 5);
	check(&rs, 4, IB_TRACE_CLOSE, "/f", 0, 0, 300180000, 6);
}

/* v3 inputs merge by time (a tie: the first input first). */
static void test_v3_several_merged(void **state)
{
	struct ib_diag d = { { 0 } };
	char spec[2 * PATH_MAX];
	struct recs rs;

	(void)state;
	put_text("m1.log", "fio version 3 iolog\n0 /x add\n10 /x read 0 1\n"
		 "30 /x read 1 1\n");
	put_text("m2.log", "fio version 3 iolog\n5 /y add\n10 /y write 0 2\n"
		 "20 /x write 9 9\n");
	snprintf(spec, sizeof(spec), "%s:%s", path("m1.log"), path("m2.log"));
	assert_int_equal(read_all(spec, &rs, &d), 0);
	assert_int_equal(rs.n, 6);
	check(&rs, 0, IB_TRACE_ADD, "/x", 0, 0, 0, 2);
	check(&rs, 1, IB_TRACE_ADD, "/y", 0, 0, 5000, 2);
	check(&rs, 2, IB_TRACE_READ, "/x", 0, 1, 10000, 3);
	check(&rs, 3, IB_TRACE_WRITE, "/y", 0, 2, 10000, 3);
	check(&rs, 4, IB_TRACE_WRITE, "/x", 9, 9, 20000, 4);
	check(&rs, 5, IB_TRACE_READ, "/x", 1, 1, 30000, 4);
	assert_int_equal(rs.r[0].input, 0);
	assert_int_equal(rs.r[1].input, 1);
	assert_int_equal(rs.r[4].input, 1);
	assert_int_equal(rs.r[4].file, 0);	/* one name table for all */
	assert_int_equal(rs.r[3].file, 1);
}

/* Any v2 input: the inputs one after the other. */
static void test_v2_several_in_order(void **state)
{
	struct ib_diag d = { { 0 } };
	char spec[2 * PATH_MAX];
	struct recs rs;

	(void)state;
	put_text("o1.log", "fio version 2 iolog\n/p add\n/p read 0 8\n");
	put_text("o2.log", "fio version 3 iolog\n0 /q add\n1 /p write 8 8\n");
	snprintf(spec, sizeof(spec), "%s:%s", path("o1.log"), path("o2.log"));
	assert_int_equal(read_all(spec, &rs, &d), 0);
	assert_int_equal(rs.n, 4);
	check(&rs, 0, IB_TRACE_ADD, "/p", 0, 0, 0, 2);
	check(&rs, 1, IB_TRACE_READ, "/p", 0, 8, 0, 3);
	check(&rs, 2, IB_TRACE_ADD, "/q", 0, 0, 0, 2);
	check(&rs, 3, IB_TRACE_WRITE, "/p", 8, 8, 1000, 3);
	assert_int_equal(rs.r[3].input, 1);
}

static void test_gzip(void **state)
{
	struct ib_diag d = { { 0 } };
	gzFile gz = gzopen(path("v2.log.gz"), "wb9");
	struct recs rs;

	(void)state;
	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, v2_all, sizeof(v2_all) - 1),
			 sizeof(v2_all) - 1);
	assert_int_equal(gzclose(gz), Z_OK);
	assert_int_equal(read_all(path("v2.log.gz"), &rs, &d), 0);
	check_v2_all(&rs);
}

/* A gzip file cut short: its records, then an error, not a quiet end. */
static void test_gzip_truncated(void **state)
{
	struct ib_diag d = { { 0 } };
	char want[IB_DIAG_LEN];
	unsigned char buf[1024];
	struct recs rs;
	FILE *f;
	size_t n;

	(void)state;
	f = fopen(path("v2.log.gz"), "rb");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n > 10 && n < sizeof(buf));
	put_file("cut.log.gz", buf, n - 4);
	assert_int_equal(read_all(path("cut.log.gz"), &rs, &d), -EIO);
	assert_int_equal(rs.n, 12);
	snprintf(want, sizeof(want), "%s: line 16: gzip: unexpected end of file",
		 path("cut.log.gz"));
	assert_string_equal(d.msg, want);
	buf[n / 2] ^= 0xff;	/* corrupt deflate data */
	put_file("bad.log.gz", buf, n);
	assert_true(read_all(path("bad.log.gz"), &rs, &d) < 0);
	assert_non_null(strstr(d.msg, ": gzip: "));
}

static void test_stdin_pipe(void **state)
{
	struct ib_diag d = { { 0 } };
	int p[2], saved = dup(STDIN_FILENO);
	struct recs rs;

	(void)state;
	assert_true(saved >= 0);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], v2_all, sizeof(v2_all) - 1),
			 sizeof(v2_all) - 1);
	close(p[1]);
	assert_int_equal(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
	close(p[0]);
	assert_int_equal(read_all("-", &rs, &d), 0);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	check_v2_all(&rs);
	assert_string_equal(rs.names[4], "/dev/a");
}

static void test_iolog_errors(void **state)
{
	char f[PATH_MAX];

	snprintf(f, sizeof(f), "%s", path("bad.log"));

	(void)state;
	put_text("bad.log", "fio version 4 iolog\n/a add\n");
	expect_error(f, EINVAL, "%s: line 1: not a trace (neither blktrace records nor a 'fio version 2 iolog' or 'fio version 3 iolog' header)", f);
	put_text("bad.log", "fio version 2 iolog\n/a add\n/a wirte 0 1\n");
	expect_error(f, EINVAL, "%s: line 3: bad action 'wirte'", f);
	put_text("bad.log", "fio version 2 iolog\n/a add\n/a read 0\n");
	expect_error(f, EINVAL, "%s: line 3: missing offset and length after 'read'", f);
	put_text("bad.log", "fio version 2 iolog\n/a\n");
	expect_error(f, EINVAL, "%s: line 2: missing action after '/a'", f);
	put_text("bad.log", "fio version 2 iolog\n/a add\n/a read -4096 4096\n");
	expect_error(f, EINVAL, "%s: line 3: bad offset '-4096'", f);
	put_text("bad.log", "fio version 2 iolog\n/a add\n/a read 0 -1\n");
	expect_error(f, EINVAL, "%s: line 3: bad length '-1'", f);
	put_text("bad.log", "fio version 2 iolog\n/a add\n/a read 0 18446744073709551616\n");
	expect_error(f, EINVAL, "%s: line 3: bad length '18446744073709551616'", f);
	put_text("bad.log", "fio version 2 iolog\n/a add\n/a read 0 1 x\n");
	expect_error(f, EINVAL, "%s: line 3: trailing text 'x'", f);
	put_text("bad.log", "fio version 2 iolog\n/a add 0 1\n");
	expect_error(f, EINVAL, "%s: line 2: no offset and length after 'add'", f);
	put_text("bad.log", "fio version 2 iolog\n/c open\n");
	expect_error(f, EINVAL, "%s: line 2: file not added before '/c'", f);
	put_text("bad.log", "fio version 3 iolog\n1 /a add\n2 /a wait 10 0\n");
	expect_error(f, EINVAL, "%s: line 3: version 3 has no action 'wait'", f);
	put_text("bad.log", "fio version 3 iolog\n-1 /a add\n");
	expect_error(f, EINVAL, "%s: line 2: bad timestamp '-1'", f);
	put_text("bad.log", "fio version 3 iolog\n7\n");
	expect_error(f, EINVAL, "%s: line 2: missing file name after '7'", f);
	put_text("bad.log", "");
	expect_error(f, EINVAL, "%s: empty file, not a trace", f);
	put_file("bad.log", "fio version 2 iolog\n/a\0add\n", 27);
	expect_error(f, EINVAL, "%s: line 2: binary data, not text", f);
	put_file("bad.log", "\x7f\0\1\2junk", 8);
	expect_error(f, EINVAL, "%s: line 1: not a trace (neither blktrace records nor a 'fio version 2 iolog' or 'fio version 3 iolog' header)", f);
	expect_error(path("nonexistent"), ENOENT, "%s: No such file or directory",
		     path("nonexistent"));
	expect_error("-:-", EINVAL, "-: standard input named twice");
	expect_error("a-:-:b:-", EINVAL, "-: standard input named twice");
	expect_error("::", EINVAL, "read_iolog: no file named in '::'");
}

static void test_long_line(void **state)
{
	char *text = malloc(8192), f[PATH_MAX];

	snprintf(f, sizeof(f), "%s", path("long.log"));

	(void)state;
	assert_non_null(text);
	strcpy(text, "fio version 2 iolog\n/");
	memset(text + 21, 'a', 5000);
	strcpy(text + 5021, " add\n");
	put_text("long.log", text);
	free(text);
	expect_error(f, EINVAL, "%s: line 2: longer than 4095 bytes", f);
}

/* After an error, next() returns it again; and a bad line ends the trace
 * only where it is: the records before it came out. */
static void test_error_sticky(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_trace_rec rec;
	struct ib_trace *t;
	char want[IB_DIAG_LEN];

	(void)state;
	put_text("st.log", "fio version 2 iolog\n/a add\n/a bogus\n");
	assert_int_equal(ib_trace_open(&t, path("st.log"), &d), 0);
	assert_int_equal(ib_trace_next(t, &rec, &d), 1);
	assert_int_equal(rec.op, IB_TRACE_ADD);
	assert_int_equal(ib_trace_next(t, &rec, &d), -EINVAL);
	snprintf(want, sizeof(want), "%s: line 3: bad action 'bogus'", path("st.log"));
	assert_string_equal(d.msg, want);
	d.msg[0] = '\0';
	assert_int_equal(ib_trace_next(t, &rec, &d), -EINVAL);
	assert_string_equal(d.msg, want);
	ib_trace_close(t);
}

static void test_check_extent(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_trace_rec rec;
	struct ib_trace *t;
	char want[IB_DIAG_LEN];

	(void)state;
	put_text("ext.log", "fio version 2 iolog\n/a add\n/a write 1044480 8192\n");
	assert_int_equal(ib_trace_open(&t, path("ext.log"), &d), 0);
	assert_int_equal(ib_trace_next(t, &rec, &d), 1);
	assert_int_equal(ib_trace_check_extent(t, &rec, "/dev/loop9", 4096, &d), 0);
	assert_int_equal(ib_trace_next(t, &rec, &d), 1);
	assert_int_equal(ib_trace_check_extent(t, &rec, "/dev/loop9", 1052672, &d), 0);
	assert_int_equal(ib_trace_check_extent(t, &rec, "/dev/loop9", 1048576, &d),
			 -EINVAL);
	snprintf(want, sizeof(want), "%s: line 3: write at offset 1044480 length 8192 ends beyond /dev/loop9 (1048576 bytes)",
		 path("ext.log"));
	assert_string_equal(d.msg, want);
	ib_trace_close(t);
}

/* ---- blktrace ---------------------------------------------------------- */

#define Q 1u			/* queue */
#define C 8u			/* complete */
#define TC(b) ((uint32_t)(b) << 16)
#define R TC(1)
#define W TC(2)
#define FL TC(4)
#define QU TC(0x10)
#define NOTIFY TC(0x400)
#define DISC TC(0x2000)

struct bt {
	uint8_t buf[4096];
	size_t len;
	bool big;
};

static void bt_put(struct bt *b, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		b->buf[b->len + i] = (uint8_t)(v >> (8 * (b->big ? n - 1 - i : i)));
	b->len += n;
}

static void bt_rec(struct bt *b, uint64_t time, uint64_t sector,
		   uint32_t bytes, uint32_t action, uint16_t pdu)
{
	bt_put(b, 0x65617407, 4);
	bt_put(b, 1, 4);
	bt_put(b, time, 8);
	bt_put(b, sector, 8);
	bt_put(b, bytes, 4);
	bt_put(b, action, 4);
	bt_put(b, 4242, 4);		/* pid */
	bt_put(b, (7u << 20) | 3, 4);	/* loop3 */
	bt_put(b, 1, 4);		/* cpu */
	bt_put(b, 0, 2);
	bt_put(b, pdu, 2);
	memset(b->buf + b->len, 0xee, pdu);
	b->len += pdu;
}

/* One of each kind: what becomes an I/O and what does not. */
static void bt_sample(struct bt *b, bool big)
{
	memset(b, 0, sizeof(*b));
	b->big = big;
	bt_rec(b, 1000, 8, 4096, Q | QU | W, 0);
	bt_rec(b, 1500, 0, 0, 9 | QU, 0);			/* plug */
	bt_rec(b, 1600, 0, 0, 10 | QU, 8);			/* unplug + pdu */
	bt_rec(b, 2000, 8, 4096, C | TC(0x80) | W, 0);		/* complete */
	bt_rec(b, 3000, 2048, 65536, Q | QU | R, 0);
	bt_rec(b, 3500, 0, 0, 2 | NOTIFY, 16);			/* a message */
	bt_rec(b, 4000, 100, 1 << 20, Q | QU | W | DISC, 0);
	bt_rec(b, 5000, 0, 0, Q | QU | R | FL, 0);
	bt_rec(b, 6000, 16, 512, Q | QU | W | FL, 0);		/* preflush write */
	bt_rec(b, 7000, 24, 0, Q | QU | R, 0);			/* nothing */
}

static void check_sample(const struct recs *rs)
{
	assert_int_equal(rs->n, 5);
	check(rs, 0, IB_TRACE_WRITE, NULL, 4096, 4096, 0, 1);
	check(rs, 1, IB_TRACE_READ, NULL, 1048576, 65536, 2000, 5);
	check(rs, 2, IB_TRACE_TRIM, NULL, 51200, 1 << 20, 3000, 7);
	check(rs, 3, IB_TRACE_SYNC, NULL, 0, 0, 4000, 8);
	check(rs, 4, IB_TRACE_WRITE, NULL, 8192, 512, 5000, 9);
	assert_int_equal(rs->r[0].pid, 4242);
	assert_int_equal(rs->r[0].dev, (7u << 20) | 3);
}

static void test_blktrace_both_orders(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_trace *t;
	struct recs rs;
	struct bt b;

	(void)state;
	bt_sample(&b, false);
	put_file("le.bin", b.buf, b.len);
	assert_int_equal(read_all(path("le.bin"), &rs, &d), 0);
	check_sample(&rs);
	bt_sample(&b, true);
	put_file("be.bin", b.buf, b.len);
	assert_int_equal(read_all(path("be.bin"), &rs, &d), 0);
	check_sample(&rs);
	assert_int_equal(ib_trace_open(&t, path("be.bin"), &d), 0);
	assert_int_equal(ib_trace_format(t), IB_TRACE_BLKTRACE);
	ib_trace_close(t);
}

static void test_blktrace_errors(void **state)
{
	char f[PATH_MAX];
	struct bt b;

	snprintf(f, sizeof(f), "%s", path("bt.bin"));

	(void)state;
	bt_sample(&b, false);
	put_file("bt.bin", b.buf, 3 * 48 + 8 + 20);	/* 4th record cut short */
	expect_error(f, EINVAL, "%s: record 4: truncated (20 of 48 bytes)", f);
	bt_sample(&b, false);
	b.buf[48 + 2] = 0;
	put_file("bt.bin", b.buf, b.len);
	expect_error(f, EINVAL, "%s: record 2: bad magic 0x65007407 (not a blktrace record)", f);
	memcpy(b.buf + 48, "\x78\x56\x34\x12", 4);
	put_file("bt.bin", b.buf, b.len);
	expect_error(f, EINVAL, "%s: record 2: bad magic 0x12345678 (not a blktrace record)", f);
	bt_sample(&b, false);
	b.buf[0] = 0x08;
	put_file("bt.bin", b.buf, b.len);
	expect_error(f, EINVAL, "%s: record 1: blktrace version 8 (only 7 is known)", f);
	memset(&b, 0, sizeof(b));
	bt_rec(&b, 1, 0, 512, Q | QU | R, 0);
	bt_rec(&b, 2, 0, 512, Q | QU | R, 100);
	put_file("bt.bin", b.buf, 48 + 48 + 10);
	expect_error(f, EINVAL, "%s: record 2: payload of 100 bytes runs past the end of the file (10 left)", f);
	bt_sample(&b, false);
	put_file("bt.bin", b.buf, b.len);
	put_text("mix.log", "fio version 2 iolog\n");
	expect_error("bt.bin", ENOENT, "bt.bin: No such file or directory");
	{
		char spec[2 * PATH_MAX];

		snprintf(spec, sizeof(spec), "%s:%s", f, path("mix.log"));
		expect_error(spec, EINVAL, "%s: a blktrace file and an iolog cannot be read together", f);
	}
}

/* blktrace's per-CPU files: NAME or NAME.blktrace.0 stand for all. */
static void test_blktrace_percpu_merge(void **state)
{
	struct ib_diag d = { { 0 } };
	struct bt c0 = { .big = false }, c1 = { .big = false }, c2 = { .big = true };
	struct recs rs;
	unsigned int i;

	(void)state;
	bt_rec(&c0, 5000, 1, 512, Q | QU | R, 0);
	bt_rec(&c0, 9000, 2, 512, Q | QU | W, 0);
	bt_rec(&c1, 4000, 3, 1024, Q | QU | W, 4);
	bt_rec(&c1, 9000, 4, 512, Q | QU | R, 0);	/* ties cpu0's: after it */
	bt_rec(&c2, 4500, 5, 2048, Q | QU | R, 0);
	bt_rec(&c2, 12000, 6, 512, C | R, 0);
	put_file("dev.blktrace.0", c0.buf, c0.len);
	put_file("dev.blktrace.1", c1.buf, c1.len);
	put_file("dev.blktrace.2", c2.buf, c2.len);
	put_file("dev.blktrace.3", "", 0);	/* an idle CPU */
	for (i = 0; i < 2; i++) {
		assert_int_equal(read_all(path(i ? "dev.blktrace.0" : "dev"), &rs, &d), 0);
		assert_int_equal(rs.n, 5);
		check(&rs, 0, IB_TRACE_WRITE, NULL, 3 * 512, 1024, 0, 1);
		check(&rs, 1, IB_TRACE_READ, NULL, 5 * 512, 2048, 500, 1);
		check(&rs, 2, IB_TRACE_READ, NULL, 512, 512, 1000, 1);
		check(&rs, 3, IB_TRACE_WRITE, NULL, 1024, 512, 5000, 2);
		check(&rs, 4, IB_TRACE_READ, NULL, 2048, 512, 5000, 2);
		assert_int_equal(rs.r[0].input, 1);
		assert_int_equal(rs.r[1].input, 2);
		assert_int_equal(rs.r[3].input, 0);
	}
	/* another CPU's number names that file alone */
	assert_int_equal(read_all(path("dev.blktrace.2"), &rs, &d), 0);
	assert_int_equal(rs.n, 1);
	check(&rs, 0, IB_TRACE_READ, NULL, 5 * 512, 2048, 0, 1);
}

/* A: times 0/2000/4000 at 50% twice; B: 0/1500/3000 once. */
static void test_merge_scalars_iters(void **state)
{
	struct ib_diag d = { { 0 } };
	const double scal[2] = { 50, 100 };
	const unsigned int iters[2] = { 2, 1 };
	struct bt a = { .big = false }, b = { .big = true };
	char spec[2 * PATH_MAX];
	struct recs rs;

	(void)state;
	bt_rec(&a, 1000, 10, 512, Q | QU | R, 0);
	bt_rec(&a, 3000, 11, 512, Q | QU | W, 0);
	bt_rec(&a, 5000, 12, 512, Q | QU | DISC | W, 0);
	bt_rec(&b, 10, 20, 4096, Q | QU | W, 0);
	bt_rec(&b, 1510, 21, 4096, Q | QU | R, 0);
	bt_rec(&b, 3010, 22, 0, Q | QU | R | FL, 0);
	put_file("A.bin", a.buf, a.len);
	put_file("B.bin", b.buf, b.len);
	snprintf(spec, sizeof(spec), "%s:%s", path("A.bin"), path("B.bin"));
	assert_int_equal(ib_trace_merge_blktrace(spec, scal, 2, iters, 2,
						 path("AB.bin"), &d), 9);
	assert_int_equal(read_all(path("AB.bin"), &rs, &d), 0);
	assert_int_equal(rs.n, 9);
	check(&rs, 0, IB_TRACE_READ, NULL, 5120, 512, 0, 1);
	check(&rs, 1, IB_TRACE_WRITE, NULL, 10240, 4096, 0, 2);
	check(&rs, 2, IB_TRACE_WRITE, NULL, 5632, 512, 1000, 3);
	check(&rs, 3, IB_TRACE_READ, NULL, 10752, 4096, 1500, 4);
	check(&rs, 4, IB_TRACE_TRIM, NULL, 6144, 512, 2000, 5);
	check(&rs, 5, IB_TRACE_READ, NULL, 5120, 512, 2000, 6);
	check(&rs, 6, IB_TRACE_WRITE, NULL, 5632, 512, 3000, 7);
	check(&rs, 7, IB_TRACE_SYNC, NULL, 11264, 0, 3000, 8);
	check(&rs, 8, IB_TRACE_TRIM, NULL, 6144, 512, 4000, 9);
	assert_int_equal(rs.r[0].pid, 4242);
	assert_int_equal(rs.r[0].dev, (7u << 20) | 3);
	/* no knobs: both once at their own pace */
	assert_int_equal(ib_trace_merge_blktrace(spec, NULL, 0, NULL, 0,
						 path("AB1.bin"), &d), 6);
}

static void test_merge_errors(void **state)
{
	struct ib_diag d = { { 0 } };
	const double scal[3] = { 50, 100, 0 };
	const unsigned int iters[2] = { 1, 0 };
	char spec[2 * PATH_MAX], want[IB_DIAG_LEN];
	struct bt a = { .big = false };

	(void)state;
	bt_rec(&a, 1000, 10, 512, Q | QU | R, 0);
	put_file("A1.bin", a.buf, a.len);
	bt_rec(&a, 2000, 10, 512, Q | QU | R, 0);
	put_file("Acut.bin", a.buf, a.len - 1);
	snprintf(spec, sizeof(spec), "%s:%s", path("A1.bin"), path("Acut.bin"));
	assert_int_equal(ib_trace_merge_blktrace(spec, scal, 3, NULL, 0,
						 path("out.bin"), &d), -EINVAL);
	assert_string_equal(d.msg, "merge_blktrace_scalars: 3 values for 2 traces");
	assert_int_equal(ib_trace_merge_blktrace(spec, NULL, 0, iters, 2,
						 path("out.bin"), &d), -EINVAL);
	assert_string_equal(d.msg, "merge_blktrace_iters: value 2 is 0");
	assert_int_equal(ib_trace_merge_blktrace(spec, scal + 1, 2, NULL, 0,
						 path("out.bin"), &d), -EINVAL);
	assert_string_equal(d.msg, "merge_blktrace_scalars: value 2 is not above 0");
	assert_int_equal(ib_trace_merge_blktrace(spec, NULL, 0, NULL, 0,
						 path("out.bin"), &d), -EINVAL);
	snprintf(want, sizeof(want), "%s: record 2: truncated (47 of 48 bytes)",
		 path("Acut.bin"));
	assert_string_equal(d.msg, want);
	assert_int_equal(access(path("out.bin"), F_OK), -1);	/* nothing written */
	put_text("t.log", "fio version 2 iolog\n");
	snprintf(spec, sizeof(spec), "%s:%s", path("A1.bin"), path("t.log"));
	assert_int_equal(ib_trace_merge_blktrace(spec, NULL, 0, NULL, 0,
						 path("out.bin"), &d), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a blktrace capture (merge_blktrace_file merges only those)",
		 path("t.log"));
	assert_string_equal(d.msg, want);
	assert_int_equal(access(path("out.bin"), F_OK), -1);
}

static void test_encode(void **state)
{
	struct ib_trace_rec rec = { .op = IB_TRACE_WRITE, .offset = 8192,
				    .len = 4096, .pid = 7, .dev = 0x700001 };
	static const uint8_t want[48] = {
		0x07, 0x74, 0x61, 0x65, 3, 0, 0, 0,
		0x10, 0x27, 0, 0, 0, 0, 0, 0,	/* 10000 ns */
		16, 0, 0, 0, 0, 0, 0, 0,	/* sector 16 */
		0, 0x10, 0, 0,			/* 4096 bytes */
		1, 0, 0x12, 0,			/* queue, queue|write */
		7, 0, 0, 0, 1, 0, 0x70, 0,
	};
	uint8_t buf[48];

	(void)state;
	ib_trace_blktrace_encode(&rec, 10000, 3, buf);
	assert_memory_equal(buf, want, 48);
	assert_string_equal(ib_trace_op_name(IB_TRACE_DATASYNC), "datasync");
	assert_string_equal(ib_trace_op_name(IB_TRACE_NR_OPS), "?");
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2_every_action),
		cmocka_unit_test(test_v3_timestamps),
		cmocka_unit_test(test_v3_several_merged),
		cmocka_unit_test(test_v2_several_in_order),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_gzip_truncated),
		cmocka_unit_test(test_stdin_pipe),
		cmocka_unit_test(test_iolog_errors),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_error_sticky),
		cmocka_unit_test(test_check_extent),
		cmocka_unit_test(test_blktrace_both_orders),
		cmocka_unit_test(test_blktrace_errors),
		cmocka_unit_test(test_blktrace_percpu_merge),
		cmocka_unit_test(test_merge_scalars_iters),
		cmocka_unit_test(test_merge_errors),
		cmocka_unit_test(test_encode),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
