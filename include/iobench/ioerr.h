/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_IOERR_H
#define IOBENCH_IOERR_H

#include <stdbool.h>
#include <stddef.h>
#include "iobench/diag.h"
#include "iobench/job.h"

/*
 * I/O error policy, as fio 3.33 behaves (checked side by side):
 *
 * - Every error has a type (enum ib_err_type): EILSEQ is a verify error
 *   whatever the direction, other read errors are read errors, and write,
 *   trim and fsync/fdatasync errors are write errors.
 * - An error is non-fatal when continue_on_error covers its type and the
 *   errno is in that type's list: ignore_error's list when one was given
 *   for the type, else EIO and EILSEQ. A non-fatal error is counted
 *   (total_err, first_error) and the job goes on.
 * - Any other error ends the job. When continue_on_error covers its type
 *   it is counted too if the I/O completed inline (synchronous engines,
 *   fsync/fdatasync), not when reaped from io_uring or libaio: fio counts
 *   the one and not the other, and iobench reports fio's numbers.
 *
 * Pure functions: no I/O, no globals.
 */

/* The error type of an error err (positive errno) in direction ddir. */
enum ib_err_type ib_err_type_of(enum ib_ddir ddir, int err);

/* Is err in list (the default EIO, EILSEQ when the list is empty)? */
bool ib_err_listed(const struct ib_err_list *list, int err);

/*
 * fill_device: is err (positive errno) of a write the full file system
 * (ENOSPC, EDQUOT) that ends the job's writes without an error?
 */
bool ib_err_fill_end(const struct ib_job *job, int err);
/*
 * The rules above for error err (positive errno) of an I/O in direction
 * ddir (IB_DDIR_SYNC for fsync/fdatasync): returns true when the job goes
 * on; *count says whether total_err/first_error count the error.
 * inline_done: the engine completed the I/O inside its queue call.
 */
bool ib_err_decide(const struct ib_job *job, enum ib_ddir ddir, int err,
		   bool inline_done, bool *count);

/*
 * The symbolic name of err ("EIO"), or NULL when glibc knows none.
 * Where two names share a number, the one glibc picks (EAGAIN, not
 * EWOULDBLOCK).
 */
const char *ib_errno_name(int err);

/*
 * err as "Input/output error (EIO)" (strerror, then the name when known)
 * into buf. Returns buf.
 */
char *ib_strerror_named(int err, char *buf, size_t len);

/*
 * One errno: a name ("ENOSPC", as in <errno.h>, upper case, including
 * EWOULDBLOCK, EDEADLOCK and ENOTSUP) or a decimal number 1..4095.
 * Returns the positive errno or -EINVAL.
 */
int ib_errno_parse(const char *tok);

/*
 * ignore_error's value: up to three lists, read,write,verify, separated
 * by ','; the errors of one list separated by ':' ("EAGAIN,ENOSPC:122").
 * An empty list leaves its type with the default. Fills lists[] (all
 * three, nr 0 for the empty ones). Returns 0, or -EINVAL/-E2BIG with one
 * line in d naming the bad token (without the option name).
 */
int ib_ignore_error_parse(const char *v, struct ib_err_list lists[IB_ERR_TYPE_NR],
			  struct ib_diag *d);

#endif
