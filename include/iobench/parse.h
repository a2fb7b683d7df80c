/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_PARSE_H
#define IOBENCH_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"

/*
 * Pure value parsers (no I/O, no globals), as fio reads values (reference
 * doc/fio-compat.md §5). All return 0 or -EINVAL/-ERANGE and describe the problem
 * in d (without the option name: the caller prefixes it).
 */

/*
 * "4k", "1m", "1.5m", "0x10", "1MiB" (=10^6 with kb_base 1024), and
 * arithmetic: + - * / % and ^ (power), parentheses, a suffix on any number
 * or ")" ("(1+1)k", "8*2048", "1m+4k"). The result is truncated.
 */
int ib_parse_size(const char *s, unsigned int kb_base, uint64_t *out,
		  struct ib_diag *d);
/* size or "N%" (pct set to 1..100, *out untouched by the % form). */
int ib_parse_size_pct(const char *s, unsigned int kb_base, uint64_t *out,
		      uint8_t *pct, struct ib_diag *d);
/*
 * Time to microseconds; a bare number is in default_unit_us (1e6 =
 * seconds); suffixes us/usec, ms/msec, s/sec, m/min, h, d (the last one
 * applies to the whole expression: "(1+1)m" is two minutes).
 */
int ib_parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out,
		     struct ib_diag *d);
/* Unsigned integer, with arithmetic as for sizes but no suffixes. */
int ib_parse_uint(const char *s, uint64_t *out, struct ib_diag *d);
/*
 * 1/0, true/false, yes/no, on/off; empty (bare flag) = true. An integer
 * other than 0 or 1 is refused (fio's boolean options range 0..1).
 */
int ib_parse_bool(const char *s, bool *out, struct ib_diag *d);
/*
 * ib_parse_bool, or with any_int (struct ib_opt's: fio's set-style
 * options, FIO_OPT_STR_SET, where time_based=2 is on) any integer,
 * non-zero on.
 */
int ib_parse_bool_as(bool any_int, const char *s, bool *out,
		     struct ib_diag *d);

#endif
