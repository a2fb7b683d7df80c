/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_FIOLOG_H
#define IOBENCH_FIOLOG_H

#include <stddef.h>
#include <stdint.h>
#include "iobench/diag.h"

/*
 * Streaming reader of fio-format lat/clat/slat/bw/iops logs (what fio 3.33
 * and iobench write for write_{lat,bw,iops}_log). One record per line:
 *
 *   time_ms, value, ddir, bs                    (4 fields: older fio)
 *   time_ms, value, ddir, bs, prio              (5: fio 3.33)
 *   time_ms, value, ddir, bs, offset, prio      (6: with log_offset=1)
 *
 * Every field is an unsigned decimal integer; blanks around the commas, a
 * trailing '\r' and empty lines are accepted. ddir is 0 (read), 1 (write)
 * or 2 (trim). All lines of a log have the same number of fields. A line
 * longer than IB_FIOLOG_LINE - 1 bytes is an error.
 *
 * A pure parser: bytes in, records out through a callback, no I/O, memory
 * bounded by one line whatever the input size. Feed the file in chunks of
 * any size (a chunk may end mid-line), then call ib_fiolog_end() for a
 * last line without a newline.
 */
#define IB_FIOLOG_LINE 256
#define IB_FIOLOG_MAXF 6

struct ib_fiolog_rec {
	uint64_t t_ms;
	uint64_t value;
	unsigned int ddir;
	uint64_t bs;
	uint64_t offset;	/* 0 unless nfields == 6 */
	unsigned int prio;	/* 0 when nfields == 4 */
	unsigned int nfields;
};

/* Called per record; a non-zero return stops the parse and is returned. */
typedef int (*ib_fiolog_cb)(void *arg, const struct ib_fiolog_rec *r);

struct ib_fiolog {
	char line[IB_FIOLOG_LINE];
	size_t len;
	unsigned long lineno;	/* lines completed so far */
	unsigned int nfields;	/* of the first record, 0 before it */
	unsigned long records;	/* parsed, the one a callback stopped at too */
};

void ib_fiolog_init(struct ib_fiolog *p);
/* Returns 0, -EINVAL (d: "line N: why") or the callback's non-zero value. */
int ib_fiolog_feed(struct ib_fiolog *p, const char *buf, size_t len,
		   ib_fiolog_cb cb, void *arg, struct ib_diag *d);
/* The last line if it had no newline; same returns as ib_fiolog_feed(). */
int ib_fiolog_end(struct ib_fiolog *p, ib_fiolog_cb cb, void *arg,
		  struct ib_diag *d);

#endif
