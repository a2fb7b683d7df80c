// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reader of fio's latency histogram logs (the format is in fiohist.h): a
 * byte-at-a-time state machine, so a row of 1859 fields needs no buffer.
 */
#include <errno.h>
#include <string.h>
#include "fiohist.h"

enum { BEFORE, DIGITS, AFTER, CR };	/* position within a field */

void ib_fiohist_init(struct ib_fiohist *p)
{
	memset(p, 0, sizeof(*p));
}

static int bad(struct ib_fiohist *p, struct ib_diag *d, const char *why)
{
	return ib_diag_set(d, EINVAL, "line %lu: %s", p->lineno + 1, why);
}

/* The field just read is complete: store it. */
static int store(struct ib_fiohist *p, struct ib_diag *d)
{
	if (p->state != DIGITS && p->state != AFTER)
		return bad(p, d, "empty field");
	if (p->nfields >= 3 + IB_FIOHIST_BINS)
		return bad(p, d, "more than 1856 bins");
	if (p->nfields < 3)
		p->head[p->nfields] = p->cur;
	else
		p->bins[p->nfields - 3] = p->cur;
	p->nfields++;
	p->cur = 0;
	p->state = BEFORE;
	return 0;
}

/* Bins of coarseness c into p->row; returns c, or -1 for a bad bin count. */
static int place(struct ib_fiohist *p, unsigned int nbins, uint64_t *sum)
{
	unsigned int c, j;

	for (c = 0; c <= 6 && ((unsigned int)IB_FIOHIST_BINS >> c) != nbins; c++)
		;
	if (c > 6)
		return -1;
	memset(&p->row, 0, sizeof(p->row));
	*sum = 0;
	for (j = 0; j < nbins; j++) {
		p->row.count[(j << c) + ((1u << c) >> 1)] += p->bins[j];
		*sum += p->bins[j];
	}
	return (int)c;
}

static int end_row(struct ib_fiohist *p, ib_fiohist_cb cb, void *arg,
		   struct ib_diag *d)
{
	struct ib_fiohist_row r;
	int c;

	if (p->nfields == 0 && p->state == BEFORE) {
		p->lineno++;		/* an empty line */
		return 0;
	}
	if (store(p, d))
		return -EINVAL;
	c = p->nfields < 4 ? -1 : place(p, p->nfields - 3, &r.samples);
	if (c < 0)
		return bad(p, d, "the number of bins is not 1856 >> (0..6)");
	if (p->head[1] > 2)
		return bad(p, d, "ddir is not 0, 1 or 2");
	r.t_ms = p->head[0];
	r.ddir = (unsigned int)p->head[1];
	r.bs = p->head[2];
	r.coarseness = (unsigned int)c;
	r.h = &p->row;
	p->lineno++;
	p->rows++;
	p->nfields = 0;
	return cb(arg, &r);
}

/* One byte that is not a newline. */
static int byte(struct ib_fiohist *p, char ch, struct ib_diag *d)
{
	if (ch >= '0' && ch <= '9' && (p->state == BEFORE || p->state == DIGITS)) {
		uint64_t v = (uint64_t)(ch - '0');

		if (p->cur > (UINT64_MAX - v) / 10)
			return bad(p, d, "number too large");
		p->cur = p->cur * 10 + v;
		p->state = DIGITS;
		return 0;
	}
	if ((ch == ' ' || ch == '\t') && p->state != CR) {
		if (p->state == DIGITS)
			p->state = AFTER;
		return 0;
	}
	if (ch == ',' && p->state != CR)
		return store(p, d);
	if (ch == '\r' && p->state != CR) {
		if (p->state == BEFORE && p->nfields)
			return bad(p, d, "empty field");
		if (p->state != BEFORE)
			p->state = CR;	/* after digits: only '\n' may follow */
		return 0;
	}
	return bad(p, d, "not a histogram log row");
}

int ib_fiohist_feed(struct ib_fiohist *p, const char *buf, size_t len,
		    ib_fiohist_cb cb, void *arg, struct ib_diag *d)
{
	size_t i;
	int ret;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			if (p->state == CR)
				p->state = AFTER;
			ret = end_row(p, cb, arg, d);
		} else {
			ret = byte(p, buf[i], d);
		}
		if (ret)
			return ret;
	}
	return 0;
}

int ib_fiohist_end(struct ib_fiohist *p, ib_fiohist_cb cb, void *arg,
		   struct ib_diag *d)
{
	if (p->nfields == 0 && p->state == BEFORE)
		return 0;
	if (p->state == CR)
		p->state = AFTER;
	return end_row(p, cb, arg, d);
}
