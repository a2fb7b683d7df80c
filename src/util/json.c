// SPDX-License-Identifier: GPL-2.0-only
/*
 * Minimal streaming JSON writer (see json.h for the print style).
 */
#include <math.h>
#include "iobench/json.h"

void ib_json_quote(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void indent(struct ib_json *j)
{
	unsigned int i;

	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator + indent + optional key for the next member. */
static void member(struct ib_json *j, const char *key)
{
	unsigned int d = j->depth < IB_JSON_DEPTH ? j->depth : IB_JSON_DEPTH - 1;

	fputs(j->has_member[d] ? ",\n" : "\n", j->f);
	j->has_member[d] = true;
	indent(j);
	if (key) {
		ib_json_quote(j->f, key);
		fputs(" : ", j->f);
	}
}

static void open_scope(struct ib_json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	j->depth++;
	if (j->depth < IB_JSON_DEPTH)
		j->has_member[j->depth] = false;
}

static void close_scope(struct ib_json *j, char c)
{
	fputc('\n', j->f);
	j->depth--;
	indent(j);
	fputc(c, j->f);
}

void ib_json_begin(struct ib_json *j, FILE *f)
{
	j->f = f;
	j->depth = 1;
	j->has_member[1] = false;
	fputc('{', f);
}

void ib_json_end(struct ib_json *j)
{
	close_scope(j, '}');
	fputc('\n', j->f);
}

void ib_json_obj_open(struct ib_json *j, const char *key)
{
	open_scope(j, key, '{');
}

void ib_json_obj_close(struct ib_json *j)
{
	close_scope(j, '}');
}

void ib_json_arr_open(struct ib_json *j, const char *key)
{
	open_scope(j, key, '[');
}

void ib_json_arr_close(struct ib_json *j)
{
	close_scope(j, ']');
}

void ib_json_int(struct ib_json *j, const char *key, long long v)
{
	member(j, key);
	fprintf(j->f, "%lld", v);
}

void ib_json_uint(struct ib_json *j, const char *key, unsigned long long v)
{
	member(j, key);
	fprintf(j->f, "%llu", v);
}

void ib_json_float(struct ib_json *j, const char *key, double v)
{
	member(j, key);
	fprintf(j->f, "%f", isfinite(v) ? v : 0.0);
}

void ib_json_str(struct ib_json *j, const char *key, const char *v)
{
	if (!v || !*v)
		return;
	member(j, key);
	ib_json_quote(j->f, v);
}

void ib_json_str_empty(struct ib_json *j, const char *key, const char *v)
{
	member(j, key);
	ib_json_quote(j->f, v ? v : "");
}
