// SPDX-License-Identifier: GPL-2.0-only
/*
 * The validity checks' helpers (checks.h): a hit's message and evidence,
 * and --warnings=all|none|ID,... into a mask of the table's bits.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "iobench/checks.h"

void ib_check_ev_add(struct ib_check_hit *h, const char *key, double val, bool is_int)
{
	struct ib_check_ev *e;

	if (h->nr_ev >= IB_CHECK_EV_MAX)
		return;
	e = &h->ev[h->nr_ev++];
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->val = val;
	e->is_int = is_int;
}

void ib_check_msg(struct ib_check_hit *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->msg, sizeof(h->msg), fmt, ap);
	va_end(ap);
}

static int find_id(const char *id, size_t len)
{
	unsigned int i;

	for (i = 0; i < ib_nr_checks; i++)
		if (strlen(ib_checks[i].id) == len && !strncmp(ib_checks[i].id, id, len))
			return (int)i;
	return -1;
}

int ib_checks_parse(const char *spec, uint64_t *mask, struct ib_diag *d)
{
	const char *p = spec, *comma;
	uint64_t m = 0;
	size_t len;
	int i;

	if (!strcmp(spec, "all")) {
		*mask = IB_CHECKS_ALL;
		return 0;
	}
	if (!strcmp(spec, "none")) {
		*mask = 0;
		return 0;
	}
	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		i = find_id(p, len);
		if (i < 0)
			return ib_diag_set(d, EINVAL,
					   "--warnings: unknown check '%.*s' (all, none, or ids as listed in the man page: page-cache, unwritten, cpu-bound, ...)",
					   (int)len, p);
		m |= 1ull << i;
		if (!comma)
			break;
		p = comma + 1;
	}
	*mask = m;
	return 0;
}
