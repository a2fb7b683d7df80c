/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_JSON_H
#define IOBENCH_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Streaming JSON writer in fio's print style: 2-space indent, one member per
 * line as `"key" : value`, integers as %lld/%llu, floats as %f. Unlike fio
 * every string is escaped fully and non-finite floats print as 0, so the
 * document is always valid JSON. fio 3.33 drops members whose string value
 * is empty; ib_json_str() does the same, ib_json_str_empty() (3.42) keeps
 * them as "".
 */
#define IB_JSON_DEPTH 16

struct ib_json {
	FILE *f;
	unsigned int depth;
	bool has_member[IB_JSON_DEPTH];
};

void ib_json_begin(struct ib_json *j, FILE *f);	/* "{" */
void ib_json_end(struct ib_json *j);			/* "}\n" */
/* key is NULL inside arrays */
void ib_json_obj_open(struct ib_json *j, const char *key);
void ib_json_obj_close(struct ib_json *j);
void ib_json_arr_open(struct ib_json *j, const char *key);
void ib_json_arr_close(struct ib_json *j);
void ib_json_int(struct ib_json *j, const char *key, long long v);
void ib_json_uint(struct ib_json *j, const char *key, unsigned long long v);
void ib_json_float(struct ib_json *j, const char *key, double v);
void ib_json_str(struct ib_json *j, const char *key, const char *v);
void ib_json_str_empty(struct ib_json *j, const char *key, const char *v);
/* Write s as a JSON string literal (with quotes). */
void ib_json_quote(FILE *f, const char *s);

#endif
