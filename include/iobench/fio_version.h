/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_FIO_VERSION_H
#define IOBENCH_FIO_VERSION_H

/*
 * Which fio version's report format iobench prints (--fio-version=, or
 * fio-version= in a job file's [global]; doc/fio-compat.md section 7 lists
 * the differences). The plan carries it, the results document passes it
 * to every report writer.
 */
struct ib_diag;

enum ib_fio_version {
	IB_FIO_V333 = 333,
	IB_FIO_V342 = 342,
};

#define IB_FIO_VERSION_DEFAULT IB_FIO_V342

/*
 * "3.33" or "3.42" (also with a "fio-" prefix) into *out. Anything else:
 * -EINVAL, d names `who` (the option as the user wrote it) and the valid
 * values.
 */
int ib_fio_version_parse(const char *v, enum ib_fio_version *out,
			 const char *who, struct ib_diag *d);

/* "fio-3.33" or "fio-3.42": the version line and the JSON's "fio version". */
const char *ib_fio_version_str(enum ib_fio_version v);

#endif
