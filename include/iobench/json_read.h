/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_JSON_READ_H
#define IOBENCH_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iobench/diag.h"

/*
 * A small, strict JSON reader (RFC 8259): the whole text into a tree of
 * values (json_read.c). Strict: no comments, no trailing commas, no
 * leading zeros, no control characters or invalid escapes in strings,
 * nothing but white space after the value; \u escapes (surrogate pairs
 * too) become UTF-8; other bytes are taken as they are (not checked as
 * UTF-8). Bounded: at most IB_JSON_READ_MAX bytes, IB_JSON_READ_DEPTH
 * nested arrays/objects, IB_JSON_READ_NODES values and 64-character
 * numbers. An error is -EINVAL (-E2BIG for the size, -ENOMEM) with one line
 * in the diag naming the byte offset: "json: offset 17: expected ':'".
 *
 * Members keep their order; a repeated key is kept twice and
 * ib_jv_get() finds the first.
 */
#define IB_JSON_READ_MAX (64u << 20)
#define IB_JSON_READ_DEPTH 64
#define IB_JSON_READ_NODES (2u << 20)

enum ib_jv_type {
	IB_JV_NULL, IB_JV_FALSE, IB_JV_TRUE, IB_JV_NUM, IB_JV_STR, IB_JV_ARR, IB_JV_OBJ,
};

struct ib_jv {
	enum ib_jv_type type;
	const char *key;	/* member name inside an object, else NULL */
	const char *str;	/* IB_JV_STR: the decoded, NUL-terminated text */
	size_t len;		/* IB_JV_STR: its length (it may hold NULs) */
	double num;		/* IB_JV_NUM */
	bool is_u64;		/* IB_JV_NUM: a non-negative integer that fits */
	uint64_t u64;		/* exact value when is_u64 */
	struct ib_jv *child;	/* IB_JV_ARR, IB_JV_OBJ: first element */
	struct ib_jv *next;	/* next element of the parent */
	unsigned int nr;	/* IB_JV_ARR, IB_JV_OBJ: element count */
};

struct ib_jv_chunk;

struct ib_jdoc {
	struct ib_jv *root;
	char *text;		/* owned copy; strings are decoded into it */
	struct ib_jv_chunk *chunks;
	size_t nr_nodes;
};

/* Parse len bytes of text (need not be NUL-terminated) into doc. */
int ib_json_parse(struct ib_jdoc *doc, const char *text, size_t len,
		  struct ib_diag *d);
void ib_jdoc_free(struct ib_jdoc *doc);
/* Read the file at path (at most IB_JSON_READ_MAX bytes) and parse it
 * (json_load.c); d's message starts with the path. */
int ib_json_load(struct ib_jdoc *doc, const char *path, struct ib_diag *d);

/* The member `key` of object o (first one), or NULL (also if o is no object). */
const struct ib_jv *ib_jv_get(const struct ib_jv *o, const char *key);
/* Number helpers: false (out untouched) if v is NULL or no such number. */
bool ib_jv_u64(const struct ib_jv *v, uint64_t *out);
bool ib_jv_double(const struct ib_jv *v, double *out);
/* v's string, or NULL if v is NULL or not a string. */
const char *ib_jv_str(const struct ib_jv *v);

#endif
