// SPDX-License-Identifier: GPL-2.0-only
/*
 * blktrace's binary records (the layout of struct blk_io_trace in the
 * kernel's uapi blktrace_api.h, version 7), read by iobench itself: no
 * Debian package ships a library for them. Each record is 48 bytes:
 *
 *   u32 magic (0x65617400 | version)   u32 sequence
 *   u64 time (ns)                      u64 sector (512 B)
 *   u32 bytes   u32 action   u32 pid   u32 device   u32 cpu
 *   u16 error   u16 pdu_len            then pdu_len bytes of payload
 *
 * in the byte order of the machine that traced (told by the magic). Like
 * fio, only queue events become I/Os (the others are what the block layer
 * did with them): action & 0xffff == 1, neither a notify nor a SCSI
 * passthrough. Category bits (action >> 16) give the direction: discard ->
 * trim, write -> write, else read; a flush with no data -> sync (a write
 * with a preflush stays a write).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "trace_priv.h"

#define BLK_MAGIC 0x65617400u
#define BLK_VERSION 0x07u
#define BLK_TA_QUEUE 1u
#define BLK_TC(bit) ((uint32_t)(bit) << 16)
#define TC_READ BLK_TC(1u << 0)
#define TC_WRITE BLK_TC(1u << 1)
#define TC_FLUSH BLK_TC(1u << 2)
#define TC_QUEUE BLK_TC(1u << 4)
#define TC_PC BLK_TC(1u << 9)
#define TC_NOTIFY BLK_TC(1u << 10)
#define TC_DISCARD BLK_TC(1u << 13)

struct blk_rec {
	uint32_t magic, seq;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

static uint64_t get(const uint8_t *p, unsigned int n, bool big)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static void put(uint8_t *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

bool ib_trace_blktrace_magic(const unsigned char *p, size_t n, bool *big)
{
	if (n < 4)
		return false;
	if ((get(p, 4, false) & 0xffffff00u) == BLK_MAGIC)
		*big = false;
	else if ((get(p, 4, true) & 0xffffff00u) == BLK_MAGIC)
		*big = true;
	else
		return false;
	return true;
}

static void decode(const uint8_t *p, bool big, struct blk_rec *b)
{
	b->magic = (uint32_t)get(p, 4, big);
	b->seq = (uint32_t)get(p + 4, 4, big);
	b->time = get(p + 8, 8, big);
	b->sector = get(p + 16, 8, big);
	b->bytes = (uint32_t)get(p + 24, 4, big);
	b->action = (uint32_t)get(p + 28, 4, big);
	b->pid = (uint32_t)get(p + 32, 4, big);
	b->device = (uint32_t)get(p + 36, 4, big);
	b->cpu = (uint32_t)get(p + 40, 4, big);
	b->error = (uint16_t)get(p + 44, 2, big);
	b->pdu_len = (uint16_t)get(p + 46, 2, big);
}

static int rec_error(const struct ib_trace_src *s, struct ib_diag *d,
		     const char *fmt, ...) ib_printf_fmt(3, 4);

static int rec_error(const struct ib_trace_src *s, struct ib_diag *d,
		     const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ib_diag_set(d, EINVAL, "%s: record %llu: %s", s->name,
			   (unsigned long long)s->recno, msg);
}

/* The next record and its payload skipped: 1, 0 at the end, -errno. */
static int read_rec(struct ib_trace_src *s, struct blk_rec *b,
		    struct ib_diag *d)
{
	uint8_t raw[IB_BLKTRACE_REC];
	ssize_t n = ib_trace_src_read(s, raw, sizeof(raw), d);

	if (n <= 0)
		return (int)n;
	s->recno++;
	if (n < (ssize_t)sizeof(raw))
		return rec_error(s, d, "truncated (%zd of %zu bytes)", n,
				 sizeof(raw));
	decode(raw, s->swap, b);
	if ((b->magic & 0xffffff00u) != BLK_MAGIC)
		return rec_error(s, d, "bad magic 0x%08x (not a blktrace record)",
				 b->magic);
	if ((b->magic & 0xff) != BLK_VERSION)
		return rec_error(s, d, "blktrace version %u (only %u is known)",
				 b->magic & 0xff, BLK_VERSION);
	n = ib_trace_src_read(s, NULL, b->pdu_len, d);
	if (n < 0)
		return (int)n;
	if (n < b->pdu_len)
		return rec_error(s, d, "payload of %u bytes runs past the end of the file (%zd left)",
				 b->pdu_len, n);
	return 1;
}

/* Is b an I/O to replay, and which? */
static bool to_op(const struct blk_rec *b, enum ib_trace_op *op)
{
	if ((b->action & 0xffff) != BLK_TA_QUEUE ||
	    (b->action & (TC_NOTIFY | TC_PC)))
		return false;
	if (b->action & TC_DISCARD)
		*op = IB_TRACE_TRIM;
	else if (b->bytes == 0)
		*op = IB_TRACE_SYNC;
	else
		*op = (b->action & TC_WRITE) ? IB_TRACE_WRITE : IB_TRACE_READ;
	return b->bytes > 0 || (b->action & (TC_FLUSH | TC_DISCARD));
}

int ib_trace_blktrace_next(struct ib_trace_src *s, struct ib_trace_rec *rec,
			   struct ib_diag *d)
{
	struct blk_rec b = { 0 };
	enum ib_trace_op op;
	int r;

	do {
		r = read_rec(s, &b, d);
		if (r <= 0)
			return r;
	} while (!to_op(&b, &op));
	if (b.sector > UINT64_MAX / 512)
		return rec_error(s, d, "sector %llu is beyond 2^64 bytes",
				 (unsigned long long)b.sector);
	memset(rec, 0, sizeof(*rec));
	rec->op = op;
	rec->offset = b.sector * 512;
	rec->len = b.bytes;
	rec->ts_ns = b.time;
	rec->dev = b.device;
	rec->pid = b.pid;
	rec->recno = s->recno;
	return 1;
}

void ib_trace_blktrace_encode(const struct ib_trace_rec *rec, uint64_t time_ns,
			      uint32_t seq, uint8_t *buf)
{
	static const uint32_t dir[IB_TRACE_NR_OPS] = {
		[IB_TRACE_READ] = TC_READ, [IB_TRACE_WRITE] = TC_WRITE,
		[IB_TRACE_TRIM] = TC_WRITE | TC_DISCARD,
		[IB_TRACE_SYNC] = TC_READ | TC_FLUSH,
		[IB_TRACE_DATASYNC] = TC_READ | TC_FLUSH,
	};
	uint32_t ops = (unsigned int)rec->op < IB_TRACE_NR_OPS ? dir[rec->op] : 0;

	memset(buf, 0, IB_BLKTRACE_REC);
	put(buf, BLK_MAGIC | BLK_VERSION, 4);
	put(buf + 4, seq, 4);
	put(buf + 8, time_ns, 8);
	put(buf + 16, rec->offset / 512, 8);
	put(buf + 24, rec->len, 4);
	put(buf + 28, BLK_TA_QUEUE | TC_QUEUE | ops, 4);
	put(buf + 32, rec->pid, 4);
	put(buf + 36, rec->dev, 4);
}
