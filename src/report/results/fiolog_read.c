// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reader of fio-format lat/bw/iops logs (the format is in fiolog.h).
 */
#include <errno.h>
#include <string.h>
#include "iobench/fiolog.h"

void ib_fiolog_init(struct ib_fiolog *p)
{
	memset(p, 0, sizeof(*p));
}

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* One unsigned decimal field; *s moves past it. Returns 0 or -EINVAL. */
static int field(const char **s, uint64_t *v)
{
	const char *p = skip_blank(*s);
	uint64_t x = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;		/* overflow */
		x = x * 10 + (uint64_t)(*p - '0');
	}
	*v = x;
	*s = skip_blank(p);
	return 0;
}

/* Split a NUL-terminated line into f[]; returns the count or -EINVAL. */
static int split(const char *s, uint64_t *f)
{
	int n = 0;

	for (;;) {
		if (n == IB_FIOLOG_MAXF || field(&s, &f[n]))
			return -EINVAL;
		n++;
		if (*s == '\0')
			return n;
		if (*s++ != ',')
			return -EINVAL;
	}
}

static int to_rec(const uint64_t *f, int n, struct ib_fiolog_rec *r)
{
	if (n < 4 || f[2] > 2 || f[n - 1] > UINT32_MAX)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->t_ms = f[0];
	r->value = f[1];
	r->ddir = (unsigned int)f[2];
	r->bs = f[3];
	r->nfields = (unsigned int)n;
	if (n == 6)
		r->offset = f[4];
	if (n >= 5)
		r->prio = (unsigned int)f[n - 1];
	return 0;
}

static int finish_line(struct ib_fiolog *p, ib_fiolog_cb cb, void *arg,
		       struct ib_diag *d)
{
	struct ib_fiolog_rec r;
	uint64_t f[IB_FIOLOG_MAXF];
	int n;

	p->lineno++;
	if (p->len && p->line[p->len - 1] == '\r')
		p->len--;
	p->line[p->len] = '\0';
	p->len = 0;
	if (*skip_blank(p->line) == '\0')
		return 0;
	n = split(p->line, f);
	if (n < 0 || to_rec(f, n, &r))
		return ib_diag_set(d, EINVAL, "line %lu: not a fio log record "
				   "(time, value, ddir, bs[, offset], prio)", p->lineno);
	if (p->nfields && r.nfields != p->nfields)
		return ib_diag_set(d, EINVAL, "line %lu: %u fields, the first "
				   "record had %u", p->lineno, r.nfields, p->nfields);
	p->nfields = r.nfields;
	p->records++;
	return cb(arg, &r);
}

int ib_fiolog_feed(struct ib_fiolog *p, const char *buf, size_t len,
		   ib_fiolog_cb cb, void *arg, struct ib_diag *d)
{
	size_t i;
	int ret;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			ret = finish_line(p, cb, arg, d);
			if (ret)
				return ret;
			continue;
		}
		if (buf[i] == '\0' || p->len == IB_FIOLOG_LINE - 1)
			return ib_diag_set(d, EINVAL, "line %lu: %s", p->lineno + 1,
					   buf[i] ? "too long" : "NUL byte");
		p->line[p->len++] = buf[i];
	}
	return 0;
}

int ib_fiolog_end(struct ib_fiolog *p, ib_fiolog_cb cb, void *arg,
		  struct ib_diag *d)
{
	if (!p->len)
		return 0;
	return finish_line(p, cb, arg, d);
}
