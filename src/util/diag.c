// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "iobench/diag.h"

int ib_diag_set(struct ib_diag *d, int err, const char *fmt, ...)
{
	va_list ap;

	if (d) {
		va_start(ap, fmt);
		vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
		va_end(ap);
	}
	return err > 0 ? -err : err;
}

void ib_diag_prefix(struct ib_diag *d, const char *fmt, ...)
{
	char old[IB_DIAG_LEN];
	va_list ap;
	int n;

	if (!d)
		return;
	memcpy(old, d->msg, sizeof(old));
	va_start(ap, fmt);
	n = vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(d->msg) - 2)
		return;
	/* "prefix: old", truncated to the buffer */
	d->msg[n] = ':';
	d->msg[n + 1] = ' ';
	memcpy(d->msg + n + 2, old, sizeof(d->msg) - (size_t)n - 2);
	d->msg[sizeof(d->msg) - 1] = '\0';
}
