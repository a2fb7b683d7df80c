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
	char prefix[IB_DIAG_LEN], old[IB_DIAG_LEN];
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, d->msg, sizeof(old));
	snprintf(d->msg, sizeof(d->msg), "%s: %s", prefix, old);
}
