// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report format's fio version: the values --fio-version= and a job
 * file's fio-version= accept (fio_version.h).
 */
#include <errno.h>
#include <string.h>
#include "iobench/diag.h"
#include "iobench/fio_version.h"

int ib_fio_version_parse(const char *v, enum ib_fio_version *out,
			 const char *who, struct ib_diag *d)
{
	const char *n = strncmp(v, "fio-", 4) ? v : v + 4;

	if (!strcmp(n, "3.33"))
		*out = IB_FIO_V333;
	else if (!strcmp(n, "3.42"))
		*out = IB_FIO_V342;
	else
		return ib_diag_set(d, EINVAL, "%s: invalid value '%s' (valid: 3.33, 3.42)",
				   who, v);
	return 0;
}

const char *ib_fio_version_str(enum ib_fio_version v)
{
	return v == IB_FIO_V333 ? "fio-3.33" : "fio-3.42";
}
