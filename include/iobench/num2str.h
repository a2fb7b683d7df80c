/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_NUM2STR_H
#define IOBENCH_NUM2STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * fio's number formatter (doc/fio-compat.md §1.3): at most maxlen
 * significant digits of val (in units of base: 1, 1000 or 1024), scaled by
 * 1024 (pow2: IEC prefixes) or 1000 (SI), then unit. buf gets e.g. "395k";
 * returns buf.
 */
char *ib_num2str(uint64_t val, unsigned int maxlen, unsigned int base,
		 bool pow2, const char *unit, char *buf, size_t len);

#endif
