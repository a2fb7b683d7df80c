// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "iobench/diag.h"

size_t ib_diag_escape(char *dst, size_t len, const char *src)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	unsigned char c;

	for (; len && (c = (unsigned char)*src) != '\0'; src++) {
		if (c >= 0x20 && c != 0x7f) {
			if (n + 1 >= len)
				break;
			dst[n++] = (char)c;
			continue;
		}
		if (n + 4 >= len)
			break;
		dst[n++] = '\\';
		if (c == '\n' || c == '\t' || c == '\r') {
			dst[n++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
			continue;
		}
		dst[n++] = 'x';
		dst[n++] = hex[c >> 4];
		dst[n++] = hex[c & 15];
	}
	if (len)
		dst[n] = '\0';
	return n;
}

/* One line, whatever the values in it held: control characters escaped. */
static void escape_msg(struct ib_diag *d)
{
	char raw[IB_DIAG_LEN];
	const char *p;

	for (p = d->msg; *p && (unsigned char)*p >= 0x20 && *p != 0x7f; p++)
		;
	if (!*p)
		return;
	memcpy(raw, d->msg, sizeof(raw));
	ib_diag_escape(d->msg, sizeof(d->msg), raw);
}

int ib_diag_set(struct ib_diag *d, int err, const char *fmt, ...)
{
	va_list ap;

	if (d) {
		va_start(ap, fmt);
		vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
		va_end(ap);
		escape_msg(d);
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
	escape_msg(d);
}
