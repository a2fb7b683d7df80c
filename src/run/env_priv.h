/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_ENV_PRIV_H
#define IOBENCH_ENV_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "iobench/compiler.h"
#include "iobench/env.h"

/* Private to src/run/env_*.c and probe.c: reading small sysfs/procfs files. */

const char *ib_env_sys(const struct ib_env_roots *r);
const char *ib_env_proc(const struct ib_env_roots *r);

/*
 * The first line of the file <root>/<fmt...> into buf: trailing blanks cut,
 * bytes outside printable ASCII replaced by '?'. 0, or -errno (buf = "").
 */
int ib_env_read(char *buf, size_t len, const char *root, const char *fmt, ...)
	ib_printf_fmt(4, 5);
/* The same file as an unsigned number; def if missing or not a number. */
uint64_t ib_env_read_u64(uint64_t def, const char *root, const char *fmt, ...)
	ib_printf_fmt(3, 4);
/* The [selected] word of a sysfs choice list ("none [mq-deadline] bfq"), or
 * the whole text when nothing is bracketed; in place. */
void ib_env_selected(char *s);
/* Copy s into buf (truncated), cleaning as ib_env_read does. */
void ib_env_copy(char *buf, size_t len, const char *s);

/* Fill t's fstype/mount_* from <proc>/self/mountinfo: the mount of device
 * dev whose mount point is the longest prefix of path's real path. */
void ib_env_mount(struct ib_env_target *t, const char *path, dev_t dev, const char *proc);

#endif
