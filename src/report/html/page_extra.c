// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a JSON report holds beyond fio's keys and beyond what the page draws
 * itself (iobench's environment is drawn by page_env.c, its findings by
 * page_findings.c), shown in the HTML report as written: a list for an
 * array of strings, "path: value" lines otherwise. The report needs no
 * knowledge of those sections to carry them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/json_read.h"
#include "iobench/plotcmd.h"
#include "page_priv.h"

#define EXTRA_MAX (1u << 20)	/* bytes of text per section */

static const char *const known[] = {
	"fio version", "iobench version", "timestamp", "timestamp_ms", "time",
	"jobs", "global options", "disk_util", "client_stats", NULL,
};

static bool is_known(const char *key)
{
	unsigned int i;

	for (i = 0; known[i]; i++)
		if (!strcmp(known[i], key))
			return true;
	return false;
}

/* "path: value" lines of v into m (a memstream), depth-first. */
static void flatten(FILE *m, const struct ib_jv *v, const char *path, unsigned int depth)
{
	const struct ib_jv *e;
	char sub[512];
	unsigned int i = 0;

	if (v->type == IB_JV_OBJ || v->type == IB_JV_ARR) {
		for (e = v->child; e && depth < 16; e = e->next, i++) {
			int n = v->type == IB_JV_OBJ ?
				snprintf(sub, sizeof(sub), "%s%s%s", path,
					 *path ? "." : "", e->key) :
				snprintf(sub, sizeof(sub), "%s[%u]", path, i);

			if (n < 0 || (size_t)n >= sizeof(sub))
				continue;	/* too deep a name to show */
			flatten(m, e, sub, depth + 1);
		}
		return;
	}
	fprintf(m, "%s: ", path);
	if (v->type == IB_JV_STR)
		fprintf(m, "%.*s", (int)strnlen(v->str, v->len), v->str);
	else if (v->type == IB_JV_NUM && v->is_u64)
		fprintf(m, "%llu", (unsigned long long)v->u64);
	else if (v->type == IB_JV_NUM)
		fprintf(m, "%.15g", v->num);
	else
		fputs(v->type == IB_JV_TRUE ? "true" : v->type == IB_JV_FALSE ? "false" : "null", m);
	fputc('\n', m);
}

static bool all_strings(const struct ib_jv *v)
{
	const struct ib_jv *e;

	if (v->type != IB_JV_ARR || !v->nr)
		return false;
	for (e = v->child; e; e = e->next)
		if (e->type != IB_JV_STR)
			return false;
	return true;
}

static int section(FILE *f, const struct ib_jv *v)
{
	const char **items;
	const struct ib_jv *e;
	char *text = NULL;
	size_t len = 0;
	unsigned int n = 0;
	FILE *m;

	ib_html_heading(f, v->key);
	if (all_strings(v)) {
		items = calloc(v->nr, sizeof(*items));
		if (!items)
			return -ENOMEM;
		for (e = v->child; e; e = e->next)
			items[n++] = e->str;
		ib_html_list(f, items, n);
		free(items);
		return 0;
	}
	m = open_memstream(&text, &len);
	if (!m)
		return -ENOMEM;
	flatten(m, v, "", 0);
	if (fclose(m))
		return -ENOMEM;
	if (len > EXTRA_MAX)
		text[EXTRA_MAX] = '\0';
	ib_html_pre(f, text);
	free(text);
	return 0;
}

int ib_page_extras(FILE *f, const char *path, bool skip_env, struct ib_diag *d)
{
	struct ib_jdoc doc;
	const struct ib_jv *e;
	int ret = 0;

	if (!path || ib_json_load(&doc, path, d) < 0) {
		d->msg[0] = '\0';	/* read once already: not an error here */
		return 0;
	}
	for (e = doc.root && doc.root->type == IB_JV_OBJ ? doc.root->child : NULL;
	     e && !ret; e = e->next)
		if (!is_known(e->key) && !(skip_env && !strcmp(e->key, "environment")))
			ret = section(f, e);
	ib_jdoc_free(&doc);
	return ret == -ENOMEM ? ib_diag_set(d, ENOMEM, "out of memory") : ret;
}
