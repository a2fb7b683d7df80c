/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_DIAG_H
#define IOBENCH_DIAG_H

#include <stddef.h>
#include "iobench/compiler.h"

/*
 * A caller-owned error context (the redis `err` buffer idea). Functions that
 * can fail return -errno and, where they know more, write one human line into
 * the diag: "bs: invalid size '4q'". The front end prefixes where it came from
 * ("jobs.fio:12: ") and prints it; nothing below main/runner prints.
 */
#define IB_DIAG_LEN 512

struct ib_diag {
	char msg[IB_DIAG_LEN];
};

/*
 * src into dst (len bytes, always terminated) with control characters
 * escaped: \\n, \\t, \\r, else \\xHH. Every diag message passes through
 * it, so a value holding a newline or an escape sequence stays on the one
 * line. Returns the length written.
 */
size_t ib_diag_escape(char *dst, size_t len, const char *src);
/* Overwrite the message. Always returns -err so callers can `return ib_diag_set(...)`. */
int ib_diag_set(struct ib_diag *d, int err, const char *fmt, ...) ib_printf_fmt(3, 4);
/* Prepend "prefix: " to the current message. */
void ib_diag_prefix(struct ib_diag *d, const char *fmt, ...) ib_printf_fmt(2, 3);

#endif
