/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_STRTAB_H
#define IOBENCH_STRTAB_H

#include <stdarg.h>
#include <stddef.h>
#include "iobench/compiler.h"

/*
 * A string table: immutable NUL-terminated strings that live as long as
 * the table, in a few large blocks. A struct ib_job's long strings
 * (paths, file lists) and its zone lists are pointers into one (job.h), so
 * the numjobs clones of a job share them instead of copying kilobytes each.
 * Strings are never freed one by one: a replaced value stays until
 * ib_strtab_free(). A zeroed struct is an empty table.
 */
struct ib_strtab_block;

struct ib_strtab {
	struct ib_strtab_block *head;	/* the block being filled, then older */
};

/* size bytes aligned for any scalar, zeroed, or NULL (no memory). */
void *ib_strtab_alloc(struct ib_strtab *t, size_t size);

/* A copy of s[0..len) with a NUL after it, or NULL (no memory). */
const char *ib_strtab_add(struct ib_strtab *t, const char *s, size_t len);

/* A copy of the formatted text, or NULL (no memory). */
const char *ib_strtab_printf(struct ib_strtab *t, const char *fmt, ...)
	ib_printf_fmt(2, 3);
const char *ib_strtab_vprintf(struct ib_strtab *t, const char *fmt, va_list ap)
	ib_printf_fmt(2, 0);

/* Free every string of t; t is left empty and usable. */
void ib_strtab_free(struct ib_strtab *t);

#endif
