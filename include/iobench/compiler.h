/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_COMPILER_H
#define IOBENCH_COMPILER_H

#include <stddef.h>

#define IB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ib_likely(x) __builtin_expect(!!(x), 1)
#define ib_unlikely(x) __builtin_expect(!!(x), 0)
#define ib_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define IB_CACHELINE 64
#define ib_cacheline_aligned __attribute__((aligned(IB_CACHELINE)))
#define ib_printf_fmt(a, b) __attribute__((format(printf, a, b)))
#define ib_unused __attribute__((unused))

#endif
