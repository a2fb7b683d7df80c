// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify_pattern: fio's pattern syntax (verify.h) parsed into bytes, and the
 * pattern laid over a block with %o set to the block's offset.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iobench/verify.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int put(struct ib_vpattern *p, uint8_t b)
{
	if (p->len >= IB_VPATTERN_MAX)
		return -ENOSPC;
	p->bytes[p->len++] = b;
	return 0;
}

/* 0x<hex>: at s (past "0x"); *end past the digits. */
static int parse_hex(const char *s, const char **end, struct ib_vpattern *p)
{
	size_t n = 0;

	while (hexval(s[n]) >= 0)
		n++;
	if (!n)
		return -EINVAL;
	*end = s + n;
	/* an odd count: the first digit alone is the first byte */
	if (n % 2 && put(p, (uint8_t)hexval(*s++)))
		return -ENOSPC;
	for (; s < *end; s += 2)
		if (put(p, (uint8_t)(hexval(s[0]) << 4 | hexval(s[1]))))
			return -ENOSPC;
	return 0;
}

static int parse_dec(const char *s, const char **end, struct ib_vpattern *p)
{
	char *e;
	long long v;
	unsigned n;

	errno = 0;
	v = strtoll(s, &e, 10);
	if (e == s || errno || v < INT_MIN || v > INT_MAX)
		return -EINVAL;
	*end = e;
	if (v < 0) {
		n = 4;
	} else {
		for (n = 1; n < 4 && (v >> (8 * n)); n++)
			;
	}
	for (unsigned i = 0; i < n; i++)
		if (put(p, (uint8_t)((unsigned long long)v >> (8 * i))))
			return -ENOSPC;
	return 0;
}

static int parse_str(const char *s, const char **end, struct ib_vpattern *p)
{
	const char *q = strchr(s, '"');

	if (!q || q == s)
		return -EINVAL;	/* unterminated, or "" (fio asserts on it) */
	for (; s < q; s++)
		if (put(p, (uint8_t)*s))
			return -ENOSPC;
	*end = q + 1;
	return 0;
}

static int parse_off(const char **end, struct ib_vpattern *p)
{
	if (p->noffs >= IB_VPATTERN_MAX_OFFS)
		return -ENOSPC;
	p->offs[p->noffs++] = (uint16_t)p->len;
	for (int i = 0; i < 8; i++)
		if (put(p, 0))
			return -ENOSPC;
	*end += 2;
	return 0;
}

static int parse_elem(const char *s, const char **end, struct ib_vpattern *p)
{
	*end = s;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_hex(s + 2, end, p);
	if (s[0] == '"')
		return parse_str(s + 1, end, p);
	if (s[0] == '%' && s[1] == 'o')
		return parse_off(end, p);
	if ((s[0] >= '0' && s[0] <= '9') || s[0] == '-')
		return parse_dec(s, end, p);
	return -EINVAL;
}

int ib_vpattern_parse(const char *str, struct ib_vpattern *p,
		      struct ib_diag *d)
{
	const char *s = str;

	memset(p, 0, sizeof(*p));
	if (!*s)
		return ib_diag_set(d, -EINVAL, "verify_pattern: empty");
	while (*s) {
		const char *end;
		int err = parse_elem(s, &end, p);

		if (err == -ENOSPC)
			return ib_diag_set(d, -EINVAL,
					   "verify_pattern: longer than %u bytes",
					   IB_VPATTERN_MAX);
		if (err)
			return ib_diag_set(d, -EINVAL,
					   "verify_pattern: bad element at '%s' in '%s'",
					   s, str);
		s = end;
	}
	return 0;
}

/* The pattern with every %o set to offset. */
static void instance(const struct ib_vpattern *p, uint64_t offset, uint8_t *one)
{
	memcpy(one, p->bytes, p->len);
	for (unsigned i = 0; i < p->noffs; i++)
		for (int b = 0; b < 8; b++)
			one[p->offs[i] + b] = (uint8_t)(offset >> (8 * b));
}

/* One instance (%o: offset) repeated from buf[0] over len bytes. */
static void fill_one(const struct ib_vpattern *p, uint64_t offset, uint8_t *dst,
		     size_t len)
{
	size_t done = p->len < len ? p->len : len;
	uint8_t one[IB_VPATTERN_MAX];

	instance(p, offset, one);
	memcpy(dst, one, done);
	/* double the filled prefix: it stays whole copies of the pattern */
	while (done < len) {
		size_t n = done < len - done ? done : len - done;

		memcpy(dst + done, dst, n);
		done += n;
	}
}

/* Where the instance that covers block position pos starts (interval). */
static size_t seg_start(const struct ib_vpattern *p, size_t pos)
{
	return p->interval ? pos - pos % p->interval : 0;
}

void ib_vpattern_fill(const struct ib_vpattern *p, uint64_t offset,
		      void *buf, size_t len)
{
	uint8_t *dst = buf;
	size_t pos, n;

	if (!p->len) {		/* not a parsed pattern: nothing to repeat */
		memset(buf, 0, len);
		return;
	}
	for (pos = 0; pos < len; pos += n) {
		n = p->interval && p->interval < len - pos ? p->interval : len - pos;
		fill_one(p, offset + pos, dst + pos, n);
	}
}

long ib_vpattern_diff(const struct ib_vpattern *p, uint64_t offset,
		      const void *buf, size_t from, size_t to)
{
	uint8_t one[IB_VPATTERN_MAX];
	const uint8_t *b = buf;
	size_t k, seg = seg_start(p, from), next;

	if (!p->len)
		return from < to ? (long)from : -1;
	k = (from - seg) % p->len;
	instance(p, offset + seg, one);
	next = p->interval ? seg + p->interval : SIZE_MAX;
	for (size_t i = from; i < to; i++) {
		if (i == next) {	/* verify_pattern_interval: a new instance */
			instance(p, offset + i, one);
			k = 0;
			next += p->interval;
		}
		if (b[i] != one[k])
			return (long)i;
		if (++k == p->len)
			k = 0;
	}
	return -1;
}

uint8_t ib_vpattern_at(const struct ib_vpattern *p, uint64_t offset, size_t pos)
{
	size_t k, seg = seg_start(p, pos);

	if (!p->len)
		return 0;
	k = (pos - seg) % p->len;
	for (unsigned i = 0; i < p->noffs; i++)
		if (k >= p->offs[i] && k < p->offs[i] + 8u)
			return (uint8_t)((offset + seg) >> (8 * (k - p->offs[i])));
	return p->bytes[k];
}
