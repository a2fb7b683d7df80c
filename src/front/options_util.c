// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option helpers: the "did you mean" suggestions for unknown names and the
 * "key\0value\0" text that records what was given (JSON "job options").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/options.h"
#include "options_priv.h"

/* ---- did you mean ------------------------------------------------------ */

/* Levenshtein distance, case-insensitive, names up to 63 characters. */
static unsigned int edit_distance(const char *a, const char *b)
{
	unsigned int row[64], i, j, prev, tmp, la = (unsigned int)strlen(a),
		     lb = (unsigned int)strlen(b);

	if (la > 63 || lb > 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = tolower((unsigned char)a[i - 1]) ==
					 tolower((unsigned char)b[j - 1])
					 ? prev
					 : 1 + (prev < row[j] ? (prev < row[j - 1] ? prev : row[j - 1])
							      : (row[j] < row[j - 1] ? row[j] : row[j - 1]));
			prev = tmp;
		}
	}
	return row[lb];
}

#define MAX_SUGGEST 3

struct suggest {
	const char *names[MAX_SUGGEST];
	unsigned int n, best;
};

static void consider(struct suggest *s, const char *want, const char *cand)
{
	unsigned int dist = edit_distance(want, cand);

	if (dist > s->best)
		return;
	if (dist < s->best) {
		s->best = dist;
		s->n = 0;
	}
	if (s->n < MAX_SUGGEST)
		s->names[s->n++] = cand;
}

unsigned int ib_opt_suggest(const char *name, const char *const *extra,
			    bool dashes, char *buf, size_t len)
{
	size_t nlen = strlen(name), used = 0;
	struct suggest s = { .best = nlen >= 8 ? 3 : 2 };
	const struct ib_opt *o;
	unsigned int i;

	if (nlen < 3)
		s.best = 1;
	for (i = 0; (o = ib_opt_get(i)); i++) {
		consider(&s, name, o->name);
		if (o->alias[0])
			consider(&s, name, o->alias[0]);
		if (o->alias[1])
			consider(&s, name, o->alias[1]);
	}
	for (i = 0; extra && extra[i]; i++)
		consider(&s, name, extra[i]);
	if (len)
		buf[0] = '\0';
	for (i = 0; i < s.n && used < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == s.n ? " or " : ", ";
		int w = snprintf(buf + used, len - used, "%s%s%s", sep,
				 dashes ? "--" : "", s.names[i]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
	return s.n;
}

/* ---- "key\0value\0" text ------------------------------------------------ */

const char *ib_opts_text_get(const char *text, unsigned int len, const char *name)
{
	unsigned int pos = 0;
	const char *k, *v;

	while (pos < len) {
		k = text + pos;
		v = k + strlen(k) + 1;
		if (!strcmp(k, name))
			return v;
		pos = (unsigned int)(v + strlen(v) + 1 - text);
	}
	return NULL;
}

static void text_remove(char *text, unsigned int *len, const char *name)
{
	unsigned int pos = 0, n;
	char *k, *v;

	while (pos < *len) {
		k = text + pos;
		v = k + strlen(k) + 1;
		n = (unsigned int)(v + strlen(v) + 1 - k);
		if (!strcmp(k, name)) {
			memmove(k, k + n, *len - pos - n);
			*len -= n;
			memset(text + *len, 0, n);
			return;
		}
		pos += n;
	}
}

int ib_opts_text_record(char *text, unsigned int *len, size_t cap,
			const struct ib_opt *o, const char *value)
{
	const char *old = o->adds ? ib_opts_text_get(text, *len, o->name) : NULL;
	char *joined;
	int rc;

	if (!old || !*old)
		return ib_opts_text_put(text, len, cap, o->name, value);
	if (asprintf(&joined, "%s:%s", old, value) < 0)
		return -ENOMEM;
	rc = ib_opts_text_put(text, len, cap, o->name, joined);
	free(joined);
	return rc;
}

int ib_opts_text_put(char *text, unsigned int *len, size_t cap,
		     const char *name, const char *value)
{
	size_t kl = strlen(name) + 1, vl = strlen(value) + 1;

	text_remove(text, len, name);
	/* keep one spare byte for the final "\0" terminator */
	if (*len + kl + vl + 1 > cap)
		return -ENOSPC;
	memcpy(text + *len, name, kl);
	memcpy(text + *len + kl, value, vl);
	*len += (unsigned int)(kl + vl);
	text[*len] = '\0';
	return 0;
}
